import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

@Suite struct HangoutsImportTests {
    static let export = "exports/hangouts/Hangouts.json"

    @Test func hangoutsReadsConversationsSegmentsPhotosAndNotices() throws {
        let result = try readAll(corpus(Self.export))
        #expect(result.format == .hangouts)
        #expect(result.diagnostics.isEmpty)
        #expect(result.texts == [
            "Hangouts chat “Ana Lima”", "Do you still have my harness?", "Yes, I'll bring it",
            "Hangouts chat “Climbing crew”", "Lena Vogel added Ana Lima and Ben Okafor", "Lena Vogel named the conversation Climbing crew",
            "Climbing on Saturday?\nRoute list: gym.example/routes", "Yes, at 10 😀", "wall.jpg",
            "Ana Lima started a call", "Call ended (12:34)", "Ben Okafor left",
        ])
        #expect(result.kinds == ["system", "text", "text", "system", "system", "system", "text", "text", "image", "system", "system", "system"])
        #expect(result.counts.recordsIn == 12 && result.counts.reconciles)
        #expect((result.records[6] as? LogTextMessage)?.textSpans == [TextSpan(start: 12, end: 20, style: .bold)])
        #expect((result.records[2] as? LogTextMessage)?.textSpans == [TextSpan(start: 0, end: 3, style: .italic)])
        let photo = try #require(result.records[8] as? LogImageMessage)
        #expect(photo.pixelWidth == 1200 && photo.pixelHeight == 800)
        // The owner (self_conversation_state) is me.
        #expect(result.records.filter { $0.direction == .outgoing }.map(\.senderName) == ["Lena Vogel", "Lena Vogel"])
        #expect(result.records[7].date == utcDate(2016, 3, 5, 21, 15, 25))
        #expect(result.records[1].header.conversationID == "Ugw9XyZ0a1b2c3d4AaABAQ")
    }

    @Test func aConversationNobodyHasIsRefusedNamingThoseThereAre() throws {
        var options = LogReadOptions(timeZone: utc)
        options.conversation = "Nobody"
        let error = try #require(openError(corpus(Self.export), options: options))
        #expect(error.file == corpus(Self.export))
        #expect(error.message.hasPrefix("no conversation named \"Nobody\"; the export has 2: \"Ana Lima\", \"Climbing crew\""))
    }

    /// Takeout's archive as downloaded: `Takeout/Hangouts/Hangouts.json` inside, read as the file is.
    @Test func aTakeoutArchiveIsReadAsItsHangoutsJSON() throws {
        let zipped = try readAll(corpus("exports/zip/takeout-hangouts.zip"))
        let file = try readAll(corpus(Self.export))
        #expect(zipped.format == .hangouts)
        #expect(zipped.texts == file.texts && zipped.senders == file.senders && zipped.kinds == file.kinds)
        #expect(zipped.diagnosticLines.allSatisfy { $0.hasPrefix(corpus("exports/zip/takeout-hangouts.zip") + ":Takeout/Hangouts/Hangouts.json") })
        #expect(try readAll(corpus("exports/zip/takeout-hangouts.zip"), format: .hangouts).texts == file.texts)
        #expect(openError(corpus("exports/zip/slack-export.zip"), format: .hangouts)?.message.hasPrefix("no Hangouts.json in this archive") == true)
    }

    @Test func oneConversationIsChosenByName() throws {
        var options = LogReadOptions(timeZone: utc)
        options.conversation = "Ana Lima"
        #expect(try readAll(corpus(Self.export), options: options).texts == ["Do you still have my harness?", "Yes, I'll bring it"])
    }

    @Test func convertedRecordsReadBackTheSame() throws {
        let result = try readAll(corpus(Self.export))
        #expect(try roundTrip(result.records).map(\.nativeLine) == result.records.map(\.nativeLine))
    }

    @Test func badEventsAreRejectedOneByOne() throws {
        let json = #"{"conversations": [{"conversation": {"conversation_id": {"id": "c"}, "conversation": {"participant_data": [{"id": {"gaia_id": "1"}, "fallback_name": "Ana"}]}}, "events": [{"sender_id": {"gaia_id": "1"}, "timestamp": "1457212345000000", "chat_message": {"message_content": {"segment": [{"type": "TEXT", "text": "ok"}]}}}, {"timestamp": "soon"}, 4, {"sender_id": {"gaia_id": "1"}}]}, {"events": 3}]}"#
        let result = try readAll(temporaryFile(Array(json.utf8), suffix: ".json"))
        #expect(result.format == .hangouts)
        #expect(result.texts == ["ok"])
        #expect(result.counts.rejected == 4 && result.counts.reconciles)
        #expect(openError(corpus("exports/hangouts/truncated.json"))?.message.contains("truncated JSON") == true)
    }
}
