import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// `--tz` and `TZ` move the times drawn, and a zone nobody knows is never silent.
@Suite struct TimeZoneOptionTests {
    @Test func anOffsetMovesTheTimesDrawn() {
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--width", "60", "--tz", "+05:30")
        #expect(run.code == 0)
        #expect(run.output.contains(" 05:32 "))
    }

    @Test func aPosixTZOffsetIsWestOfUTC() {
        // POSIX: TZ=UTC+2 is two hours behind UTC, as `date` shows it; 00:02 UTC is 22:02 the day before.
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--width", "60", environment: ["TZ": "UTC+2"])
        #expect(run.code == 0)
        #expect(run.errors.isEmpty)
        #expect(run.output.contains(" 22:02 "))
        #expect(run.output.contains("Tue 30 Apr 2024"))
    }

    @Test func theTzOptionKeepsItsEastPositiveForm() {
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--width", "60", "--tz", "UTC+2")
        #expect(run.code == 0)
        #expect(run.output.contains(" 02:02 "))
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

    @Test(arguments: ["Asia/Kolkata", "asia/kolkata", "ASIA/KOLKATA", "asia/calcutta"])
    func aZoneNameInAnyCaseMovesTheTimesDrawn(_ zone: String) {
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--width", "60", "--tz", zone)
        #expect(run.code == 0)
        #expect(run.output.contains(" 05:32 "))
    }

    @Test func anAbbreviationDrawsTheSameTimesWhateverItsCase() {
        let runs = ["EST", "est", "Est"].map { bubbles("render", corpus("logs/sample.jsonl"), "--width", "60", "--tz", $0) }
        #expect(runs.allSatisfy { $0.code == 0 })
        // EST is the tz database's fixed UTC-5 zone: 00:02 UTC on 1 May is 19:02 on 30 April.
        #expect(runs[0].output.contains(" 19:02 "))
        #expect(runs[1].output == runs[0].output)
        #expect(runs[2].output == runs[0].output)
    }

    @Test(arguments: ["PST", "pst"])
    func anAbbreviationThatIsNoZoneNameIsAUsageErrorThatSuggestsAZone(_ zone: String) {
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--tz", zone)
        #expect(run.code == 2)
        #expect(run.errors.contains("invalid value '\(zone)' for --tz: 'PST' is an abbreviation, not a zone: give a zone such as America/Los_Angeles, or an offset"))
    }
}
