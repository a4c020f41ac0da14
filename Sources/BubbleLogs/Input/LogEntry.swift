/// One item from a `LogReader`: a message ready for layout, or a rejected record's diagnostic.
public enum LogEntry: Sendable {
    case message(any LogRecord, LogPosition)
    case diagnostic(LogDiagnostic)

    public var record: (any LogRecord)? {
        if case .message(let record, _) = self { return record }
        return nil
    }

    public var diagnostic: LogDiagnostic? {
        if case .diagnostic(let diagnostic) = self { return diagnostic }
        return nil
    }
}
