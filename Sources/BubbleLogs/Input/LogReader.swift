import BubbleLayout
/// Reads one log as a sequence of entries, each a message (with its position) or a diagnostic for a
/// rejected record, in input order, keeping running counts. Iterate it once:
///
///     let reader = try LogSource.open(path: "chat.jsonl")
///     for entry in reader { … }
///     print(reader.counts)   // messagesOut + rejected == recordsIn
///
/// JSON Lines and WhatsApp files are streamed, from a file, a pipe, a FIFO or standard input alike:
/// memory holds one chunk and one line (one message for WhatsApp), not the file. JSON exports
/// (Telegram, Discord, Slack day files) are whole documents, held whole within
/// `LogReadOptions.memoryBudget`, their messages parsed one at a time. With `strict`,
/// the first diagnostic ends the sequence. A diagnostic with `isWarning` is about a message that
/// was still read (it comes just before that message) and is not counted as a rejection.
///
/// A reader is used by one thread at a time (a consumer that hands it to another thread hands it
/// over whole, as `heights` does to its reading thread), and its methods never reenter one
/// another: so the state read and written for every record is kept in a `ConfinedStorage`,
/// without the run-time exclusivity checks that would cost every record.
public final class LogReader: Sequence, IteratorProtocol {
    /// The path as given, or "<stdin>".
    public let file: String
    /// The format actually read (never `.auto`).
    public let format: LogFormat
    public var counts: LogCounts { state.value.counts }
    /// True when `strict` stopped the read at a diagnostic before the end of the input.
    public private(set) var stoppedEarly = false
    /// Messages read as outgoing so far: none at the end of a read with `me` set means that name
    /// matched no sender, which is worth telling the user.
    public var outgoingMessages: Int { state.value.outgoingMessages }
    /// Problems found on opening that lose no record (a Slack channel listed without a folder), to
    /// be said once on stderr.
    public internal(set) var warnings: [LogDiagnostic] = []
    /// The pictures the export holds beside its messages (a WhatsApp archive's media, or the files
    /// beside a WhatsApp chat's `.txt`), or nil. A picture of unknown size that it holds is given
    /// the size of its file.
    public internal(set) var media: ExportMedia?
    /// The first few distinct sender names read (at most `senderSampleSize`), in order: what a
    /// `--me` that matched no one is told it could have been.
    public var firstSenders: [String] { state.value.firstSenders }
    /// True when more senders were read than `firstSenders` holds.
    public var moreSenders: Bool { state.value.moreSenders }
    static let senderSampleSize = 6

    /// Notes about how the input was read, for stderr: its encoding when it is not plain UTF-8
    /// (`TextEncodingHint`), a WhatsApp file's date order when its dates could be read two ways.
    /// Known as soon as the reader is open.
    public var notes: [String] { inputNotes + producer.notes }
    /// True once a record's time was read in the options' zone because the input wrote it with
    /// none (every WhatsApp export, an old Telegram export's `date`): `convert`'s instants then
    /// depend on that zone.
    public var readZonelessTimes: Bool { producer.readZonelessTimes }
    /// The clock the input writes times in for people, known once it is open: 12-hour for a
    /// WhatsApp export with `4:56 PM` headers. Nil for inputs that write instants (JSON).
    public var writtenClock: ClockStyle? { producer.writtenClock }
    /// The notes about the input's bytes, set by `LogSource` when it opens them.
    var inputNotes: [String] = []
    /// True when the input was UTF-16 (with a byte order mark or without), decoded as it was
    /// read: its records' places are not byte offsets of the file, so it cannot be indexed.
    public internal(set) var decodedFromUTF16 = false

    /// Records of other conversations passed over, for a conversation chosen from a log that
    /// carries `conversation` values (an export never hands out the others, so has none). They are
    /// neither records in `counts` nor rejections.
    public var skippedOtherConversations: Int { producer.skippedOtherConversations }

    /// Once the input has ended: why the chosen conversation gave nothing, when that can only be
    /// known at the end (a stream of JSON Lines). Its `kind` is `.conversationNotApplicable`.
    public var endProblem: LogInputError? { state.value.finished ? producer.endProblem : nil }

    private let producer: RecordProducer
    private let strict: Bool
    /// What changes with every record, without run-time exclusivity checks (`ConfinedStorage`):
    /// a reader is used by one thread at a time, and its methods never reenter one another.
    private let state = ConfinedStorage(State())

    private struct State {
        var counts = LogCounts()
        var outgoingMessages = 0
        var firstSenders: [String] = []
        var moreSenders = false
        /// The sender of the last message counted, already looked for in `firstSenders`.
        var lastSender: String?
        var finished = false
        /// Entries produced together, handed out one by one (a record's warnings, then the record).
        var pending: [LogEntry] = []
    }

    init(file: String, format: LogFormat, strict: Bool, producer: RecordProducer) {
        self.file = file
        self.format = format
        self.strict = strict
        self.producer = producer
    }

    public func next() -> LogEntry? {
        // Most records come alone: handed out without going through `pending`.
        if state.value.pending.isEmpty && !state.value.finished {
            guard let produced = producer.next() else {
                state.value.finished = true
                return nil
            }
            // Consumed, not copied: a copy retains and releases the record.
            switch consume produced {
            case .record(let record, let position):
                count(record)
                return .message(media == nil ? record : sized(record), position)
            case let other:
                handle(other)
            }
        }
        while state.value.pending.isEmpty && !state.value.finished {
            guard let produced = producer.next() else {
                state.value.finished = true
                return nil
            }
            handle(produced)
        }
        return state.value.pending.isEmpty ? nil : state.value.pending.removeFirst()
    }

