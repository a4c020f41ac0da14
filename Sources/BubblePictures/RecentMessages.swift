import BubbleLayout

/// The recent messages a reply may quote, kept as the models themselves: a message's preview is
/// made (by `ReplyPreviews`, as the terminal makes it) only when a reply quotes it, so the rows
/// nobody quotes cost a dictionary entry, not a preview string each.
///
/// Keeps what `ReplyPreviews` keeps: the last `capacity` distinct conversation-and-id keys, a
/// repeated key's latest message, the oldest key forgotten first.
struct RecentMessages {
    private struct Key: Hashable {
        var conversation: String?
        var id: String
    }

    let capacity: Int
    private var models: [Key: any MessageModel] = [:]
    private var order: [Key] = []
    private var next = 0

    init(capacity: Int = ReplyPreviews().capacity) { self.capacity = max(1, capacity) }

    mutating func record(_ model: any MessageModel) {
        let key = Key(conversation: model.conversationID, id: model.id)
        if models[key] == nil {
            if order.count < capacity {
                order.append(key)
            } else {
                models[order[next]] = nil
                order[next] = key
                next = (next + 1) % capacity
            }
        }
        models[key] = model
    }

    /// `ReplyPreviews.body(for:in:)` for the messages recorded.
    func body(for id: String, in conversation: String?, registry: CellRegistry) -> String? {
        guard let model = models[Key(conversation: conversation, id: id)] else { return nil }
        var previews = ReplyPreviews()
        previews.record(model, registry: registry)
        return previews.body(for: id, in: conversation)
    }
}
