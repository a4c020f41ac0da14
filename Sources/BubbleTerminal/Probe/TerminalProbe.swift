import BubbleText
#if canImport(Glibc)
import Glibc
#endif

/// Where the probe writes its queries and reads the replies: the real terminal, or a fake one in
/// tests.
public protocol ProbeTerminal: AnyObject {
    func write(_ bytes: [UInt8]) -> Bool
    /// Bytes that arrive within `timeoutMilliseconds`; empty when none did, nil when closed.
    func read(timeoutMilliseconds: Int32) -> [UInt8]?
}

extension TerminalDevice: ProbeTerminal {}

/// Runs the width probe against a terminal: writes each test grapheme at the start of the line
/// with a cursor position query after it, erases the line, asks for mode 2027 and for the device
/// attributes (which every terminal answers, and after the others: when that reply is in, all
/// are). Waits at most `timeoutMilliseconds` in all: a terminal answers in a few milliseconds,
/// but a loaded machine (or tmux starting a pane) can take 100 ms or more, and a reply that comes
/// after we stop listening would be echoed onto the screen.
public enum TerminalProbe {
    /// The probe's bytes: nothing stays on screen (the line is erased before the last queries).
    public static var query: [UInt8] {
        var text = ""
        for grapheme in WidthProbe.graphemes { text += "\r" + grapheme + "\u{1B}[6n" }
        text += "\r\u{1B}[2K\u{1B}[?2027$p\u{1B}[c"
        return Array(text.utf8)
    }

    /// Turns mode 2027 on, and off again.
    public static let enableGraphemeClustering = "\u{1B}[?2027h"
    public static let disableGraphemeClustering = "\u{1B}[?2027l"

    /// Probes `terminal`, which must already be in raw mode. Falls back to `base` when it does not
    /// answer in time.
    public static func run(_ terminal: ProbeTerminal, base: TextOptions, timeoutMilliseconds: Int = defaultTimeout) -> WidthProbe.Result {
        guard terminal.write(query) else { return WidthProbe.choose(advances: [], graphemeClustering: nil, base: base) }
        var replies = TerminalReplies()
        var pending: [UInt8] = []
        let deadline = monotonicMilliseconds() + timeoutMilliseconds
        while !replies.sawDeviceAttributes {
            let left = deadline - monotonicMilliseconds()
            guard left > 0, let bytes = terminal.read(timeoutMilliseconds: Int32(left)) else { break }
            pending += bytes
            let consumed = replies.parse(pending)
            pending.removeFirst(consumed)
        }
        var advances: [Int?] = Array(repeating: nil, count: WidthProbe.graphemes.count)
        if replies.cursorPositions.count == WidthProbe.graphemes.count {
            for (index, position) in replies.cursorPositions.enumerated() { advances[index] = position.column - 1 }
        }
        return WidthProbe.choose(advances: advances, graphemeClustering: replies.graphemeClustering, base: base)
    }

    static func monotonicMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
    }

    /// Probes the controlling terminal (raw mode for the probe only, input discarded after it so
    /// no late reply reaches the shell). Turns mode 2027 on when the result asks for it: the
    /// caller must write `disableGraphemeClustering` when it is done.
    /// How long the probe waits for the terminal's answers, in milliseconds.
    public static let defaultTimeout = 300

    public static func probeControllingTerminal(base: TextOptions, timeoutMilliseconds: Int) -> WidthProbe.Result {
        guard let device = TerminalDevice() else { return WidthProbe.choose(advances: [], graphemeClustering: nil, base: base) }
        device.enterRawMode()
        let result = run(device, base: base, timeoutMilliseconds: timeoutMilliseconds)
        if result.enableGraphemeClustering { device.write(enableGraphemeClustering) }
        device.discardInput()
        device.restoreMode()
        return result
    }
}
