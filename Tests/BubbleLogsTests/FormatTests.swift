import BubbleSamples
import BubbleTestSupport
import BubbleText
import BubbleLayout
@testable import BubbleLogs
import Foundation
import Testing

@Suite struct FormatDetectionTests {
    @Test func eachFixtureIsDetected() throws {
        let expected: [(String, LogFormat)] = [
            ("logs/sample.jsonl", .jsonl), ("logs/hostile.jsonl", .jsonl), ("logs/bad.jsonl", .jsonl),
            ("exports/telegram/single/result.json", .telegram), ("exports/telegram/full/result.json", .telegram),
            ("exports/whatsapp/android-en_US-12h.txt", .whatsapp), ("exports/whatsapp/ios-fr_FR.txt", .whatsapp),
            ("exports/discord/channel.json", .discord), ("exports/slack/export", .slack),
        ]
        for (path, format) in expected {
            #expect(try LogSource.open(path: corpus(path)).format == format, "\(path)")
        }
    }

    @Test func inputArgumentParses() {
        #expect(LogFormat(argument: "WhatsApp") == .whatsapp)
        #expect(LogFormat(argument: "auto") == .auto)
        #expect(LogFormat(argument: "csv") == nil)
        #expect(LogFormat.argumentChoices == "auto|jsonl|telegram|whatsapp|discord|slack|messenger|imessage|signal|line|matrix|skype|googlechat|hangouts")
    }

    @Test func aFileThatIsNoKnownFormatSaysWhatWasExpected() throws {
        let path = temporaryFile(Array("just some notes\nnothing dated\n".utf8), suffix: ".txt")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(openError(path)?.message.hasPrefix("unrecognised format: expected JSON Lines, a Telegram result.json") == true)
    }
}

