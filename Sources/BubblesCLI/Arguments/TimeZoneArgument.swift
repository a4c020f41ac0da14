import Foundation

/// Reads a time zone the way people type one: `Europe/Berlin`, `europe/berlin`, `UTC`, `utc`, `EST`,
/// or a fixed offset (`+05:30`, `-0800`, `UTC+2`).
enum TimeZoneArgument {
    /// The zone `text` names, or nil when it names none.
    static func parse(_ text: String) -> TimeZone? {
        var name = text.trimmingCharacters(in: .whitespaces)
        // POSIX lets TZ say ":Europe/Berlin" for "read the zone file".
        if name.hasPrefix(":") { name.removeFirst() }
        guard !name.isEmpty else { return nil }
        if let zone = TimeZone(identifier: name) { return zone }
        if let offset = offsetSeconds(name) { return TimeZone(secondsFromGMT: offset) }
        if let known = TimeZone.knownTimeZoneIdentifiers.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) {
            return TimeZone(identifier: known)
        }
        if let zone = TimeZone(abbreviation: name.uppercased()) { return zone }
        return nil
    }

    /// The zone of the `TZ` variable, UTC when it is unset or empty. A `TZ` that names no zone also
    /// gives UTC, with a warning to say so, since times would otherwise shift without notice.
    static func environmentZone(_ environment: [String: String]) -> (zone: TimeZone, warning: String?) {
        guard let value = environment["TZ"], !value.isEmpty else { return (.gmt, nil) }
        if let zone = parse(value) { return (zone, nil) }
        return (.gmt, "TZ='\(value)' names no time zone we know; times are shown in UTC")
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
