import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal
import BubbleTestSupport

/// A terminal that measures as `options` say and answers the probe's queries as a real one
/// would: a cursor report after each test grapheme, and mode 2027 when it has it. With mode 2027
/// set (reported 1 or 3, or set by `CSI ? 2027 h` where it reported 2) it measures as
/// `clustered` says (default: as `options`), unless it `ignoresModeSet`. It answers the first
/// `rounds` device attributes queries and what came before them, and nothing after (nil: all).
final class FakeProbeTerminal: ProbeTerminal {
    let options: TextOptions
    let clustered: TextOptions
    let mode2027: Int?
    let answers: Bool
    let rounds: Int?
    let ignoresModeSet: Bool
    var written: [UInt8] = []
    var replies: [UInt8] = []
    /// Whether mode 2027 is set now.
    var clustering: Bool
    var answeredRounds = 0

    init(options: TextOptions, clustered: TextOptions? = nil, mode2027: Int? = nil, answers: Bool = true, rounds: Int? = nil,
         ignoresModeSet: Bool = false) {
        self.options = options
        self.ignoresModeSet = ignoresModeSet
        self.clustered = clustered ?? options
        self.mode2027 = mode2027
        self.answers = answers
        self.rounds = rounds
        clustering = mode2027 == 1 || mode2027 == 3
    }

    func write(_ bytes: [UInt8]) -> Bool {
        written += bytes
        guard answers else { return true }
        // Replay the bytes as a terminal: "\r" goes to column 1, text advances, queries answer.
        var column = 1
        var text = ""
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D {
                column = 1
                index += 1
            } else if bytes[index] == 0x1B {
                column += CellWidth.of(text, options: clustering ? clustered : options)
                text = ""
                var end = index + 2
                while !(0x40...0x7E).contains(bytes[end]) { end += 1 }
                let body = String(decoding: bytes[(index + 2)...end], as: UTF8.self)
                let answering = rounds.map { answeredRounds < $0 } ?? true
                if body == "6n" && answering { replies += Array("\u{1B}[5;\(column)R".utf8) }
                if body == "?2027$p", let mode2027, answering {
                    let reported = mode2027 == 2 && clustering ? 1 : mode2027
                    replies += Array("\u{1B}[?2027;\(reported)$y".utf8)
                }
                if body == "?2027h", mode2027 == 2, !ignoresModeSet { clustering = true }
                if body == "?2027l", mode2027 == 2 { clustering = false }
                if body == "c" && answering {
                    replies += Array("\u{1B}[?62;22c".utf8)
                    answeredRounds += 1
                }
                index = end + 1
            } else {
                var end = index
                while end < bytes.count && bytes[end] != 0x1B && bytes[end] != 0x0D { end += 1 }
                text += String(decoding: bytes[index..<end], as: UTF8.self)
                index = end
            }
        }
        return true
    }

    func read(timeoutMilliseconds: Int32) -> [UInt8]? {
        guard !replies.isEmpty else {
            // Nothing will come: wait as a real terminal's read would.
            usleep(useconds_t(max(timeoutMilliseconds, 0)) * 1000)
            return []
        }
        // Replies arrive in pieces, as they may from a real terminal.
        let piece = Array(replies.prefix(7))
        replies.removeFirst(piece.count)
        return piece
    }
}

@Suite struct WidthProbeTests {
    @Test func choosesTheProfileThatPredictsTheTerminal() {
        for profile in WidthProfile.allCases {
            for ambiguous in [1, 2] {
                let truth = TextOptions(ambiguousWidth: ambiguous, widthProfile: profile)
                let result = TerminalProbe.run(FakeProbeTerminal(options: truth), base: TextOptions())
                #expect(result.options == truth)
                #expect(result.answered)
                #expect(!result.enableGraphemeClustering)
            }
        }
    }

    @Test func theProfilesDisagreeOnTheTestGraphemes() {
        let all = WidthProbe.candidates(base: TextOptions()).map(WidthProbe.predictions)
        #expect(Set(all).count == all.count)
    }

