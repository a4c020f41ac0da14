extension DecoratedRow {
    /// The same row with its message index moved by `offset`, for streams that keep only a window
    /// of the models and index rows within it. Date separators stay separators.
    public func shifted(by offset: Int) -> DecoratedRow {
        guard !isDateSeparator else { return self }
        return DecoratedRow(messageIndex: messageIndex + offset, configuratorIndex: configuratorIndex,
                            day: day, decoration: decoration)
    }
}
