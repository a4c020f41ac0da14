import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

@Suite struct SkypeImportTests {
    static let export = "exports/skype/messages.json"
    static let tar = "exports/skype/8_live_lena.vogel_export.tar"

    static let expectedTexts = [
        "Skype chat “Climbing crew”", "Lena Vogel added Ana Lima and Ben Okafor", "Lena Vogel named the group Climbing crew",
        "@Ana Lima do you have two harnesses? 1 < 2", "Yes, <two> of them", "Missed call from Ben Okafor", "Ben Okafor left",
        "Skype chat “Ana Lima”", "Climbing on Saturday? :)", "Yes & bring the rope",
        "Meet at 9:30 at the north gym (https://gym.example/north)", "wall.jpg", "[file: waiver.pdf]",
        "Ana Lima started a call", "Call ended (12:34)", "Message deleted", "[voice message: VoiceMessage.m4a]",
    ]

    @Test func exportReadsConversationsInTimeOrderWithMarkupMadePlain() throws {
        let result = try readAll(corpus(Self.export))
        #expect(result.format == .skype)
        #expect(result.diagnostics.isEmpty)
        #expect(result.texts == Self.expectedTexts)
        #expect(result.kinds == ["system", "system", "system", "text", "text", "system", "system", "system", "text", "text", "text",
                                 "image", "text", "system", "system", "text", "text"])
        // The calllogs conversation has no messages and is left out: two conversations, two headings.
        #expect(result.counts.recordsIn == 17 && result.counts.reconciles)
        let bold = try #require(result.records[8] as? LogTextMessage)
        #expect(bold.textSpans == [TextSpan(start: 12, end: 20, style: .bold)])
        let italic = try #require(result.records[3] as? LogTextMessage)
        #expect(italic.textSpans == [TextSpan(start: 22, end: 25, style: .italic)])
        // The quote points at the message it quotes; the edit mark and edittime mark the edit.
        #expect(result.records[9].header.replyToID == "8:live:ana.lima/1709402592345")
        #expect(result.records[10].header.isEdited && !result.records[9].header.isEdited)
        let image = try #require(result.records[11] as? LogImageMessage)
        #expect(image.pixelWidth == 1200 && image.pixelHeight == 800)
        #expect((result.records[15] as? LogTextMessage)?.textStyle == .notice)
        // The owner (userId) is "me", named by the call that names them.
        #expect(result.records.filter { $0.direction == .outgoing }.map(\.id)
            == ["8:live:ana.lima/1709402650120", "8:live:ana.lima/1709402700000", "8:live:ana.lima/1709402900000"])
        #expect(result.senders[9] == "Lena Vogel")
        #expect(result.records[8].date == utcDate(2024, 3, 2, 18, 3, 12).addingTimeInterval(0.345))
        #expect(result.records[8].header.conversationID == "8:live:ana.lima")
    }

    @Test func meNamesAnotherOwner() throws {
        var options = LogReadOptions(timeZone: utc)
        options.me = "Ana Lima"
        let result = try readAll(corpus(Self.export), options: options)
        #expect(result.records.filter { $0.direction == .outgoing }.count == 5)
    }

    @Test func oneConversationIsChosenByNameOrID() throws {
        var options = LogReadOptions(timeZone: utc)
        options.conversation = "Climbing crew"
        let result = try readAll(corpus(Self.export), options: options)
        #expect(result.texts == Array(Self.expectedTexts[1...6]))
        options.conversation = "nobody"
        #expect(openError(corpus(Self.export), options: options)?.kind == .conversationNotFound)
    }

    @Test func theExportsTarReadsAsItsMessagesJSON() throws {
        let result = try readAll(corpus(Self.tar))
        #expect(result.format == .skype)
        #expect(result.texts == Self.expectedTexts)
        let inMemory = try LogSource.open(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: corpus(Self.tar)))), name: "export.tar")
        #expect(inMemory.format == .skype && inMemory.file == "export.tar:messages.json")
    }

    @Test func aTarWithoutMessagesOrDamagedIsRefusedWithOneError() throws {
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: corpus(Self.tar))))
        // The first header's name changed: its checksum no longer holds.
        bytes[0] = UInt8(ascii: "X")
        let damaged = openError(temporaryFile(bytes, suffix: ".tar"))
        #expect(damaged?.message.contains("fails its checksum") == true)
        let cut = openError(temporaryFile(Array(bytes.prefix(700)), suffix: ".tar"))
        #expect(cut != nil)
        let notSkype = openError(corpus(Self.tar), format: .telegram)
        #expect(notSkype?.message.contains("only a Skype export") == true)
    }

    @Test func convertedRecordsReadBackTheSame() throws {
        let result = try readAll(corpus(Self.export))
        #expect(try roundTrip(result.records).map(\.nativeLine) == result.records.map(\.nativeLine))
    }

    @Test func badMessagesAreRejectedOneByOne() throws {
        let json = #"{"userId":"live:a","exportDate":"2024-01-01T00:00","conversations":[{"id":"8:live:b","displayName":"B","MessageList":[{"id":"3","originalarrivaltime":"2024-01-01T10:00:00.000Z","messagetype":"RichText","from":"8:live:b","content":"ok"},{"id":"2","originalarrivaltime":"yesterday","messagetype":"RichText","from":"8:live:b","content":"x"},7,{"id":"1","messagetype":"RichText","content":"no time"}]},{"id":"9","MessageList":"none"}]}"#
        let result = try readAll(temporaryFile(Array(json.utf8), suffix: ".json"))
        #expect(result.format == .skype)
        #expect(result.texts == ["ok"])
        #expect(result.counts.rejected == 4 && result.counts.reconciles)
        #expect(result.diagnostics.contains { $0.reason.contains("unreadable date \"yesterday\"") })
        #expect(result.diagnostics.contains { $0.reason.contains("\"MessageList\" must be an array") })
    }

    @Test func markupIsReadLeniently() {
        let tree = SkypeMarkup.parse("a <b>bold <i>both</b> &amp; &#x1F600; &bogus; < 3 <unclosed x='1'>tail")
        #expect(tree.text == "a bold both & 😀 &bogus; < 3 tail")
        // References are decoded as the HTML readers decode them: a number that is no scalar is
        // U+FFFD, a reference without its `;` stays as written.
        #expect(SkypeMarkup.parse("&#0; &#xD800; &#65 &#66;").text == "\u{FFFD} \u{FFFD} &#65 B")
        // Deep nesting is read flat past the limit, not recursed into.
        let deep = String(repeating: "<b>", count: 10_000) + "x"
        #expect(SkypeMarkup.parse(deep).text == "x")
        #expect(SkypeMessageDecoder.bareID("8:live:ana") == "live:ana" && SkypeMessageDecoder.bareID("live:ana") == "live:ana")
    }
}
