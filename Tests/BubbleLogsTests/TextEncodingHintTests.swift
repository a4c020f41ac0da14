@testable import BubbleLogs
import BubbleSamples
import BubbleTestSupport
import Foundation
import Testing

/// Text in an encoding the readers do not take as it is gets one note for the file, whatever
/// its format: UTF-16 without a byte order mark is read (and said), a legacy 8-bit encoding is
/// named with the command that converts it, and its lines are still each reported.
@Suite struct TextEncodingHintTests {
    private let advice = "not UTF-8: its bytes look like a legacy 8-bit encoding such as Windows-1252 (Latin-1), so each line holding one is rejected; convert the file first: iconv -f WINDOWS-1252 -t UTF-8"

    @Test func aWindows1252WhatsAppExportGetsOneNoteAndEachBadLineIsReported() throws {
        let path = corpus("exports/whatsapp/android-fr_FR-windows1252.txt")
        let reader = try LogSource.open(path: path, options: LogReadOptions(timeZone: utc))
        #expect(reader.notes == ["\(path): \(advice) \(path) > \(path.dropLast(4))-utf8.txt (with the file's own encoding if it is another, such as WINDOWS-1251 for Cyrillic)"])
        let result = try readAll(path)
        #expect(result.diagnosticLines == [
            "\(path):1: invalid UTF-8: byte 0xE9 at column 24",
            "\(path):2: invalid UTF-8: byte 0xE9 at column 23",
            // A continuation line is reported as it is read, before the message it follows.
            "\(path):5: invalid UTF-8 in a continuation line: byte 0xE0 at column 1",
            "\(path):4: invalid UTF-8: byte 0xE9 at column 24",
        ])
        #expect(result.texts == ["ok", "parfait"])
        #expect(result.counts.recordsIn == 6 && result.counts.rejected == 4 && result.counts.reconciles)
    }

    @Test func theHintCoversEveryTextFormatFromOnePlace() throws {
        // JSON Lines: the note, and the line still reported.
        let jsonl = temporaryFile(Array(#"{"id":"1","type":"text","from":"Ren"#.utf8) + [0xE9] + Array(#"","date":"2024-01-01T00:00:00Z","text":"ok"}"#.utf8) + [0x0A], suffix: ".jsonl")
        defer { try? FileManager.default.removeItem(atPath: jsonl) }
        let reader = try LogSource.open(path: jsonl)
        #expect(reader.notes.count == 1 && reader.notes[0].hasPrefix("\(jsonl): \(advice) \(jsonl) > \(jsonl).utf8"))
        let lines = try readAll(jsonl)
        #expect(lines.diagnosticLines == ["\(jsonl):1: invalid UTF-8: byte 0xE9 at column 36"])
        // A JSON export is refused whole, and its error carries the advice (no reader, so no note).
        let export = temporaryFile(Array(#"{"messages":[{"id":1,"type":"message","date_unixtime":"1700000000","from":"Ren"#.utf8) + [0xE9] + Array(#"","text":"x"}]}"#.utf8), suffix: ".json")
        defer { try? FileManager.default.removeItem(atPath: export) }
        let error = try #require(openError(export))
        #expect(error.message.hasPrefix("invalid JSON"))
        #expect(error.message.contains("(\(export): \(advice) \(export) > \(export).utf8"))
        // Standard input and a chat inside a zip have no file to name in the command.
        #expect(TextEncodingHint.notes(magic: .none, decodedPrefix: Array("caf\u{E9}".unicodeScalars.map { UInt8($0.value) }), isWhole: true, file: "Chat.zip:_chat.txt", path: nil)
            == ["Chat.zip:_chat.txt: \(advice) (with the file's own encoding if it is another, such as WINDOWS-1251 for Cyrillic)"])
        let zipped = try LogSource.open(path: corpus("exports/zip/damaged-chat.zip"))
        #expect(zipped.notes.count == 1 && zipped.notes[0].contains(advice))
    }

    @Test func onlyTextThatLooksLegacyGetsTheHint() {
        func looksLegacy(_ bytes: [UInt8], isWhole: Bool = true) -> Bool { TextEncodingHint.looksLikeLegacyEncoding(bytes, isWhole: isWhole) }
        #expect(looksLegacy(Array("na".utf8) + [0xEF] + Array("ve caf".utf8) + [0xE9]))
        #expect(looksLegacy(Array("Cyrillic in CP1251: ".utf8) + [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2]))
        // Good UTF-8, and UTF-8 with one damaged byte among many good sequences: no hint.
        #expect(!looksLegacy(Array("café, naïve, Привет, 你好".utf8)))
        #expect(!looksLegacy(Array("café, naïve, Привет, 你好 ".utf8) + [0xFF]))
        // A prefix cut in the middle of a sequence is not damage.
        #expect(!looksLegacy(Array("cafe ".utf8) + [0xE4, 0xBD], isWhole: false))
        // A binary file (control bytes) is not text in any encoding.
        var random = SeededGenerator(seed: 0xB1_4A47)
        let binary = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
        #expect(!looksLegacy(binary))
    }

    @Test func utf16WithoutAMarkIsReadAndSaid() throws {
        // android-en_GB.txt saved as UTF-16 little-endian without a mark reads as the UTF-8 file does.
        let path = corpus("exports/whatsapp/android-en_GB-utf16le-nomark.txt")
        let reader = try LogSource.open(path: path, options: LogReadOptions(timeZone: utc))
        #expect(reader.notes == ["\(path): read as UTF-16 little-endian: it has no byte order mark, but every other byte of its start is zero"])
        let unmarked = try readAll(path), plain = try readAll(corpus("exports/whatsapp/android-en_GB.txt"))
        #expect(unmarked.diagnostics.isEmpty && unmarked.records.count == plain.records.count && !plain.records.isEmpty)
        for (a, b) in zip(unmarked.records, plain.records) { #expect(a.isSameRecord(as: b)) }
        // JSON Lines, big-endian, from the sample log with its non-BMP characters and emoji.
        let sample = try String(contentsOfFile: corpus("logs/sample.jsonl"), encoding: .utf8)
        let bigEndian = temporaryFile([UInt8](sample.data(using: .utf16BigEndian)!), suffix: ".jsonl")
        defer { try? FileManager.default.removeItem(atPath: bigEndian) }
        let read = try readAll(bigEndian), original = try readAll(corpus("logs/sample.jsonl"))
        #expect(try LogSource.open(path: bigEndian).notes == ["\(bigEndian): read as UTF-16 big-endian: it has no byte order mark, but every other byte of its start is zero"])
        #expect(read.diagnostics.isEmpty && read.records.count == original.records.count)
        // The viewer indexes a JSON Lines file by its bytes only when it was not decoded.
        #expect(try LogSource.open(path: bigEndian).decodedFromUTF16)
        #expect(try LogSource.open(path: corpus("logs/sample-utf16be.jsonl")).decodedFromUTF16)
        #expect(try !LogSource.open(path: corpus("logs/sample.jsonl")).decodedFromUTF16)
        for (a, b) in zip(read.records, original.records) { #expect(a.isSameRecord(as: b)) }
    }

    @Test func unmarkedUTF16IsToldOnlyByZerosOnOneSide() {
        let text = "13/01/2024, 20:15 - René: ☀ ok"
        #expect(InputMagic.sniff(Array(text.data(using: .utf16LittleEndian)!)) == .utf16LittleEndianUnmarked)
        #expect(InputMagic.sniff(Array(text.data(using: .utf16BigEndian)!)) == .utf16BigEndianUnmarked)
        #expect(InputMagic.sniff(Array(text.utf8)) == .none)
        // UTF-32 without a mark has zero bytes on both sides of its units; so has a binary file.
        #expect(InputMagic.sniff(Array(text.data(using: .utf32LittleEndian)!)) == .none)
        #expect(InputMagic.sniff([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]) == .none)
        // Too short to tell, and text that is mostly not ASCII (no zero bytes to see).
        #expect(InputMagic.sniff(Array("{}".data(using: .utf16LittleEndian)!)) == .none)
        #expect(InputMagic.sniff(Array("你好你好你好你好".data(using: .utf16LittleEndian)!)) == .none)
    }

    /// The JSON Lines fuzzer's finding (Corpora/findings/jsonl-utf16-unmarked-after-utf8.bin):
    /// a UTF-8 line, then UTF-16 little-endian text without a mark. Its zero bytes make it UTF-16,
    /// and every line of its decoding (by the standard library here) is one record, read or reported.
    @Test func anInputTakenForUnmarkedUTF16HasEveryDecodedLineAccountedFor() throws {
        let path = corpus("findings/jsonl-utf16-unmarked-after-utf8.bin")
        let raw = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(InputMagic.sniff(raw) == .utf16LittleEndianUnmarked)
        var units: [UInt16] = stride(from: 0, to: raw.count - 1, by: 2).map { UInt16(raw[$0 + 1]) << 8 | UInt16(raw[$0]) }
        if raw.count % 2 == 1 { units.append(0xFFFD) }
        let text = String(decoding: units, as: UTF16.self)
        // Lines end at LF (by scalars: CR LF is one Character), a CR before it is dropped.
        let nonBlank = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" } }.count
        let result = try readAll(path, format: .jsonl)
        #expect(result.counts.recordsIn == nonBlank && result.counts.reconciles)
    }
}
