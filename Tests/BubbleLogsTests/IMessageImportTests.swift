import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

@Suite struct IMessageImportTests {
    static let chat = "exports/imessage/Climbing crew - 12.txt"

    @Test func exporterTextReadsEveryBlockWithRepliesReactionsAndEdits() throws {
        let result = try readAll(corpus(Self.chat))
        #expect(result.format == .imessage)
        #expect(result.diagnostics.isEmpty)
        #expect(result.texts == [
            "Lena renamed the conversation to Climbing crew",
            "Bouldering on Saturday? 🧗‍♀️\n[reactions: ❤️ Me, 👍 Aiko Tanaka]",
            "Yes! 10:00 at the new gym",
            "行きます！",
            "IMG_0042.HEIC",
            "Meet at 9:30?",
            "You deleted a message.",
            "[file: gym-waiver.pdf]\nPlease sign",
            "[sticker]",
            "First paragraph\n\nsecond paragraph, after a blank line",
            "Ça marche 👍",
        ])
        #expect(result.kinds == ["system", "text", "text", "text", "image", "text", "text", "text", "text", "text", "text"])
        #expect(result.counts.recordsIn == 11 && result.counts.reconciles)
        #expect(result.records.map(\.direction) == [.incoming, .incoming, .outgoing, .incoming, .outgoing, .incoming, .outgoing,
                                                     .incoming, .incoming, .outgoing, .incoming])
        #expect(result.records.map(\.id) == ["L1", "L3", "L9", "L12", "L16", "L23", "L28", "L32", "L38", "L42", "L48"])
        // Replies point at the message they are written under.
        #expect(result.records[2].header.replyToID == "L3" && result.records[3].header.replyToID == "L3")
        #expect(result.records[5].header.isEdited)
        #expect((result.records[6] as? LogTextMessage)?.textStyle == .notice)
        #expect((result.records[4] as? LogImageMessage)?.caption == "Look at this wall\nSent with Confetti\n[photo: IMG_0043.HEIC]")
        // Local times of the exporting Mac, read in the options' zone; 12 AM is just after midnight.
        #expect(result.records[1].date == utcDate(2024, 3, 2, 18, 1, 10))
        #expect(result.records[9].date == utcDate(2024, 3, 2, 23, 59, 59))
        #expect(result.records[10].date == utcDate(2024, 3, 3, 0, 30))
        let reader = try LogSource.open(path: corpus(Self.chat), options: LogReadOptions(timeZone: utc))
        while reader.next() != nil {}
        #expect(reader.readZonelessTimes)
        let berlin = try readAll(corpus(Self.chat), options: LogReadOptions(timeZone: TimeZone(identifier: "Europe/Berlin")!))
        #expect(berlin.records[1].date == utcDate(2024, 3, 2, 17, 1, 10))
    }

    @Test func meNamesTheExporterWhenItWasRenamed() throws {
        let result = try readAll(corpus(Self.chat), options: LogReadOptions(me: "Aiko Tanaka", timeZone: utc))
        // "Me" stays the exporter; --me adds the name it was exported under.
        #expect(result.records.filter { $0.direction == .outgoing }.count == 8)
    }

    @Test func convertedRecordsReadBackTheSame() throws {
        let result = try readAll(corpus(Self.chat))
        let back = try roundTrip(result.records)
        #expect(back.map(\.nativeLine) == result.records.map(\.nativeLine))
    }

    @Test func proseBeforeTheFirstBlockIsOneRejectionWhenAskedFor() throws {
        #expect(openError(corpus("exports/imessage/damaged.txt"))?.message.hasPrefix("unrecognised format") == true)
        let result = try readAll(corpus("exports/imessage/damaged.txt"), format: .imessage)
        #expect(result.counts.rejected == 1 && result.counts.reconciles)
        #expect(result.diagnosticLines == ["\(corpus("exports/imessage/damaged.txt")):1: not an imessage-exporter message: expected a line like \"May 17, 2022  5:29:42 PM\" before the sender"])
        #expect(result.records.count == 4)
    }

    @Test func timeLinesAreReadExactly() {
        #expect(IMessageText.timeLine("May 17, 2022  5:29:42 PM")?.microsAsUTC == LogTimestamp.microseconds(of: utcDate(2022, 5, 17, 17, 29, 42)))
        #expect(IMessageText.timeLine("Dec 31, 1999 12:00:00 AM")?.microsAsUTC == LogTimestamp.microseconds(of: utcDate(1999, 12, 31, 0, 0)))
        #expect(IMessageText.timeLine("Feb 29, 2024 12:00:00 PM")?.microsAsUTC == LogTimestamp.microseconds(of: utcDate(2024, 2, 29, 12, 0)))
        #expect(IMessageText.timeLine("Feb 30, 2024 12:00:00 PM") == nil)
        #expect(IMessageText.timeLine("May 17, 2022 13:29:42 PM") == nil)
        #expect(IMessageText.timeLine("May 17, 2022  5:29:42 PMx") == nil)
        #expect(IMessageText.timeLine("17/05/2022, 17:29 - Ana: hi") == nil)
    }
}
