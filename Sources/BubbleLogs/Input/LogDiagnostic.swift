/// One rejected record: where it is and why. `description` is the line to print on stderr,
/// `file:line: reason`.
public struct LogDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    public var position: LogPosition
    /// What is wrong, e.g. `missing field "date"`.
    public var reason: String

    public init(position: LogPosition, reason: String) {
        self.position = position
        self.reason = reason
    }

    public var file: String { position.file }
    public var line: Int? { position.line }

    /// Escaped whole, so a reason that forgot to quote a value still cannot reach stderr raw.
    public var description: String { "\(position): \(DiagnosticText.escaped(reason))" }
}
