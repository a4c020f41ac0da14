import BubbleLayout
import BubbleLogs

/// Says on stderr when an input repeats a message id: one line per repeat naming both places,
/// `b.jsonl:1: id "1" repeats line 3 of a.jsonl` (the same file goes unnamed), for the first
/// `listed` repeats, then one line counting the rest at the end, so two concatenated exports whose
/// ids restart do not bury every other message. Each message is still laid out from its own text.
struct RepeatedIDReport {
    var ids = RepeatedIDs()
    var listed = 20

    mutating func note(_ record: any MessageModel, at position: LogPosition, errors: TextSink) throws {
        // Ids are unique within a conversation (each chat of an export numbers its own messages,
        // and rows are keyed by conversation and id), so the same id in two conversations is no
        // repeat. NUL cannot be in a conversation id read from text, so the key is unambiguous.
        let key = record.conversationID.map { $0 + "\u{0}" + record.id } ?? record.id
        guard let found = ids.note(id: key, file: position.file, line: position.line) else { return }
        guard ids.repeats <= listed else { return }
        var place = found.first.line.map { "line \($0)" } ?? "an earlier message"
        if found.first.file != position.file { place += " of \(DiagnosticText.escaped(found.first.file))" }
        try errors.write("\(position): id \"\(DiagnosticText.quoted(record.id))\" repeats \(place); both are laid out from their own text\n")
    }

    func finish(errors: TextSink) throws {
        if ids.repeats > listed {
            try errors.write("bubbles: \(ids.repeats - listed) more repeated message ids not listed (\(ids.repeats) in all)\n")
        }
        if let place = ids.stoppedRemembering {
            let at = DiagnosticText.escaped(place.file) + (place.line.map { ":\($0)" } ?? "")
            try errors.write("bubbles: more than \(ids.limit) message ids: ids from \(at) on were checked for repeats only against earlier ones\n")
        }
    }
}
