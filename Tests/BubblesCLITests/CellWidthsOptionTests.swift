import BubbleTestSupport
import Testing
@testable import BubblesCLI

@Suite struct CellWidthsOptionTests {
    /// The profiles lay the sample out differently (☀️, 👍🏽, flags…), and `auto` off a terminal
    /// is `unicode`.
    @Test func heightsFollowTheProfileAskedFor() {
        let sample = corpus("logs/sample.jsonl")
        let unicode = bubbles("heights", sample, "--cell-widths", "unicode", environment: ["TZ": "UTC"])
        let wcwidth = bubbles("heights", sample, "--cell-widths", "wcwidth", environment: ["TZ": "UTC"])
        let auto = bubbles("heights", sample, environment: ["TZ": "UTC"])
        #expect(unicode.code == 0 && wcwidth.code == 0)
        #expect(unicode.output != wcwidth.output)
        #expect(auto.output == unicode.output)
        // A terminal that is not asked (no probe in process) also stays unicode.
        let terminal = bubbles("render", sample, "--width", "60", environment: ["TZ": "UTC"], outputIsTerminal: true)
        let plain = bubbles("render", sample, "--width", "60", "--cell-widths", "unicode", "--color", "always", environment: ["TZ": "UTC"])
        #expect(terminal.output == plain.output)
    }

    @Test func aBadProfileIsAUsageError() {
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--cell-widths", "tmux")
        #expect(run.code == 2)
        #expect(run.errors.contains("--cell-widths"))
        #expect(bubbles("view", "--help").output.contains("--cell-widths"))
    }
}
