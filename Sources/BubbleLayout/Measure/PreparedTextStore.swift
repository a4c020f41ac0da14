import BubbleText
import Synchronization

/// Prepared texts by message id, for the message's current revision. Laying a message out again
/// at a new width reuses its prepared text, so the Unicode work is done once per revision.
///
/// On a hit the stored source text is compared with the text asked for, so a model that changed
/// its text without bumping its revision gets a fresh preparation, never a stale one. Bounded by
/// `capacity` messages; beyond it, an arbitrary message's texts are dropped (they are re-prepared
/// if asked for again). Sharded behind mutexes: safe from any number of tasks.
public final class PreparedTextStore<Measurer: TextMeasurer>: Sendable {
    struct Part: Sendable {
        var index: Int
        var source: String
        var prepared: Measurer.Prepared
    }

    struct Entry: Sendable {
        var revision: Int
        var parts: [Part]
    }

    struct Shard: Sendable {
        var entries: [String: Entry] = [:]
        var preparations = 0
    }

    final class ShardBox: Sendable {
        let state = Mutex(Shard())
    }

    /// The measurer doing the Unicode (or font) work.
    public let measurer: Measurer
    /// Most messages kept.
    public let capacity: Int
    private let shards: [ShardBox]
    private let perShardCapacity: Int

    public init(measurer: Measurer, capacity: Int = 1 << 20, shardCount: Int = 16) {
        self.measurer = measurer
        self.capacity = max(1, capacity)
        let count = max(1, shardCount)
        shards = (0..<count).map { _ in ShardBox() }
        perShardCapacity = max(1, (self.capacity + count - 1) / count)
    }

    private func shard(for id: String) -> ShardBox {
        shards[Int(identityHash(id) % UInt64(shards.count))]
    }

    /// The prepared form of `text`, part `part` of message `id` at `revision`; prepared now if
    /// the store does not hold it.
    public func prepared(id: String, revision: Int, part: Int, text: String) -> Measurer.Prepared {
        let box = shard(for: id)
        let found: Measurer.Prepared? = box.state.withLock { shard in
            guard let entry = shard.entries[id], entry.revision == revision else { return nil }
            for stored in entry.parts where stored.index == part && stored.source == text { return stored.prepared }
            return nil
        }
        if let found { return found }
        let prepared = measurer.prepare(text)
        box.state.withLock { shard in
            shard.preparations += 1
            var entry = shard.entries[id] ?? Entry(revision: revision, parts: [])
            if entry.revision != revision { entry = Entry(revision: revision, parts: []) }
            entry.parts.removeAll { $0.index == part }
            entry.parts.append(Part(index: part, source: text, prepared: prepared))
            if shard.entries[id] == nil && shard.entries.count >= perShardCapacity {
                shard.entries.remove(at: shard.entries.startIndex)
            }
            shard.entries[id] = entry
        }
        return prepared
    }

    /// Drops the prepared texts of message `id` (it was deleted).
    public func remove(id: String) {
        _ = shard(for: id).state.withLock { $0.entries.removeValue(forKey: id) }
    }

    /// Messages held.
    public var count: Int { shards.reduce(0) { sum, box in sum + box.state.withLock { $0.entries.count } } }

    /// Texts prepared so far: each is one pass of Unicode work.
    public var preparations: Int { shards.reduce(0) { sum, box in sum + box.state.withLock { $0.preparations } } }
}

/// Sizes the texts of one message revision through a `PreparedTextStore`.
struct PreparedTextSizing<Measurer: TextMeasurer>: TextSizing {
    let store: PreparedTextStore<Measurer>
    let id: String
    let revision: Int

    func metrics(of text: String, part: Int, width: Int) -> TextMetrics {
        store.measurer.measure(store.prepared(id: id, revision: revision, part: part, text: text), width: width)
    }

    func width(of text: String) -> Int { store.measurer.width(of: text) }
}
