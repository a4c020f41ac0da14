import BubbleLayout
import BubbleLogs
import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubblesCLI

/// A repeated id gets one warning naming both places, and both messages are laid out from their
/// own text (issue 10 §1).
@Suite struct RepeatedIDTests {
    /// `cat a b > both`, in a temporary folder.
    func concatenated(_ names: [String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-concat-\(UUID().uuidString).jsonl")
        var bytes = Data()
        for name in names { bytes += try Data(contentsOf: URL(fileURLWithPath: name)) }
        try bytes.write(to: url)
        return url
    }

    /// The records of a native log, in order.
    func records(_ path: String) throws -> [any LogRecord] {
        try LogSource.open(path: path).compactMap(\.record)
    }

    /// Every text row of `heights` has the line count of its own text at its wrap width.
    func expectOwnHeights(_ run: CommandRun, records: [any LogRecord], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let rows = try run.outputLines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
            .filter { $0["kind"] as? String != "date" }
        #expect(rows.count == records.count, sourceLocation: sourceLocation)
        var checked = 0
        for (row, record) in zip(rows, records) {
            #expect(row["id"] as? String == record.id, sourceLocation: sourceLocation)
            guard let text = (record as? any TextMessageModel)?.text, let wrap = row["wrapWidth"] as? Int else { continue }
            let measurer = CellMeasurer()
            #expect(row["textLines"] as? Int == measurer.measure(measurer.prepare(text), width: wrap).lineCount,
                    sourceLocation: sourceLocation)
            checked += 1
        }
        #expect(checked > 0, sourceLocation: sourceLocation)
    }

    @Test func concatenatedExportsWarnOncePerRepeatAndKeepEveryMessagesOwnHeight() throws {
        let a = corpus("logs/restart-a.jsonl"), b = corpus("logs/restart-b.jsonl")
        let both = try concatenated([a, b])
        defer { try? FileManager.default.removeItem(at: both) }
        let run = bubbles("heights", both.path, "--width", "40")
        #expect(run.code == 0)
        let warnings = run.errors.split(separator: "\n").filter { $0.contains("repeats") }
        #expect(warnings == [
            "\(both.path):4: id \"1\" repeats line 1; both are laid out from their own text",
            "\(both.path):5: id \"2\" repeats line 2; both are laid out from their own text",
        ])
        try expectOwnHeights(run, records: try records(both.path))
        // The same rows as each file read alone (decorations aside, the text lines agree).
        let alone = bubbles("heights", b, "--width", "40")
        let lastRows = run.outputLines.suffix(3).map { $0.split(separator: ",").filter { $0.contains("textLines") } }
        #expect(lastRows == alone.outputLines.suffix(3).map { $0.split(separator: ",").filter { $0.contains("textLines") } })
    }

    @Test func renderDrawsEachRepeatedIdsMessageWhole() throws {
        let both = try concatenated([corpus("logs/restart-a.jsonl"), corpus("logs/restart-b.jsonl")])
        defer { try? FileManager.default.removeItem(at: both) }
        let run = bubbles("render", both.path, "--width", "40", "--ascii", "--tz", "UTC")
        #expect(run.code == 0)
        #expect(!run.output.contains("…"))
        // The long text's words all appear, in order, across its drawn lines.
        let drawn = run.output.split(separator: "\n").map { line in
            line.trimmingCharacters(in: CharacterSet(charactersIn: " |+-.'`")).trimmingCharacters(in: .whitespaces)
        }.joined(separator: " ")
        for record in try records(both.path) {
            let text = (record as! any TextMessageModel).text
            let words = text.split(separator: " ")
            var rest = Substring(drawn)
            for word in words {
                guard let found = rest.range(of: word) else {
                    Issue.record("\(record.id): \"\(word)\" of \"\(text)\" not drawn")
                    break
                }
                rest = rest[found.upperBound...]
            }
        }
        #expect(run.errors.contains(":4: id \"1\" repeats line 1"))
    }

    @Test func convertedWhatsAppExportsReadTogetherKeepTheirOwnHeights() throws {
        // Two real-format exports converted to native JSON Lines: their ids both restart.
        var paths: [String] = []
        defer { for path in paths { try? FileManager.default.removeItem(atPath: path) } }
        for name in ["whatsapp/android-en_GB.txt", "whatsapp/ios-en_US.txt"] {
            let run = bubbles("convert", corpus("exports/" + name))
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-wa-\(UUID().uuidString).jsonl")
            try run.output.write(to: url, atomically: false, encoding: .utf8)
            paths.append(url.path)
        }
        let both = try concatenated(paths)
        paths.append(both.path)
        let run = bubbles("heights", both.path, "--width", "44")
        let repeats = run.errors.split(separator: "\n").filter { $0.contains(" repeats ") }
        #expect(!repeats.isEmpty)
        try expectOwnHeights(run, records: try records(both.path))
    }

    @Test func placesInOtherFilesAreNamedAndTheListIsCapped() throws {
        var report = RepeatedIDReport()
        report.listed = 2
        let sink = StringSink()
        let record = LogTextMessage(header: LogMessageHeader(id: "1", senderName: "A", date: Date()), text: "x")
        try report.note(record, at: LogPosition(file: "a.jsonl", line: 3), errors: sink)
        try report.note(record, at: LogPosition(file: "b.jsonl", line: 1), errors: sink)
        try report.note(record, at: LogPosition(file: "b.jsonl", line: 7), errors: sink)
        try report.note(record, at: LogPosition(file: "b.jsonl", line: 9), errors: sink)
        try report.finish(errors: sink)
        #expect(sink.text == """
            b.jsonl:1: id "1" repeats line 3 of a.jsonl; both are laid out from their own text
            b.jsonl:7: id "1" repeats line 3 of a.jsonl; both are laid out from their own text
            bubbles: 1 more repeated message ids not listed (3 in all)

            """)
    }

    /// Ids are numbered per conversation: `1` in conversation `a` and `1` in `b` are two
    /// messages, not a repeat (a tester's multi-conversation log warned); within one they are.
    @Test func theSameIdInTwoConversationsIsNoRepeat() throws {
        var report = RepeatedIDReport()
        let sink = StringSink()
        func message(_ conversation: String?) -> LogTextMessage {
            var header = LogMessageHeader(id: "1", senderName: "A", date: Date())
            header.conversationID = conversation
            return LogTextMessage(header: header, text: "x")
        }
        try report.note(message("a"), at: LogPosition(file: "log.jsonl", line: 1), errors: sink)
        try report.note(message("b"), at: LogPosition(file: "log.jsonl", line: 2), errors: sink)
        try report.note(message(nil), at: LogPosition(file: "log.jsonl", line: 3), errors: sink)
        #expect(sink.text == "")
        try report.note(message("b"), at: LogPosition(file: "log.jsonl", line: 4), errors: sink)
        #expect(sink.text == "log.jsonl:4: id \"1\" repeats line 2; both are laid out from their own text\n")
    }

    @Test func rememberedIdsAreBoundedAndSaySoWhenTheLimitIsReached() {
        var ids = RepeatedIDs(limit: 100)
        for i in 0..<150 { #expect(ids.note(id: "\(i)", file: "-", line: i + 1) == nil) }
        #expect(ids.stoppedRemembering == RepeatedIDs.Place(file: "-", line: 101))
        // Remembered ones are still found; the ones past the limit are not remembered.
        #expect(ids.note(id: "5", file: "-", line: 200)?.first == RepeatedIDs.Place(file: "-", line: 6))
        #expect(ids.note(id: "120", file: "-", line: 201) == nil)
    }
}
