import BubbleTestSupport
import BubbleLogs
import Foundation
import Testing

/// A UTF-8 byte order mark is not text: JSON Lines are counted and numbered as if it were not
/// there, so a mark before a blank first line leaves no record (issue 15: the JSON Lines fuzzer
/// once expected one; the harness was wrong and now drops the mark before counting lines).
@Suite struct UTF8ByteOrderMarkTests {
    private func read(_ bytes: [UInt8]) throws -> (lines: [Int?], counts: LogCounts) {
        let reader = try LogSource.open(bytes: bytes, name: "log.jsonl", format: .jsonl, options: LogReadOptions(timeZone: utc))
        var lines: [Int?] = []
        for entry in reader {
            switch entry {
            case .message(_, let position): lines.append(position.line)
            case .diagnostic(let diagnostic): lines.append(diagnostic.line)
            }
        }
        return (lines, reader.counts)
    }

    @Test func theFuzzersMarkBeforeABlankLineIsNoRecord() throws {
        let path = corpus("findings/jsonl-utf8-bom-blank-line.bin")
        let saved = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(saved == [0xEF, 0xBB, 0xBF, 0x0D])
        let (lines, counts) = try read(saved)
        #expect(lines.isEmpty)
        #expect(counts.recordsIn == 0 && counts.blankLinesSkipped == 1)
        // The same from the file.
        let fromFile = try LogSource.open(path: path, format: .jsonl)
        #expect(Array(fromFile).isEmpty)
        #expect(fromFile.counts == counts)
    }

    @Test func recordsAfterAMarkAreNumberedFromTheirOwnLines() throws {
        let record = #"{"id":"1","type":"text","from":"A","date":"2024-05-01T10:00:00Z","text":"hi"}"#
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        for (text, expected) in [(record + "\n", [1]), (" \t\r\n" + record, [2]), ("\n\n" + record + "\nnot json\n", [3, 4])] {
            let (lines, counts) = try read(mark + Array(text.utf8))
            #expect(lines == expected.map(Optional.some), "\(text.debugDescription)")
            #expect(counts.recordsIn == expected.count)
            // Without the mark, the same lines.
            #expect(try read(Array(text.utf8)).lines == lines)
        }
    }
}
