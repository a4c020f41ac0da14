/// One row of a decorated timeline: a date separator or a message, with its decoration.
public struct DecoratedRow: Hashable, Sendable {
    /// The input position of the message, or -1 for a date separator.
    public let messageIndex: Int
    /// Index into the registry's configurators for a message; 0 for a date separator.
    public let configuratorIndex: Int
    /// The calendar day of the row (the day a separator marks).
    public let day: CalendarDay
    public let decoration: RowDecoration

    /// True for a date separator row.
    public var isDateSeparator: Bool { messageIndex < 0 }

    init(messageIndex: Int, configuratorIndex: Int, day: CalendarDay, decoration: RowDecoration) {
        self.messageIndex = messageIndex
        self.configuratorIndex = configuratorIndex
        self.day = day
        self.decoration = decoration
    }

    /// A date separator for `day`.
    public static func dateSeparator(_ day: CalendarDay, isFirstRow: Bool) -> DecoratedRow {
        DecoratedRow(messageIndex: -1, configuratorIndex: 0, day: day,
                     decoration: RowDecoration(isFirstRow: isFirstRow))
    }

    /// The id `heights` prints: the message's id, or `date:2024-05-01` for a separator.
    public func id(in models: [any MessageModel]) -> String {
        isDateSeparator ? "date:" + day.isoString : models[messageIndex].id
    }
}
