import Foundation
import Testing
@testable import BubblesCLI

/// `--tz` and `TZ` take zones the way people type them, and a zone nobody knows is never silent.
@Suite struct TimeZoneArgumentTests {
    @Test(arguments: [("Europe/Berlin", 7200), ("europe/berlin", 7200), ("UTC", 0), ("utc", 0),
                      ("+05:30", 19800), ("-0800", -28800), ("+5", 18000), ("UTC+2", 7200), ("GMT-03:00", -10800),
                      (":Asia/Tokyo", 32400)])
    func zoneNamesAndOffsetsAreRead(_ text: String, _ secondsEastInMay: Int) throws {
        let zone = try #require(TimeZoneArgument.parse(text))
        #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_714_557_600)) == secondsEastInMay)
    }

    @Test(arguments: ["Mars/Olympus", "+14:61", "+1:0", "+123456", "", "++2"])
    func textThatNamesNoZoneIsRefused(_ text: String) {
        #expect(TimeZoneArgument.parse(text) == nil)
    }

    @Test func anOffsetMovesTheTimesDrawn() {
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--width", "60", "--tz", "+05:30")
        #expect(run.code == 0)
        #expect(run.output.contains(" 05:32 "))
    }

    @Test func anUnknownTZIsReportedOnceAndUTCIsUsed() {
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--width", "60", environment: ["TZ": "Bogus/Zone"])
        #expect(run.code == 0)
        #expect(run.errors == "bubbles: TZ='Bogus/Zone' names no time zone we know; times are shown in UTC\n")
        #expect(run.output.contains(" 00:02 "))
    }

    @Test func anUnknownTzOptionIsAUsageError() {
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--tz", "Mars/Olympus")
        #expect(run.code == 2)
        #expect(run.errors.contains("invalid value 'Mars/Olympus' for --tz"))
    }
}
