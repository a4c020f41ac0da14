import Foundation

/// Calendar days and wall-clock times in one time zone, fast: the zone's offset is looked up once
/// per stretch between daylight-saving transitions, not once per message.
public struct ZoneClock: Sendable {
    public let timeZone: TimeZone
    private var validFrom: Double = .infinity
    private var validUntil: Double = -.infinity
    private var offset = 0

    public init(timeZone: TimeZone) { self.timeZone = timeZone }

    /// The zone the process's `TZ` names, read as POSIX does (`ZoneName.environmentZone`), else UTC.
    public static var environmentTimeZone: TimeZone {
        ZoneName.environmentZone(ProcessInfo.processInfo.environment).zone
    }

    /// Seconds east of UTC at `date`.
    public mutating func utcOffset(at date: Date) -> Int {
        let t = date.timeIntervalSince1970
        if t >= validFrom && t < validUntil { return offset }
        offset = timeZone.secondsFromGMT(for: date)
        // The offset holds until the next transition; before `date` we only trust `date` itself.
        validFrom = t
        validUntil = timeZone.nextDaylightSavingTimeTransition(after: date)?.timeIntervalSince1970 ?? .infinity
        return offset
    }

    /// The calendar day `date` falls on in this zone.
    public mutating func day(of date: Date) -> CalendarDay {
        CalendarDay(date, utcOffset: utcOffset(at: date))
    }

    /// `HH:mm` of `date` in this zone.
    public mutating func clockTime(of date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + utcOffset(at: date)
        let inDay = ((seconds % 86_400) + 86_400) % 86_400
        return CalendarDay.pad(inDay / 3600, 2) + ":" + CalendarDay.pad(inDay / 60 % 60, 2)
    }
}
