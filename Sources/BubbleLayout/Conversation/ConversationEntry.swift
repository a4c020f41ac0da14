import BubbleText
import Foundation

/// A conversation row's state besides its prepared texts (kept apart: they are the only generic
/// part, and a non-generic entry is copied and accessed without value witnesses).
struct ConversationEntry {
    var model: any MessageModel
    /// The model's id, revision and id hash, read once.
    var id: String
    var revision: Int
    /// The stamp of the model's content in the engine's cache.
    var stamp: ContentStamp
    var idHash: UInt64
    /// The model's content and direction, read (cast) once.
    var content: RowContent
    var facts: Decorator.Facts
    var decoration = RowDecoration(rawValue: .max)
    var separatorDecoration: RowDecoration?
    var layout = RowLayout.empty
    var dateLayout: RowLayout?
    /// The measure of the day's label (a separator's one text), taken once per day.
    var dateLabel: TextMetrics

    var height: Int { (dateLayout?.height ?? 0) + layout.height }
    /// False for a freed entry.
    var isLive = true

    /// This entry with its references dropped, marked free.
    var emptied: ConversationEntry {
        var e = self
        e.isLive = false
        e.model = RemovedMessage()
        e.id = ""
        e.content = .empty
        e.facts.sender = nil
        return e
    }
}

/// Stands in a freed entry so it holds no reference to a removed message.
private struct RemovedMessage: MessageModel {
    var id: String { "" }
    var senderName: String? { nil }
    var direction: MessageDirection { .incoming }
    var date: Date { Date(timeIntervalSince1970: 0) }
}
