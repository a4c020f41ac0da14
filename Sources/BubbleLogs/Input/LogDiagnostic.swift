/// One rejected record (or, with `isWarning`, a record read with a warning): where it is and why.
/// `description` is the line to print on stderr, `file:line: reason`.
public struct LogDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    public var position: LogPosition
    /// What is wrong, e.g. `missing field "date"`.
    public var reason: String
    /// A warning about a record that was still read (an expansion cut short), not a rejection:
    /// it is not counted in `LogCounts.rejected` and does not make the read fail.
    public var isWarning: Bool

    public init(position: LogPosition, reason: String, isWarning: Bool = false) {
        self.position = position
        self.reason = reason
        self.isWarning = isWarning
    }

    public var file: String { position.file }
    public var line: Int? { position.line }

    /// Escaped whole, so a reason that forgot to quote a value still cannot reach stderr raw.
    public var description: String { "\(position): \(isWarning ? "warning: " : "")\(DiagnosticText.escaped(reason))" }
}
