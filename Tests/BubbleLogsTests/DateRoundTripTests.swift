import BubbleLayout
import BubbleSamples
import BubbleTestSupport
import BubbleText
@testable import BubbleLogs
import Foundation
import Testing

/// `convert` writes only dates it reads back: readers accept 0000-01-01T00:00:00Z through
/// 9999-12-31T23:59:59.999999Z and the writer writes every one of those in a form they read.
@Suite struct DateRoundTripTests {
    private func line(date: String) -> String {
        #"{"id":"1","type":"text","from":"A","date":\#(date),"text":"x"}"#
    }

    private func readOne(_ line: String) throws -> ReadResult {
        try readAll(temporaryFile(Array((line + "\n").utf8)))
    }

    /// The inputs from the report that were accepted and written as `00-1-12-31…` or `10000-…`.
    @Test(arguments: ["-62167219201", "\"9999-12-31T23:59:60+00:00\"", "\"0000-01-01T00:00:00+23:59\"",
                      "253402300800", "\"9999-12-31T23:59:59.9999999-00:01\""])
    func datesOutsideTheWritableRangeAreRejected(date: String) throws {
        let result = try readOne(line(date: date))
        #expect(result.records.isEmpty)
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnosticLines.first?.contains("unreadable date") == true)
    }

    @Test(arguments: [("-62167219200", "0000-01-01T00:00:00Z"), ("253402300799.999999", "9999-12-31T23:59:59.999999Z"),
                      ("\"9999-12-31T23:59:59.999999Z\"", "9999-12-31T23:59:59.999999Z"),
                      ("\"0000-01-01T00:00:00-23:59\"", "0000-01-01T23:59:00Z"), ("\"2016-12-31T23:59:60Z\"", "2017-01-01T00:00:00Z")])
    func theEdgesOfTheRangeAreReadAndWrittenBack(date: String, written: String) throws {
        let result = try readOne(line(date: date))
        let record = try #require(result.records.first, "\(result.diagnosticLines)")
        #expect(record.nativeLine.contains(#""date":"\#(written)""#), "\(record.nativeLine)")
        let back = try readOne(record.nativeLine)
        #expect(back.diagnostics.isEmpty && back.records.first?.nativeLine == record.nativeLine)
    }

    /// JavaScript writes milliseconds; the error says so instead of only "unreadable".
    @Test func aDateInMillisecondsIsRejectedSayingItLooksLikeMilliseconds() throws {
        let result = try readOne(line(date: "1714557800000"))
        #expect(result.records.isEmpty)
        #expect(result.diagnostics.first?.reason == "unreadable date \"1714557800000\": past year 9999 as Unix seconds; it looks like Unix milliseconds (2024-05-01T10:03:20Z): write seconds")
    }

    /// A date written with an exponent, as Java and Jackson write doubles, is read as its value,
    /// and written back plain; out of range, it gets the same hints as the plain form.
    @Test func aUnixDateWithAnExponentIsReadAndWrittenBackPlain() throws {
        let result = try readOne(line(date: "1.7145578E9"))
        let record = try #require(result.records.first, "\(result.diagnosticLines)")
        #expect(record.nativeLine.contains(#""date":"2024-05-01T10:03:20Z""#), "\(record.nativeLine)")
        let milliseconds = try readOne(line(date: "1.7145578E12"))
        #expect(milliseconds.diagnostics.first?.reason == "unreadable date \"1.7145578E12\": past year 9999 as Unix seconds; it looks like Unix milliseconds (2024-05-01T10:03:20Z): write seconds")
        let early = try readOne(line(date: "-1e12"))
        #expect(early.diagnostics.first?.reason == "unreadable date \"-1e12\": before year 0000 as Unix seconds")
    }

    /// A negative number of seconds before year 0000 is said to be that, with no milliseconds hint.
    @Test func aUnixDateBeforeYearZeroSaysSo() throws {
        for date in ["-62167219201", "-1714557800000", "-99999999999999999999"] {
            let result = try readOne(line(date: date))
            #expect(result.diagnostics.first?.reason == "unreadable date \"\(date)\": before year 0000 as Unix seconds", "\(date)")
        }
    }

    @Test func aWellFormedDateOutOfRangeSaysWhy() throws {
        let result = try readOne(line(date: "\"9999-12-31T23:59:60Z\""))
        #expect(result.diagnostics.first?.reason.hasSuffix("outside 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z, the dates that can be written back") == true)
    }

    /// Random instants over the whole range, as Unix seconds and as ISO text with random offsets:
    /// each is read, written, and the written text reads back to the same text.
    @Test func randomDatesRoundTrip() throws {
        var random = SeededGenerator(seed: 0xDA7E_5EED)
        var lines: [String] = []
        var expectedCount = 0
        for n in 0..<3_000 {
            let micros = Int64.random(in: LogTimestamp.earliest...LogTimestamp.latest, using: &random)
            // And from 1900 to 2099, where every microsecond must survive exactly.
            let near = Int64.random(in: -2_208_988_800_000_000...4_102_444_799_999_999, using: &random)
            for value in [micros, near] {
                // The sign of a Unix literal applies to all of it: -1.5 is a second and a half before 1970.
                let seconds = abs(value) / 1_000_000, fraction = abs(value) % 1_000_000
                let fractionText = String(repeating: "0", count: 6 - String(fraction).count) + String(fraction)
                lines.append(#"{"id":"u\#(n)-\#(value)","type":"text","date":\#(value < 0 ? "-" : "")\#(seconds).\#(fractionText),"text":"x"}"#)
                let offsetMinutes = Int.random(in: -(23 * 60 + 59)...(23 * 60 + 59), using: &random)
                let shifted = value + Int64(offsetMinutes) * 60_000_000
                var iso = LogTimestamp.iso8601(microseconds: shifted)
                iso.removeLast()
                let sign = offsetMinutes < 0 ? "-" : "+"
                let magnitude = abs(offsetMinutes)
                let offset = "\(sign)\(magnitude / 60 < 10 ? "0" : "")\(magnitude / 60):\(magnitude % 60 < 10 ? "0" : "")\(magnitude % 60)"
                // Only a shifted text inside the range is a date the reader must accept.
                if LogTimestamp.isInRange(shifted) {
                    lines.append(#"{"id":"i\#(n)-\#(value)","type":"text","date":"\#(iso)\#(offset)","text":"x"}"#)
                    expectedCount += 1
                }
                expectedCount += 1
            }
        }
        let first = try readAll(temporaryFile(Array((lines.joined(separator: "\n") + "\n").utf8)))
        #expect(first.diagnostics.isEmpty, "\(first.diagnosticLines.prefix(3))")
        #expect(first.records.count == expectedCount)
        let written = first.records.map(\.nativeLine)
        let second = try readAll(temporaryFile(Array((written.joined(separator: "\n") + "\n").utf8)))
        #expect(second.diagnostics.isEmpty, "\(second.diagnosticLines.prefix(3))")
        let rewritten = second.records.map(\.nativeLine)
        let differing = zip(written, rewritten).filter { $0 != $1 }
        #expect(rewritten.count == written.count && differing.isEmpty, "\(differing.prefix(3))")
        // From 1900 to 2099 the microseconds themselves survive.
        for (record, line) in zip(first.records, lines) where line.contains(#""id":"u"#) {
            let value = Int64(record.id.split(separator: "-", maxSplits: 1)[1])!
            if (-2_208_988_800_000_000...4_102_444_799_999_999).contains(value) {
                #expect(LogTimestamp.microseconds(of: record.date) == value, "\(line)")
            }
        }
    }

    /// Every fixture we ship, converted and read back, keeps every date and every record.
    @Test func everyFixtureRoundTripsThroughConvert() throws {
        var inputs: [String] = []
        let files = FileManager.default.enumerator(atPath: corpora.path)!
        for case let relative as String in files where relative.hasPrefix("exports/") || relative.hasPrefix("logs/") {
            let path = corpus(relative)
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            if isFolder.boolValue {
                if FileManager.default.fileExists(atPath: path + "/channels.json") { inputs.append(path) }
            } else if !relative.contains("/slack/") {
                inputs.append(path)
            }
        }
        var checked = 0
        for path in inputs.sorted() {
            guard let first = try? readAll(path), !first.records.isEmpty else { continue }
            let written = first.records.map(\.nativeLine)
            let back = try readAll(temporaryFile(Array((written.joined(separator: "\n") + "\n").utf8)))
            #expect(back.diagnostics.isEmpty, "\(path): \(back.diagnosticLines.prefix(3))")
            #expect(back.records.map(\.date) == first.records.map(\.date), "\(path)")
            #expect(back.records.map(\.nativeLine) == written, "\(path)")
            checked += 1
        }
        #expect(checked >= 30, "fixtures found: \(checked)")
    }
}
