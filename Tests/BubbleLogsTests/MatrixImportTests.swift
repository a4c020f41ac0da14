import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

@Suite struct MatrixImportTests {
    static let export = "exports/matrix/matrix - Climbing crew - Chat Export.json"

    @Test func elementExportReadsMessagesRepliesEditsReactionsAndNotices() throws {
        let result = try readAll(corpus(Self.export))
        #expect(result.format == .matrix)
        #expect(result.diagnostics.isEmpty)
        #expect(result.texts == [
            "Lena Vogel created the room", "Lena Vogel joined the room", "Lena Vogel named the room Climbing crew",
            "Lena Vogel invited Ana Lima", "Ana Lima joined the room", "Climbing on Saturday? 🧗",
            "Yes, at 10\n[reactions: 👍 Ana Lima]", "wall.jpg", "Meet at 9:30", "[file: waiver.pdf]", "Message deleted",
            "* Lena Vogel waves 👋", "Lena Vogel changed the topic to Saturdays at the gym", "Ana Lima left the room",
        ])
        #expect(result.kinds == ["system", "system", "system", "system", "system", "text", "text", "image", "text", "text", "text", "text", "system", "system"])
        // The reaction and the edit belong to the events they concern: no rows of their own.
        #expect(result.counts.recordsIn == 14 && result.counts.reconciles)
        #expect(result.records[6].header.replyToID == "$ev06")
        #expect(result.records[8].header.isEdited && result.records[8].id == "$ev10")
        let image = try #require(result.records[7] as? LogImageMessage)
        #expect(image.pixelWidth == 1200 && image.pixelHeight == 800)
        // The exporter, named by display name, is "me".
        #expect(result.records.filter { $0.direction == .outgoing }.map(\.id) == ["$ev07", "$ev10", "$ev14"])
        #expect(result.senders[5] == "Ana Lima")
        #expect(result.records[5].date == utcDate(2024, 3, 2, 18, 3))
    }

    @Test func convertedRecordsReadBackTheSame() throws {
        let result = try readAll(corpus(Self.export))
        #expect(try roundTrip(result.records).map(\.nativeLine) == result.records.map(\.nativeLine))
    }

    @Test func badEventsAreRejectedOneByOne() throws {
        let json = #"{"room_name": "R", "exported_by": "A", "messages": [{"type": "m.room.message", "sender": "@a:x", "content": {"body": "no time"}}, 3, {"type": "m.room.message", "origin_server_ts": "soon", "content": {}}, {"type": "m.room.message", "origin_server_ts": 1, "sender": "@a:x", "content": {"msgtype": "m.text", "body": "ok"}}]}"#
        let result = try readAll(temporaryFile(Array(json.utf8), suffix: ".json"))
        #expect(result.format == .matrix)
        #expect(result.texts == ["ok"])
        #expect(result.counts.rejected == 3 && result.counts.reconciles)
    }

    @Test func replyFallbackIsDroppedOnlyWhenItIsOne() {
        #expect(MatrixEventDecoder.withoutReplyFallback("> <@a:x> hi\n> more\n\nanswer") == "answer")
        #expect(MatrixEventDecoder.withoutReplyFallback("> a quote I wrote\nand no blank line") == "> a quote I wrote\nand no blank line")
    }
}
