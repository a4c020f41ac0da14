import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

/// Message kinds of Telegram Desktop's export (their fields as export_output_json.cpp writes them),
/// in Corpora/exports/telegram/message-kinds: each read to a real rendering.
@Suite struct TelegramMessageKindTests {
    private func read() throws -> ReadResult {
        let result = try readAll(corpus("exports/telegram/message-kinds/result.json"))
        #expect(result.format == .telegram)
        #expect(result.diagnostics.filter { !$0.isWarning }.isEmpty, "\(result.diagnosticLines)")
        #expect(result.counts.rejected == 0)
        #expect(result.records.count == 11)
        return result
    }

    @Test func anEpochEditDateIsNoEdit() throws {
        let result = try read()
        #expect(result.records[0].header.isEdited == false)
        #expect(result.records[1].header.isEdited == true)
        let placeholder = try ExportFields(object: #require(JSONParser().parse(Array(#"{"edited": "1969-12-31T19:00:00", "edited_unixtime": "0"}"#.utf8)).objectValue))
        #expect(try TelegramMessageDecoder.isEdited(placeholder) == false)
        let real = try ExportFields(object: #require(JSONParser().parse(Array(#"{"edited": "1970-01-03T00:00:00"}"#.utf8)).objectValue))
        #expect(try TelegramMessageDecoder.isEdited(real) == true)
    }

    @Test func customActionChecklistGiveawayVenueAndButtons() throws {
        let result = try read()
        #expect(result.records[2] is LogSystemMessage)
        #expect(result.texts[2] == "Desk Bot opened ticket 42")
        #expect(result.texts[3] == "[checklist: Before Friday]\n☐ Book the hall\n☐ Order chairs")
        #expect(result.texts[4] == "[giveaway: 3 × Telegram Premium for 6 months and a club scarf, ends 2020-03-09 12:00:00]")
        #expect(result.texts[5] == "[place: Old Town Hall, 1 Market Square]")
        #expect(result.texts[6] == "[Open ticket] [Help]\n[Close]")
    }

    @Test func aServiceMessageWithoutActionAndAnUnsupportedMessage() throws {
        let result = try read()
        #expect(result.records[7] is LogSystemMessage)
        #expect(result.texts[7] == "Lea Varga: a service message this export does not describe")
        #expect(result.records[8] is LogSystemMessage)
        #expect(result.texts[8] == "A message Telegram Desktop could not export")
        // Placed at the time of the message before it, the export having none for it.
        #expect(result.records[8].date == utcDate(2020, 3, 2, 10, 7))
    }

    @Test func aZeroUnixTimeBesideADateReadsTheDateWithOneWarning() throws {
        let result = try read()
        #expect(result.records[9].date == utcDate(2020, 3, 2, 10, 9))
        #expect(result.records[10].date == utcDate(2020, 3, 2, 10, 10))
        let warnings = result.diagnostics.filter(\.isWarning)
        #expect(warnings.count == 1)
        #expect(warnings.first?.reason.contains("date_unixtime is 0") == true)
    }
}
