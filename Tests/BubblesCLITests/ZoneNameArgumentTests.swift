import BubbleLayout
import Foundation
import Testing
@testable import BubblesCLI

/// `--tz`'s reading of zone names: tz database names in any case, offsets east-positive, and
/// abbreviations refused with a suggestion.
@Suite struct ZoneNameArgumentTests {
    /// 2024-05-01T10:00:00Z, in summer time for the northern zones below.
    static let may = Date(timeIntervalSince1970: 1_714_557_600)

    @Test(arguments: [("Europe/Berlin", 7200), ("europe/berlin", 7200), ("UTC", 0), ("utc", 0),
                      ("+05:30", 19800), ("-0800", -28800), ("+5", 18000), ("UTC+2", 7200), ("GMT-03:00", -10800),
                      (":Asia/Tokyo", 32400)])
    func argumentNamesAndOffsetsAreRead(_ text: String, _ secondsEastInMay: Int) throws {
        let zone = try #require(ZoneName.parse(text))
        #expect(zone.secondsFromGMT(for: Self.may) == secondsEastInMay)
    }

    /// Link names (Asia/Calcutta, Asia/Saigon, US/Eastern) as well as zone names, in any case,
    /// give the canonical zone the tz database links them to.
    @Test(arguments: [("asia/kolkata", "Asia/Kolkata"), ("ASIA/KOLKATA", "Asia/Kolkata"), ("Asia/Kolkata", "Asia/Kolkata"),
                      ("asia/calcutta", "Asia/Kolkata"), ("asia/saigon", "Asia/Ho_Chi_Minh"), ("ASIA/SAIGON", "Asia/Ho_Chi_Minh"),
                      ("us/eastern", "America/New_York"), ("america/argentina/buenos_aires", "America/Argentina/Buenos_Aires"),
                      ("america/port-au-prince", "America/Port-au-Prince"), ("etc/gmt+2", "Etc/GMT+2")])
    func zoneAndLinkNamesInAnyCaseGiveTheCanonicalZone(_ text: String, _ identifier: String) throws {
        let zone = try #require(ZoneName.parse(text))
        #expect(zone.identifier == identifier)
    }

    /// The rule for abbreviations: only the tz database's own names are read, whatever the case,
    /// so EST is its fixed UTC-5 zone (not New York's clock) and PST, IST, BST or CEST name nothing.
    @Test(arguments: ["EST", "est", "Est", "eSt"])
    func estIsTheDatabaseFixedZoneInEveryCase(_ text: String) throws {
        let zone = try #require(ZoneName.parse(text))
        #expect(zone.secondsFromGMT(for: Self.may) == -18000)
        #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_704_067_200)) == -18000)
    }

    @Test(arguments: ["PST", "pst", "PDT", "IST", "BST", "bst", "CEST", "JST", "Asia/Kolkata2", "asia//kolkata", "Asİa/Kolkata"])
    func abbreviationsThatAreNoDatabaseNameAreRefusedInEveryCase(_ text: String) {
        #expect(ZoneName.parse(text) == nil)
        #expect(ZoneName.posix(text) == nil)
    }

    @Test func theRefusalOfAnAbbreviationSuggestsAZoneAndStatesTheRule() {
        let reason = ZoneName.refusal("pst")
        #expect(reason.hasPrefix("'PST' is an abbreviation, not a zone: give a zone such as America/Los_Angeles, or an offset"))
        #expect(reason.contains("except the few the database has itself (EST, MST, HST: fixed UTC-5, -7, -10; CET, EET, MET, WET)"))
        #expect(!ZoneName.refusal("Mars/Olympus").contains("abbreviation, not a zone"))
    }

    @Test(arguments: ["Mars/Olympus", "+14:61", "+1:0", "+123456", "", "++2"])
    func argumentTextThatNamesNoZoneIsRefused(_ text: String) {
        #expect(ZoneName.parse(text) == nil)
    }
}
