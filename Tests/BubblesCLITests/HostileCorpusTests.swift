import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// Corpora/logs/hostile.jsonl drawn by `bubbles render`: only our own SGR colours reach the terminal.
@Suite struct HostileCorpusTests {
    func render(color: String, width: Int = 72) -> CommandRun {
        bubbles("render", corpus("logs/hostile.jsonl"), "--width", "\(width)", "--color", color, "--tz", "UTC",
                environment: ["COLORTERM": "truecolor"])
    }

    @Test func withoutColourNoControlOrBidiByteIsWritten() {
        let run = render(color: "never")
        #expect(!run.output.isEmpty)
        for scalar in run.output.unicodeScalars {
            let v = scalar.value
            #expect(v == 0x0A || (v >= 0x20 && v != 0x7F && !(0x80...0x9F).contains(v)), "raw U+\(String(v, radix: 16))")
            #expect(![0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069].contains(v))
        }
        #expect(run.output.contains("^[[2J"))
        #expect(run.output.contains("<9B>"))
        #expect(run.output.contains("<RLO>"))
    }

    @Test func withColourEveryEscapeIsOneOfOurSGRSequences() {
        let run = render(color: "always")
        let bytes = Array(run.output.utf8)
        var escapes = 0
        var i = 0
        while i < bytes.count {
            defer { i += 1 }
            guard bytes[i] == 0x1B else { continue }
            escapes += 1
            #expect(i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "["))
            var j = i + 2
            while j < bytes.count, (0x30...0x39).contains(bytes[j]) || bytes[j] == UInt8(ascii: ";") { j += 1 }
            #expect(j < bytes.count && bytes[j] == UInt8(ascii: "m"), "escape at byte \(i) is not SGR")
            i = j
        }
        #expect(escapes > 0)
        for scalar in stripSGR(run.output).unicodeScalars {
            #expect(scalar.value == 0x0A || (scalar.value >= 0x20 && scalar.value != 0x7F && !(0x80...0x9F).contains(scalar.value)))
        }
    }

    @Test func joinersVariationSelectorsAndSkinTonesSurviveIntact() {
        let run = render(color: "never", width: 100)
        for sequence in ["👩🏽‍💻", "👨‍👩‍👧‍👦", "❤️", "🏳️‍🌈"] where hostileCorpusContains(sequence) {
            #expect(run.output.contains(sequence), "\(sequence) was altered")
        }
    }

    func hostileCorpusContains(_ sequence: String) -> Bool {
        (try? String(contentsOfFile: corpus("logs/hostile.jsonl"), encoding: .utf8))?.contains(sequence) ?? false
    }

    @Test func hostileFileNamesAndCaptionsShowTheirControlsVisibly() {
        let run = render(color: "never", width: 100)
        #expect(run.output.contains("evil^[]0;title^G.png"))
        #expect(run.output.contains("caption clears: ^[[2J^[[H"))
        #expect(run.output.contains("<RLO>gnp.exe"))
        #expect(run.output.contains("Mallory^[[31m red name^[[0m"))
        #expect(run.output.contains("Eve^G^H"))
    }
}