    @Test func modeTwentyTwentySevenMeansGraphemeClusters() {
        let terminal = FakeProbeTerminal(options: TextOptions(widthProfile: .wcwidth), clustered: TextOptions(), mode2027: 2)
        let result = TerminalProbe.run(terminal, base: TextOptions(widthProfile: .wcwidth))
        #expect(result.options.widthProfile == .unicode)
        #expect(result.enableGraphemeClustering)
        let on = TerminalProbe.run(FakeProbeTerminal(options: TextOptions(), mode2027: 1), base: TextOptions())
        #expect(!on.enableGraphemeClustering)
        let unknown = TerminalProbe.run(FakeProbeTerminal(options: TextOptions(widthProfile: .wcwidth), mode2027: 0), base: TextOptions())
        #expect(unknown.options.widthProfile == .wcwidth)
    }

    /// A terminal with mode 2027 on that draws a letter and a spacing mark (`का`) in 2 cells
    /// (Ghostty 1.3 and later) gets `ghostty`; one that draws it in 1 keeps `unicode`. Either
    /// way one round is enough: the mode needs no turning on.
    @Test func modeTwentyTwentySevenWithWideSpacingMarksMeansGhostty() {
        for mode in [1, 3] {
            let terminal = FakeProbeTerminal(options: TextOptions(widthProfile: .ghostty), mode2027: mode)
            let ghostty = TerminalProbe.run(terminal, base: TextOptions())
            #expect(ghostty.options.widthProfile == .ghostty)
            #expect(!ghostty.enableGraphemeClustering)
            #expect(terminal.written == TerminalProbe.query, "no second round")
            let kitty = TerminalProbe.run(FakeProbeTerminal(options: TextOptions(), mode2027: mode), base: TextOptions())
            #expect(kitty.options.widthProfile == .unicode)
        }
        let wide = TerminalProbe.run(FakeProbeTerminal(options: TextOptions(ambiguousWidth: 2, widthProfile: .ghostty), mode2027: 1),
                                     base: TextOptions())
        #expect(wide.options == TextOptions(ambiguousWidth: 2, widthProfile: .ghostty))
    }

    /// The graphemes measured again with the mode on are those the clustering profiles part
    /// on, `का` among them, and no others.
    @Test func theSecondRoundMeasuresWhereUnicodeAndGhosttyPart() {
        #expect(WidthProbe.clusterGraphemes.contains("\u{0915}\u{093E}"))
        for grapheme in WidthProbe.graphemes {
            let unicode = CellWidth.of(grapheme, options: TextOptions(widthProfile: .unicode))
            let ghostty = CellWidth.of(grapheme, options: TextOptions(widthProfile: .ghostty))
            #expect(WidthProbe.clusterGraphemes.contains(grapheme) == (unicode != ghostty), "\(grapheme)")
        }
        let text = String(decoding: TerminalProbe.clusterQuery, as: UTF8.self)
        #expect(text.hasPrefix(TerminalProbe.enableGraphemeClustering))
        // The mode is asked for again, and off again before the round ends, in the same write:
        // nothing stays on screen and the terminal is as it was found even if we never read the
        // replies.
        #expect(text.hasSuffix("\r\u{1B}[2K\u{1B}[?2027$p" + TerminalProbe.disableGraphemeClustering + "\u{1B}[c"))
    }

    /// Ghostty with `grapheme-width-method = legacy` reports mode 2027 reset but settable (2) and
    /// measures code point by code point; once the mode is on it draws `का` in 2 cells. The
    /// first round cannot tell `unicode` from `ghostty`; the second, made with the mode on,
    /// says `ghostty`. The mode is off again after the probe (the caller turns it on).
    @Test func aTerminalWithClusteringOffThatDrawsGhosttyClustersOnceItIsOnGetsGhostty() {
        for ambiguous in [1, 2] {
            let terminal = FakeProbeTerminal(options: TextOptions(ambiguousWidth: ambiguous, widthProfile: .wcwidth),
                                             clustered: TextOptions(ambiguousWidth: ambiguous, widthProfile: .ghostty), mode2027: 2)
            let outcome = TerminalProbe.probe(terminal, base: TextOptions())
            #expect(outcome.result.options == TextOptions(ambiguousWidth: ambiguous, widthProfile: .ghostty))
            #expect(outcome.result.enableGraphemeClustering)
            #expect(outcome.result.answered)
            #expect(outcome.complete)
            #expect(terminal.written == TerminalProbe.query + TerminalProbe.clusterQuery)
            #expect(!terminal.clustering, "the probe leaves the mode as it found it")
            #expect(terminal.answeredRounds == 2)
        }
        // The first round alone (per code point: `का` 2 cells, as `wcwidth` counts) says `unicode`.
        let first: [Int?] = WidthProbe.predictions(TextOptions(widthProfile: .wcwidth))
        #expect(WidthProbe.choose(advances: first, graphemeClustering: 2, base: TextOptions()).options.widthProfile == .unicode)
    }

