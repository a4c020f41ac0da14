import BubbleSamples
import BubbleTestSupport
import BubbleText
import BubbleLayout
@testable import BubbleLogs
import Foundation
import Testing

@Suite struct NativeLogReaderTests {
    @Test func sampleConversationReadsWhole() throws {
        let result = try readAll(corpus("logs/sample.jsonl"))
        #expect(result.format == .jsonl)
        #expect(result.diagnostics.isEmpty)
        #expect(result.records.count == 157)
        #expect(result.counts.recordsIn == 157 && result.counts.messagesOut == 157 && result.counts.reconciles)
        #expect(Set(result.senders.compactMap { $0 }) == ["Yuki", "Omar", "Noa", "Sam", "Ploy"])
        #expect(result.kinds.filter { $0 == "image" }.count == 7)
        #expect(result.kinds.filter { $0 == "system" }.count == 10)
        let first = try #require(result.records.first as? LogTextMessage)
        #expect(first.text == "おはよう！ Good morning everyone ☀️")
        #expect(first.date == utcDate(2024, 5, 1, 0, 2))
        #expect(first.direction == .incoming)
        // Sam's messages say outgoing explicitly and carry a status.
        let sams = result.records.filter { $0.senderName == "Sam" }
        #expect(sams.allSatisfy { $0.direction == .outgoing && $0.status != nil })
        #expect(sams.last?.status == .sending)
        #expect(result.records.contains { $0.isEdited })
        let unknownSize = result.records.compactMap { $0 as? LogImageMessage }.filter { $0.pixelWidth == nil }
        #expect(unknownSize.count == 2)
        // Every reply points at an earlier message.
        var seen = Set<String>()
        for record in result.records {
            if let reply = record.replyToID { #expect(seen.contains(reply)) }
            seen.insert(record.id)
        }
        // Minutes never go backwards (some dates carry a quarter-second fraction).
        let minutes = result.records.map { Int($0.date.timeIntervalSince1970) / 60 }
        #expect(zip(minutes, minutes.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func everyBadLineGetsOneDiagnosticNamingFileLineAndReason() throws {
        let path = corpus("logs/bad.jsonl")
        let result = try readAll(path)
        #expect(result.diagnosticLines == [
            "\(path):2: malformed JSON at column 41: expected ',' or '}' after an object member",
            "\(path):4: missing field \"date\"",
            "\(path):6: wrong type: field \"outgoing\" must be a boolean, found a string (\"yes\")",
            "\(path):8: unknown type \"video\" (expected one of: image, system, text)",
            "\(path):10: invalid UTF-8: byte 0xE9 at column 82",
            "\(path):12: unreadable date \"yesterday\" (expected ISO 8601 with an offset, like 2024-05-01T10:02:00Z, or Unix seconds)",
            "\(path):14: bad status \"seen\" (expected sending, sent, delivered, read or failed)",
            "\(path):16: wrong type: each line must hold a JSON object, found an array",
            "\(path):17: unreadable date \"2024-05-01T10:14:00\" (expected ISO 8601 with an offset, like 2024-05-01T10:02:00Z, or Unix seconds)",
        ])
        #expect(result.records.map(\.id) == ["g1", "g2", "g3", "g4", "g5", "g6", "g7", "g8"])
        #expect(result.counts.recordsIn == 17)
        #expect(result.counts.rejected == 9)
        #expect(result.counts.blankLinesSkipped == 1)
        #expect(result.counts.reconciles)
        let image = try #require(result.records[2] as? LogImageMessage)
        #expect(image.pixelWidth == 800 && image.pixelHeight == 600 && image.imageName == "ok.jpg" && image.caption == nil)
        #expect(image.date == utcDate(2024, 5, 1, 10, 3))
        #expect(result.records[3].date == utcDate(2024, 5, 1, 8, 5))
        #expect(result.records[4].date == utcDate(2024, 5, 1, 10, 7).addingTimeInterval(0.5))
    }

    @Test func strictStopsAtTheFirstProblem() throws {
        let path = corpus("logs/bad.jsonl")
        let result = try readAll(path, options: LogReadOptions(strict: true, timeZone: utc))
        #expect(result.records.map(\.id) == ["g1"])
        #expect(result.diagnostics.count == 1)
        #expect(result.stoppedEarly)
        #expect(result.counts.recordsIn == 2 && result.counts.reconciles)
    }

    @Test func meSetsOutgoingUnlessTheRecordSays() throws {
        let lines = """
        {"id":"1","type":"text","from":"Bob","date":"2024-05-01T10:00:00Z","text":"mine by --me"}
        {"id":"2","type":"text","from":"Bob","outgoing":false,"date":"2024-05-01T10:01:00Z","text":"explicitly not mine"}
        {"id":"3","type":"text","from":"Alice","date":"2024-05-01T10:02:00Z","text":"not mine"}
        """
        let path = temporaryFile(Array(lines.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try readAll(path, options: LogReadOptions(me: "Bob", timeZone: utc))
        #expect(result.records.map(\.direction) == [.outgoing, .incoming, .incoming])
    }

    @Test func typeProblemsAreNamedPerField() throws {
        let cases: [(String, String)] = [
            (#"{"type":"text","date":0,"text":"x"}"#, "missing field \"id\""),
            (#"{"id":"1","date":0,"text":"x"}"#, "missing field \"type\""),
            (#"{"id":true,"type":"text","date":0,"text":"x"}"#, "wrong type: field \"id\" must be a string or an integer, found a boolean (true)"),
            (#"{"id":"1","type":"text","date":0}"#, "missing field \"text\""),
            (#"{"id":"1","type":"text","date":0,"text":["x"]}"#, "wrong type: field \"text\" must be a string, found an array"),
            (#"{"id":"1","type":"image","date":0}"#, "missing field \"image\""),
            (#"{"id":"1","type":"image","date":0,"image":{"width":"wide"}}"#, "wrong type: field \"image.width\" must be a positive integer, found a string (\"wide\")"),
            (#"{"id":"1","type":"image","date":0,"image":{"width":0}}"#, "wrong type: field \"image.width\" must be a positive integer, found a number (0)"),
            (#"{"id":"1","type":"image","date":0,"image":{"width":800,"height":-3.5e2}}"#, "wrong type: field \"image.height\" must be a positive integer, found a number (-3.5e2)"),
            (#"{"id":"1","type":"image","date":0,"image":{"width":12345678901234567890123456789}}"#, "wrong type: field \"image.width\" must be a positive integer, found a number (123456789012345678901234…)"),
            (#"{"id":"1","type":"text","date":0,"text":"x","outgoing":"\u001b[31mred\u202e"}"#, "wrong type: field \"outgoing\" must be a boolean, found a string (\"\\u001B[31mred\\u202E\")"),
            (#"{"id":"1","type":"text","date":{},"text":"x"}"#, "wrong type: field \"date\" must be a string or a number, found an object"),
            (#"{"id":"1","type":"text","date":0,"text":"x","edited":"yes"}"#, "wrong type: field \"edited\" must be a boolean, found a string (\"yes\")"),
            (#"{"id":"1","type":"text","date":0,"text":"x","from":7}"#, "wrong type: field \"from\" must be a string, found a number (7)"),
            (#"{"id":"1","type":"text","date":"2024-02-30T10:00:00Z","text":"x"}"#, "unreadable date \"2024-02-30T10:00:00Z\" (expected ISO 8601 with an offset, like 2024-05-01T10:02:00Z, or Unix seconds)"),
            (#"{"id":"1","type":"text","date":0,"text":"x"#, "malformed JSON at column 43: the text ends where the closing '\"' of a string was expected"),
            (#"{"id":"1","type":"\u001b[2J","date":0,"text":"x"}"#, "unknown type \"\\u001B[2J\" (expected one of: image, system, text)"),
        ]
        for (line, reason) in cases {
            let path = temporaryFile(Array(line.utf8))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let result = try readAll(path)
            #expect(result.diagnosticLines == ["\(path):1: \(reason)"], "\(line)")
            #expect(result.counts.recordsIn == 1 && result.counts.rejected == 1)
        }
    }

    @Test func countsReconcileOverRandomMixes() throws {
        var random = SeededGenerator(seed: 0x5EED_0001)
        let good = #"{"id":"N","type":"text","from":"A","date":1714557600,"text":"ok"}"#
        let bad = [#"{"id":"N","type":"text""#, #"{"id":"N","type":"text","text":"x"}"#, "\u{1}", #"{"id":"N","type":"gif","date":0,"text":"x"}"#]
        for _ in 0..<20 {
            var lines: [String] = []
            var expectedGood = 0, expectedBad = 0, expectedBlank = 0
            for _ in 0..<Int.random(in: 1...60, using: &random) {
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<6: lines.append(good); expectedGood += 1
                case 6..<9: lines.append(bad.randomElement(using: &random)!); expectedBad += 1
                default: lines.append(Bool.random(using: &random) ? "" : "  \t"); expectedBlank += 1
                }
            }
            let useFinalNewline = Bool.random(using: &random)
            let path = temporaryFile(Array((lines.joined(separator: "\n") + (useFinalNewline ? "\n" : "")).utf8))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let result = try readAll(path, format: .jsonl)
            // A trailing blank with no newline after it is no line at all.
            let trailingEmpty = !useFinalNewline && lines.last == "" ? 1 : 0
            #expect(result.counts.messagesOut == expectedGood)
            #expect(result.counts.rejected == expectedBad)
            #expect(result.counts.blankLinesSkipped == expectedBlank - trailingEmpty)
            #expect(result.counts.reconciles)
            #expect(result.diagnostics.count == expectedBad)
        }
    }

    @Test func emptyInputIsAnEmptyLog() throws {
        let path = temporaryFile([])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try readAll(path)
        #expect(result.records.isEmpty && result.counts == LogCounts())
    }

    @Test func crlfLineEndingsAndAByteOrderMarkAreAccepted() throws {
        let text = "\u{FEFF}" + #"{"id":"1","type":"text","date":0,"text":"a"}"# + "\r\n" + #"{"id":"2","type":"text","date":0,"text":"b"}"# + "\r\n"
        let path = temporaryFile(Array(text.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try readAll(path)
        #expect(result.records.map(\.id) == ["1", "2"])
        #expect(result.diagnostics.isEmpty)
    }

    @Test func missingFileIsAWholeFileError() {
        let error = openError("/nonexistent/chat.jsonl")
        #expect(error?.description == "/nonexistent/chat.jsonl: no such file or folder")
    }
}
