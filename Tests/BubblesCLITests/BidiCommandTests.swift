import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// `render --bidi`: logical output is exactly what render drew before bidi support, and the
/// mode switch for terminals that reorder is written only to such a terminal.
@Suite struct BidiCommandTests {
    /// Corpora/rendered/ holds render's output for these runs made by the renderer before bidi
    /// support existed (commit 4b2d478), byte for byte, but for one line the hostile ones have
    /// gained since: the name above Mallory's first group, now named as a group chat's first
    /// group is in every command (`PartyWindow`), and for the image boxes' labels, padded inside
    /// their frames (a size too wide for it going over two lines, or taking the padding, rather than being left out) and never showing a cut size since (`ImageBoxTests`).
    static let goldens: [(file: String, input: String, width: Int, color: String)] = [
        ("sample-w60.txt", "logs/sample.jsonl", 60, "never"),
        ("sample-w33.txt", "logs/sample.jsonl", 33, "never"),
        ("sample-w60-color.txt", "logs/sample.jsonl", 60, "always"),
        ("sample-w33-color.txt", "logs/sample.jsonl", 33, "always"),
        ("hostile-w60-color.txt", "logs/hostile.jsonl", 60, "always"),
        ("hostile-w33-color.txt", "logs/hostile.jsonl", 33, "always"),
    ]

    @Test func logicalModeIsByteForByteTheOutputBeforeBidi() throws {
        for golden in Self.goldens {
            let expected = try String(contentsOfFile: corpus("rendered/" + golden.file), encoding: .utf8)
            let run = bubbles("render", corpus(golden.input), "--width", "\(golden.width)", "--color", golden.color,
                              "--tz", "UTC", "--bidi", "logical")
            #expect(run.output == expected, "\(golden.file)")
        }
    }

    @Test func visualModeChangesOnlyLinesWithRightToLeftText() throws {
        let expected = try String(contentsOfFile: corpus("rendered/sample-w60.txt"), encoding: .utf8)
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--width", "60", "--color", "never", "--tz", "UTC")
        let visual = run.outputLines, logical = expected.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(visual.count == logical.count)
        var changed = 0
        for (line, old) in zip(visual, logical) where line != old {
            changed += 1
            #expect(old.unicodeScalars.contains { (0x0590...0x08FF).contains($0.value) }, "\(line)")
        }
        #expect(changed > 0)
    }

    @Test func aTerminalThatReordersIsSwitchedToExplicitModeAndBack() {
        let input = corpus("logs/sample.jsonl")
        for environment in [["VTE_VERSION": "7600"], ["KONSOLE_VERSION": "230804"], ["TERM_PROGRAM": "mintty"]] {
            let run = bubbles("render", input, "--width", "40", "--color", "never", "--tz", "UTC",
                              environment: environment, outputIsTerminal: true)
            #expect(run.output.hasPrefix("\u{1B}[8l"))
            #expect(run.output.hasSuffix("\u{1B}[8h"))
            #expect(run.output.components(separatedBy: "\u{1B}").count == 3)  // nothing else
        }
    }

    @Test func pipedOutputLogicalModeAndOtherTerminalsGetNoModeSwitch() {
        let input = corpus("logs/sample.jsonl")
        let runs = [
            bubbles("render", input, "--color", "never", environment: ["VTE_VERSION": "7600"], outputIsTerminal: false),
            bubbles("render", input, "--color", "never", "--bidi", "logical", environment: ["VTE_VERSION": "7600"], outputIsTerminal: true),
            bubbles("render", input, "--color", "never", environment: ["TERM": "xterm-256color"], outputIsTerminal: true),
            bubbles("render", input, "--color", "never", environment: ["VTE_VERSION": "7600", "TMUX": "/tmp/tmux-0/default,1,0"],
                    outputIsTerminal: true),
        ]
        for run in runs { #expect(!run.output.contains("\u{1B}")) }
    }

    @Test func aBadBidiValueIsAUsageError() {
        for command in ["render", "view"] {
            let run = bubbles(command, corpus("logs/sample.jsonl"), "--bidi", "reversed")
            #expect(run.code == 2, "\(command)")
            #expect(run.errors.contains("--bidi"), "\(command)")
            #expect(run.errors.contains("visual, logical"), "\(command)")
        }
    }
}
