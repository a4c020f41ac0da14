import Foundation

/// Calendar days and wall-clock times in one time zone, fast: the zone's offset is looked up once
/// per stretch between daylight-saving transitions, not once per message.
@usableFromInline package struct ZoneClock: Sendable {
    package let timeZone: TimeZone
    /// How `clockTime(of:)` writes times.
    package let style: ClockStyle
    private var validFrom: Double = .infinity
    private var validUntil: Double = -.infinity
    private var offset = 0

    package init(timeZone: TimeZone, style: ClockStyle = .twentyFourHour) {
        self.timeZone = timeZone
        self.style = style
    }

    /// The zone the process's `TZ` names, read as POSIX does (`ZoneName.environmentZone`), else UTC.
    package static var environmentTimeZone: TimeZone {
        ZoneName.environmentZone(ProcessInfo.processInfo.environment).zone
    }

    /// The device's zone, as `date` shows it: `TZ` read as POSIX does, else the system's zone
    /// (`ZoneName.systemZone`), else UTC. The default of `DecorationOptions` and `RenderOptions`.
    @usableFromInline package static var systemTimeZone: TimeZone {
        ZoneName.systemZone(ProcessInfo.processInfo.environment).zone
    }

    /// Seconds east of UTC at `date`.
    package mutating func utcOffset(at date: Date) -> Int {
        let t = date.timeIntervalSince1970
        if t >= validFrom && t < validUntil { return offset }
        offset = timeZone.secondsFromGMT(for: date)
        // The offset holds until the next transition; before `date` we only trust `date` itself.
        validFrom = t
        validUntil = timeZone.nextDaylightSavingTimeTransition(after: date)?.timeIntervalSince1970 ?? .infinity
        return offset
    }

    /// The calendar day `date` falls on in this zone.
    package mutating func day(of date: Date) -> CalendarDay {
        CalendarDay(date, utcOffset: utcOffset(at: date))
    }

    /// `HH:mm` of `date` in this zone, or `h:mm AM` with the 12-hour style.
    package mutating func clockTime(of date: Date) -> String {
        let inDay = secondsInDay(date)
        let hour = inDay / 3600, minutes = CalendarDay.pad(inDay / 60 % 60, 2)
        switch style {
        case .twentyFourHour: return CalendarDay.pad(hour, 2) + ":" + minutes
        case .twelveHour: return String(Self.twelveHour(hour)) + ":" + minutes + (hour < 12 ? " AM" : " PM")
        }
    }

    /// Whether `clockTime(of:)` writes two digits for the hour of `date`: always in 24-hour style,
    /// from 10 to 12 o'clock in 12-hour style. What a footer's width depends on.
    package mutating func hasTwoDigitHour(at date: Date) -> Bool {
        style == .twentyFourHour || Self.twelveHour(secondsInDay(date) / 3600) >= 10
    }

    /// 1 to 12 for an hour of 0 to 23.
    static func twelveHour(_ hour: Int) -> Int { hour % 12 == 0 ? 12 : hour % 12 }

    private mutating func secondsInDay(_ date: Date) -> Int {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + utcOffset(at: date)
        return ((seconds % 86_400) + 86_400) % 86_400
    }
}
