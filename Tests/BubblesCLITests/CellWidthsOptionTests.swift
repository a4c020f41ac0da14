import BubbleTestSupport
import BubbleTerminal
import Foundation
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
        let terminal = bubbles("render", sample, "--width", "60", "--no-hyperlinks", environment: ["TZ": "UTC"], outputIsTerminal: true)
        let plain = bubbles("render", sample, "--width", "60", "--cell-widths", "unicode", "--color", "always", environment: ["TZ": "UTC"])
        #expect(terminal.output == plain.output)
    }

    /// `render | less -R` inside tmux: the pipe cannot be asked, and tmux draws what the pager
    /// passes on per code point, so a transcript piped on inside tmux is laid out as `wcwidth`.
    /// Heights (numbers for an app, not drawn here) and runs outside tmux keep `unicode`.
    @Test func aTranscriptPipedOnInsideTmuxIsLaidOutAsTmuxDrawsIt() {
        let sample = corpus("logs/sample.jsonl")
        let inTmux = ["TZ": "UTC", "TMUX": "/tmp/tmux-0/default,4242,0"]
        let piped = bubbles("render", sample, "--width", "60", environment: inTmux)
        let wcwidth = bubbles("render", sample, "--width", "60", "--cell-widths", "wcwidth", environment: ["TZ": "UTC"])
        let unicode = bubbles("render", sample, "--width", "60", "--cell-widths", "unicode", environment: ["TZ": "UTC"])
        #expect(wcwidth.output != unicode.output)
        #expect(piped.output == wcwidth.output)
        #expect(bubbles("render", sample, "--width", "60", environment: ["TZ": "UTC"]).output == unicode.output)
        #expect(bubbles("render", sample, "--width", "60", "--cell-widths", "unicode", environment: inTmux).output == unicode.output)
        #expect(bubbles("heights", sample, environment: inTmux).output == bubbles("heights", sample, "--cell-widths", "unicode", environment: ["TZ": "UTC"]).output)
        // An empty TMUX (a shell that cleared it to leave tmux's rules) is not tmux.
        #expect(bubbles("render", sample, "--width", "60", environment: ["TZ": "UTC", "TMUX": ""]).output == unicode.output)
    }

    @Test func aTranscriptWrittenToAFileInsideTmuxStaysUnicode() throws {
        let sample = corpus("logs/sample.jsonl")
        let inTmux = ["TZ": "UTC", "TMUX": "/tmp/tmux-0/default,4242,0"]
        let toFile = bubbles("render", sample, "--width", "60", environment: inTmux, outputIsFile: true)
        let unicode = bubbles("render", sample, "--width", "60", "--cell-widths", "unicode", environment: ["TZ": "UTC"])
        #expect(toFile.output == unicode.output)

        // What main.swift asks of standard output: a file is one, a pipe is not.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-regular-\(getpid())").path
        defer { unlink(path) }
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(file >= 0)
        defer { close(file) }
        #expect(TerminalWidth.isRegularFile(file))
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(!TerminalWidth.isRegularFile(fds[1]))
    }

    @Test func aBadProfileIsAUsageError() {
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--cell-widths", "tmux")
        #expect(run.code == 2)
        #expect(run.errors.contains("--cell-widths"))
        #expect(bubbles("view", "--help").output.contains("--cell-widths"))
    }
}
