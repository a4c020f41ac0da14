import Foundation

/// The one reader of time-zone names, for the `TZ` environment variable and (in the command line,
/// `ZoneName+Argument.swift`) for `--tz`-style arguments. The two differ in one way only, the sign
/// of a bare offset: people type `+05:30` to mean east of UTC, while POSIX says `TZ=UTC+2` is two
/// hours *west* (as `date` reads it). It stays in the library because the library's default zone
/// (`DecorationOptions.timeZone`, `ZoneClock.systemTimeZone`) reads `TZ` and `/etc/localtime` the
/// way the command line does, with the tz database's names (`ZoneNameTable.swift`).
package enum ZoneName {
    /// The zone of a POSIX `TZ` value: a zone name (`Europe/Berlin`, `:Asia/Tokyo`) or a POSIX
    /// `std offset[dst…]` string whose offset is west-positive (`UTC+2` is UTC−2, `EST5EDT`).
    /// Nil when it names none.
    package static func posix(_ text: String) -> TimeZone? {
        guard let name = trimmed(text) else { return nil }
        // A POSIX string is read as POSIX before Foundation sees it: Foundation reads `UTC+2` east.
        if let rule = PosixRule(name) {
            // tzdata carries the classic rule names (EST5EDT, CST6CDT) with their DST transitions.
            if rule.hasDaylightPart { return named(name) ?? TimeZone(secondsFromGMT: rule.secondsEast) }
            return TimeZone(secondsFromGMT: rule.secondsEast)
        }
        return named(name)
    }

    /// The zone of the `TZ` variable in `environment`: UTC when it is unset or empty, and UTC with a
    /// warning when it names no zone, since times would otherwise shift without notice.
    package static func environmentZone(_ environment: [String: String]) -> (zone: TimeZone, warning: String?) {
        guard let value = environment["TZ"], !value.isEmpty else { return (.gmt, nil) }
        guard let zone = posix(value) else {
            return (.gmt, "TZ='\(value)' names no time zone we know; times are shown in UTC")
        }
        if let name = trimmed(value), let rule = PosixRule(name), rule.hasDaylightPart, named(name) == nil {
            return (zone, "TZ='\(value)': its daylight-saving rule is not applied; times are shown at its standard offset")
        }
        return (zone, nil)
    }

    package static func trimmed(_ text: String) -> String? {
        var name = text.trimmingCharacters(in: .whitespaces)
        // POSIX lets TZ say ":Europe/Berlin" for "read the zone file".
        if name.hasPrefix(":") { name.removeFirst() }
        return name.isEmpty ? nil : name
    }

    /// The zone a tz database name stands for, matched in any case (`asia/saigon` is
    /// Asia/Ho_Chi_Minh): the canonical zone of a link, else the name itself. Only database names
    /// are read, not whatever else Foundation takes (ICU also takes `BST` for Bangladesh and `PST`
    /// for Los Angeles), so one rule holds whatever the case. Nil for a name Foundation does not know.
    package static func named(_ name: String) -> TimeZone? {
        guard let entry = database[asciiLowercased(name)] else { return nil }
        return TimeZone(identifier: entry.zone) ?? TimeZone(identifier: entry.name)
    }

    /// `databaseNames` by lowercased name.
    private static let database: [String: (name: String, zone: String)] = {
        var byKey: [String: (name: String, zone: String)] = [:]
        for line in databaseNames {
            let parts = line.split(separator: " ")
            let name = String(parts[0])
            byKey[asciiLowercased(name)] = (name, parts.count > 1 ? String(parts[1]) : name)
        }
        return byKey
    }()

    /// ASCII letters lowered and nothing else, since zone names are ASCII: Unicode case mapping
    /// would let `İ` or `K` (Kelvin) match `i` or `k`.
    private static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}

/// The standard part of a POSIX TZ rule, `std offset [dst …]`: a name of three or more letters (or
/// `<…>` quoted), then an offset `[+|-]hh[:mm[:ss]]` that is positive west of Greenwich.
private struct PosixRule {
    let secondsEast: Int
    let hasDaylightPart: Bool

    init?(_ text: String) {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "<") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: ">")), close - bytes.startIndex >= 4 else { return nil }
            bytes = bytes[(close + 1)...]
        } else {
            let letters = bytes.prefix { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }
            guard letters.count >= 3 else { return nil }
            bytes = bytes.dropFirst(letters.count)
        }
        var sign = 1
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            sign = first == UInt8(ascii: "-") ? -1 : 1
            bytes = bytes.dropFirst()
        }
        var fields: [Int] = []
        while fields.count < 3 {
            let digits = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard (1...2).contains(digits.count) else { return nil }
            fields.append(digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
            bytes = bytes.dropFirst(digits.count)
            guard bytes.first == UInt8(ascii: ":") else { break }
            bytes = bytes.dropFirst()
        }
        guard fields[0] <= 24, fields.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        let west = fields[0] * 3600 + (fields.count > 1 ? fields[1] * 60 : 0) + (fields.count > 2 ? fields[2] : 0)
        secondsEast = -sign * west
        // What follows must be a daylight-saving name (letters or `<…>`), else this is not POSIX.
        if let next = bytes.first {
            guard next == UInt8(ascii: "<") || ((next | 0x20) >= UInt8(ascii: "a") && (next | 0x20) <= UInt8(ascii: "z")) else { return nil }
            hasDaylightPart = true
        } else {
            hasDaylightPart = false
        }
    }
}
