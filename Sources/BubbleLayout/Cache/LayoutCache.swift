import Synchronization

/// Row layouts by `LayoutKey`, bounded in entries and bytes with CLOCK eviction (an approximation
/// of least-recently-used order, see `LayoutTable`), counting hits, misses and evictions. An entry
/// costs 48 bytes plus about 6 of index: under 64 bytes a row, measured by `statistics`. Safe for concurrent use: keys are spread over shards by
/// message id, each behind its own mutex, so all layouts of one message live in one shard.
///
/// A layout is found only for the content it was made from: keys carry a `ContentStamp`, which
/// `stamp(id:content:)` hands out for a message's content compared in full, so whatever ids and
/// revisions a log supplies, two different texts never share a layout. The cache remembers the
/// last content of each id (a bounded number of ids, counted in `statistics.contentBytes`).
///
/// Invalidation is by key: an edit changes the content's stamp, a width or style change changes the
/// key, and a neighbour's edit or delete changes the decoration, so only rows whose inputs changed
/// miss. Layouts no key reaches any more age out; `removeAll(id:)` frees a deleted message's at once.
package final class LayoutCache: Sendable {
    /// A shard's layouts and the stamps of its messages' contents, behind one lock, so a row's
    /// stamp and its layout are found under one acquisition.
    struct ShardState {
        var table: LayoutTable
        var stamps: ContentStampTable
    }

    final class Shard: Sendable {
        let state: LayoutLock<ShardState>
        init(maxEntries: Int, maxBytes: Int) {
            state = LayoutLock(ShardState(table: LayoutTable(maxEntries: maxEntries, maxBytes: maxBytes),
                                          stamps: ContentStampTable(capacity: maxEntries)))
        }
    }

    private let shards: [Shard]
    private let styles = LayoutLock<[StyleKey: UInt16]>([:])
    /// Most entries held.
    package let maxEntries: Int
    /// Most bytes held (entries, index and long ids).
    package let maxBytes: Int

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
    package static var entryStride: Int { MemoryLayout<LayoutTable.Entry>.stride }

    /// The small number standing for `style` in keys of this cache.
    package func styleID(for style: BubbleStyle) -> UInt16 {
        styleID(forKey: StyleKey(style: style, measurer: nil))
    }

    /// The small number standing for `style` measured by `measurer` (a `CellMeasurer` holds the
    /// text options, width profile included): engines that measure differently never share
    /// layouts.
    package func styleID(for style: BubbleStyle, measurer: AnyHashable) -> UInt16 {
        styleID(forKey: StyleKey(style: style, measurer: measurer))
    }

    /// A style and, boxed, the measurer it is measured with: `@unchecked` because `AnyHashable`
    /// is not `Sendable`, though what it boxes here always is (and is a value).
    private struct StyleKey: Hashable, @unchecked Sendable {
        let style: BubbleStyle
        let measurer: AnyHashable?
    }

    private func styleID(forKey style: StyleKey) -> UInt16 {
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

    /// The stamp of `content` for message `id`: the same stamp as last time when `content` equals
    /// (in full) the content last stamped for `id`, else a new one. Keys built with it find only
    /// layouts made from that content.
    package func stamp(id: String, content: LayoutContent) -> ContentStamp {
        stamp(id: id, idHash: identityHash(id), content: content)
    }

    /// `stamp(id:content:)` with the id's hash computed by the caller.
    @inline(__always)
    func stamp(id: String, idHash: UInt64, content: LayoutContent) -> ContentStamp {
        shard(idHash).state.withLock { $0.stamps.stamp(idHash: idHash, content: content) }
    }

    /// The key of message `id`'s row with `content` and the other fields, and the layout cached
    /// under it (nil: a counted miss): a stamp and a lookup under one lock.
    @inline(__always)
    func lookup(id: String, idHash: UInt64, content: LayoutContent, width: Int, styleID: UInt16,
                decoration: RowDecoration) -> (key: LayoutKey, layout: RowLayout?) {
        shard(idHash).state.withLock { state in
            let stamp = state.stamps.stamp(idHash: idHash, content: content)
            let key = LayoutKey(id: id, content: stamp, width: width, styleID: styleID, decoration: decoration)
            return (key, state.table.lookup(key, hash: key.tableHash(idHash: idHash)))
        }
    }

    /// The cached layout for `key`, marked recently used; nil (a counted miss) if absent.
    package func layout(for key: LayoutKey) -> RowLayout? {
        layout(for: key, idHash: identityHash(key.id))
    }

    /// `layout(for:)` with the id's hash computed by the caller, once per message.
    @inline(__always)
    func layout(for key: LayoutKey, idHash: UInt64) -> RowLayout? {
        let hash = key.tableHash(idHash: idHash)
        return shard(idHash).state.withLock { $0.table.lookup(key, hash: hash) }
    }

    /// True when `key` is held, without counting a hit or a miss or marking it used.
    func contains(_ key: LayoutKey, idHash: UInt64) -> Bool {
        let hash = key.tableHash(idHash: idHash)
        return shard(idHash).state.withLock { $0.table.contains(key, hash: hash) }
    }

    /// Stores `layout` for `key`, evicting entries not recently used beyond the caps.
    package func insert(_ layout: RowLayout, for key: LayoutKey) {
        insert(layout, for: key, idHash: identityHash(key.id))
    }

    /// `insert(_:for:)` with the id's hash computed by the caller.
    @inline(__always)
    func insert(_ layout: RowLayout, for key: LayoutKey, idHash: UInt64) {
        let hash = key.tableHash(idHash: idHash)
        shard(idHash).state.withLock { $0.table.insert(layout, for: key, hash: hash) }
    }

    /// Makes room for about `additional` more layouts at once (within the caps), so inserting
    /// them does not grow the storage step by step. Call before inserting many, such as a
    /// resize of a large conversation.
    package func reserveCapacity(additional: Int) {
        guard additional > 0 else { return }
        // Keys spread over the shards by the keyed id hash, so a shard's share varies from run to
        // run around the mean by about its square root: room for five of those (or 3%, if more)
        // keeps any shard from growing again but about once in a million runs.
        let mean = additional / shards.count
        let spread = max(5 * Int(Double(mean).squareRoot().rounded(.up)), mean / 32)
        let perShard = mean + spread + 16
        for shard in shards { shard.state.withLock { $0.table.reserve(additional: perShard) } }
    }

    /// Drops every layout of message `id`, of any content, width or decoration, and its stamp.
    package func removeAll(id: String) {
        let idHash = identityHash(id)
        shard(idHash).state.withLock { state in
            state.table.removeAll(id: id)
            state.stamps.remove(idHash: idHash)
        }
    }

    /// Empties the cache (counters included).
    package func removeAll() {
        for shard in shards {
            shard.state.withLock { state in
                state.table.removeAll()
                state.stamps.removeAll()
            }
        }
    }

    /// Zeroes the hit, miss and eviction counters, keeping the entries.
    package func resetCounters() {
        for shard in shards { shard.state.withLock { $0.table.resetCounters() } }
    }

    /// The counters summed over all shards.
    package var statistics: CacheStatistics {
        var stats = CacheStatistics()
        for shard in shards {
            shard.state.withLock { state in
                stats.hits += state.table.hits
                stats.misses += state.table.misses
                stats.evictions += state.table.evictions
                stats.count += state.table.count
                stats.bytes += state.table.bytes
                stats.contents += state.stamps.count
                stats.contentBytes += state.stamps.bytes
            }
        }
        return stats
    }
}
