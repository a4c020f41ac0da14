import Foundation
import Testing
@testable import BubbleLayout

/// `TZ` values read as POSIX does (offsets west-positive), and the tz database names both readers share.
@Suite struct ZoneNameTests {
    /// 2024-05-01T10:00:00Z, in summer time for the northern zones below.
    static let may = Date(timeIntervalSince1970: 1_714_557_600)

    /// Every name in the committed table is one Foundation resolves, so none is offered in vain,
    /// and lowering each name's case still finds it.
    @Test func everyDatabaseNameResolvesInLowerAndUpperCase() {
        var unresolved: [String] = []
        for line in ZoneName.databaseNames {
            let name = String(line.split(separator: " ")[0])
            if ZoneName.named(name.lowercased()) == nil || ZoneName.named(name.uppercased()) == nil { unresolved.append(name) }
        }
        #expect(unresolved.isEmpty, "not resolved: \(unresolved)")
        #expect(ZoneName.databaseNames.count > 500)
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
