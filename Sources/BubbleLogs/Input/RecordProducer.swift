import BubbleLayout
/// What a format reader hands to `LogReader` for each step.
enum ProducedRecord {
    case record(any LogRecord, LogPosition)
    case rejected(LogDiagnostic)
    /// A record read in part (an expansion was cut short), with what was cut.
    case recordWithWarnings(any LogRecord, LogPosition, [LogDiagnostic])
    /// A blank line: skipped, counted apart.
    case blank

    /// What `decode` makes of the message at `position`: its record, with the expansions it cut
    /// short as warnings, or the problem it threw as a rejection. `conversation`, when given, is
    /// stamped on the record (an export holding several).
    static func decoding(at position: LogPosition, conversation: String? = nil,
                         _ decode: () throws(ExportProblem) -> any LogRecord) -> ProducedRecord {
        let (decoded, notes) = ExpansionNotes.collecting { Result { () throws(ExportProblem) in try decode() } }
        switch decoded {
        case .success(var record):
            if let conversation { record.header.conversationID = conversation }
            if notes.isEmpty { return .record(record, position) }
            return .recordWithWarnings(record, position, notes.map { LogDiagnostic(position: position, reason: $0, isWarning: true) })
        case .failure(let problem):
            return .rejected(LogDiagnostic(position: position, reason: problem.reason))
        }
    }
}

/// A format reader: produces records in order until it returns nil.
protocol RecordProducer: AnyObject {
    func next() -> ProducedRecord?
    /// The next step for a reader writing native JSON Lines: a producer that can write a record
    /// straight from its input does so into `out`; the rest hand over the record as `next` does.
    func nextNative(into out: inout OutputBuffer) -> ProducedNative?
    /// True when the next step will read more input and may wait for it (streamed formats only).
    var mayWaitForInput: Bool { get }
    /// Notes for the user about how the input was read, known once it is open.
    var notes: [String] { get }
    /// Records passed over as not of the chosen conversation (see `ConversationFilter`).
    var skippedOtherConversations: Int { get }
    /// A failure known only at the end of the input (see `ConversationFilter.endProblem`).
    var endProblem: LogInputError? { get }
    /// True once a record's time was read in the options' zone because the input wrote it
    /// without one (a WhatsApp export, an old Telegram export's `date`).
    var readZonelessTimes: Bool { get }
    /// The clock the input writes its times in, where it writes them for people (a WhatsApp
    /// export's headers); nil for inputs whose times are instants (JSON, ISO 8601).
    var writtenClock: ClockStyle? { get }
    /// Where the record `nextNative` last wrote straight to the output came from.
    var lastWrittenPosition: LogPosition? { get }
}

extension RecordProducer {
    var notes: [String] { [] }
    var skippedOtherConversations: Int { 0 }
    var endProblem: LogInputError? { nil }
    var readZonelessTimes: Bool { false }
    var writtenClock: ClockStyle? { nil }
    var lastWrittenPosition: LogPosition? { nil }

    func nextNative(into out: inout OutputBuffer) -> ProducedNative? {
        next().map { .produced($0) }
    }

    var mayWaitForInput: Bool { false }
}

/// A step of `nextNative`.
enum ProducedNative {
    case produced(ProducedRecord)
    /// One message, already written to the output as its native line; what the reader counts of it.
    case written(isOutgoing: Bool, sender: String?)
}

/// Produces from a list already in memory (the JSON exports, which are whole documents).
final class ListProducer: RecordProducer {
    private var items: [() -> ProducedRecord]
    private var index = 0
    /// Set by the items' decoder when it reads a time written without a zone.
    private let zoneless: ZonelessTimes?

    /// Items made as they are reached, after `items`.
    private let rest: AnyIterator<() -> ProducedRecord>?

    init(_ items: [() -> ProducedRecord], then rest: AnyIterator<() -> ProducedRecord>? = nil, zoneless: ZonelessTimes? = nil) {
        self.items = items
        self.rest = rest
        self.zoneless = zoneless
    }

    var readZonelessTimes: Bool { zoneless?.seen ?? false }

    func next() -> ProducedRecord? {
        guard index < items.count else { return rest?.next()?() }
        defer {
            // Let each message's decoded form go as soon as it has been handed out.
            items[index] = { .blank }
            index += 1
        }
        return items[index]()
    }
}

/// Whether a decoder has read a time written without a zone (in the options' zone): shared
/// between a decoder, copied into each item, and the producer that reports it.
final class ZonelessTimes {
    var seen = false
}
