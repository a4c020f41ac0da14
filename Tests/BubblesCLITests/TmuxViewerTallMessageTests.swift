import BubbleLayout
import BubbleLogs
import BubbleTerminal
import BubbleTestSupport
import Foundation
import Testing

/// A message far taller than the screen in `bubbles view`, in tmux (as `TmuxViewerTests`): it is
/// scrolled line by line and page by page, searched inside, and every screen is the slice of what
/// `render` draws of the whole log at that width.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux or the built bubbles binary is missing (.ci/run installs tmux)"))
struct TmuxViewerTallMessageTests {
    /// Three short messages, one of 6,000 numbered words (about 900 lines at 72 columns, with a
    /// line break now and then), three short ones.
    static func log() throws -> String {
        var words: [String] = []
        for n in 1...6_000 { words.append(String(format: "w%05d", n) + (n % 97 == 0 ? "\\n" : "")) }
        var lines: [String] = []
        for n in 1...3 { lines.append(#"{"id":"b\#(n)","type":"text","from":"Ann","date":1714557600,"text":"before \#(n)"}"#) }
        lines.append(#"{"id":"tall","type":"text","from":"Bo","date":1714557660,"text":"\#(words.joined(separator: " "))"}"#)
        for n in 1...3 { lines.append(#"{"id":"a\#(n)","type":"text","from":"Ann","date":1714557720,"text":"after \#(n)"}"#) }
        let path = NSTemporaryDirectory() + "bubbles-tall-\(getpid()).jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func trimmed(_ lines: some Sequence<String>) -> [String] {
        lines.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
    }

    @Test func aTallMessageScrollsByLineAndPageAndIsSearched() throws {
        let path = try Self.log()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let render = bubbles("render", path, "--width", "72", "--cell-widths", "wcwidth", "--color", "never", environment: ["TZ": "UTC"])
        let whole = Self.trimmed(render.outputLines.map(String.init))
        try #require(whole.count > 800, "\(whole.count)")
        let page = 21
        /// Where `screen`'s page of messages is in `whole` (the one place: the words are numbered).
        func place(_ screen: [String]) -> Int? {
            let shown = Self.trimmed(screen.prefix(page))
            let places = (0...(whole.count - page)).filter { Array(whole[$0..<($0 + page)]) == shown }
            return places.count == 1 ? places[0] : nil
        }
        let session = try TmuxViewerTests.start("view \(path)", environment: "TZ=UTC")
        var (shown, screen) = session.waitFor { TmuxViewerTests.statusLine($0).contains("(END)") }
        #expect(shown && place(screen) == whole.count - page, "\(screen)")

        // The tall message's start, then line by line and page by page inside it.
        session.type("4g")
        (shown, screen) = session.waitFor { TmuxViewerTests.statusLine($0).contains("message 4 of 7") }
        let top = try #require(place(screen), "\(screen)")
        func after(_ keys: [String], _ expected: Int) {
            for key in keys { session.send(key) }
            let (moved, screen) = session.waitFor { place($0) == expected }
            #expect(moved, "\(keys) to line \(expected): \(screen)")
        }
        after(["j", "j", "j"], top + 3)
        after(["Space"], top + 3 + page)
        after(["Space", "Space", "Space"], top + 3 + 4 * page)
        after(["k"], top + 2 + 4 * page)
        after(["b"], top + 2 + 3 * page)

        // A word deep inside it: the screen lands on its line, highlighted.
        session.type("/w05000")
        session.send("Enter")
        (shown, screen) = session.waitFor(escapes: true) { $0.contains { $0.contains("\u{1B}[7mw05000") } }
        #expect(shown, "\(screen)")
        let line = try #require(whole.firstIndex { $0.contains("w05000") })
        (shown, screen) = session.waitFor { place($0) == line }
        #expect(shown, "the match's line at the top: \(screen)")
        #expect(TmuxViewerTests.statusLine(screen).contains("message 4 of 7"))

        // A word nowhere in the log: said on the status line, the screen left where it was.
        session.type("/w09999")
        session.send("Enter")
        (shown, screen) = session.waitFor { TmuxViewerTests.statusLine($0).contains("(not found)") }
        #expect(shown && place(screen) == line, "\(screen)")
        // Backwards to a word above: on its line, highlighted.
        session.type("?w01000")
        session.send("Enter")
        let above = try #require(whole.firstIndex { $0.contains("w01000") })
        (shown, screen) = session.waitFor { place($0) == above }
        #expect(shown, "the earlier match's line at the top: \(screen)")
        (shown, screen) = session.waitFor(escapes: true) { $0.contains { $0.contains("\u{1B}[7mw01000") } }
        #expect(shown, "\(screen)")

        session.send("G")
        (shown, screen) = session.waitFor { TmuxViewerTests.statusLine($0).contains("(END)") }
        #expect(shown && place(screen) == whole.count - page, "\(screen)")
        session.send("q")
        TmuxViewerTests.expectRestored(session, exit: "0")
    }
}
