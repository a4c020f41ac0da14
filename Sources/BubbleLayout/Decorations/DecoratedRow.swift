/// One row of a decorated timeline: a date separator or a message, with its decoration.
public struct DecoratedRow: Hashable, Sendable {
    /// The input position of the message, or -1 for a date separator.
    public let messageIndex: Int
    /// Index into the registry's configurators for a message; 0 for a date separator.
    public let configuratorIndex: Int
    /// The calendar day of the row (the day a separator marks).
    public let day: CalendarDay
    public let decoration: RowDecoration
    /// The input position of the message the row belongs to: its own, or for a date separator the
    /// message it stands above (-1 when not known). Says which conversation the row is in.
    public let anchorIndex: Int

    /// True for a date separator row.
    public var isDateSeparator: Bool { messageIndex < 0 }

    init(messageIndex: Int, configuratorIndex: Int, day: CalendarDay, decoration: RowDecoration, anchorIndex: Int? = nil) {
        self.messageIndex = messageIndex
        self.anchorIndex = anchorIndex ?? messageIndex
        self.configuratorIndex = configuratorIndex
        self.day = day
        self.decoration = decoration
    }

    /// A date separator for `day`, above the message at input position `anchorIndex`.
    public static func dateSeparator(_ day: CalendarDay, isFirstRow: Bool, above anchorIndex: Int = -1) -> DecoratedRow {
        DecoratedRow(messageIndex: -1, configuratorIndex: 0, day: day,
                     decoration: RowDecoration(isFirstRow: isFirstRow), anchorIndex: anchorIndex)
    }

    /// The conversation the row is in (`MessageModel.conversationID`).
    public func conversationID(in models: [any MessageModel]) -> String? {
        anchorIndex >= 0 ? models[anchorIndex].conversationID : nil
    }

    /// The id `heights` prints: the message's id, or `date:2024-05-01` for a separator.
    public func id(in models: [any MessageModel]) -> String {
        isDateSeparator ? "date:" + day.isoString : models[messageIndex].id
    }
}
