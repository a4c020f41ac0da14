import BubbleBenchmarks
import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// `heights` output: fields, kinds, order, CSV.
@Suite struct HeightsOutputTests {
    @Test func oneRecordPerRowAndWidthInInputOrder() throws {
        let run = bubbles("heights", corpus("logs/sample.jsonl"), "--width", "40", "--width", "80,120")
        let objects = try run.outputLines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.count % 3 == 0)
        for (i, object) in objects.enumerated() {
            #expect(object["row"] as? Int == i / 3)
            #expect(object["width"] as? Int == [40, 80, 120][i % 3])
            for key in ["id", "kind", "height", "textLines", "wrapWidth", "bubbleWidth"] { #expect(object[key] != nil) }
            #expect((object["bubbleWidth"] as? Int ?? .max) <= (object["width"] as? Int ?? 0))
        }
        let kinds = Set(objects.compactMap { $0["kind"] as? String })
        #expect(kinds == ["date", "text", "image", "system"])
        #expect(objects.first?["id"] as? String == "date:2024-05-01")
    }

    @Test func csvHasAHeaderAndTheSameFields() {
        let json = bubbles("heights", corpus("logs/sample.jsonl"), "--width", "50")
        let csv = bubbles("heights", corpus("logs/sample.jsonl"), "--width", "50", "--format", "csv")
        #expect(csv.outputLines.first == "row,id,kind,width,height,textLines,wrapWidth,bubbleWidth,conversation")
        #expect(csv.outputLines.count == json.outputLines.count + 1)
        #expect(csv.outputLines[1].hasPrefix("0,date:2024-05-01,date,50,"))
    }

    @Test func idsWithControlsAreEscapedInBothFormats() {
        #expect(JSONString.quoted("a\u{1B}[2Jb\u{202E}") == "\"a\\u001B[2Jb\\u202E\"")
        #expect(OutputEscaping.csvField("a\u{1B}b,c") == "\"a^[b,c\"")
    }

    /// An input with no record draws nothing, and says so: a silent, empty transcript looks like
    /// a wrong file or a hung pipe. It is not an error (an empty log is a log).
    @Test(arguments: ["", "\n\n"])
    func anEmptyInputIsSaidNotPassedOverInSilence(content: String) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-empty-\(UUID().uuidString).jsonl")
        try content.write(to: url, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let run = bubbles("render", url.path, "--width", "40")
        #expect(run.code == 0)
        #expect(run.output.isEmpty)
        let blank = content.isEmpty ? "" : ", 2 blank lines skipped"
        #expect(run.errors == "bubbles: \(url.path): 0 records, 0 drawn, 0 rejected\(blank)\n")
        // A log with records stays quiet on a clean run.
        #expect(bubbles("render", corpus("logs/sample.jsonl"), "--width", "40").errors.isEmpty)
    }

    @Test func aLargeLogKeepsInputOrderAcrossChunks() throws {
        let lines = SyntheticLog(messageCount: 20_000).lines()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-order-\(UUID().uuidString).jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let run = bubbles("heights", url.path, "--width", "60", "--format", "csv", "--me", SyntheticLog.me)
        #expect(run.code == 0)
        let rows = run.outputLines.dropFirst().map { $0.split(separator: ",") }
        #expect(rows.enumerated().allSatisfy { Int($1[0]) == $0 })
        let ids = rows.map { String($0[1]) }.filter { !$0.hasPrefix("date:") }
        #expect(ids == (1...20_000).map(String.init))
    }
}
