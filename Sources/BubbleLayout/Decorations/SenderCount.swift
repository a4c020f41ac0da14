/// The other parties of a conversation: its distinct incoming bubble senders, counted with
/// multiplicity so that removing a message can take a sender away again. Names are shown only
/// when there is more than one other party, so every place that decides names counts here.
struct SenderCount: Sendable {
    private var messages: [String: Int] = [:]

    /// Distinct senders counted.
    var parties: Int { messages.count }

    /// Counts (or, with `delta` -1, uncounts) the sender of a message with `facts`. Returns true
    /// when that takes the count across one, which shows or hides names on every group.
    @discardableResult
    mutating func count(_ facts: Decorator.Facts, by delta: Int = 1) -> Bool {
        guard facts.drawsBubble, facts.direction == .incoming else { return false }
        return count(sender: facts.sender, by: delta)
    }

    /// Counts `model`'s sender when its registered cell draws it as a bubble and it is incoming.
    mutating func count(_ model: any MessageModel, lookup: inout CellRegistry.Lookup) {
        guard model.direction == .incoming, let index = try? lookup.index(for: model),
              lookup.registry.configurators[index].drawsBubble else { return }
        _ = count(sender: model.senderName, by: 1)
    }

    private mutating func count(sender: String?, by delta: Int) -> Bool {
        let before = messages.count
        let name = sender ?? ""
        if delta > 0 {
            messages[name, default: 0] += delta  // one hash of the name: counts stay positive
        } else {
            let n = messages[name, default: 0] + delta
            messages[name] = n > 0 ? n : nil
        }
        return (before > 1) != (messages.count > 1)
    }
}
