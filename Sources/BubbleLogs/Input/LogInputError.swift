/// A whole-file failure: the input cannot be read as the expected format at all (missing file,
/// truncated JSON, an unknown schema, a WhatsApp file with a date format we don't know).
/// `description` says what was expected.
public struct LogInputError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var message: String
    public var kind: Kind

    /// What sort of failure, for a caller that reports some differently (a command line treats
    /// an option that does not apply as a usage error).
    public enum Kind: Sendable, Hashable {
        /// The input itself cannot be read as the format.
        case unreadable
        /// A conversation was chosen (`LogReadOptions.conversation`) for an input that holds one.
        case conversationNotApplicable
        /// The input holds several conversations and none is the one chosen: the message names
        /// those it holds.
        case conversationNotFound
    }

    public init(file: String, line: Int? = nil, message: String, kind: Kind = .unreadable) {
        self.file = file
        self.line = line
        self.message = message
        self.kind = kind
    }

    /// Escaped whole: the file name and any value the message quotes may be untrusted.
    public var description: String {
        if let line { return DiagnosticText.escaped("\(file):\(line): \(message)") }
        return DiagnosticText.escaped("\(file): \(message)")
    }
}
