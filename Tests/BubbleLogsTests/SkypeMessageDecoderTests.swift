import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

/// The kinds of Skype message that exports made by newer and older clients hold (see the Skype
/// article's "Where the shape was checked"), read by `SkypeExport` and `SkypeMessageDecoder`.
@Suite struct SkypeMessageDecoderTests {
    static let export = "exports/skype/more-kinds/messages.json"

    @Test func editsReactionsHTMLBotsAndHandshakesRead() throws {
        let result = try readAll(corpus(Self.export))
        #expect(result.format == .skype)
        #expect(result.diagnostics.isEmpty)
        #expect(result.texts == [
            "Welcome to Skype!",
            "Marco Rossi invited to a private conversation",
            "Packing list:\nchalk\ntape & brush\nfirst line\nsecond line",
            "Message deleted",
            "Meet at 9:30",
            "See you at the wall\n[reactions: 👍 live:lena.vogel, ❤️ Marco Rossi, (muscle) live:lena.vogel]",
            "crag.jpg",
        ])
        #expect(result.kinds == ["text", "system", "text", "text", "text", "text", "image"])
        // The edit's first version and the server's blank message are no records; Skype's call
        // log is left out, so one conversation is read, without a heading.
        #expect(result.counts.recordsIn == 7 && result.counts.reconciles)
        #expect(result.records.map(\.id) == ["1714470400000", "1714470500000", "1714470600000", "1714470700000", "1714470900500",
                                             "1714471200000", "1714471300000"])
        #expect(result.senders == ["Skype Concierge", nil, "live:lena.vogel", "live:lena.vogel", "Marco Rossi", "Marco Rossi", "Marco Rossi"])
        #expect(result.records.map(\.direction) == [.incoming, .incoming, .outgoing, .outgoing, .incoming, .incoming, .incoming])
        #expect(result.records[3].header.isEdited && (result.records[3] as? LogTextMessage)?.textStyle == .notice)
        #expect(result.records[4].header.isEdited && !result.records[5].header.isEdited)
        let photo = try #require(result.records[6] as? LogImageMessage)
        #expect(photo.pixelWidth == 1024 && photo.pixelHeight == 768 && photo.caption == "[reactions: 😮 live:lena.vogel]")
    }

    /// One message in an export of one conversation.
    static func export(_ message: String) -> [UInt8] {
        Array(("{\"userId\":\"8:live:me\",\"exportDate\":\"2024-05-01T08:00\",\"conversations\":[{\"id\":\"8:live:ana\",\"displayName\":\"Ana\","
            + "\"properties\":null,\"threadProperties\":null,\"MessageList\":[" + message + "]}]}").utf8)
    }

    func read(_ message: String) throws -> ReadResult {
        try readAll(temporaryFile(Self.export(message), suffix: ".json"))
    }

    @Test func reactionsWrittenAsAJSONStringAreReadToo() throws {
        let message = #"{"id":"1","originalarrivaltime":"2024-04-30T10:00:00.000Z","messagetype":"Text","from":"8:live:ana","displayName":"Ana","content":"hi","properties":{"emotions":"[{\"key\":\"laugh\",\"users\":[{\"mri\":\"8:live:ana\",\"time\":1}]}]"}}"#
        #expect(try read(message).texts == ["hi\n[reactions: 😆 Ana]"])
    }

    @Test func aBlankMessageTheServerDidNotGenerateIsStillADeletion() throws {
        let message = #"{"id":"1","originalarrivaltime":"2024-04-30T10:00:00.000Z","messagetype":"RichText","from":"8:live:ana","displayName":"Ana","content":"","properties":null}"#
        let result = try read(message)
        #expect(result.texts == ["Message deleted"] && result.counts.recordsIn == 1)
    }

    @Test func versionsOfDifferentSendersAtOneTimeAreKept() throws {
        let edited = #"{"id":"2","originalarrivaltime":"2024-04-30T10:00:00.000Z","messagetype":"RichText","from":"8:live:ana","displayName":"Ana","content":"fixed<e_m a=\"live:ana\" ts_ms=\"1\" ts=\"1\" t=\"61\"/>","properties":{"edittime":"1714471260000"}}"#
        let other = #"{"id":"1","originalarrivaltime":"2024-04-30T10:00:00.000Z","messagetype":"RichText","from":"8:live:me","content":"mine at the same moment","properties":null}"#
        let result = try read(edited + "," + other)
        #expect(result.texts.sorted() == ["fixed", "mine at the same moment"])
    }
}
