/// What a renderer needs to draw a conversation row: the decorated rows of its date separator
/// (if it has one) and of its message, as a batch layout would have decided them.
extension ConversationRow {
    /// The separator's decorated row, when the message opens a day; `row` is its position.
    package func separatorRow(at row: Int) -> DecoratedRow? {
        dateSeparator == nil ? nil : .dateSeparator(day, isFirstRow: row == 0)
    }

    /// The message's decorated row; `messageIndex` is the index the caller's model list uses.
    package func messageRow(messageIndex: Int) -> DecoratedRow {
        DecoratedRow(messageIndex: messageIndex, configuratorIndex: configuratorIndex, day: day, decoration: decoration)
    }
}
