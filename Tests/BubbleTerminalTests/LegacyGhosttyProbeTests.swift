import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal

/// The probe against Ghostty's own terminal core as Ghostty with `grapheme-width-method = legacy`
/// starts (mode 2027 reset): Tools/terminals/ghostty-vt-measure.py --probe ran `bubbles render`
/// on a pseudo-terminal with libghostty-vt (`pyghostty` 0.1.3, PyPI) as its terminal, and
/// recorded every byte bubbles wrote, every reply the library made, where each output line
/// ended on its screen and mode 2027 while drawing and at exit
/// (Tools/terminals/results/libghostty-vt-pyghostty-0.1.3-legacy-*.tsv). Here the recorded
/// replies are played back to the probe as the library gave them.
@Suite struct LegacyGhosttyProbeTests {
    struct Recording {
        /// What bubbles wrote, all of it, in order.
        var sent: [UInt8] = []
        /// Each reply, and how many bytes of `sent` had been fed when the library made it.
        var replies: [(offset: Int, bytes: [UInt8])] = []
        /// Each output line's text and the cursor's column after it.
        var lines: [(text: String, column: Int)] = []
        /// Mode 2027 ("set" or "reset") by when: "drawing" (the first output line), "exit".
        var mode: [String: String] = [:]
    }

    static func recording(_ file: String) throws -> Recording {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tools/terminals/results").appendingPathComponent(file)
        var result = Recording()
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch fields[0] {
            case "sent": result.sent += try bytes(hex: fields[1])
            case "reply": result.replies.append((result.sent.count, try bytes(hex: fields[1])))
            case "line": result.lines.append((fields[2], try #require(Int(fields[1]))))
            case "mode-2027": result.mode[fields[2]] = fields[1]
            default: Issue.record("unknown line \(line)")
            }
        }
        return result
    }

    static func bytes(hex: String) throws -> [UInt8] {
        let digits = Array(hex.utf8)
        try #require(digits.count % 2 == 0)
        return try stride(from: 0, to: digits.count, by: 2).map { index in
            try #require(UInt8(String(decoding: digits[index...(index + 1)], as: UTF8.self), radix: 16))
        }
    }

    /// Plays a recording back: each write must be what bubbles wrote then, and the replies the
    /// library made to those bytes come to the next reads.
    final class RecordedTerminal: ProbeTerminal {
        let recording: Recording
        var position = 0
        var nextReply = 0
        var pending: [UInt8] = []
        var strayWrites = 0

        init(_ recording: Recording) { self.recording = recording }

        func write(_ bytes: [UInt8]) -> Bool {
            let end = position + bytes.count
            guard end <= recording.sent.count, Array(recording.sent[position..<end]) == bytes else {
                strayWrites += 1
                return true
            }
            position = end
            while nextReply < recording.replies.count && recording.replies[nextReply].offset <= position {
                pending += recording.replies[nextReply].bytes
                nextReply += 1
            }
            return true
        }

        func read(timeoutMilliseconds: Int32) -> [UInt8]? {
            guard !pending.isEmpty else {
                usleep(useconds_t(max(timeoutMilliseconds, 0)) * 1000)
                return []
            }
            defer { pending = [] }
            return pending
        }
    }

    /// The rows' end columns of each bubble (from a top-left corner to a bottom-left one).
    static func bubbles(_ lines: [(text: String, column: Int)]) -> [[Int]] {
        var result: [[Int]] = []
        var open: [Int]?
        for line in lines {
            let first = line.text.drop { $0 == " " }.first
            if first == "╭" || first == "┌" { open = [] }
            open?.append(line.column)
            if first == "╰" || first == "└", let rows = open {
                result.append(rows)
                open = nil
            }
        }
        return result
    }

    /// libghostty-vt with mode 2027 reset answers the first round per code point (`का` 2 cells,
    /// `क्षि` 3) and DECRQM 2; the second round, which turns the mode on, gets `का` 2 cells:
    /// `ghostty`, with the mode to be turned on. The recording is of this probe's bytes (a
    /// changed query fails here until the fixture is made again).
    @Test func theProbeChoosesGhosttyFromGhosttysTerminalCoreWithClusteringReset() throws {
        let recording = try Self.recording("libghostty-vt-pyghostty-0.1.3-legacy-probe.tsv")
        let probeBytes = TerminalProbe.query + TerminalProbe.clusterQuery
        #expect(Array(recording.sent.prefix(probeBytes.count)) == probeBytes, "the fixture is of another probe: run ghostty-vt-measure.py --probe")
        let terminal = RecordedTerminal(recording)
        let outcome = TerminalProbe.probe(terminal, base: TextOptions())
        #expect(terminal.strayWrites == 0)
        #expect(terminal.position == probeBytes.count)
        #expect(outcome.complete)
        #expect(outcome.result.options == TextOptions(widthProfile: .ghostty))
        #expect(outcome.result.enableGraphemeClustering)
        // Every reply was read: none of the library's answers went unused.
        #expect(terminal.nextReply == recording.replies.count && terminal.pending.isEmpty)
        // Its first round alone says `unicode`, as before the second round was asked.
        let first = RecordedTerminal(recording)
        let firstOnly = TerminalProbe.exchange(first, TerminalProbe.query, timeoutMilliseconds: 100)
        let advances = TerminalProbe.advances(try #require(firstOnly), count: WidthProbe.graphemes.count)
        let ka = try #require(WidthProbe.graphemes.firstIndex(of: "\u{0915}\u{093E}"))
        let kssi = try #require(WidthProbe.graphemes.firstIndex(of: "\u{0915}\u{094D}\u{0937}\u{093F}"))
        #expect(advances[ka] == 2 && advances[kssi] == 3, "per code point: \(advances)")
        #expect(WidthProbe.choose(advances: advances, graphemeClustering: 2, base: TextOptions()).options.widthProfile == .unicode)
    }

    /// After that probe, bubbles turned the mode on and drew: in Ghostty's core every row of
    /// each bubble ends in its border's column, and at exit the mode is reset as it was found.
    /// The same text counted as `unicode` (without the mode, as `--cell-widths unicode` draws
    /// it there) overflows its border on the rows with a spacing mark: the check sees it.
    @Test func bubblesLineUpInGhosttysTerminalCoreAndTheModeIsResetAtExit() throws {
        let recording = try Self.recording("libghostty-vt-pyghostty-0.1.3-legacy-probe.tsv")
        #expect(recording.mode["drawing"] == "set")
        #expect(recording.mode["exit"] == "reset")
        let drawn = Self.bubbles(recording.lines)
        #expect(drawn.count == 2)
        for rows in drawn {
            #expect(rows.count >= 3)
            #expect(Set(rows).count == 1, "rows end at columns \(rows)")
        }
        let control = try Self.recording("libghostty-vt-pyghostty-0.1.3-legacy-unicode.tsv")
        let misdrawn = Self.bubbles(control.lines)
        #expect(misdrawn.count == 2)
        #expect(misdrawn.allSatisfy { Set($0).count > 1 }, "rows end at columns \(misdrawn)")
        #expect(control.mode["exit"] == "reset")
    }
}
