import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

@Suite struct SignalImportTests {
    static let markdown = "exports/signal/Ana Lima/chat.md"
    static let json = "exports/signal/Ana Lima/data.json"

    static let texts = [
        "Olá! Are we climbing on Saturday? 🧗\n[reactions: 👍 Me]",
        "> Olá! Are we climbing on Saturday? 🧗\nYes, 10:00 at the gym",
        "wall.jpg",
        "[sticker 💪]",
        "This message was deleted",
        "Outgoing video call (3m 20s)",
        "See you!\nTchau 👋\n[attachment not exported]",
    ]

    @Test func markdownIsSignalNotWhatsApp() throws {
        let result = try readAll(corpus(Self.markdown))
        #expect(result.format == .signal)
        #expect(result.diagnostics.isEmpty)
        #expect(result.texts == Self.texts)
        #expect(result.kinds == ["text", "text", "image", "text", "text", "text", "text"])
        #expect(result.records.map(\.id) == ["L1", "L4", "L10", "L13", "L16", "L18", "L20"])
        #expect(result.records.map(\.direction) == [.incoming, .outgoing, .incoming, .outgoing, .incoming, .outgoing, .incoming])
        #expect((result.records[2] as? LogImageMessage)?.caption == "The new wall\n[file: route.pdf]\n[reactions: ❤️ Me, 😮 Ana Lima]")
        #expect((result.records[4] as? LogTextMessage)?.textStyle == .notice)
        #expect(result.records[1].date == utcDate(2024, 3, 2, 18, 2, 45))
        #expect(result.counts.recordsIn == 7 && result.counts.reconciles)
    }

    @Test func jsonLinesAreSignalNotNative() throws {
        let result = try readAll(corpus(Self.json))
        #expect(result.format == .signal)
        #expect(result.diagnostics.isEmpty)
        #expect(result.texts == Self.texts)
        // The JSON says which message is a call: a system row.
        #expect(result.kinds == ["text", "text", "image", "text", "text", "system", "text"])
        #expect(result.records.map(\.id) == ["L1", "L2", "L3", "L4", "L5", "L6", "L7"])
        #expect(result.records[1].date == utcDate(2024, 3, 2, 18, 2, 45).addingTimeInterval(0.25))
        #expect((result.records[2] as? LogImageMessage)?.caption == "The new wall\n[file: route.pdf]\n[reactions: ❤️ Me, 😮 Ana Lima]")
        let berlin = try readAll(corpus(Self.json), options: LogReadOptions(timeZone: TimeZone(identifier: "Europe/Berlin")!))
        #expect(berlin.records[0].date == utcDate(2024, 3, 2, 17, 1, 10))
    }

    @Test func convertedRecordsReadBackTheSame() throws {
        for path in [Self.markdown, Self.json] {
            let result = try readAll(corpus(path))
            let back = try roundTrip(result.records)
            #expect(back.map(\.nativeLine) == result.records.map(\.nativeLine))
        }
    }

    @Test func badRecordsAreRejectedOneByOne() throws {
        let lines = [
            #"{"date": "2024-03-02T18:01:10", "sender": "Ana", "body": "ok"}"#,
            #"{"date": "yesterday", "sender": "Ana", "body": "x"}"#,
            #"{"date": "2024-03-02T18:01:10", "sender": "Ana", "body": "cut"#,
            #"{"date": "2024-03-02T18:01:10", "body": "no sender"}"#,
            #"{"date": "2024-03-02T18:01:10", "sender": "Ana", "body": "x", "reactions": ["👍"]}"#,
        ]
        let result = try readAll(temporaryFile(Array((lines.joined(separator: "\n") + "\n").utf8), suffix: ".json"))
        #expect(result.format == .signal)
        #expect(result.records.count == 1 && result.counts.rejected == 4 && result.counts.reconciles)
        #expect(result.diagnostics.map(\.position.line) == [2, 3, 4, 5])
        #expect(result.diagnostics[0].reason.hasPrefix("unreadable date \"yesterday\""))
        #expect(result.diagnostics[1].reason.hasPrefix("truncated JSON"))
        #expect(result.diagnostics[2].reason == "missing field \"sender\"")
    }

    @Test func whatsAppWithISODatesStaysWhatsApp() throws {
        // No blank line between messages: WhatsApp's shape, not signal-export's.
        let text = "[2024-03-02 18:01:10] Ana: hi\n[2024-03-02 18:02:10] Ben: hello\n"
        let path = temporaryFile(Array(text.utf8), suffix: ".txt")
        #expect(SignalExport.looksLikeMarkdown(ArraySlice(Array(text.utf8)), isWhole: true) == false)
        if let result = try? readAll(path) { #expect(result.format != .signal) }
    }
}