    public func makeIterator() -> LogReader { self }

    /// True when the next entry needs more input than has been read, and so may wait for it
    /// (a slow pipe): a filter writes out what it has first, so it is seen without waiting.
    /// Only streamed native JSON Lines say so; other formats read ahead as they must.
    public var mayWaitForInput: Bool { state.value.pending.isEmpty && !state.value.finished && producer.mayWaitForInput }

    /// What `nextNative` did.
    public enum NativeStep {
        /// One message was appended to the output as its native line.
        case written
        case diagnostic(LogDiagnostic)
    }

    /// The longest line a JSON Lines reader takes (16 MiB): a longer one is rejected when read,
    /// and `nextNative` never writes one.
    public static let maximumLineLength = LineLimit.bytes

    /// The next entry for `convert`: a message is appended to `out` as its native JSON Lines
    /// record (`nativeLine` and a newline), a diagnostic is returned; nil at the end. Counts as
    /// `next` does. A native log's plain records are written straight from the input's bytes,
    /// with no record built. Whatever is written can be read back: a record whose line would be
    /// longer than `maximumLineLength` is taken out of `out` again and counted as rejected, its
    /// diagnostic naming its place in the input.
    public func nextNative(into out: inout OutputBuffer) -> NativeStep? {
        let start = out.count
        guard let step = nextNativeLine(into: &out) else { return nil }
        guard case .written(let position) = step else {
            if case .diagnostic(let diagnostic) = step { return .diagnostic(diagnostic) }
            return nil
        }
        // The line without its newline.
        let length = out.count - start - 1
        guard length > Self.maximumLineLength else { return .written }
        out.truncate(to: start)
        state.value.counts.messagesOut -= 1
        state.value.counts.rejected += 1
        if lastWrittenWasOutgoing { state.value.outgoingMessages -= 1 }
        if strict {
            state.value.finished = true
            stoppedEarly = true
        }
        return .diagnostic(LogDiagnostic(
            position: position ?? LogPosition(file: file, line: nil),
            reason: "its JSON Lines record would be \(byteCount(length)), longer than the \(Self.maximumLineLength >> 20) MiB a line may have to be read back; not written"))
    }

    /// What `nextNativeLine` did: a message written, with its place when known.
    private enum NativeLineStep {
        case written(LogPosition?)
        case diagnostic(LogDiagnostic)
    }

    /// Whether the message last written was outgoing (to take it back out of the counts).
    private var lastWrittenWasOutgoing = false

    private func nextNativeLine(into out: inout OutputBuffer) -> NativeLineStep? {
        if !state.value.pending.isEmpty {
            switch state.value.pending.removeFirst() {
            case .message(let record, let position):
                record.appendNativeLine(to: &out)
                lastWrittenWasOutgoing = record.direction == .outgoing
                return .written(position)
            case .diagnostic(let diagnostic):
                return .diagnostic(diagnostic)
            }
        }
        while !state.value.finished {
            guard let produced = producer.nextNative(into: &out) else {
                state.value.finished = true
                return nil
            }
            switch produced {
            case .written(let isOutgoing, let sender):
                count(isOutgoing: isOutgoing, sender: sender)
                lastWrittenWasOutgoing = isOutgoing
                return .written(producer.lastWrittenPosition)
            case .produced(let step):
                handle(step)
                if !state.value.pending.isEmpty { return nextNativeLine(into: &out) }
            }
        }
        return nil
    }

    /// Counts one produced step and queues its entries in order.
    private func handle(_ produced: ProducedRecord) {
        switch produced {
        case .blank:
            state.value.counts.blankLinesSkipped += 1
        case .record(let record, let position):
            count(record)
            state.value.pending.append(.message(sized(record), position))
        case .recordWithWarnings(let record, let position, let warnings):
            count(record)
            state.value.counts.warnings += warnings.count
            for warning in warnings { state.value.pending.append(.diagnostic(warning)) }
            state.value.pending.append(.message(sized(record), position))
        case .rejected(let diagnostic):
            state.value.counts.recordsIn += 1
            state.value.counts.rejected += 1
            if strict {
                state.value.finished = true
                stoppedEarly = true
            }
            state.value.pending.append(.diagnostic(diagnostic))
        }
    }

    /// `record`, a picture of unknown size given the size of its file when `media` holds it.
    private func sized(_ record: any LogRecord) -> any LogRecord {
        guard let media, var image = record as? LogImageMessage, (image.pixelWidth ?? 0) <= 0 || (image.pixelHeight ?? 0) <= 0,
              let size = media.size(ofPictureNamed: image.imageName) else { return record }
        image.pixelWidth = size.width
        image.pixelHeight = size.height
        return image
    }

    /// Counts a message that is kept, and remembers its sender among the first few.
    private func count(_ record: any LogRecord) {
        count(isOutgoing: record.direction == .outgoing, sender: record.senderName)
    }

    private func count(isOutgoing: Bool, sender: String?) {
        state.value.counts.recordsIn += 1
        state.value.counts.messagesOut += 1
        if isOutgoing { state.value.outgoingMessages += 1 }
        // A sender like the last one was looked for already (most messages follow one by the
        // same sender), so only a different one is looked for among the first few.
        if !state.value.moreSenders, let name = sender, name != state.value.lastSender {
            state.value.lastSender = name
            guard !state.value.firstSenders.contains(name) else { return }
            if state.value.firstSenders.count < Self.senderSampleSize { state.value.firstSenders.append(name) } else { state.value.moreSenders = true }
        }
    }
}
