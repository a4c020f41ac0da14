import BubbleLayout
import Foundation

/// `--tz`'s reading of a zone name: tz database names in any case, or an offset east-positive.
extension ZoneName {
    /// The zone `text` names, with offsets east-positive (`+05:30`, `-0800`, `UTC+2`, `GMT-03:00`):
    /// a tz database name in any case (`Europe/Berlin`, `asia/saigon`, `utc`, `EST`), or an offset.
    /// Nil when it names none: an abbreviation that is not a database name (`PST`, `IST`, `CEST`)
    /// names none, since most stand for several zones (`IST` is India's, Israel's and Ireland's).
    static func parse(_ text: String) -> TimeZone? {
        guard let name = trimmed(text) else { return nil }
        if let zone = named(name) { return zone }
        if let offset = offsetSeconds(name) { return TimeZone(secondsFromGMT: offset) }
        return nil
    }

    /// Why `--tz`'s `text` names no zone, for its usage error: what is read, and for an abbreviation
    /// a zone it may have meant.
    static func refusal(_ text: String) -> String {
        let rule = "expected a tz database zone name in any case (Europe/Berlin, america/new_york, UTC) or an offset (+05:30, -0800, UTC+2); abbreviations are not zone names, except the few the database has itself (EST, MST, HST: fixed UTC-5, -7, -10; CET, EET, MET, WET)"
        let upper = text.trimmingCharacters(in: .whitespaces).uppercased()
        // Foundation's abbreviation table, used only to suggest: it picks one zone where there are several.
        if let zone = TimeZone.abbreviationDictionary[upper], zone != "GMT", zone != "UTC" {
            return "'\(upper)' is an abbreviation, not a zone: give a zone such as \(zone), or an offset; \(rule)"
        }
        return rule
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

}
