import BubbleLayout
/// `--channel` on a log that carries `conversation` values (native JSON Lines, such as an export's
/// conversion): passes on the records of the chosen conversation and counts the others as skipped,
/// as an export read with a chosen conversation never hands the others out. The choice matches as
/// an export's does: the value itself, or without a leading `#` (`#general` chooses `general`).
///
/// Whether any record matched is known only at the end of the stream; then `endProblem` says
/// why nothing was chosen, naming the conversations the log has.
final class ConversationFilter: RecordProducer {
    private let inner: RecordProducer
    private let wanted: String
    private let file: String
    /// Records of other conversations (or of none), skipped.
    private(set) var skippedOtherConversations = 0
    private var matched = 0
    /// The first conversations seen, for the message when none matches.
    private var seen: [String] = []
    private var moreSeen = false

    init(_ inner: RecordProducer, wanted: String, file: String) {
        self.inner = inner
        self.wanted = wanted
        self.file = file
    }

    /// Whether `conversation` is the one `wanted` names.
    static func matches(_ conversation: String?, wanted: String) -> Bool {
        guard let conversation else { return false }
        return conversation == wanted || (wanted.hasPrefix("#") && conversation == wanted.dropFirst())
    }

    func next() -> ProducedRecord? {
        while let produced = inner.next() {
            let record: any LogRecord
            switch produced {
            case .record(let r, _), .recordWithWarnings(let r, _, _): record = r
            case .rejected, .blank: return produced
            }
            if Self.matches(record.conversationID, wanted: wanted) {
                matched += 1
                return produced
            }
            skippedOtherConversations += 1
            if let id = record.conversationID, !seen.contains(id) {
                if seen.count < 12 { seen.append(id) } else { moreSeen = true }
            }
        }
        return nil
    }

    var mayWaitForInput: Bool { inner.mayWaitForInput }
    var notes: [String] { inner.notes }
    var writtenClock: ClockStyle? { inner.writtenClock }

    /// Why the choice chose nothing, once the input has ended with no record of it: the log holds
    /// one conversation (no record carries one: a usage error, as for a one-conversation export),
    /// or the chosen one is not among those it holds.
    var endProblem: LogInputError? {
        guard matched == 0 else { return nil }
        if seen.isEmpty {
            return LogInputError(file: file, message: "read as \(LogFormat.jsonl), and no record carries \"conversation\", so it holds one conversation: \"\(DiagnosticText.quoted(wanted))\" cannot be chosen", kind: .conversationNotApplicable)
        }
        let names = seen.map { "\"\(DiagnosticText.quoted($0))\"" }.joined(separator: ", ")
        return LogInputError(file: file, message: "no conversation \"\(DiagnosticText.quoted(wanted))\"; the log has \(names)\(moreSeen ? ", …" : "")", kind: .conversationNotApplicable)
    }
}
