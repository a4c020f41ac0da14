import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal
#if canImport(Glibc)
import Glibc
#endif

/// The probe against a real pseudo-terminal (the kernel's line discipline, not a model of it)
/// whose far end answers nothing in time, then answers late.
@Suite(.serialized) struct LateProbeReplyTests {
    /// Bytes waiting on `fd` within `milliseconds`.
    static func available(_ fd: Int32, milliseconds: Int32) -> [UInt8] {
        var result: [UInt8] = []
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, result.isEmpty ? milliseconds : 20) > 0 && poller.revents & Int16(POLLIN) != 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            result += buffer[0..<count]
        }
        return result
    }

    @Test func aTerminalThatAnswersLateGetsUnicodeAndItsRepliesAreSwallowed() throws {
        var master: Int32 = -1, slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        defer { close(master) }
        let device = TerminalDevice(fileDescriptor: slave)
        let cooked = try #require(device.savedMode)
        #expect(cooked.c_lflag & tcflag_t(ECHO) != 0, "a new pty echoes, as a shell leaves a terminal")

        device.enterRawMode(signalsFromKeys: true)
        let started = Date()
        let outcome = TerminalProbe.probe(device, base: TextOptions())
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.09, "it waited for the answers")
        #expect(waited < 1.0, "the wait is bounded (100 ms, plus a loaded machine's delay)")
        #expect(!outcome.complete)
        #expect(!outcome.result.answered)
        #expect(outcome.result.options.widthProfile == .unicode)
        // The queries reached the terminal.
        let query = Self.available(master, milliseconds: 200)
        #expect(query.count == TerminalProbe.query.count)

        QuietTerminal.hold(device)
        #expect(QuietTerminal.isHolding)
        // The replies come now, late: every cursor report, then the device attributes.
        var late = ""
        for column in 2...9 { late += "\u{1B}[5;\(column)R" }
        late += "\u{1B}[?62;22c"
        _ = late.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
        // Not echoed back to the screen.
        #expect(Self.available(master, milliseconds: 150).isEmpty)

        QuietTerminal.finish()
        #expect(!QuietTerminal.isHolding)
        // Nothing left for the shell to read, and echo and line editing are back.
        #expect(Self.available(slave, milliseconds: 50).isEmpty)
        var now = termios()
        try #require(tcgetattr(slave, &now) == 0)
        #expect(now.c_lflag & tcflag_t(ECHO) != 0)
        #expect(now.c_lflag & tcflag_t(ICANON) != 0)
    }

    /// A terminal that reports mode 2027 off but settable (as Ghostty with
    /// `grapheme-width-method = legacy`) and answers the first round at once, then nothing in
    /// time for the second: the first choice stands (`unicode`, the mode to be turned on) after
    /// one bound's wait, and the second round's late replies are swallowed as the first's are.
    @Test func aSilentSecondRoundKeepsUnicodeAndItsLateRepliesAreSwallowed() throws {
        var master: Int32 = -1, slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        defer { close(master) }
        let device = TerminalDevice(fileDescriptor: slave)
        device.enterRawMode(signalsFromKeys: true)
        // The first round's replies, per code point (as `wcwidth` counts), already waiting.
        var first = ""
        for advance in WidthProbe.predictions(TextOptions(widthProfile: .wcwidth)) { first += "\u{1B}[5;\(advance + 1)R" }
        first += "\u{1B}[?2027;2$y\u{1B}[?62;22c"
        _ = first.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }

        let started = Date()
        let outcome = TerminalProbe.probe(device, base: TextOptions())
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.09, "it waited for the second round")
        #expect(waited < 1.0, "the wait is bounded (100 ms, plus a loaded machine's delay)")
        #expect(!outcome.complete)
        #expect(outcome.result.answered)
        #expect(outcome.result.enableGraphemeClustering)
        #expect(outcome.result.options == TextOptions())
        // Both rounds reached the terminal, the second turning the mode on and off again.
        let query = Self.available(master, milliseconds: 200)
        #expect(query == TerminalProbe.query + TerminalProbe.clusterQuery)

        QuietTerminal.hold(device)
        var late = ""
        for _ in WidthProbe.clusterGraphemes { late += "\u{1B}[5;3R" }
        late += "\u{1B}[?2027;1$y\u{1B}[?62;22c"
        _ = late.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
        #expect(Self.available(master, milliseconds: 150).isEmpty, "not echoed")
        QuietTerminal.finish()
        #expect(!QuietTerminal.isHolding)
        #expect(Self.available(slave, milliseconds: 50).isEmpty, "nothing left for the shell")
        var now = termios()
        try #require(tcgetattr(slave, &now) == 0)
        #expect(now.c_lflag & tcflag_t(ECHO) != 0)
    }

    @Test func aTerminalThatAnswersInTimeIsComplete() {
        let outcome = TerminalProbe.probe(FakeProbeTerminal(options: TextOptions(widthProfile: .wcwidth)), base: TextOptions())
        #expect(outcome.complete)
        #expect(outcome.result.options.widthProfile == .wcwidth)
    }

    /// Replies that reach the viewer (after the probe gave up) are not keys.
    @Test func theViewerDropsProbeRepliesAsKeys() {
        var decoder = ViewerKeyDecoder()
        let bytes = Array("\u{1B}[5;12R\u{1B}[?2027;2$y\u{1B}[?62;22cj\u{1B}[13;3R".utf8)
        #expect(decoder.decode(bytes) == [.character("j")])
    }
}