@Suite struct JSONParserTests {
    @Test func telegramHexEscapesAreAcceptedOnlyWhenAsked() throws {
        let text = Array(#"{"t":"a\x1b[0m\x07b"}"#.utf8)
        #expect(try JSONParser(allowsHexEscapes: true).parse(text) == .object(JSONObject(line: 1, members: [("t", .string("a\u{1B}[0m\u{07}b"))])))
        #expect(throws: JSONSyntaxError.self) { try JSONParser().parse(text) }
    }

    @Test func escapesAndSurrogatePairsDecode() throws {
        let value = try JSONParser().parse(Array(#"["\u00e9\ud83d\ude00\n\"\\\/"]"#.utf8))
        #expect(value.arrayValue == [.string("é😀\n\"\\/")])
        for bad in [#"["\ud83d"]"#, #"["\ude00"]"#, #"["\q"]"#, "[\"a\u{01}\"]", "[01]", "[1.]", "[tru]", "{\"a\" 1}", "[1,]", "[1] x"] {
            #expect(throws: JSONSyntaxError.self, "\(bad)") { try JSONParser().parse(Array(bad.utf8)) }
        }
    }

    @Test func numbersKeepTheirLiteralText() throws {
        #expect(try JSONParser().parse(Array("[1100000000000000001, -0.5e3]".utf8)).arrayValue == [.number("1100000000000000001"), .number("-0.5e3")])
    }

    @Test func arrayElementsRememberTheLineTheyStartOn() throws {
        let text = "[\"a\", 1,\n\n  {\"k\":\n [true,\n  null]},\n  [], -2, \"b\"\n\n]"
        let array = try #require(try JSONParser().parse(Array(text.utf8)).arrayWithLines)
        #expect(array.elementLines == [1, 1, 3, 6, 6, 6])
        #expect(array.elements[2].objectValue?.line == 3, "an object's own line agrees")
        let inner = try #require(array.elements[2].objectValue?["k"]?.arrayWithLines)
        #expect(inner.elementLines == [4, 5])
        #expect(array.elements[3].arrayWithLines == JSONArray(elements: [], elementLines: []))
        // A line taken from the middle of a file numbers its elements from there.
        #expect(try JSONParser().parse(Array("[1,\n2]".utf8), firstLine: 41).arrayWithLines?.elementLines == [41, 42])
    }

    @Test func elementLinesMatchWhereRandomLayoutsPutThem() throws {
        // Arrays of scalars, objects and nested arrays, with newlines (and CRLFs) placed at random
        // before, inside and after elements; each element's line is counted while writing it.
        var random = SeededGenerator(seed: 0x11AE5)
        let scalars = ["0", "-1.5e3", "true", "false", "null", "\"s\"", "\"new\\nline\"", "\"[1,\\n2]\""]
        for _ in 0..<500 {
            var text = "["
            var line = 1
            var expected: [Int] = []
            func gap(_ random: inout SeededGenerator) -> String {
                var out = ""
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    out += ["\n", " ", "\r\n", "\t"].randomElement(using: &random)!
                }
                return out
            }
            for index in 0..<Int.random(in: 0...8, using: &random) {
                if index > 0 { text += "," }
                let before = gap(&random)
                text += before
                line += before.utf8.filter { $0 == 0x0A }.count
                expected.append(line)
                let element: String
                switch Int.random(in: 0...2, using: &random) {
                case 0: element = scalars.randomElement(using: &random)!
                case 1: element = "{" + gap(&random) + "\"k\":" + gap(&random) + scalars.randomElement(using: &random)! + gap(&random) + "}"
                default: element = "[" + gap(&random) + scalars.randomElement(using: &random)! + gap(&random) + "]"
                }
                text += element
                line += element.utf8.filter { $0 == 0x0A }.count
                let after = gap(&random)
                text += after
                line += after.utf8.filter { $0 == 0x0A }.count
            }
            text += "]"
            let array = try #require(try JSONParser().parse(Array(text.utf8)).arrayWithLines, "\(text)")
            #expect(array.elementLines == expected, "\(text)")
            for (value, line) in array.elementsWithLines {
                if let object = value.objectValue { #expect(object.line == line, "\(text)") }
            }
        }
    }

    @Test func errorsNameLineAndColumnAndTellTruncationApart() {
        do {
            _ = try JSONParser().parse(Array("{\n  \"a\": [1,\n  2 3]\n}".utf8))
            Issue.record("parsed")
        } catch {
            #expect(error.line == 3 && error.column == 5 && !error.isTruncation)
        }
        do {
            _ = try JSONParser().parse(Array("{\n  \"a\": [1,".utf8))
            Issue.record("parsed")
        } catch {
            #expect(error.isTruncation && error.line == 2)
        }
    }

    @Test func deepNestingIsRefusedNotFatal() {
        let deep = String(repeating: "[", count: 10_000)
        #expect(throws: JSONSyntaxError.self) { try JSONParser().parse(Array(deep.utf8)) }
    }

    @Test func invalidUTF8IsFoundAtItsOffset() {
        #expect(firstInvalidUTF8Offset(Array("héllo 👋".utf8)) == nil)
        #expect(firstInvalidUTF8Offset([0x61, 0xC0, 0x80]) == 1, "overlong")
        #expect(firstInvalidUTF8Offset([0x61, 0x62, 0xED, 0xA0, 0x80]) == 2, "surrogate")
        #expect(firstInvalidUTF8Offset([0xF4, 0x90, 0x80, 0x80]) == 0, "past U+10FFFF")
        #expect(firstInvalidUTF8Offset([0xE2, 0x82]) == 0, "truncated sequence")
        // Agrees with the standard library on random bytes.
        var random = SeededGenerator(seed: 7)
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...12, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            #expect((firstInvalidUTF8Offset(bytes) == nil) == (String(validating: bytes, as: UTF8.self) != nil))
        }
    }

    /// Text made of ASCII runs of every length and valid sequences of every length, with now and
    /// then one bad sequence (a stray continuation, an overlong, a surrogate, past U+10FFFF, cut
    /// short, a byte never used): the offset is where the standard library's decoder meets its
    /// first error, wherever in an eight-byte word the bad byte falls.
    @Test func invalidUTF8IsFoundAtTheStandardLibrarysOffsetInMixedText() {
        func standardOffset(_ bytes: [UInt8]) -> Int? {
            var iterator = bytes.makeIterator()
            var decoder = Unicode.UTF8()
            var offset = 0
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): offset += UTF8.width(scalar)
                case .emptyInput: return nil
                case .error: return offset
                }
            }
        }
        let valid: [[UInt8]] = ["é", "ß", "߿", "ࠀ", "中", "’", "\u{FFFD}", "\u{D7FF}", "\u{E000}", "𐀀", "😀", "\u{10FFFF}"].map { Array(($0 as String).utf8) }
        let bad: [[UInt8]] = [[0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x9F, 0x80], [0xED, 0xA0, 0x80],
                              [0xF0, 0x8F, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF],
                              [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC3], [0xE2, 0x28, 0xA1], [0xC3, 0x41]]
        var random = SeededGenerator(seed: 0x7f8)
        var found = 0
        for _ in 0..<4_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...10, using: &random) {
                switch Int.random(in: 0..<20, using: &random) {
                case 0: bytes += bad[Int.random(in: 0..<bad.count, using: &random)]
                case 1...9: bytes += (0..<Int.random(in: 0...17, using: &random)).map { _ in UInt8.random(in: 0...0x7F, using: &random) }
                default: bytes += valid[Int.random(in: 0..<valid.count, using: &random)]
                }
            }
            let offset = firstInvalidUTF8Offset(bytes)
            #expect(offset == standardOffset(bytes), "\(bytes)")
            if offset != nil { found += 1 }
        }
        #expect(found > 500)
    }
}

