import Foundation

/// The one reader of time-zone names, for `--tz`-style arguments and for the `TZ` environment
/// variable. The two differ in one way only, the sign of a bare offset: people type `+05:30` to mean
/// east of UTC, while POSIX says `TZ=UTC+2` is two hours *west* (as `date` reads it).
package enum ZoneName {
    /// The zone `text` names, with offsets east-positive (`+05:30`, `-0800`, `UTC+2`, `GMT-03:00`):
    /// a tz database name in any case (`Europe/Berlin`, `asia/saigon`, `utc`, `EST`), or an offset.
    /// Nil when it names none: an abbreviation that is not a database name (`PST`, `IST`, `CEST`)
    /// names none, since most stand for several zones (`IST` is India's, Israel's and Ireland's).
    package static func parse(_ text: String) -> TimeZone? {
        guard let name = trimmed(text) else { return nil }
        if let zone = named(name) { return zone }
        if let offset = offsetSeconds(name) { return TimeZone(secondsFromGMT: offset) }
        return nil
    }

    /// Why `--tz`'s `text` names no zone, for its usage error: what is read, and for an abbreviation
    /// a zone it may have meant.
    package static func refusal(_ text: String) -> String {
        let rule = "expected a tz database zone name in any case (Europe/Berlin, america/new_york, UTC) or an offset (+05:30, -0800, UTC+2); abbreviations are not zone names, except the few the database has itself (EST, MST, HST: fixed UTC-5, -7, -10; CET, EET, MET, WET)"
        let upper = text.trimmingCharacters(in: .whitespaces).uppercased()
        // Foundation's abbreviation table, used only to suggest: it picks one zone where there are several.
        if let zone = TimeZone.abbreviationDictionary[upper], zone != "GMT", zone != "UTC" {
            return "'\(upper)' is an abbreviation, not a zone: give a zone such as \(zone), or an offset; \(rule)"
        }
        return rule
    }

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

    /// Seconds east of UTC for `+05:30`, `-0800`, `+5`, `UTC+2` or `GMT-03:00`; nil otherwise.
    static func offsetSeconds(_ text: String) -> Int? {
        var rest = Substring(text)
        for prefix in ["UTC", "GMT", "utc", "gmt"] where rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
            break
        }
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        rest = rest.dropFirst()
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        let hours: Int, minutes: Int
        if parts.count == 2 {
            guard parts[0].count <= 2, parts[1].count == 2 else { return nil }
            hours = Int(parts[0])!
            minutes = Int(parts[1])!
        } else {
            // "5" and "05" are hours; "530" and "0530" are hours and minutes.
            guard parts[0].count <= 4, let number = Int(parts[0]) else { return nil }
            (hours, minutes) = parts[0].count <= 2 ? (number, 0) : (number / 100, number % 100)
        }
        guard hours <= 14, minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    private static func trimmed(_ text: String) -> String? {
        var name = text.trimmingCharacters(in: .whitespaces)
        // POSIX lets TZ say ":Europe/Berlin" for "read the zone file".
        if name.hasPrefix(":") { name.removeFirst() }
        return name.isEmpty ? nil : name
    }

    /// The zone a tz database name stands for, matched in any case (`asia/saigon` is
    /// Asia/Ho_Chi_Minh): the canonical zone of a link, else the name itself. Only database names
    /// are read, not whatever else Foundation takes (ICU also takes `BST` for Bangladesh and `PST`
    /// for Los Angeles), so one rule holds whatever the case. Nil for a name Foundation does not know.
    static func named(_ name: String) -> TimeZone? {
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
