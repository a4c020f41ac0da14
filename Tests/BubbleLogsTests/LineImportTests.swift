import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

@Suite struct LineImportTests {
    @Test func englishChatReadsQuotesMarkersCallsAndNotices() throws {
        let result = try readAll(corpus("exports/line/Chat with Ana Lima.txt"))
        #expect(result.format == .line)
        #expect(result.diagnostics.isEmpty)
        #expect(result.texts == [
            "Hi Lena! Climbing tomorrow? 🧗", "Yes! 10:00 at the gym", "Great.\nSee you \"there\"!", "[sticker]", "[photo]",
            "Ana Lima: ☎ Call time 2:05", "Ana Lima unsent a message.", "Good morning ☀️",
        ])
        #expect(result.kinds == ["text", "text", "text", "text", "text", "system", "system", "text"])
        #expect(result.records.map(\.id) == ["L5", "L6", "L7", "L9", "L10", "L11", "L12", "L15"])
        // The heading names Ana as the other person: Lena exported it.
        #expect(result.records.filter { $0.direction == .outgoing }.map(\.id) == ["L6", "L10"])
        #expect(result.records[0].date == utcDate(2024, 3, 2, 18, 1))
        #expect(result.records[7].date == utcDate(2024, 3, 3, 9, 30))
        #expect(result.counts.recordsIn == 8 && result.counts.reconciles)
    }

    @Test func japaneseGroupAndThaiBuddhistEraDatesRead() throws {
        let japanese = try readAll(corpus("exports/line/クライミング部.txt"))
        #expect(japanese.format == .line)
        #expect(japanese.diagnostics.isEmpty)
        #expect(japanese.texts == ["土曜日、行きます！", "[sticker]", "[photo]", "マルコがアイコをグループに招待しました。", "おやすみ"])
        #expect(japanese.records.allSatisfy { $0.direction == .incoming })
        #expect(japanese.records[4].date == utcDate(2024, 3, 2, 23, 59))
        let thai = try readAll(corpus("exports/line/th-buddhist.txt"))
        #expect(thai.format == .line)
        #expect(thai.texts == ["สวัสดีค่ะ", "สวัสดี 😊", "[sticker]"])
        #expect(thai.records[0].date == utcDate(2024, 3, 2, 18, 1))
        #expect(thai.records.map(\.direction) == [.incoming, .outgoing, .incoming])
    }

    @Test func aBrokenLineIsOneRejectionAndAnUnquotedLineStaysWithItsMessage() throws {
        let result = try readAll(corpus("exports/line/damaged.txt"))
        #expect(result.format == .line)
        #expect(result.texts == ["Hi\nthis line lost its quotes", "still read"])
        #expect(result.diagnostics.map(\.position.line) == [4])
        #expect(result.counts.recordsIn == 3 && result.counts.reconciles)
    }

    @Test func convertedRecordsReadBackTheSame() throws {
        for name in ["Chat with Ana Lima.txt", "クライミング部.txt", "th-buddhist.txt"] {
            let result = try readAll(corpus("exports/line/" + name))
            #expect(try roundTrip(result.records).map(\.nativeLine) == result.records.map(\.nativeLine))
        }
    }

    @Test func datesAndTimesOfEachLocale() {
        #expect(LineText.date("2024/03/02(Sat)")! == (2024, 3, 2))
        #expect(LineText.date("2024.03.02 Saturday")! == (2024, 3, 2))
        #expect(LineText.date("Sat, 03/02/2024")! == (2024, 3, 2))
        #expect(LineText.date("วันเสาร์, 02/03/2567")! == (2024, 3, 2))
        #expect(LineText.date("2567/03/02(ส.)")! == (2024, 3, 2))
        #expect(LineText.date("2024/02/30(Fri)") == nil)
        #expect(LineText.date("18:01\tAna\tHi") == nil)
        #expect(LineText.time("18:01") == 18 * 3600 + 60)
        #expect(LineText.time("6:01 PM") == 18 * 3600 + 60)
        #expect(LineText.time("12:30AM") == 30 * 60)
        #expect(LineText.time("午後6:01") == 18 * 3600 + 60)
        #expect(LineText.time("下午6:01") == 18 * 3600 + 60)
        #expect(LineText.time("오전 9:05") == 9 * 3600 + 5 * 60)
        #expect(LineText.time("24:00") == nil)
        #expect(LineText.time("13:00 PM") == nil)
    }
}
