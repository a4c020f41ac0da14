/// One row of a decorated timeline: a date separator or a message, with its decoration.
///
/// A row decorated by `LayoutEngine.decorate` also carries the `ContentStamp` of its message's
/// content, taken once there, so laying it out (at each width, and again on every hit) reads
/// neither the message's content nor the cache's stamp table. A row describes the models it was
/// decorated from (its indices already do); lay it out with those.
package struct DecoratedRow: Hashable, Sendable {
    /// The input position of the message, or -1 for a date separator.
    package let messageIndex: Int
    /// Index into the registry's configurators for a message; 0 for a date separator.
    package let configuratorIndex: Int
    /// The calendar day of the row (the day a separator marks).
    package let day: CalendarDay
    package let decoration: RowDecoration
    /// The input position of the message the row belongs to: its own, or for a date separator the
    /// message it stands above (-1 when not known). Says which conversation the row is in.
    package let anchorIndex: Int
    /// The stamp of the message's content in the engine's cache when it was decorated, or
    /// `ContentStamp.unused` when not stamped (a separator, or a row from a decorator alone): such
    /// a row is stamped when it is laid out.
    package internal(set) var stamp = ContentStamp.unused

    /// True for a date separator row.
    package var isDateSeparator: Bool { messageIndex < 0 }

    init(messageIndex: Int, configuratorIndex: Int, day: CalendarDay, decoration: RowDecoration, anchorIndex: Int? = nil) {
        self.messageIndex = messageIndex
        self.anchorIndex = anchorIndex ?? messageIndex
        self.configuratorIndex = configuratorIndex
        self.day = day
        self.decoration = decoration
    }

    /// A date separator for `day`, above the message at input position `anchorIndex`.
    package static func dateSeparator(_ day: CalendarDay, isFirstRow: Bool, above anchorIndex: Int = -1) -> DecoratedRow {
        DecoratedRow(messageIndex: -1, configuratorIndex: 0, day: day,
                     decoration: RowDecoration(isFirstRow: isFirstRow), anchorIndex: anchorIndex)
    }

    /// Equal rows say the same thing about the same message; the stamp is left out, as it is how one
    /// cache names the content, not part of the row (two engines stamp one row differently).
    public static func == (a: DecoratedRow, b: DecoratedRow) -> Bool {
        a.messageIndex == b.messageIndex && a.configuratorIndex == b.configuratorIndex && a.day == b.day
            && a.decoration == b.decoration && a.anchorIndex == b.anchorIndex
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(messageIndex)
        hasher.combine(configuratorIndex)
        hasher.combine(day)
        hasher.combine(decoration)
        hasher.combine(anchorIndex)
    }

    /// The row with its input positions moved by `offset` (a streaming window starts anew).
    func moved(by offset: Int) -> DecoratedRow {
        var row = DecoratedRow(messageIndex: messageIndex < 0 ? messageIndex : messageIndex + offset,
                               configuratorIndex: configuratorIndex, day: day, decoration: decoration,
                               anchorIndex: anchorIndex < 0 ? anchorIndex : anchorIndex + offset)
        row.stamp = stamp
        return row
    }

    /// The conversation the row is in (`MessageModel.conversationID`).
    package func conversationID(in models: [any MessageModel]) -> String? {
        anchorIndex >= 0 ? models[anchorIndex].conversationID : nil
    }

    /// The id `heights` prints: the message's id, or `date:2024-05-01` for a separator.
    package func id(in models: [any MessageModel]) -> String {
        isDateSeparator ? "date:" + day.isoString : models[messageIndex].id
    }
}
