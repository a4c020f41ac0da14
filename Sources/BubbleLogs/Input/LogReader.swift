/// Reads one log as a sequence of entries, each a message (with its position) or a diagnostic for a
/// rejected record, in input order, keeping running counts. Iterate it once:
///
///     let reader = try LogSource.open(path: "chat.jsonl")
///     for entry in reader { … }
///     print(reader.counts)   // messagesOut + rejected == recordsIn
///
/// JSON Lines and WhatsApp files are streamed: memory holds one chunk and one line (one message for
/// WhatsApp), not the file. JSON exports (Telegram, Discord, Slack day files) are whole documents
/// and are parsed whole. With `strict`, the first diagnostic ends the sequence.
public final class LogReader: Sequence, IteratorProtocol {
    /// The path as given, or "<stdin>".
    public let file: String
    /// The format actually read (never `.auto`).
    public let format: LogFormat
    public private(set) var counts = LogCounts()
    /// True when `strict` stopped the read at a diagnostic before the end of the input.
    public private(set) var stoppedEarly = false
    /// Messages read as outgoing so far: none at the end of a read with `me` set means that name
    /// matched no sender, which is worth telling the user.
    public private(set) var outgoingMessages = 0

    /// Notes about how the input was read, for stderr: a WhatsApp file's date order when its
    /// dates could be read two ways. Known as soon as the reader is open.
    public var notes: [String] { producer.notes }

    private let producer: RecordProducer
    private let strict: Bool
    private var finished = false

    init(file: String, format: LogFormat, strict: Bool, producer: RecordProducer) {
        self.file = file
        self.format = format
        self.strict = strict
        self.producer = producer
    }

    public func next() -> LogEntry? {
        while !finished {
            guard let produced = producer.next() else {
                finished = true
                return nil
            }
            switch produced {
            case .blank:
                counts.blankLinesSkipped += 1
            case .record(let record, let position):
                counts.recordsIn += 1
                counts.messagesOut += 1
                if record.direction == .outgoing { outgoingMessages += 1 }
                return .message(record, position)
            case .rejected(let diagnostic):
                counts.recordsIn += 1
                counts.rejected += 1
                if strict {
                    finished = true
                    stoppedEarly = true
                }
                return .diagnostic(diagnostic)
            }
        }
        return nil
    }

    public func makeIterator() -> LogReader { self }
}
