import Foundation
import Testing

/// A Telegram export is streamed: the peak of reading one eight times larger, of the same
/// messages, is about the same, as the document's bytes are never all held (the real `bubbles`
/// under `ulimit -v`, as `MemoryBoundTests` runs it).
@Suite(.serialized) struct JSONStreamMemoryTests {
    /// A full export of `messages` messages of about 1 KB (members a reader skips), one chat.
    static func export(_ name: String, messages: Int, in folder: String) throws -> (path: String, size: Int) {
        let filler = (0..<120).map { "\"k\($0)\": \($0 % 10)" }.joined(separator: ", ")
        let list = (0..<messages).map {
            #"{"id": \#($0 + 1), "type": "message", "date_unixtime": "\#(1714557720 + $0)", "from": "Bob", "from_id": "user2", "text": "hi \#($0)", "#
                + filler + "}"
        }.joined(separator: ",\n")
        let text = #"{"personal_information": {"user_id": 1, "first_name": "Ann"}, "chats": {"list": [{"name": "Bob", "type": "personal_chat", "id": 2, "messages": ["#
            + "\n" + list + "\n]}]}}"
        let path = folder + "/" + name + ".json"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return (path, text.utf8.count)
    }

    @Test(.enabled(if: MemoryBoundTests.canRun, "\(MemoryBoundTests.needs)"))
    func anExportEightTimesLargerPeaksAboutTheSame() throws {
        let folder = try MemoryBoundTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let small = try Self.export("small", messages: 4_000, in: folder)
        let large = try Self.export("large", messages: 32_000, in: folder)
        let runs = try [small.path, large.path].map { path in
            try MemoryBoundTests.run(["heights", path, "--width", "40", "--verbose"])
        }
        for run in runs { #expect(run.status == 0, "\(run.stderr)") }
        #expect(runs[1].stderr.contains("32000 records, 32000 laid out, 0 rejected"), "\(runs[1].stderr)")
        let growth = runs[1].peakBytes - runs[0].peakBytes
        // Held whole, the larger document alone would add its 28 MB of text, and more as a tree.
        #expect(growth < (large.size - small.size) / 4,
                "peak \(runs[0].peakBytes >> 20) → \(runs[1].peakBytes >> 20) MiB for \(small.size >> 20) → \(large.size >> 20) MiB")
    }
}
