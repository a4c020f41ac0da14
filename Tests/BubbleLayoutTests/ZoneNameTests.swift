import Foundation
import Testing
import BubbleLayout

/// One reader of zone names: `--tz` reads offsets east-positive, `TZ` reads them as POSIX does.
@Suite struct ZoneNameTests {
    /// 2024-05-01T10:00:00Z, in summer time for the northern zones below.
    static let may = Date(timeIntervalSince1970: 1_714_557_600)

    @Test(arguments: [("Europe/Berlin", 7200), ("europe/berlin", 7200), ("UTC", 0), ("utc", 0),
                      ("+05:30", 19800), ("-0800", -28800), ("+5", 18000), ("UTC+2", 7200), ("GMT-03:00", -10800),
                      (":Asia/Tokyo", 32400)])
    func argumentNamesAndOffsetsAreRead(_ text: String, _ secondsEastInMay: Int) throws {
        let zone = try #require(ZoneName.parse(text))
        #expect(zone.secondsFromGMT(for: Self.may) == secondsEastInMay)
    }

    @Test(arguments: ["Mars/Olympus", "+14:61", "+1:0", "+123456", "", "++2"])
    func argumentTextThatNamesNoZoneIsRefused(_ text: String) {
        #expect(ZoneName.parse(text) == nil)
    }

    @Test(arguments: [("UTC+2", -7200), ("UTC-2", 7200), ("GMT0", 0), ("<+0530>-5:30", 19800), ("ABC+3:30", -12600),
                      ("EST5EDT", -14400), ("Europe/Berlin", 7200), (":Asia/Tokyo", 32400), ("Etc/GMT+2", -7200),
                      ("UTC", 0)])
    func posixTZValuesAreWestPositive(_ text: String, _ secondsEastInMay: Int) throws {
        let zone = try #require(ZoneName.posix(text))
        #expect(zone.secondsFromGMT(for: Self.may) == secondsEastInMay)
    }

    @Test(arguments: ["Bogus/Zone", "UTC+25", "AB+2", "UTC+2:61", "UTC+2,M3"])
    func posixTextThatNamesNoZoneIsRefused(_ text: String) {
        #expect(ZoneName.posix(text) == nil)
    }

    @Test func theEnvironmentZoneSaysWhenItFallsBackOrDropsARule() {
        #expect(ZoneName.environmentZone([:]).warning == nil)
        #expect(ZoneName.environmentZone(["TZ": ""]).zone == .gmt)
        let bogus = ZoneName.environmentZone(["TZ": "Bogus/Zone"])
        #expect(bogus.zone == .gmt)
        #expect(bogus.warning == "TZ='Bogus/Zone' names no time zone we know; times are shown in UTC")
        let unknownRule = ZoneName.environmentZone(["TZ": "XYZ-3ABC"])
        #expect(unknownRule.zone.secondsFromGMT(for: Self.may) == 10800)
        #expect(unknownRule.warning?.contains("daylight-saving rule is not applied") == true)
        #expect(ZoneName.environmentZone(["TZ": "EST5EDT"]).warning == nil)
    }
}