    /// The same terminal, but drawing `का` in 1 cell with the mode on (as kitty, WezTerm and
    /// Ghostty before 1.3 cluster): `unicode`, and the mode is turned on.
    @Test func aTerminalWithClusteringOffThatDrawsUnicodeClustersOnceItIsOnGetsUnicode() {
        let terminal = FakeProbeTerminal(options: TextOptions(widthProfile: .wcwidth), clustered: TextOptions(), mode2027: 2)
        let outcome = TerminalProbe.probe(terminal, base: TextOptions())
        #expect(outcome.result.options == TextOptions())
        #expect(outcome.result.enableGraphemeClustering)
        #expect(outcome.complete)
        #expect(terminal.written == TerminalProbe.query + TerminalProbe.clusterQuery)
        #expect(terminal.answeredRounds == 2)
    }

    /// A terminal that reports mode 2027 settable but does not set it when asked made the second
    /// round's reports code point by code point too: they say nothing of its clusters, and the
    /// first choice (`unicode`) stands, though `का` took 2 cells.
    @Test func aTerminalThatDoesNotSetClusteringWhenAskedKeepsTheFirstChoice() {
        let terminal = FakeProbeTerminal(options: TextOptions(widthProfile: .wcwidth), clustered: TextOptions(widthProfile: .ghostty),
                                         mode2027: 2, ignoresModeSet: true)
        let outcome = TerminalProbe.probe(terminal, base: TextOptions())
        #expect(outcome.result.options == TextOptions())
        #expect(outcome.result.enableGraphemeClustering)
        #expect(outcome.complete)
        #expect(terminal.answeredRounds == 2)
    }

    /// A terminal that answers the first round but not the second keeps the first round's
    /// choice (`unicode`, the mode to be turned on), within the bound; the probe is incomplete,
    /// so the caller keeps the terminal quiet for the late replies.
    @Test func aSilentSecondRoundKeepsTheFirstChoiceWithinTheBound() {
        let terminal = FakeProbeTerminal(options: TextOptions(widthProfile: .wcwidth),
                                         clustered: TextOptions(widthProfile: .ghostty), mode2027: 2, rounds: 1)
        let started = Date()
        let outcome = TerminalProbe.probe(terminal, base: TextOptions(), timeoutMilliseconds: 50)
        let waited = Date().timeIntervalSince(started)
        #expect(outcome.result.options == TextOptions())
        #expect(outcome.result.enableGraphemeClustering)
        #expect(outcome.result.answered)
        #expect(!outcome.complete)
        #expect(terminal.written == TerminalProbe.query + TerminalProbe.clusterQuery)
        #expect(waited >= 0.045, "it waited for the second round")
        #expect(waited < 1)
    }

    @Test func aSilentTerminalFallsBackWithinTheBound() {
        let started = Date()
        let result = TerminalProbe.run(FakeProbeTerminal(options: TextOptions(), answers: false), base: TextOptions(),
                                       timeoutMilliseconds: 50)
        #expect(!result.answered)
        #expect(result.options == TextOptions())
        #expect(Date().timeIntervalSince(started) < 1)
    }

    /// The probe erases its line before its last queries, so nothing of it stays on screen.
    @Test func theProbeErasesItsLine() {
        let text = String(decoding: TerminalProbe.query, as: UTF8.self)
        let lastGrapheme = text.range(of: WidthProbe.graphemes.last!)!
        let erase = text.range(of: "\r\u{1B}[2K")!
        #expect(erase.lowerBound > lastGrapheme.upperBound)
    }
}