@Suite struct TimestampTests {
    @Test func iso8601FormsWithOffsets() {
        let base = Int64(1_714_557_720) * 1_000_000
        #expect(LogTimestamp.microseconds(iso8601: "2024-05-01T10:02:00Z") == base)
        #expect(LogTimestamp.microseconds(iso8601: "2024-05-01T12:02:00+02:00") == base)
        #expect(LogTimestamp.microseconds(iso8601: "2024-05-01T05:32:00-0430") == base)
        #expect(LogTimestamp.microseconds(iso8601: "2024-05-01 10:02:00.1234567Z") == base + 123_456)
        for bad in ["2024-05-01T10:02:00", "2024-13-01T10:02:00Z", "2023-02-29T10:02:00Z", "2024-05-01T24:00:00Z", "yesterday", "2024-05-01T10:02Z"] {
            #expect(LogTimestamp.microseconds(iso8601: bad) == nil, "\(bad)")
        }
        #expect(LogTimestamp.microseconds(iso8601: "2024-02-29T00:00:00Z") != nil)
    }

    @Test func unixSecondsAreExact() {
        #expect(LogTimestamp.microseconds(unixSecondsLiteral: "1714557720.000200") == 1_714_557_720_000_200)
        #expect(LogTimestamp.microseconds(unixSecondsLiteral: "-1.5") == -1_500_000)
        #expect(LogTimestamp.microseconds(unixSecondsLiteral: "") == nil)
    }

    /// JSON numbers may carry an exponent (Java's doubles, and Jackson's, are written
    /// `1.7145578E9`): read exactly from the digits, as the plain form is.
    @Test func unixSecondsWithAnExponentAreExact() {
        #expect(LogTimestamp.microseconds(unixSecondsLiteral: "1e9") == 1_000_000_000_000_000)
        #expect(LogTimestamp.microseconds(unixSecondsLiteral: "1.7145578E9") == 1_714_557_800_000_000)
        #expect(LogTimestamp.microseconds(unixSecondsLiteral: "1.714557720000200e+9") == 1_714_557_720_000_200)
        #expect(LogTimestamp.microseconds(unixSecondsLiteral: "17145577200002005e-7") == 1_714_557_720_000_200, "digits past microseconds are cut")
        #expect(LogTimestamp.microseconds(unixSecondsLiteral: "-1.5E0") == -1_500_000)
        #expect(LogTimestamp.microseconds(unixSecondsLiteral: "0e999999999999") == 0)
        #expect(LogTimestamp.microseconds(unixSecondsLiteral: "5e-999999999999") == 0)
        // However many zeros the digits carry, the exponent counts in full (a reviewer's cases).
        let zeros = String(repeating: "0", count: 450)
        #expect(LogTimestamp.microseconds(unixSecondsLiteral: "0.\(zeros)17145578e459") == 171_455_780_000_000)
        #expect(LogTimestamp.microseconds(unixSecondsLiteral: "17145578\(zeros)e-450") == 17_145_578_000_000)
        #expect(LogTimestamp.unixDateHint("1e400") == "past year 9999 as Unix seconds")
        #expect(LogTimestamp.unixDateHint("-1e400") == "before year 0000 as Unix seconds")
        for bad in ["1e", "1e+", "e9", "1.7E9.5", "1E9E9", "1e9x", ".e9", "1e12", "9e999"] {
            #expect(LogTimestamp.microseconds(unixSecondsLiteral: bad) == nil, "\(bad)")
        }
        // Random instants over the range, each written plain and with its point moved by an
        // exponent both ways: all read the same.
        var random = SeededGenerator(seed: 0xE9)
        for _ in 0..<5_000 {
            let micros = Int64.random(in: LogTimestamp.earliest...LogTimestamp.latest, using: &random)
            let magnitude = micros.magnitude
            let digits = String(magnitude / 1_000_000) + "." + String(String(magnitude % 1_000_000 + 1_000_000).dropFirst())
            let sign = micros < 0 ? "-" : ""
            #expect(LogTimestamp.microseconds(unixSecondsLiteral: sign + digits) == micros)
            let all = digits.replacingOccurrences(of: ".", with: "")
            let shift = Int.random(in: 0...all.count, using: &random)
            let moved = String(all.prefix(shift)) + "." + String(all.dropFirst(shift)) + "e\(all.count - 6 - shift)"
            #expect(LogTimestamp.microseconds(unixSecondsLiteral: sign + moved) == micros, "\(sign + moved)")
            let zeros = String(repeating: "0", count: Int.random(in: 0...30, using: &random))
            #expect(LogTimestamp.microseconds(unixSecondsLiteral: sign + zeros + all + "E-6") == micros)
        }
    }

