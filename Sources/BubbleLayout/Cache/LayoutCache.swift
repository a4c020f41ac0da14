import Synchronization

/// Row layouts by `LayoutKey`, bounded in entries and bytes with least-recently-used eviction,
/// counting hits, misses and evictions. Safe for concurrent use: keys are spread over shards by
/// message id, each behind its own mutex, so all layouts of one message live in one shard.
///
/// Invalidation is by key: an edit bumps the revision, a width or style change changes the key,
/// and a neighbour's edit or delete changes the decoration, so only rows whose inputs changed miss.
/// Layouts no key reaches any more age out; `removeAll(id:)` frees a deleted message's at once.
public final class LayoutCache: Sendable {
    final class Shard: Sendable {
        let table: Mutex<LRUTable>
        init(maxEntries: Int, maxBytes: Int) { table = Mutex(LRUTable(maxEntries: maxEntries, maxBytes: maxBytes)) }
    }

    private let shards: [Shard]
    private let styles = Mutex<[BubbleStyle: UInt16]>([:])
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

    /// Bytes of one entry in the table, before the index and long ids: key 32, layout 24, links 8.
    public static var entryStride: Int { MemoryLayout<LRUTable.Entry>.stride }

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
    private func shard(_ idHash: UInt64) -> Shard { shards[Int(idHash % UInt64(shards.count))] }

    /// The cached layout for `key`, marked most recently used; nil (a counted miss) if absent.
    public func layout(for key: LayoutKey) -> RowLayout? {
        let idHash = identityHash(key.id)
        let hash = key.tableHash(idHash: idHash)
        return shard(idHash).table.withLock { $0.lookup(key, hash: hash) }
    }

    /// Stores `layout` for `key`, evicting the least recently used entries beyond the caps.
    public func insert(_ layout: RowLayout, for key: LayoutKey) {
        let idHash = identityHash(key.id)
        let hash = key.tableHash(idHash: idHash)
        shard(idHash).table.withLock { $0.insert(layout, for: key, hash: hash, idHash: idHash) }
    }

    /// Drops every layout of message `id`, at any revision, width or decoration.
    public func removeAll(id: String) {
        shard(identityHash(id)).table.withLock { table in
            table.removeAll(id: id) { $0.tableHash(idHash: identityHash($0.id)) }
        }
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
