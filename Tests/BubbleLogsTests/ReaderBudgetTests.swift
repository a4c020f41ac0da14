import Foundation
import Testing
@testable import BubbleLogs
import BubbleTestSupport

/// Documents read whole stay within `LogReadOptions.memoryBudget`: their lists of messages are
/// parsed one element at a time (the same values as a whole parse), and a document or a part of
/// one past the budget is refused naming it and the budget. Line ends of JSON Lines.
@Suite struct ReaderBudgetTests {
    private func entries(_ reader: LogReader) -> (ids: [String], diagnostics: [String]) {
        var ids: [String] = [], diagnostics: [String] = []
        for entry in reader {
            switch entry {
            case .message(let record, _): ids.append(record.id)
            case .diagnostic(let diagnostic): diagnostics.append(diagnostic.description)
            }
        }
        return (ids, diagnostics)
    }

    @Test(arguments: ["exports/telegram/damaged/result.json", "exports/telegram/stray-chat/result.json"])
    func aDeferredListHoldsTheValuesAWholeParseDoes(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: corpus(name))))
        let whole = try JSONParser(allowsHexEscapes: true).parse(bytes)
        let deferred = try JSONParser(allowsHexEscapes: true, deferring: .messageArrays).parse(document: JSONDocumentBytes(bytes))
        #expect(deferred == whole)
        // Element by element, with their lines.
        func lists(_ value: JSONValue) -> [JSONArray] {
            guard let root = value.objectValue else { return [] }
            if let list = root["messages"]?.arrayWithLines { return [list] }
            return ["chats", "left_chats"].flatMap { key in
                (root[key]?.objectValue?["list"]?.arrayWithLines?.lazyElements ?? JSONArray(elements: [], elementLines: []).lazyElements)
                    .compactMap { $0.objectValue?["messages"]?.arrayWithLines }
            }
        }
        for (a, b) in zip(lists(whole), lists(deferred)) {
            #expect(Array(a.elementLines) == Array(b.elementLines))
            #expect(a.elements == b.elements)
        }
    }

    @Test func aTopLevelArrayIsDeferredToo() throws {
        let text = "[\n{\"a\": [1, 2]},\n\"x\", 3,\n{\"b\": {\"c\": null}}\n]"
        let whole = try JSONParser().parse(Array(text.utf8))
        let deferred = try JSONParser(deferring: .topLevelArray).parse(document: JSONDocumentBytes(Array(text.utf8)))
        #expect(deferred == whole)
        #expect(deferred.arrayWithLines?.elementLines == [2, 3, 3, 4])
        #expect(deferred.arrayWithLines?.element(3).objectValue?.line == 4)
    }

    @Test func aDocumentLargerThanTheBudgetIsStreamedNotRefused() throws {
        var options = LogReadOptions(timeZone: TimeZone(identifier: "UTC")!)
        options.memoryBudget = 4096
        let messages = (1...60).map { #"{"id": \#($0), "type": "message", "date_unixtime": "1714557720", "from": "Ann", "text": "hi"}"# }
        let text = #"{"name": "Ann", "type": "personal_chat", "id": 1, "messages": ["# + messages.joined(separator: ",\n") + "]}"
        #expect(text.utf8.count > 4096)
        let fromBytes = try LogSource.open(bytes: Array(text.utf8), name: "result.json", format: .telegram, options: options)
        #expect(entries(fromBytes).ids.count == 60)
        let path = temporaryFile(Array(text.utf8), suffix: ".json")
        defer { unlink(path) }
        let fromFile = try LogSource.open(path: path, format: .auto, options: options)
        #expect(entries(fromFile) == entries(try LogSource.open(bytes: Array(text.utf8), name: path, format: .telegram, options: options)))
    }

    @Test func aDocumentWhoseTextOutsideItsListsIsPastTheBudgetIsRefusedNamingIt() throws {
        var options = LogReadOptions(timeZone: TimeZone(identifier: "UTC")!)
        options.memoryBudget = 4096
        // A tree may be built from 64 KiB: a list of contacts of 200 KB is more.
        let contacts = (1...8000).map { #"{"first_name": "C\#($0)"}"# }.joined(separator: ",")
        let text = #"{"personal_information": {"user_id": 1}, "contacts": {"list": ["# + contacts + #"]}, "chats": {"list": []}}"#
        let path = temporaryFile(Array(text.utf8), suffix: ".json")
        defer { unlink(path) }
        let message = openError(path, format: .telegram, options: options)?.message ?? ""
        #expect(message.contains("more than 64 KiB of JSON outside the lists of messages"), "\(message)")
        #expect(message.contains("past the memory budget of 4 KiB"), "\(message)")
    }

    @Test func oneMessageLargerThanATreeMayBeIsRefusedNamingItsLine() throws {
        var options = LogReadOptions(timeZone: TimeZone(identifier: "UTC")!)
        options.memoryBudget = 2 << 20
        // A tree may be built from 128 KiB: one message of 200 KB is more.
        let big = #"{"id": 2, "type": "message", "date_unixtime": "1714557720", "from": "Ann", "text": ""# + String(repeating: "a", count: 200_000) + "\"}"
        let text = "{\"name\": \"Ann\", \"type\": \"personal_chat\", \"id\": 1, \"messages\": [\n" + big + "\n]}"
        do {
            _ = try LogSource.open(bytes: Array(text.utf8), name: "result.json", format: .telegram, options: options)
            Issue.record("a tree past the budget was built")
        } catch {
            #expect(error.line == 2)
            #expect(error.message.contains("more than 128 KiB of JSON in one element of a list"), "\(error)")
            #expect(error.message.contains("memory budget of 2 MiB"), "\(error)")
        }
    }

    @Test func aSlackDayFilePastTheBudgetIsRefusedBeforeAnyIsRead() throws {
        let root = NSTemporaryDirectory() + "bubbles-budget-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/general", withIntermediateDirectories: true)
        try #"[{"id": "C1", "name": "general"}]"#.write(toFile: root + "/channels.json", atomically: false, encoding: .utf8)
        let message = #"{"type": "message", "user": "U1", "text": "hi", "ts": "1714557720.000100"}"#
        try ("[" + Array(repeating: message, count: 80).joined(separator: ",\n") + "]")
            .write(toFile: root + "/general/2024-05-01.json", atomically: false, encoding: .utf8)
        try ("[" + message + "]").write(toFile: root + "/general/2024-05-02.json", atomically: false, encoding: .utf8)
        var options = LogReadOptions(timeZone: TimeZone(identifier: "UTC")!)
        options.memoryBudget = 4096
        let error = try #require(openError(root, options: options))
        #expect(error.file == root + "/general/2024-05-01.json")
        #expect(error.message.hasSuffix("past the memory budget of 4 KiB for a day file read whole"), "\(error)")
        // Within the budget, the same export reads.
        options.memoryBudget = 1 << 20
        let (ids, diagnostics) = entries(try LogSource.open(path: root, options: options))
        #expect(ids.count == 81 && diagnostics.isEmpty)
    }

    @Test(arguments: ["\r", "\r\n", "\n"])
    func jsonLinesWithAnyLineEndAreSeparateRecords(_ end: String) throws {
        let lines = (1...3).map { #"{"id": "m\#($0)", "type": "text", "from": "Ann", "date": "2024-05-01T10:0\#($0):00Z", "text": "hi"}"# }
        let reader = try LogSource.open(bytes: Array((lines.joined(separator: end) + end).utf8), name: "log.jsonl")
        let (ids, diagnostics) = entries(reader)
        #expect(ids == ["m1", "m2", "m3"] && diagnostics.isEmpty)
        #expect(reader.counts.recordsIn == 3)
    }
}
