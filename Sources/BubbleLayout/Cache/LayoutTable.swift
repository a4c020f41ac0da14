import BubbleText

/// One shard of the layout cache: 48-byte entries in an array, an open-addressing index of 32-bit
/// slots over them, and CLOCK (second-chance) eviction.
///
/// Why this shape, for ≤ 64 bytes per cached row *including* the index:
/// - An entry is the full key (id 16 bytes, content stamp 8, width 2, style 2, decoration 4) and the
///   layout packed in 16 (`PackedRowLayout`), whose spare bits hold the entry's flags. Ids of up
///   to 15 UTF-8 bytes live inside the `String`; longer ones own a heap buffer, counted apart.
/// - CLOCK instead of a doubly linked LRU list: one "referenced" bit per entry instead of two
///   links, and a hit sets that bit instead of splicing three entries. Eviction sweeps a hand
///   over the entries, clearing set bits and evicting the first entry found clear: an entry used
///   since the hand last passed survives, so it approximates least-recently-used order.
/// - The index is linear probing over `UInt32` slots: 24 bits of entry number and an 8-bit tag of
///   the hash, so a probe rejects most other keys without touching their entry. Its size is any
///   integer (the home slot is `hash × size >> 32`), kept between 62% and 80% full; deletion shifts
///   later slots back instead of leaving tombstones.
/// - The entry array grows by an eighth at a time (not doubling), so little capacity is idle.
///
/// `bytes` counts what is allocated: entry capacity, index slots, long ids, and out-of-line layouts.
///
/// Invariants, checked in debug builds: every `hash:` a caller passes is
/// `key.tableHash(idHash: identityHash(key.id))` (`tableHash(of:)`), the hash the index is
/// rebuilt and shifted with, so a key filed under any other hash would be lost; the index always
/// has an empty slot (it is at most 80% full), so a probe ends; and a slot names a live entry.
struct LayoutTable {
    struct Entry {
        /// Empty in a free entry.
        var id: String
        /// The `ContentStamp`; in a free entry, the next free entry (all ones for none).
        var stamp: UInt64
        var width: UInt16
        var styleID: UInt16
        var decoration: UInt32
        var layout: PackedRowLayout
    }

    static let liveBit: UInt64 = 1 << 63
    static let referencedBit: UInt64 = 1 << 62
    /// The layout did not pack: it is in `spilled`.
    static let spilledBit: UInt64 = 1 << 61
    static let entryBits: UInt32 = 24
    static let entryMask: UInt32 = (1 << 24) - 1
    /// Ids up to 15 UTF-8 bytes are stored inside the String itself; longer ones own a heap buffer.
    static let inlineIDBytes = 15
    /// Estimated bytes of one out-of-line layout in its dictionary.
    static let spilledBytes = 48

    private(set) var entries: [Entry] = []
    private var index: [UInt32] = []
    private var spilled: [Int32: RowLayout] = [:]
    private var freeHead = -1
    private var hand = 0
    private var externalBytes = 0
    let maxEntries: Int
    let maxBytes: Int

    private(set) var count = 0
    private(set) var hits = 0
    private(set) var misses = 0
    private(set) var evictions = 0

    init(maxEntries: Int, maxBytes: Int) {
        self.maxEntries = min(max(1, maxEntries), Int(Self.entryMask) - 1)
        self.maxBytes = max(1, maxBytes)
    }

    var bytes: Int {
        entries.capacity * MemoryLayout<Entry>.stride + index.count * MemoryLayout<UInt32>.stride
            + externalBytes + spilled.count * Self.spilledBytes
    }

    static func externalBytes(of id: String) -> Int {
        let n = id.utf8.count
        return n > inlineIDBytes ? n + 32 : 0
    }

    // MARK: Hashing

    @inline(__always)
    static func home(_ hash: UInt64, size: Int) -> Int {
        Int(truncatingIfNeeded: ((hash >> 32) &* UInt64(size)) >> 32)
    }

