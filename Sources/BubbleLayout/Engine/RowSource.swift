/// What the one layout function takes of a row besides its decoration and width: the cell that
/// lays it out, the kind it names, and what it shows.
struct RowSource {
    let cell: BubbleCell.Type
    let kind: RowKind
    let content: RowContent
}

extension DecoratedRow {
    /// The index of the row's message in the models it was decorated from; nil for a date
    /// separator.
    package var modelIndex: Int? { messageIndex < 0 ? nil : messageIndex }
}
