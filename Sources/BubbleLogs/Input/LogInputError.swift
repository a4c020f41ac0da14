/// A whole-file failure: the input cannot be read as the expected format at all (missing file,
/// truncated JSON, an unknown schema, a WhatsApp file with a date format we don't know).
/// `description` says what was expected.
public struct LogInputError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String

    public init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// Escaped whole: the file name and any value the message quotes may be untrusted.
    public var description: String {
        if let line { return DiagnosticText.escaped("\(file):\(line): \(message)") }
        return DiagnosticText.escaped("\(file): \(message)")
    }
}
