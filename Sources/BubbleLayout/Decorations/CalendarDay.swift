import Foundation

/// A calendar day (proleptic Gregorian) in some time zone: what a date separator marks.
package struct CalendarDay: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01.
    package let daysSinceEpoch: Int

    package init(daysSinceEpoch: Int) { self.daysSinceEpoch = daysSinceEpoch }

    /// The day `date` falls on, `utcOffset` seconds east of UTC.
    package init(_ date: Date, utcOffset: Int) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + utcOffset
        daysSinceEpoch = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    }

    /// Year, month (1–12) and day (1–31), by Howard Hinnant's days-to-civil arithmetic.
    package var components: (year: Int, month: Int, day: Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// 0 = Sunday … 6 = Saturday.
    package var weekday: Int { ((daysSinceEpoch % 7) + 11) % 7 }

    /// `2024-05-01`: the form date row ids use (`date:2024-05-01`).
    package var isoString: String {
        let (y, m, d) = components
        return "\(Self.pad(y, 4))-\(Self.pad(m, 2))-\(Self.pad(d, 2))"
    }

    /// `Wed 1 May 2024`: the label a date separator shows. ASCII, independent of locale.
    package var label: String {
        let (y, m, d) = components
        return "\(Self.weekdays[weekday]) \(d) \(Self.months[m - 1]) \(y)"
    }

    /// The day as `isoString` writes it.
    package var description: String { isoString }

    /// Whether `a` is an earlier day than `b`.
    package static func < (a: CalendarDay, b: CalendarDay) -> Bool { a.daysSinceEpoch < b.daysSinceEpoch }

    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func pad(_ value: Int, _ digits: Int) -> String {
        let s = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
