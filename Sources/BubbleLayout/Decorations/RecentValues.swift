/// Values by key for the last `capacity` distinct keys stored: storing a new key past that
/// forgets the one stored longest ago; storing a known key again replaces its value and keeps
/// its place. O(1) per store and lookup; memory bounded by `capacity`, whatever is stored.
package struct RecentValues<Key: Hashable, Value> {
    /// Most keys kept (at least 1).
    package let capacity: Int
    private var values: [Key: Value] = [:]
    /// The keys kept, as a ring: `next` is the oldest once the ring is full.
    private var order: [Key] = []
    private var next = 0

    package init(capacity: Int) { self.capacity = max(1, capacity) }

    package subscript(key: Key) -> Value? { values[key] }

    package mutating func store(_ value: Value, for key: Key) {
        if values[key] == nil {
            if order.count < capacity {
                order.append(key)
            } else {
                values[order[next]] = nil
                order[next] = key
                next = (next + 1) % capacity
            }
        }
        values[key] = value
    }
}

extension RecentValues: Sendable where Key: Sendable, Value: Sendable {}

/// A message's key among recent ones: messages of different conversations never quote each
/// other, and ids need only be unique within a conversation.
package struct RecentMessageKey: Hashable, Sendable {
    package var conversation: String?
    package var id: String

    package init(conversation: String?, id: String) {
        self.conversation = conversation
        self.id = id
    }
}
