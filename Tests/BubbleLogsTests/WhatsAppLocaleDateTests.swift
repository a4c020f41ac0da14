import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

/// Exports from locales whose dates are not written with ASCII digits and a comma: each fixture
/// in Corpora/exports/whatsapp is in the shape that locale's phone writes (Corpora/README.md
/// says where each shape comes from), read to its dates and senders with nothing rejected.
@Suite struct WhatsAppLocaleDateTests {
    /// Reads a fixture and checks it was read whole, as WhatsApp, with no diagnostic.
    private func read(_ name: String) throws -> ReadResult {
        let result = try readAll(corpus("exports/whatsapp/\(name).txt"))
        #expect(result.format == .whatsapp, "\(name)")
        #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnosticLines)")
        #expect(result.counts.rejected == 0 && result.counts.reconciles, "\(name)")
        return result
    }

    @Test func koreanAndroidYearFirstWithDayPeriodBeforeTheHour() throws {
        let result = try read("android-ko_KR")
        #expect(result.senders == [nil, "민수", "지은", "민수", "지은"])
        #expect(result.records.map(\.date) == [
            utcDate(2024, 1, 13, 20, 14), utcDate(2024, 1, 13, 20, 15), utcDate(2024, 1, 13, 20, 16),
            utcDate(2024, 1, 14, 0, 5), utcDate(2024, 1, 14, 12, 30),
        ])
        #expect(result.texts[2] == "네 안녕하세요 😊\n내일 시간 있어요?")
    }

    @Test func koreanIOSInBrackets() throws {
        let result = try read("ios-ko_KR")
        #expect(result.senders == ["민수", "지은", "민수"])
        #expect(result.records.map(\.date) == [utcDate(2024, 1, 13, 20, 15, 3), utcDate(2024, 1, 13, 20, 16, 10), utcDate(2024, 1, 14, 9, 2)])
    }

    @Test func hungarianSpacedDotsWithATrailingDot() throws {
        let android = try read("android-hu_HU")
        #expect(android.senders == ["Bence", "Anna", "Bence"])
        #expect(android.records.map(\.date) == [utcDate(2024, 1, 13, 20, 15), utcDate(2024, 1, 13, 20, 16), utcDate(2024, 1, 14, 9, 2)])
        #expect(android.texts[0] == "Szia! Mi újság?")
        let ios = try read("ios-hu_HU")
        #expect(ios.senders == ["Bence", "Anna"])
        #expect(ios.records.map(\.date) == [utcDate(2024, 1, 13, 20, 15, 3), utcDate(2024, 1, 13, 20, 16, 10)])
    }

    @Test func chineseDayPeriodJoinedToTheHour() throws {
        let android = try read("android-zh_CN")
        #expect(android.senders == ["小明", "小红", "小明", "小红"])
        #expect(android.records.map(\.date) == [
            utcDate(2024, 1, 13, 20, 15), utcDate(2024, 1, 13, 20, 16), utcDate(2024, 1, 14, 0, 5), utcDate(2024, 1, 14, 12, 30),
        ])
        #expect(android.texts[1] == "你好！最近怎么样？\n还不错")
        let ios = try read("ios-zh_CN")
        #expect(ios.senders == ["小明", "小红"])
        #expect(ios.records.map(\.date) == [utcDate(2024, 1, 13, 20, 15, 3), utcDate(2024, 1, 14, 9, 2)])
    }

    @Test func traditionalChineseFlexibleDayPeriods() throws {
        // 晚上 evening, 凌晨 small hours, 早上 morning, 中午 noon (12 and 1 o'clock), 下午 afternoon.
        let result = try read("android-zh_TW")
        #expect(result.senders == ["志明", "春嬌", "志明", "春嬌", "志明", "春嬌"])
        #expect(result.records.map(\.date) == [
            utcDate(2024, 1, 13, 20, 15), utcDate(2024, 1, 14, 0, 30), utcDate(2024, 1, 14, 7, 45),
            utcDate(2024, 1, 14, 12, 5), utcDate(2024, 1, 14, 13, 10), utcDate(2024, 1, 14, 15, 0),
        ])
    }

    @Test func arabicIndicDigitsRightToLeftMarksAndArabicComma() throws {
        let android = try read("android-ar_EG")
        #expect(android.senders == ["عمر", "سام", "عمر", "سام"])
        #expect(android.records.map(\.date) == [
            utcDate(2024, 1, 13, 20, 15), utcDate(2024, 1, 13, 20, 16), utcDate(2024, 1, 14, 0, 5), utcDate(2024, 1, 14, 12, 30),
        ])
        #expect(android.texts[1] == "أهلاً 👋\nكيف حالك؟")
        let ios = try read("ios-ar_EG")
        #expect(ios.senders == ["عمر", "سام"])
        #expect(ios.records.map(\.date) == [utcDate(2024, 1, 13, 20, 15, 3), utcDate(2024, 1, 14, 9, 2)])
    }

    @Test func persianDigitsYearFirst() throws {
        let result = try read("android-fa_IR")
        #expect(result.senders == ["سارا", "علی", "سارا"])
        #expect(result.records.map(\.date) == [utcDate(2024, 1, 13, 20, 15), utcDate(2024, 1, 13, 20, 16), utcDate(2024, 1, 14, 9, 2)])
    }

    @Test func headerParserReadsOtherScriptsShapes() throws {
        let lines: [(line: String, date: [Int], time: [Int])] = [
            ("2024. 1. 13. 오후 8:15 - 민수: x", [2024, 1, 13], [20, 15, 0]),
            ("24. 1. 13. 오전 12:15 - 민수: x", [24, 1, 13], [0, 15, 0]),
            ("[2024. 01. 13. 20:15:03] Bence: x", [2024, 1, 13], [20, 15, 3]),
            ("2024/1/13 下午8:15 - 小明: x", [2024, 1, 13], [20, 15, 0]),
            ("2024/01/13 午後8:15 - 太郎: x", [2024, 1, 13], [20, 15, 0]),
            ("\u{200F}١٣\u{200F}/١\u{200F}/٢٠٢٤، ٨:١٥ م - عمر: x", [13, 1, 2024], [20, 15, 0]),
            ("[١٣/١/٢٠٢٤، ٨:١٥:٠٣ ص] عمر: x", [13, 1, 2024], [8, 15, 3]),
            ("۲۰۲۴/۱/۱۳،\u{200F} ۸:۱۵ ب.ظ. - سارا: x", [2024, 1, 13], [20, 15, 0]),
            ("१३/१/२०२४, ८:१५ pm - A: x", [13, 1, 2024], [20, 15, 0]),
            ("১৩/১/২৪, ৮:১৫ PM - A: x", [13, 1, 24], [20, 15, 0]),
            ("๑๓/๑/๒๕๖๗ ๒๐:๑๕ - A: x", [13, 1, 2567], [20, 15, 0]),
        ]
        for (line, date, time) in lines {
            let header = try #require(WhatsAppLine.parseHeader(line), "\(line)")
            #expect([header.first, header.second, header.third] == date, "\(line)")
            #expect([header.hour24, header.minute, header.secondOfMinute] == time, "\(line)")
            #expect(header.ordinarySender != nil, "\(line)")
        }
        // A day period is read once: before the hour or after the time, never both.
        for line in ["2024/1/13 下午8:15 PM - A: x", "١٣/١/٢٠٢٤، ٨:١٥ م م - A: x"] {
            #expect(WhatsAppLine.parseHeader(line) == nil, "\(line)")
        }
        // An hour past 12 after a day period is a header with an impossible time (its record is rejected).
        #expect(WhatsAppLine.parseHeader("2024/1/13 下午13:15 - A: x")?.isPossibleTime == false)
    }

    @Test func aWhatsAppShapedFileWithAnUnknownDateIsNamedAsSuch() throws {
        let expected = "expected lines like \"31/12/23, 21:05 - Name: text\" or \"[31/12/23, 21:05:09] Name: text\""
        let cases: [(text: String, line: Int, quoted: String)] = [
            ("\n13 Ιανουαρίου 2024 20:15 - Νίκος: γεια\n", 2, "13 Ιανουαρίου 2024 20:15 - Νίκος: γεια"),
            ("[13 janv. 2024 à 20:15:03] Lou: ok\r\n", 1, "[13 janv. 2024 à 20:15:03] Lou: ok"),
            ("13 Ιαν 2024 8:15 μ.μ. - Ana: hi\n", 1, "13 Ιαν 2024 8:15 μ.μ. - Ana: hi"),
        ]
        for (text, line, quoted) in cases {
            let path = temporaryFile(Array(text.utf8), suffix: ".txt")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let error = try #require(openError(path), "\(text)")
            #expect(error.description == "\(path):\(line): a WhatsApp date format we don't know: \"\(quoted)\"; \(expected)")
        }
        // Text with no WhatsApp shape keeps the general messages.
        for text in ["plain notes\nmeet at 10:30 - bring snacks\n", "10:30 is when we meet\n", "[notes] 10:30 - x\n"] {
            let path = temporaryFile(Array(text.utf8), suffix: ".txt")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let message = try #require(openError(path)?.message, "\(text)")
            #expect(!message.contains("WhatsApp date format"), "\(text)")
            #expect(message.hasPrefix("unrecognised format") || message.hasPrefix("a JSON array"), "\(text)")
        }
    }

    @Test func buddhistEraYearsAreReadAsGregorianWithOneNote() throws {
        let path = corpus("exports/whatsapp/android-th_TH-buddhist.txt")
        let result = try read("android-th_TH-buddhist")
        #expect(result.senders == ["สมชาย", "สมหญิง", "สมชาย"])
        #expect(result.records.map(\.date) == [utcDate(2024, 1, 13, 20, 15), utcDate(2024, 1, 13, 20, 16), utcDate(2024, 2, 1, 9, 2)])
        let reader = try LogSource.open(path: path, options: LogReadOptions(timeZone: utc))
        #expect(reader.notes == ["\(path): years from 2400 on are read as the Buddhist era (Thai phones write it), 543 years ahead of the Gregorian calendar: 2567 at line 1 is 2024."])
        // Year first too, and 29 February of the Buddhist year 2567 is that of the leap year 2024.
        let yearFirst = temporaryFile(Array("[2567/2/29 20:15:03] A: x\n[2567/3/1 08:00:00] B: y\n".utf8), suffix: ".txt")
        defer { try? FileManager.default.removeItem(atPath: yearFirst) }
        let read = try readAll(yearFirst)
        #expect(read.diagnostics.isEmpty)
        #expect(read.records.map(\.date) == [utcDate(2024, 2, 29, 20, 15, 3), utcDate(2024, 3, 1, 8, 0)])
        // A Gregorian file gets no note.
        #expect(try LogSource.open(path: corpus("exports/whatsapp/android-hu_HU.txt")).notes.isEmpty)
    }

    @Test func yearsOfAnotherCalendarAreReadAsWrittenWithANote() throws {
        // A phone on the Persian calendar writes 1402/10/23 for 13 January 2024.
        let path = temporaryFile(Array("۱۴۰۲/۱۰/۲۳،\u{200F} ۲۰:۱۵ - سارا: سلام\n".utf8), suffix: ".txt")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try LogSource.open(path: path, options: LogReadOptions(timeZone: utc))
        #expect(reader.notes == ["\(path): line 1 is dated 1402, which is read as written; a phone set to the Persian (Solar Hijri) or Islamic calendar writes such years, and we read only Gregorian and Buddhist-era dates (set the phone's calendar to Gregorian and export again)."])
        let result = try readAll(path)
        #expect(result.diagnostics.isEmpty && result.records.count == 1)
        // Proleptic Gregorian, as every date is read (Foundation's calendar would be Julian there).
        let seconds = Double(LogTimestamp.daysFromCivil(year: 1402, month: 10, day: 23)) * 86_400 + 20 * 3600 + 15 * 60
        #expect(result.records.first?.date == Date(timeIntervalSince1970: seconds))
    }

    @Test func theShapeCheckTakesAnyLineWithoutTrapping() {
        // Every prefix of shaped lines, ending anywhere (a time at the very end included).
        let lines = ["13 janv. 2024 20:15 - A: x", "[13 janv. 2024 20:15:03] A: x", "1 2:34", "[1 2:34]", "1:23 - ", "\u{200F}[١ ٢:٣٤] "]
        for line in lines {
            let scalars = Array(line.unicodeScalars)
            for end in 0...scalars.count {
                _ = WhatsAppLine.looksLikeHeader(String(String.UnicodeScalarView(scalars[..<end])))
            }
        }
        #expect(WhatsAppLine.looksLikeHeader("13 janv. 2024 20:15 - A: x"))
        #expect(!WhatsAppLine.looksLikeHeader("13 janv. 2024 20:15"))
        #expect(WhatsAppLine.looksLikeHeader("[1 2:34] "))
    }
}
