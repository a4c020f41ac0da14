import Foundation
import Testing
@testable import BubblesCLI
import BubbleLogs

/// Whatever `convert` writes, JSON Lines reads back: a record whose line would pass the line
/// limit is reported with its place in the input and counted as rejected, never written.
@Suite struct ConvertLineLimitTests {
    @Test func aRecordTooLongToReadBackIsRejectedWhereItCameFrom() throws {
        // A Telegram message of 17 MB of text (an export is read whole, so it holds one).
        let big = #"{"id": 2, "type": "message", "date_unixtime": "1714557780", "from": "Ann", "text": ""# + String(repeating: "a", count: 17_000_000) + "\"}"
        let small = #"{"id": 1, "type": "message", "date_unixtime": "1714557720", "from": "Ann", "text": "hi"}"#
        let text = "{\"name\": \"Ann\", \"type\": \"personal_chat\", \"id\": 1, \"messages\": [\n" + small + ",\n" + big + "\n]}\n"
        let path = NSTemporaryDirectory() + "bubbles-long-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).json"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        defer { unlink(path) }
        let run = bubbles("convert", path, "--tz", "UTC")
        #expect(run.code == ExitCode.rejectedInput)
        #expect(run.errors.contains("\(path):3: message 2: its JSON Lines record would be 16.2 MiB, longer than the 16 MiB a line may have to be read back; not written"), "\(run.errors.prefix(600))")
        #expect(run.errors.contains("1 written, 1 rejected") || run.errors.contains("2 records, 1 written, 1 rejected"), "\(run.errors.suffix(300))")
        #expect(run.outputLines.count == 1)
        #expect(run.outputLines.allSatisfy { $0.utf8.count <= LogReader.maximumLineLength })
        // What was written reads back whole.
        let written = NSTemporaryDirectory() + "bubbles-long-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).jsonl"
        try run.output.write(toFile: written, atomically: false, encoding: .utf8)
        defer { unlink(written) }
        let back = bubbles("convert", written)
        #expect(back.code == ExitCode.success, "\(back.errors)")
    }
}
