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
/// are). Waits at most `timeoutMilliseconds` (100) for the answers: a terminal answers in a few
/// milliseconds. When it has not answered in full by then, the profile falls back to `unicode`
/// (unless every cursor report came) and the late replies are swallowed, not shown: echo stays
/// off until the device attributes reply arrives or the process ends, and whatever came is
/// discarded from the input before echo comes back (`QuietTerminal`).
///
/// A terminal that answered in full and reported mode 2027 off but settable (2) measured code
/// point by code point, which cannot tell `unicode` from `ghostty`: a second round
/// (`clusterQuery`) turns the mode on, measures the graphemes those two part on, checks the mode
/// took, and turns it off again in the same write, so the terminal is left as it was found whatever happens
/// to us; it waits at most the same bound, and without its answers the first choice stands.
public enum TerminalProbe {
    /// The probe's bytes: nothing stays on screen (the line is erased before the last queries).
    public static var query: [UInt8] {
        var text = ""
        for grapheme in WidthProbe.graphemes { text += "\r" + grapheme + "\u{1B}[6n" }
        text += "\r\u{1B}[2K\u{1B}[?2027$p\u{1B}[c"
        return Array(text.utf8)
    }

    /// The second round's bytes, for a terminal that reported mode 2027 off but settable: the
    /// mode on, each of `WidthProbe.clusterGraphemes` with a cursor position query after it, the
    /// line erased, the mode asked for again (did it take?), the mode off again (the caller
    /// turns it on for its output, and off at exit, as after one round), and the device
    /// attributes asked for last.
    public static var clusterQuery: [UInt8] {
        var text = enableGraphemeClustering
        for grapheme in WidthProbe.clusterGraphemes { text += "\r" + grapheme + "\u{1B}[6n" }
        text += "\r\u{1B}[2K\u{1B}[?2027$p" + disableGraphemeClustering + "\u{1B}[c"
        return Array(text.utf8)
    }

    /// Turns mode 2027 on, and off again.
    public static let enableGraphemeClustering = "\u{1B}[?2027h"
    public static let disableGraphemeClustering = "\u{1B}[?2027l"

    /// How long the probe waits for the terminal's answers, in milliseconds: 100, or
    /// `BUBBLES_PROBE_TIMEOUT_MS` (1–5000) where a slow terminal is known, such as tmux on a
    /// loaded CI machine.
    public static var defaultTimeout: Int {
        if let text = getenv("BUBBLES_PROBE_TIMEOUT_MS").map({ String(cString: $0) }), let value = Int(text), (1...5000).contains(value) {
            return value
        }
        return 100
    }

    /// What a probe found, and whether every reply is in (the device attributes reply came).
    public struct Outcome: Sendable {
        public var result: WidthProbe.Result
        public var complete: Bool
    }

    /// Probes `terminal`, which must already be in raw mode. Falls back to `base` when it does not
    /// answer in time.
    public static func run(_ terminal: ProbeTerminal, base: TextOptions, timeoutMilliseconds: Int = defaultTimeout) -> WidthProbe.Result {
        probe(terminal, base: base, timeoutMilliseconds: timeoutMilliseconds).result
    }

    /// As `run`, saying whether every reply came in time (in both rounds, where there are two).
    public static func probe(_ terminal: ProbeTerminal, base: TextOptions, timeoutMilliseconds: Int = defaultTimeout) -> Outcome {
        guard let replies = exchange(terminal, query, timeoutMilliseconds: timeoutMilliseconds) else {
            return Outcome(result: WidthProbe.choose(advances: [], graphemeClustering: nil, base: base), complete: true)
        }
        let first = WidthProbe.choose(advances: advances(replies, count: WidthProbe.graphemes.count),
                                      graphemeClustering: replies.graphemeClustering, base: base)
        // A second round only after a full first one: a slow terminal's late replies would mix
        // with it, and the quiet hold after an incomplete probe waits for one device attributes
        // reply only.
        guard replies.sawDeviceAttributes, first.enableGraphemeClustering, !WidthProbe.clusterGraphemes.isEmpty else {
            return Outcome(result: first, complete: replies.sawDeviceAttributes)
        }
        guard let clustered = exchange(terminal, clusterQuery, timeoutMilliseconds: timeoutMilliseconds) else {
            return Outcome(result: first, complete: true)
        }
        let result = WidthProbe.chooseClustered(advances: advances(clustered, count: WidthProbe.clusterGraphemes.count),
                                                graphemeClustering: clustered.graphemeClustering, after: first)
        return Outcome(result: result, complete: clustered.sawDeviceAttributes)
    }

    /// Writes `query` and reads the replies until the device attributes reply (which ends
    /// them) or the bound; nil when the write failed.
    static func exchange(_ terminal: ProbeTerminal, _ query: [UInt8], timeoutMilliseconds: Int) -> TerminalReplies? {
        guard terminal.write(query) else { return nil }
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
        return replies
    }

    /// The cells advanced for each of `count` test graphemes (the column of each cursor report,
    /// written at the line's start): all nil unless every report came.
    static func advances(_ replies: TerminalReplies, count: Int) -> [Int?] {
        guard replies.cursorPositions.count == count else { return Array(repeating: nil, count: count) }
        return replies.cursorPositions.map { $0.column - 1 }
    }

    static func monotonicMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int(now.tv_sec) * 1000 + Int(now.tv_nsec) / 1_000_000
    }

    /// Probes the controlling terminal (in raw mode for the probe). Turns mode 2027 on when the
    /// result asks for it: the caller must write `disableGraphemeClustering` when it is done.
    /// When the terminal answered in full, its mode is given back at once; otherwise it stays
    /// quiet (no echo) until the late replies are in, or at the latest until the process ends,
    /// and they are discarded from the input (`QuietTerminal`).
    public static func probeControllingTerminal(base: TextOptions, timeoutMilliseconds: Int) -> WidthProbe.Result {
        guard let device = TerminalDevice() else { return WidthProbe.choose(advances: [], graphemeClustering: nil, base: base) }
        device.enterRawMode(signalsFromKeys: true)
        let outcome = probe(device, base: base, timeoutMilliseconds: timeoutMilliseconds)
        if outcome.result.enableGraphemeClustering { device.write(enableGraphemeClustering) }
        if outcome.complete {
            device.discardInput()
            device.restoreMode()
        } else {
            QuietTerminal.hold(device)
        }
        return outcome.result
    }
}