    @inline(__always)
    static func tag(_ hash: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: hash) >> 24 }

    private func hash(ofEntry e: Int) -> UInt64 {
        let entry = entries[e]
        return LayoutKey.tableHash(idHash: identityHash(entry.id), stamp: entry.stamp, width: entry.width,
                                   styleID: entry.styleID, decoration: entry.decoration)
    }

    @inline(__always)
    private static func matches(_ entry: Entry, _ key: LayoutKey) -> Bool {
        entry.stamp == key.content.rawValue && entry.width == key.width && entry.styleID == key.styleID
            && entry.decoration == key.decoration.rawValue && entry.layout.word1 & liveBit != 0 && entry.id == key.id
    }

    /// The hash `lookup`, `contains` and `insert` must be given for `key`.
    static func tableHash(of key: LayoutKey) -> UInt64 { key.tableHash(idHash: identityHash(key.id)) }

    /// The entry holding `key`, if any. Every operation on a key starts here, so the checks of
    /// the caller's hash and of the index are made here.
    @inline(__always)
    private func find(_ key: LayoutKey, hash: UInt64) -> Int? {
        assert(hash == Self.tableHash(of: key), "LayoutTable: hash \(hash) is not the table hash of key '\(key.id)'")
        let size = index.count
        assert(size == 0 || count < size, "LayoutTable: \(count) entries fill an index of \(size) slots")
        guard size > 0 else { return nil }
        let tag = Self.tag(hash)
        var i = Self.home(hash, size: size)
        return index.withElementsView { slots in
            entries.withElementsView { entries in
                while true {
                    let s = slots[i]
                    if s == 0 { return nil }
                    if s >> Self.entryBits == tag {
                        let e = Int(s & Self.entryMask) - 1
                        assert(e < entries.count && entries[e].layout.word1 & Self.liveBit != 0,
                               "LayoutTable: slot \(i) names entry \(e), which is not live")
                        if Self.matches(entries[e], key) { return e }
                    }
                    i += 1
                    if i == size { i = 0 }
                }
            }
        }
    }

    private func layout(ofEntry e: Int) -> RowLayout {
        let packed = entries[e].layout
        if packed.word1 & Self.spilledBit != 0, let layout = spilled[Int32(e)] { return layout }
        return packed.layout
    }

    // MARK: Operations

    mutating func lookup(_ key: LayoutKey, hash: UInt64) -> RowLayout? {
        guard let e = find(key, hash: hash) else {
            misses += 1
            return nil
        }
        hits += 1
        entries[e].layout.word1 |= Self.referencedBit
        return layout(ofEntry: e)
    }

    /// True when `key` is held; counts nothing and marks nothing.
    func contains(_ key: LayoutKey, hash: UInt64) -> Bool { find(key, hash: hash) != nil }

    mutating func insert(_ layout: RowLayout, for key: LayoutKey, hash: UInt64) {
        let packed = PackedRowLayout(layout)
        if let e = find(key, hash: hash) {
            store(layout, packed: packed, at: e)
            entries[e].layout.word1 |= Self.referencedBit
            return
        }
        let extra = Self.externalBytes(of: key.id) + (packed == nil ? Self.spilledBytes : 0)
        while count > 0 && (count >= maxEntries || projectedBytes(extra: extra) > maxBytes) {
            evictOne()
        }
        if (count + 1) * 5 > index.count * 4 { rebuildIndex(size: indexSize(for: count + 1)) }

        let entry = Entry(id: key.id, stamp: key.content.rawValue, width: key.width, styleID: key.styleID,
                          decoration: key.decoration.rawValue, layout: PackedRowLayout(word0: 0, word1: 0))
        let e: Int
        if freeHead >= 0 {
            e = freeHead
            freeHead = Int(truncatingIfNeeded: entries[e].stamp)
            entries[e] = entry
        } else {
            if entries.count == entries.capacity { entries.reserveCapacity(grownCapacity) }
            e = entries.count
            entries.append(entry)
        }
        store(layout, packed: packed, at: e)
        externalBytes += Self.externalBytes(of: key.id)
        count += 1

        let size = index.count
        var i = Self.home(hash, size: size)
        while index[i] != 0 {
            i += 1
            if i == size { i = 0 }
        }
        index[i] = Self.tag(hash) << Self.entryBits | UInt32(e + 1)
    }

    private mutating func store(_ layout: RowLayout, packed: PackedRowLayout?, at e: Int) {
        let flags = entries[e].layout.word1 & Self.referencedBit | Self.liveBit
        if let packed {
            if entries[e].layout.word1 & Self.spilledBit != 0 { spilled[Int32(e)] = nil }
            entries[e].layout = packed
            entries[e].layout.word1 |= flags
        } else {
            spilled[Int32(e)] = layout
            entries[e].layout = PackedRowLayout(word0: 0, word1: flags | Self.spilledBit)
        }
    }

    private var grownCapacity: Int {
        let capacity = entries.capacity
        return min(maxEntries, capacity + max(16, capacity / 8))
    }

    private func indexSize(for count: Int) -> Int { max(16, count * 8 / 5) }

    /// `bytes` once an entry with `extra` outside bytes is added, counting any growth it causes.
    private func projectedBytes(extra: Int) -> Int {
        let needsGrowth = freeHead < 0 && entries.count == entries.capacity
        let entryBytes = (needsGrowth ? grownCapacity : entries.capacity) * MemoryLayout<Entry>.stride
        let indexCount = (count + 1) * 5 > index.count * 4 ? indexSize(for: count + 1) : index.count
        return entryBytes + indexCount * MemoryLayout<UInt32>.stride + externalBytes + extra
            + spilled.count * Self.spilledBytes
    }

    /// Evicts one entry by CLOCK: the first live entry after the hand whose referenced bit is
    /// clear, clearing the bits it passes. Needs `count > 0`.
    private mutating func evictOne() {
        while true {
            if hand >= entries.count { hand = 0 }
            let e = hand
            hand += 1
            let word = entries[e].layout.word1
            if word & Self.liveBit == 0 { continue }
            if word & Self.referencedBit != 0 {
                entries[e].layout.word1 = word & ~Self.referencedBit
                continue
            }
            remove(entry: e)
            evictions += 1
            return
        }
    }

    /// Makes room for `additional` more entries at once (within the caps): one reallocation and
    /// one index rebuild instead of several as they arrive. For a caller about to insert many
    /// (a conversation's resize).
    mutating func reserve(additional: Int) {
        let spare = entries.capacity - entries.count + (freeHead >= 0 ? freeCount : 0)
        let affordable = max(0, maxBytes - externalBytes) / (MemoryLayout<Entry>.stride + 7)
        let target = min(maxEntries, count + additional, affordable)
        if target - count > spare {
            // reserveCapacity takes the whole capacity wanted: what there is plus what is missing.
            entries.reserveCapacity(min(maxEntries, entries.capacity + (target - count - spare)))
        }
        if target * 5 > index.count * 4 { rebuildIndex(size: indexSize(for: target)) }
    }

    /// Free entries (counted by walking the free list: only `reserve` needs it).
    private var freeCount: Int {
        var n = 0, e = freeHead
        while e >= 0 {
            n += 1
            e = Int(truncatingIfNeeded: entries[e].stamp)
        }
        return n
    }

    /// Removes every entry of message `id`. Scans the shard's entries: deletes are rare.
    mutating func removeAll(id: String) {
        for e in entries.indices where entries[e].layout.word1 & Self.liveBit != 0 && entries[e].id == id {
            remove(entry: e)
        }
    }

    private mutating func remove(entry e: Int) {
        let size = index.count
        var i = Self.home(hash(ofEntry: e), size: size)
        let wanted = UInt32(e + 1)
        while index[i] & Self.entryMask != wanted {
            i += 1
            if i == size { i = 0 }
        }
        // Backward-shift deletion: move later slots of the probe run into the gap unless their
        // home lies cyclically in (gap, slot].
        var j = i
        while true {
            j += 1
            if j == size { j = 0 }
            let s = index[j]
            if s == 0 { break }
            let k = Self.home(hash(ofEntry: Int(s & Self.entryMask) - 1), size: size)
            let stays = i <= j ? (i < k && k <= j) : (i < k || k <= j)
            if stays { continue }
            index[i] = s
            i = j
        }
        index[i] = 0

        externalBytes -= Self.externalBytes(of: entries[e].id)
        if entries[e].layout.word1 & Self.spilledBit != 0 { spilled[Int32(e)] = nil }
        entries[e].id = ""
        entries[e].stamp = UInt64(truncatingIfNeeded: freeHead)
        entries[e].layout = PackedRowLayout(word0: 0, word1: 0)
        freeHead = e
        count -= 1
    }

    private mutating func rebuildIndex(size: Int) {
        index = [UInt32](repeating: 0, count: size)
        for e in entries.indices where entries[e].layout.word1 & Self.liveBit != 0 {
            let h = hash(ofEntry: e)
            var i = Self.home(h, size: size)
            while index[i] != 0 {
                i += 1
                if i == size { i = 0 }
            }
            index[i] = Self.tag(h) << Self.entryBits | UInt32(e + 1)
        }
    }

    mutating func removeAll() {
        self = LayoutTable(maxEntries: maxEntries, maxBytes: maxBytes)
    }

    mutating func resetCounters() {
        hits = 0
        misses = 0
        evictions = 0
    }
}
