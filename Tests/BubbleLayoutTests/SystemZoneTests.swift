import BubbleText
import Foundation
import Testing
@testable import BubbleLayout

/// The default zone is the system's, as `date` shows it: `TZ` when set, else the zone the
/// system's localtime file sets, else UTC. The file is given to each test, never the machine's.
@Suite struct SystemZoneTests {
    /// 2024-05-01T10:00:00Z, in summer time for the northern zones below.
    static let may = Date(timeIntervalSince1970: 1_714_557_600)
    static let zoneinfo = "/usr/share/zoneinfo"

    /// A fresh folder for links and copies, removed by the caller.
    func folder() throws -> String {
        let path = NSTemporaryDirectory() + "bubbles-localtime-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: zoneinfo + "/Europe/Berlin")))
    func withoutTZTheZoneTheLocaltimeLinkNamesIsUsed() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let link = dir + "/localtime"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Self.zoneinfo + "/Europe/Berlin")
        let system = ZoneName.systemZone([:], localtimePath: link)
        #expect(system.zone.identifier == "Europe/Berlin")
        #expect(system.source == .system && system.warning == nil)
        #expect(system.zone.secondsFromGMT(for: Self.may) == 7200)
        // An empty TZ is unset, as for `date`.
        #expect(ZoneName.systemZone(["TZ": ""], localtimePath: link).zone.identifier == "Europe/Berlin")
        // TZ wins, read as POSIX does (UTC+2 is two hours west).
        let posix = ZoneName.systemZone(["TZ": "UTC+2"], localtimePath: link)
        #expect(posix.source == .environment && posix.zone.secondsFromGMT(for: Self.may) == -7200)
        // A relative link, as `ln -s ../usr/share/zoneinfo/…` makes, and one into the posix/ tree.
        let relative = dir + "/relative"
        let up = String(repeating: "../", count: dir.split(separator: "/").count)
        try FileManager.default.createSymbolicLink(atPath: relative, withDestinationPath: up + "usr/share/zoneinfo/Asia/Kolkata")
        #expect(ZoneName.systemZone([:], localtimePath: relative).zone.identifier == "Asia/Kolkata")
        // A link to a zone's link name gives the canonical zone.
        let calcutta = dir + "/calcutta"
        try FileManager.default.createSymbolicLink(atPath: calcutta, withDestinationPath: Self.zoneinfo + "/Asia/Calcutta")
        #expect(ZoneName.systemZone([:], localtimePath: calcutta).zone.secondsFromGMT(for: Self.may) == 19800)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: zoneinfo + "/America/New_York")))
    func aCopiedZoneFileIsKnownByItsBytes() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let copy = dir + "/localtime"
        try FileManager.default.copyItem(atPath: Self.zoneinfo + "/America/New_York", toPath: copy)
        let zone = try #require(ZoneName.zone(atLocaltime: copy))
        #expect(zone.secondsFromGMT(for: Self.may) == -4 * 3600)
        // With no zoneinfo folder to compare with, the POSIX rule that ends the TZif file says the
        // standard offset (its daylight-saving rule is not applied).
        let alone = try #require(ZoneName.zone(atLocaltime: copy, zoneinfoDirectory: dir + "/none"))
        #expect(alone.secondsFromGMT(for: Self.may) == -5 * 3600)
    }

    @Test func noFileOrAFileThatIsNoZoneIsUTC() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = ZoneName.systemZone([:], localtimePath: dir + "/nothing")
        #if !canImport(Darwin)
        #expect(missing.zone == .gmt && missing.source == .fallback)
        #endif
        try "not a zone".write(toFile: dir + "/text", atomically: false, encoding: .utf8)
        #expect(ZoneName.zone(atLocaltime: dir + "/text") == nil)
        let none = ZoneName.systemZone([:], localtimePath: nil)
        #expect(none.zone == .gmt && none.source == .fallback)
    }
}

/// Footer times in 24-hour or 12-hour form, and the clock a locale names.
@Suite struct ClockStyleTests {
    @Test func twelveHourTimesRunFromTwelveToElevenWithTheirHalfOfTheDay() {
        var clock = ZoneClock(timeZone: .gmt, style: .twelveHour)
        let day = 1_714_521_600.0  // 2024-05-01T00:00:00Z
        let expected = [(0, "12:00 AM", true), (7, "12:07 AM", true), (60, "1:00 AM", false),
                        (9 * 60 + 58, "9:58 AM", false), (12 * 60, "12:00 PM", true), (13 * 60 + 1, "1:01 PM", false),
                        (22 * 60 + 30, "10:30 PM", true), (23 * 60 + 59, "11:59 PM", true)]
        for (minutes, text, twoDigits) in expected {
            let date = Date(timeIntervalSince1970: day + Double(minutes * 60))
            #expect(clock.clockTime(of: date) == text)
            #expect(clock.hasTwoDigitHour(at: date) == twoDigits)
        }
        var twentyFour = ZoneClock(timeZone: .gmt)
        #expect(twentyFour.clockTime(of: Date(timeIntervalSince1970: day + 13 * 3600)) == "13:00")
    }

