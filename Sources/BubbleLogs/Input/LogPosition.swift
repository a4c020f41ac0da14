/// Where a record came from: the file, its 1-based line when known, and for JSON exports the
/// 1-based index of the message in its list.
public struct LogPosition: Sendable, Hashable, CustomStringConvertible {
    /// The path as the user gave it (or "<stdin>").
    public var file: String
    public var line: Int?
    public var messageIndex: Int?

    public init(file: String, line: Int?, messageIndex: Int? = nil) {
        self.file = file
        self.line = line
        self.messageIndex = messageIndex
    }

    /// "file:line", then ": message N" for exports: `result.json:412: message 37`. Controls in the
    /// file name are escaped: a Slack export names its day files after its channels.
    public var description: String {
        var text = DiagnosticText.escaped(file)
        if let line { text += ":\(line)" }
        if let messageIndex { text += ": message \(messageIndex)" }
        return text
    }
}
