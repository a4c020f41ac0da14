import Foundation

/// How the timeline decorates rows from their neighbours.
public struct DecorationOptions: Hashable, Sendable {
    /// Longest pause, in seconds, between two messages of one group (default 300: 5 minutes).
    package var groupGap: Double = 300
    /// The zone whose calendar days the date separators mark and footer times are in (default:
    /// the device's zone, `ZoneClock.systemTimeZone`).
    package var timeZone: TimeZone = ZoneClock.systemTimeZone
    /// How footer times are written (default 24-hour; `ClockStyle.locale` reads the user's locale).
    package var clock: ClockStyle = .twentyFourHour
    /// How many other parties the conversation has; nil counts the distinct senders of incoming
    /// messages. Names are shown only when there is more than one.
    package var otherParties: Int?
    /// True (the default) shows the footer on every bubble; false only on a group's last bubble
    /// and on bubbles that are edited or failed.
    package var footerOnEveryMessage = true

    /// Options with the given group gap (seconds), time zone, party count, footer rule and clock
    /// style; each defaults to the property's default.
    public init(groupGap: Double = 300, timeZone: TimeZone = ZoneClock.systemTimeZone,
                otherParties: Int? = nil, footerOnEveryMessage: Bool = true, clock: ClockStyle = .twentyFourHour) {
        self.clock = clock
        self.groupGap = groupGap
        self.timeZone = timeZone
        self.otherParties = otherParties
        self.footerOnEveryMessage = footerOnEveryMessage
    }
}
