import BubbleTestSupport
import BubbleText
import Foundation
import Testing

/// ZWJs under `--cell-widths wcwidth`, drawn in tmux 3.3a, which joins the first non-ASCII
/// scalar written after a ZWJ to the cell before, however far after it (issue 15's renderer
/// fuzzer findings). tmux's own count of every line `render` writes must be what the engine
/// measured, and every bubble's border must be one column.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux or the built bubbles binary is missing (.ci/run installs tmux)"))
struct TmuxWcwidthJoinerTests {
    /// Texts and names around ZWJs: the two saved findings' texts, real emoji ZWJ sequences, and a
    /// ZWJ at a line's end, before ASCII, before another grapheme, after a control, at the start,
    /// before a line break, in names and in a reply quote, in words long enough to be cut.
    static var messages: [[String: Any]] { [
        ["from": "Yuki", "text": "Autumn \u{200D} are best in November, but October is nice too \u{1F341}"],
        ["from": "Omar", "text": "\u{200D}r works for me. \u{631}\u{645}\u{636}\u{627}\u{646} is long over by then \u{1F604}"],
        ["from": "Zo\u{EB} \u{1F469}\u{200D}\u{1F4BB}",
         "text": "\u{1F469}\u{200D}\u{1F4BB} coding, \u{1F3F3}\u{FE0F}\u{200D}\u{1F308} pride, \u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467} family, \u{1F469}\u{1F3FD}\u{200D}\u{1F4BB} dev"],
        ["from": "Bob\u{200D}", "text": "ends with a joiner \u{1F44D}\u{200D}"],
        ["from": "\u{200D}Ann \u{1F3F3}\u{FE0F}\u{200D}\u{1F308}", "outgoing": true,
         "text": "a\u{200D}\u{E9} and \u{4E00}\u{200D}\u{4E00} and x\u{200D} y\u{2502} and \u{1F600}\u{200D}\u{301}!"],
        ["from": "Sam", "text": "control \u{1B}\u{200D}\u{1F600} after an escape, \u{200D}\u{200D}\u{1F600} and \u{1F600}\u{200D}\u{200D}\u{1F600}"],
        ["from": "Sam", "text": "line one \u{1F600}\u{200D}\nline two \u{1F341}\u{200D}\u{2028}\u{1F341}", "replyTo": "z3"],
        ["from": "Yuki", "text": String(repeating: "\u{1F469}\u{200D}\u{1F4BB}", count: 9) + String(repeating: "a\u{200D}\u{E9}\u{915}\u{94D}\u{200D}\u{937}", count: 6)],
    ] }

    static func writeLog() throws -> String {
        let path = NSTemporaryDirectory() + "bubbles-zwj-\(getpid()).jsonl"
        var lines: [String] = []
        for (index, message) in messages.enumerated() {
            var record = message
            record["id"] = "z\(index)"
            record["type"] = "text"
            record["date"] = "2024-05-01T10:0\(index):00Z"
            let data = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
            lines.append(String(decoding: data, as: UTF8.self))
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test func wcwidthJoinersDrawWhatTheEngineMeasuresInTmux() throws {
        let log = try Self.writeLog()
        defer { try? FileManager.default.removeItem(atPath: log) }
        let findings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpora/findings").path
        let wcwidth = TextOptions(widthProfile: .wcwidth)
        for file in [log, findings + "/render-wcwidth-zwj-join-across-lines.jsonl",
                     findings + "/render-wcwidth-zwj-join-past-ascii.jsonl"] {
            for width in [14, 33, 64] {
                let run = bubbles("render", file, "--width", "\(width)", "--color", "never", "--cell-widths", "wcwidth",
                                  environment: ["TZ": "UTC"])
                let lines = run.outputLines.map(String.init)
                #expect(lines.count > 10, "\(file) at \(width): \(run.errors)")
                #expect(lines.contains { $0.unicodeScalars.contains("\u{200D}") } || file != log,
                        "no ZWJ drawn at \(width): the real sequences should keep theirs")
                // One tmux pane for all the lines, in order: a ZWJ left pending at a line's end
                // would take a cell from the next line's first non-ASCII scalar (a border).
                let measured = try #require(try TmuxWidths.measure(lines), "tmux did not measure the lines")
                for (line, cells) in zip(lines, measured) {
                    #expect(cells == CellWidth.of(line, options: wcwidth),
                            "\(file) at \(width): tmux \(cells), engine \(CellWidth.of(line, options: wcwidth)): \(line.debugDescription)")
                }
                #expect(try TmuxViewerTests.misalignedBubbles(lines, skippingJoiners: false).isEmpty, "\(file) at \(width)")
            }
        }
    }
}
