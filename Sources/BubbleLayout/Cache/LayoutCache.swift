import Synchronization

/// Row layouts by `LayoutKey`, bounded in entries and bytes with CLOCK eviction (an approximation
/// of least-recently-used order, see `LayoutTable`), counting hits, misses and evictions. An entry
/// costs 48 bytes plus about 6 of index: under 64 bytes a row, measured by `statistics`. Safe for concurrent use: keys are spread over shards by
/// message id, each behind its own mutex, so all layouts of one message live in one shard.
///
/// Invalidation is by key: an edit bumps the revision, a width or style change changes the key,
/// and a neighbour's edit or delete changes the decoration, so only rows whose inputs changed miss.
/// Layouts no key reaches any more age out; `removeAll(id:)` frees a deleted message's at once.
public final class LayoutCache: Sendable {
    final class Shard: Sendable {
        let table: LayoutLock<LayoutTable>
        init(maxEntries: Int, maxBytes: Int) { table = LayoutLock(LayoutTable(maxEntries: maxEntries, maxBytes: maxBytes)) }
    }

    private let shards: [Shard]
    private let styles = LayoutLock<[BubbleStyle: UInt16]>([:])
    /// Most entries held.
    public let maxEntries: Int
    /// Most bytes held (entries, index and long ids).
    public let maxBytes: Int

    /// A cache of at most `maxEntries` layouts and `maxBytes` bytes, split into `shardCount` shards
    /// (each holds an equal share of both caps).
    public init(maxEntries: Int = 1 << 20, maxBytes: Int = 96 << 20, shardCount: Int = 16) {
        let count = max(1, shardCount)
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = max(1, maxBytes)
        let entriesPerShard = max(1, (self.maxEntries + count - 1) / count)
        let bytesPerShard = max(1, self.maxBytes / count)
        shards = (0..<count).map { _ in Shard(maxEntries: entriesPerShard, maxBytes: bytesPerShard) }
    }

    /// Bytes of one entry in the table, before the index and long ids: key 32, packed layout 16.
    public static var entryStride: Int { MemoryLayout<LayoutTable.Entry>.stride }

    /// The small number standing for `style` in keys of this cache.
    public func styleID(for style: BubbleStyle) -> UInt16 {
        styles.withLock { table in
            if let id = table[style] { return id }
            precondition(table.count < Int(UInt16.max), "LayoutCache: more than 65535 distinct styles")
            let id = UInt16(table.count)
            table[style] = id
            return id
        }
    }

    @inline(__always)
    private func shard(_ idHash: UInt64) -> Shard {
        shards[Int(truncatingIfNeeded: ((idHash & 0xFFFF_FFFF) &* UInt64(shards.count)) >> 32)]
    }

    /// The cached layout for `key`, marked recently used; nil (a counted miss) if absent.
    public func layout(for key: LayoutKey) -> RowLayout? {
        layout(for: key, idHash: identityHash(key.id))
    }

    /// `layout(for:)` with the id's hash computed by the caller, once per message.
    @inline(__always)
    func layout(for key: LayoutKey, idHash: UInt64) -> RowLayout? {
        let hash = key.tableHash(idHash: idHash)
        return shard(idHash).table.withLock { $0.lookup(key, hash: hash) }
    }

    /// True when `key` is held, without counting a hit or a miss or marking it used.
    func contains(_ key: LayoutKey, idHash: UInt64) -> Bool {
        let hash = key.tableHash(idHash: idHash)
        return shard(idHash).table.withLock { $0.contains(key, hash: hash) }
    }

    /// Stores `layout` for `key`, evicting entries not recently used beyond the caps.
    public func insert(_ layout: RowLayout, for key: LayoutKey) {
        insert(layout, for: key, idHash: identityHash(key.id))
    }

    /// `insert(_:for:)` with the id's hash computed by the caller.
    @inline(__always)
    func insert(_ layout: RowLayout, for key: LayoutKey, idHash: UInt64) {
        let hash = key.tableHash(idHash: idHash)
        shard(idHash).table.withLock { $0.insert(layout, for: key, hash: hash) }
    }

    /// Makes room for about `additional` more layouts at once (within the caps), so inserting
    /// them does not grow the storage step by step. Call before inserting many, such as a
    /// resize of a large conversation.
    public func reserveCapacity(additional: Int) {
        guard additional > 0 else { return }
        // Keys spread evenly over the shards, give or take a few per cent.
        let perShard = additional / shards.count + additional / (shards.count * 32) + 16
        for shard in shards { shard.table.withLock { $0.reserve(additional: perShard) } }
    }

    /// Drops every layout of message `id`, at any revision, width or decoration.
    public func removeAll(id: String) {
        shard(identityHash(id)).table.withLock { $0.removeAll(id: id) }
    }

    /// Empties the cache (counters included).
    public func removeAll() {
        for shard in shards { shard.table.withLock { $0.removeAll() } }
    }

    /// Zeroes the hit, miss and eviction counters, keeping the entries.
    public func resetCounters() {
        for shard in shards { shard.table.withLock { $0.resetCounters() } }
    }

    /// The counters summed over all shards.
    public var statistics: CacheStatistics {
        var stats = CacheStatistics()
        for shard in shards {
            shard.table.withLock { table in
                stats.hits += table.hits
                stats.misses += table.misses
                stats.evictions += table.evictions
                stats.count += table.count
                stats.bytes += table.bytes
            }
        }
        return stats
    }
}
