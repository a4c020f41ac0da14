import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

/// Header shapes of older phones and other calendars and locales (Corpora/README.md says where
/// each shape was learned): each fixture is read whole, to its dates and senders.
@Suite struct WhatsAppHeaderShapeTests {
    private func read(_ name: String, options: LogReadOptions = LogReadOptions(timeZone: utc)) throws -> ReadResult {
        let result = try readAll(corpus("exports/whatsapp/\(name).txt"), options: options)
        #expect(result.format == .whatsapp, "\(name)")
        #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnosticLines)")
        #expect(result.counts.rejected == 0 && result.counts.reconciles, "\(name)")
        return result
    }

    @Test func rightToLeftMarkAndByteOrderMarkAfterTheBracket() throws {
        let result = try read("ios-he_IL-rlm-bom")
        #expect(result.senders == ["Noa", "Dan", "Noa", "Dan"])
        // The line with a byte order mark after "[" is a message of its own, not Dan's third line.
        #expect(result.texts[1] == "Fine, thanks\nsecond line of Dan's message")
        #expect(result.records.map(\.date) == [
            utcDate(2024, 1, 13, 20, 15, 3), utcDate(2024, 1, 13, 20, 16, 10), utcDate(2024, 1, 13, 20, 17, 45), utcDate(2024, 1, 14, 9, 2),
        ])
    }

    @Test func timeBeforeTheDate() throws {
        let result = try read("ios-vi_VN-time-first")
        #expect(result.senders == ["Lan", "Minh", "Lan"])
        #expect(result.records.map(\.date) == [utcDate(2022, 3, 18, 14, 56, 1), utcDate(2022, 3, 27, 21, 41, 35), utcDate(2022, 4, 2, 8, 5)])
        #expect(result.texts[1] == "Xin chào\nHẹn gặp lại")
        #expect(result.records[2] is LogImageMessage)
    }

    @Test func buddhistEraWithItsSuffix() throws {
        let result = try read("ios-th_TH-buddhist-era")
        #expect(result.records.map(\.date) == [utcDate(2022, 3, 18, 14, 56, 1), utcDate(2022, 3, 27, 21, 41, 35)])
    }

    @Test func japaneseErasHeiseiAndReiwa() throws {
        let result = try read("ios-ja_JP-era")
        #expect(result.records.map(\.date) == [utcDate(2019, 4, 29, 23, 10), utcDate(2019, 5, 1, 0, 5), utcDate(2022, 3, 18, 14, 56, 1)])
    }

    @Test func iOSBefore2017WithoutBrackets() throws {
        let gb = try read("ios-en_GB-2015-no-brackets")
        #expect(gb.senders == ["Tom", "Amy", "Tom"])
        #expect(gb.records.map(\.date) == [utcDate(2015, 6, 13, 10, 59, 59), utcDate(2015, 6, 13, 11, 2, 14), utcDate(2015, 6, 14, 8, 0, 1)])
        #expect(gb.texts[1] == "Morning! Meeting at 12:00:00: bring notes\nand the slides")
        #expect(gb.records[2] is LogImageMessage)
        let us = try read("ios-en_US-2016-no-brackets")
        #expect(us.senders == ["Jake", "Mia", "Jake"])
        #expect(us.records.map(\.date) == [utcDate(2016, 7, 1, 16, 56, 55), utcDate(2016, 7, 1, 16, 58, 2), utcDate(2016, 7, 2, 0, 1, 30)])
    }

    @Test func oldAndroidMonthNamesTakeTheMissingYearFromTheFile() throws {
        let result = try read("android-en_GB-named-months")
        #expect(result.senders == ["Sam", "Jo", "Sam", "Jo", "Sam"])
        // Dates without a year follow ones written in 2013: the export was made in 2014 at the earliest.
        #expect(result.records.map(\.date) == [
            utcDate(2013, 8, 28, 19, 23), utcDate(2013, 8, 28, 19, 25), utcDate(2013, 12, 2, 8, 10),
            utcDate(2014, 3, 18, 12, 14), utcDate(2014, 3, 18, 12, 20),
        ])
        #expect(result.texts[4] == "Sure\nsee you at 1")
        #expect(result.notes.contains { $0.contains("read as 2014") && $0.contains("--year") })
    }

    @Test func aMissingYearComesFromTheFileNameOrYearOrIsAskedFor() throws {
        let named = try read("WhatsApp Chat with Ben 2014 android-en_US")
        #expect(named.records.map(\.date) == [utcDate(2014, 3, 5, 20, 11), utcDate(2014, 3, 5, 20, 40), utcDate(2014, 3, 6, 9, 2)])
        let error = openError(corpus("exports/whatsapp/android-en_US-month-first-no-year.txt"))
        #expect(error?.line == 1)
        #expect(error?.message.contains("--year") == true)
        var options = LogReadOptions(timeZone: utc)
        options.year = 2012
        let given = try read("android-en_US-month-first-no-year", options: options)
        #expect(given.records.map(\.date) == [utcDate(2012, 3, 5, 20, 11), utcDate(2012, 3, 5, 20, 40), utcDate(2012, 3, 6, 9, 2)])
        #expect(given.notes.isEmpty)
    }

    @Test func dayPeriodsInWords() throws {
        let en = try read("android-en_GB-day-periods")
        #expect(en.records.map(\.date) == [
            utcDate(2021, 3, 1, 0, 5), utcDate(2021, 3, 1, 9, 15), utcDate(2021, 3, 1, 13, 30), utcDate(2021, 3, 1, 18, 45), utcDate(2021, 3, 1, 22, 20),
        ])
        let es = try read("android-es_ES-day-periods")
        #expect(es.records.map(\.date) == [
            utcDate(2021, 3, 1, 2, 5), utcDate(2021, 3, 1, 9, 15), utcDate(2021, 3, 1, 12, 0), utcDate(2021, 3, 1, 18, 45), utcDate(2021, 3, 1, 22, 20),
        ])
        let pt = try read("android-pt_BR-day-periods")
        #expect(pt.records.map(\.date) == [utcDate(2021, 3, 1, 9, 15), utcDate(2021, 3, 1, 15, 40), utcDate(2021, 3, 1, 22, 20)])
    }

    /// Every day period in the generated table puts each hour it names where CLDR (the
    /// toolchain's ICU) does: formatting hour h with "h:mm B" and reading it back gives h.
    @Test func dayPeriodTableAgreesWithCLDR() {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        for language in ["en", "es", "pt", "it", "fr", "de", "nl", "id", "vi", "ca"] {
            formatter.locale = Locale(identifier: language)
            formatter.dateFormat = "dd/MM/yyyy, h:mm B"
            for hour in 0..<24 {
                let written = formatter.string(from: Date(timeIntervalSince1970: Double(hour * 3600 + 15 * 60)))
                let header = WhatsAppLine.parseHeader(written + " - A: x")
                #expect(header?.hour24 == hour, "\(language): \(written)")
            }
        }
    }
}
