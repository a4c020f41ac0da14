/// One output line, built left to right with its column tracked. Blanks are written only when
/// something is drawn after them, so no line ends in padding.
struct LineBuilder {
    private var drawn = ""
    private var drawnColumn = 0
    /// Where the next drawing starts: moves only record it.
    private(set) var column = 0

    /// The line as drawn so far.
    var text: String { drawn }

    /// Moves to `target` (never backwards).
    mutating func move(to target: Int) {
        column = max(column, target)
    }

    mutating func append(_ text: DrawnText) {
        append(text.text, width: text.width)
    }

    /// Appends `string`, `width` cells wide.
    mutating func append(_ string: String, width: Int) {
        guard !string.isEmpty else {
            column += width
            return
        }
        if column > drawnColumn { drawn += String(repeating: " ", count: column - drawnColumn) }
        drawn += string
        column += width
        drawnColumn = column
    }
}