    /// What a footer reserves is what `FooterText` writes, measured, for every hour of the day.
    @Test func aFootersReservedWidthIsTheWidthOfItsTime() {
        let measurer = CellMeasurer()
        let widths = FooterText.Widths(measurer: measurer)
        for style in ClockStyle.allCases {
            var clock = ZoneClock(timeZone: .gmt, style: style)
            for hour in 0..<24 {
                let date = Date(timeIntervalSince1970: 1_714_521_600 + Double(hour * 3600 + 59 * 60))
                for status in [nil] + DeliveryStatus.allCases.map(Optional.some) {
                    for edited in [false, true] {
                        let footer = FooterText(date: date, status: status, isEdited: edited, clock: &clock)
                        #expect(widths.width(status: status, isEdited: edited, style: style, twoDigitHour: clock.hasTwoDigitHour(at: date))
                                == measurer.width(of: footer.plain()), "\(footer.plain())")
                    }
                }
            }
        }
    }

    @Test func theLocaleVariablesAreReadAsDateReadsThem() {
        #expect(ClockStyle.localeName([:]) == nil)
        #expect(ClockStyle.localeName(["LANG": "C.UTF-8"]) == nil)
        #expect(ClockStyle.localeName(["LANG": "POSIX"]) == nil)
        #expect(ClockStyle.localeName(["LANG": "de_DE.UTF-8", "LC_TIME": "en_US.UTF-8"]) == "en_US.UTF-8")
        #expect(ClockStyle.localeName(["LANG": "de_DE.UTF-8", "LC_TIME": "en_US.UTF-8", "LC_ALL": "C"]) == nil)
        #expect(ClockStyle.localeName(["LANG": "en_US.UTF-8", "LC_ALL": ""]) == "en_US.UTF-8")
        #expect(ClockStyle.locale(environment: [:]) == .twentyFourHour)
        #expect(ClockStyle.locale(environment: ["LANG": "C.UTF-8"]) == .twentyFourHour)
    }

    /// glibc's own locale sources, where the system has them (`date` reads these locales).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: ClockStyle.glibcLocaleDirectory + "/en_US")))
    func glibcLocaleSourcesSayTheClock() {
        let glibc = ClockStyle.glibcLocaleDirectory
        #expect(ClockStyle.glibcClock("en_US.UTF-8", directory: glibc, depth: 0) == .twelveHour)
        #expect(ClockStyle.glibcClock("de_DE.UTF-8", directory: glibc, depth: 0) == .twentyFourHour)
        #expect(ClockStyle.glibcClock("en_GB", directory: glibc, depth: 0) == .twentyFourHour)
        #expect(ClockStyle.glibcClock("../etc/passwd", directory: glibc, depth: 0) == nil)
        #expect(ClockStyle.locale(environment: ["LANG": "de_DE.UTF-8", "LC_TIME": "en_US.UTF-8"]) == .twelveHour)
    }

    /// A locale that copies another's LC_TIME takes its clock; the old <Uxxxx> spelling is read.
    @Test func aCopiedTimeSectionAndOldSpellingsAreFollowed() throws {
        let dir = NSTemporaryDirectory() + "bubbles-locales-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "LC_TIME\nt_fmt \"<U0025><U0072>\"\nEND LC_TIME\n".write(toFile: dir + "/xx_AA", atomically: false, encoding: .utf8)
        try "LC_CTYPE\ncopy \"zz_ZZ\"\nEND LC_CTYPE\nLC_TIME\ncopy \"xx_AA\"\nEND LC_TIME\n".write(toFile: dir + "/yy_BB", atomically: false, encoding: .utf8)
        try "LC_TIME\nt_fmt \"%H:%M:%S\"\nt_fmt_ampm \"%I:%M:%S %p\"\nEND LC_TIME\n".write(toFile: dir + "/ww_CC", atomically: false, encoding: .utf8)
        #expect(ClockStyle.locale(environment: ["LANG": "yy_BB.UTF-8"], localeDirectory: dir) == .twelveHour)
        #expect(ClockStyle.locale(environment: ["LC_TIME": "ww_CC"], localeDirectory: dir) == .twentyFourHour)
    }

    /// Without glibc's sources, Foundation's CLDR data decides.
    @Test func foundationsLocaleDataDecidesWithoutGlibcs() {
        #expect(ClockStyle.locale(environment: ["LANG": "en_US.UTF-8"], localeDirectory: nil) == .twelveHour)
        #expect(ClockStyle.locale(environment: ["LANG": "en_GB.UTF-8"], localeDirectory: nil) == .twentyFourHour)
        #expect(ClockStyle.locale(environment: ["LANG": "de_DE.UTF-8"], localeDirectory: nil) == .twentyFourHour)
    }
}
