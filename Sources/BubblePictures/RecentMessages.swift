import BubbleLayout

/// The recent messages a reply may quote, kept as the models themselves: a message's preview is
/// made (by `ReplyPreviews`, as the terminal makes it) only when a reply quotes it, so the rows
/// nobody quotes cost a dictionary entry, not a preview string each.
///
/// Keeps what `ReplyPreviews` keeps: the last `capacity` distinct conversation-and-id keys, a
/// repeated key's latest message, the oldest key forgotten first.
struct RecentMessages {
    private var models: RecentValues<RecentMessageKey, any MessageModel>

    init(capacity: Int = ReplyPreviews().capacity) { models = RecentValues(capacity: capacity) }

    mutating func record(_ model: any MessageModel) {
        models.store(model, for: RecentMessageKey(conversation: model.conversationID, id: model.id))
    }

    /// `ReplyPreviews.body(for:in:)` for the messages recorded.
    func body(for id: String, in conversation: String?, registry: CellRegistry) -> String? {
        guard let model = models[RecentMessageKey(conversation: conversation, id: id)] else { return nil }
        var previews = ReplyPreviews()
        previews.record(model, registry: registry)
        return previews.body(for: id, in: conversation)
    }
}