    @Test func writingAndReadingBackIsExactOverRandomInstants() {
        var random = SeededGenerator(seed: 2024)
        for _ in 0..<5_000 {
            let micros = Int64.random(in: -2_000_000_000_000_000...4_000_000_000_000_000, using: &random)
            let written = LogTimestamp.iso8601(microseconds: micros)
            #expect(LogTimestamp.microseconds(iso8601: written) == micros, "\(written)")
            #expect(LogTimestamp.microseconds(of: LogTimestamp.date(microseconds: micros)) == micros)
        }
        #expect(LogTimestamp.iso8601(microseconds: 1_714_557_720_250_000) == "2024-05-01T10:02:00.25Z")
    }
}

@Suite struct NativeWriterTests {
    @Test func anIncomingRecordLeavesOutgoingUnwrittenSoMeCanDecideOnRereading() throws {
        let header = LogMessageHeader(id: "1", senderName: "Camille", direction: .incoming, date: utcDate(2024, 1, 1, 0, 1))
        let line = LogTextMessage(header: header, text: "Bonne année").nativeLine
        #expect(!line.contains("outgoing"))
        let path = temporaryFile(Array((line + "\n").utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reread = try readAll(path, options: LogReadOptions(me: "Camille", timeZone: utc))
        #expect(reread.records.first?.direction == .outgoing)
    }

    @Test func recordsWriteTheirOwnKindWithoutASwitch() {
        let header = LogMessageHeader(id: "7", senderName: "Bob", direction: .outgoing, date: utcDate(2024, 5, 1, 10, 2), status: .read, isEdited: true, replyToID: "6")
        #expect(LogImageMessage(header: header, pixelWidth: 1280, pixelHeight: 720, imageName: "a.jpg", caption: "hi").nativeLine
            == #"{"id":"7","type":"image","from":"Bob","outgoing":true,"date":"2024-05-01T10:02:00Z","status":"read","edited":true,"replyTo":"6","image":{"width":1280,"height":720,"name":"a.jpg"},"text":"hi"}"#)
        let notice = LogSystemMessage(header: LogMessageHeader(id: "8", senderName: nil, date: utcDate(2024, 5, 1, 10, 3)), notice: "Bob pinned a message")
        #expect(notice.nativeLine == #"{"id":"8","type":"system","date":"2024-05-01T10:03:00Z","text":"Bob pinned a message"}"#)
    }

    @Test func controlAndBidiCharactersAreEscapedNeverRaw() throws {
        let hostile = try readAll(corpus("logs/hostile.jsonl"))
        #expect(hostile.diagnostics.isEmpty && hostile.records.count == 25)
        // Reading keeps the text as it was; only the terminal renderer neutralises it.
        #expect((hostile.records[1] as? LogTextMessage)?.text.contains("\u{1B}[2J") == true)
        for record in hostile.records {
            let line = record.nativeLine
            #expect(!line.unicodeScalars.contains { JSONObjectWriter.mustEscape($0.value) && $0 != "\"" && $0 != "\\" }, "\(line)")
        }
        let back = try roundTrip(hostile.records)
        for (a, b) in zip(hostile.records, back) { #expect(a.isSameRecord(as: b)) }
    }
}


/// Detection parses a JSON export leniently (Telegram writes `\xHH` escapes); the format it finds
/// then reads the document with its own rules, whichever way the format was chosen.
@Suite struct DetectedFormatStrictnessTests {
    /// The Discord fixture with one message's text holding `escape` in place of `find`.
    static func discordFile(replacing find: String, with escape: String) throws -> String {
        var text = try String(contentsOfFile: corpus("exports/discord/channel.json"), encoding: .utf8)
        let range = try #require(text.range(of: find))
        text.replaceSubrange(range, with: escape)
        let path = NSTemporaryDirectory() + "discord-escape-\(getpid())-\(escape.utf8.count).json"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test func anAutoDetectedDiscordFileGetsNoTelegramLeniency() throws {
        let lenient = try Self.discordFile(replacing: "\"Terminal Enthusiasts\"", with: "\"Terminal \\x45nthusiasts\"")
        let plain = try Self.discordFile(replacing: "\"Terminal Enthusiasts\"", with: "\"Terminal \\u0045nthusiasts\"")
        defer {
            try? FileManager.default.removeItem(atPath: lenient)
            try? FileManager.default.removeItem(atPath: plain)
        }
        for format in [LogFormat.auto, .discord] {
            #expect(throws: LogInputError.self) { _ = try LogSource.open(path: lenient, format: format, options: LogReadOptions()) }
            let reader = try LogSource.open(path: plain, format: format, options: LogReadOptions())
            #expect(reader.format == .discord)
        }
    }
}
