/// One shard of the layout cache: an open-addressing hash index over a slot array whose entries
/// are threaded on a doubly linked recency list. Lookups move an entry to the front; inserts past
/// a cap drop entries from the back. Entries are 64 bytes; the index adds 4 bytes per bucket.
struct LRUTable {
    struct Entry {
        var key: LayoutKey
        var layout: RowLayout
        /// Next entry towards the least recently used end, or -1.
        var older: Int32
        /// Next entry towards the most recently used end, or -1.
        var newer: Int32
    }

    static let empty: Int32 = -1
    static let deleted: Int32 = -2
    /// Ids up to 15 UTF-8 bytes are stored inside the String itself; longer ones own a heap buffer.
    static let inlineIDBytes = 15

    private(set) var entries: [Entry] = []
    private var buckets: [Int32] = []
    private var freeSlot: Int32 = -1
    private var newest: Int32 = -1
    private var oldest: Int32 = -1
    private var tombstones = 0
    private var externalBytes = 0
    let maxEntries: Int
    let maxBytes: Int

    private(set) var count = 0
    private(set) var hits = 0
    private(set) var misses = 0
    private(set) var evictions = 0

    init(maxEntries: Int, maxBytes: Int) {
        self.maxEntries = max(1, maxEntries)
        self.maxBytes = max(1, maxBytes)
    }

    var bytes: Int { count * MemoryLayout<Entry>.stride + buckets.count * MemoryLayout<Int32>.stride + externalBytes }

    static func externalBytes(of id: String) -> Int {
        let n = id.utf8.count
        return n > inlineIDBytes ? n + 32 : 0
    }

    private func slot(of key: LayoutKey, hash: UInt64) -> (bucket: Int, entry: Int32)? {
        guard !buckets.isEmpty else { return nil }
        let mask = buckets.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while true {
            let e = buckets[i]
            if e == Self.empty { return nil }
            if e >= 0 && entries[Int(e)].key == key { return (i, e) }
            i = (i + 1) & mask
        }
    }

    mutating func lookup(_ key: LayoutKey, hash: UInt64) -> RowLayout? {
        guard let (_, e) = slot(of: key, hash: hash) else {
            misses += 1
            return nil
        }
        hits += 1
        moveToFront(e)
        return entries[Int(e)].layout
    }

    mutating func insert(_ layout: RowLayout, for key: LayoutKey, hash: UInt64, idHash: UInt64) {
        if let (_, e) = slot(of: key, hash: hash) {
            entries[Int(e)].layout = layout
            moveToFront(e)
            return
        }
        let extra = Self.externalBytes(of: key.id)
        while count > 0 && (count >= maxEntries || bytes + MemoryLayout<Entry>.stride + extra > maxBytes) {
            remove(entry: oldest)
            evictions += 1
        }
        if (count + tombstones + 1) * 4 > buckets.count * 3 { rehash(minimumCapacity: count + 1) }

        let entry = Entry(key: key, layout: layout, older: newest, newer: -1)
        let e: Int32
        if freeSlot >= 0 {
            e = freeSlot
            freeSlot = entries[Int(e)].older
            entries[Int(e)] = entry
        } else {
            e = Int32(entries.count)
            entries.append(entry)
        }
        if newest >= 0 { entries[Int(newest)].newer = e }
        newest = e
        if oldest < 0 { oldest = e }

        let mask = buckets.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        while buckets[i] >= 0 { i = (i + 1) & mask }
        if buckets[i] == Self.deleted { tombstones -= 1 }
        buckets[i] = e
        count += 1
        externalBytes += extra
    }

    /// Removes every entry of message `id`. Scans the shard: deletes are rare.
    mutating func removeAll(id: String, keyHash: (LayoutKey) -> UInt64) {
        var e = oldest
        while e >= 0 {
            let next = entries[Int(e)].newer
            if entries[Int(e)].key.id == id { remove(entry: e, hash: keyHash(entries[Int(e)].key)) }
            e = next
        }
    }

    private mutating func remove(entry e: Int32) {
        let key = entries[Int(e)].key
        remove(entry: e, hash: key.tableHash(idHash: identityHash(key.id)))
    }

    private mutating func remove(entry e: Int32, hash: UInt64) {
        guard let (bucket, _) = slot(of: entries[Int(e)].key, hash: hash) else { return }
        buckets[bucket] = Self.deleted
        tombstones += 1
        unlink(e)
        externalBytes -= Self.externalBytes(of: entries[Int(e)].key.id)
        entries[Int(e)].key.id = ""
        entries[Int(e)].older = freeSlot
        freeSlot = e
        count -= 1
    }

    private mutating func unlink(_ e: Int32) {
        let (older, newer) = (entries[Int(e)].older, entries[Int(e)].newer)
        if older >= 0 { entries[Int(older)].newer = newer } else { oldest = newer }
        if newer >= 0 { entries[Int(newer)].older = older } else { newest = older }
    }

    private mutating func moveToFront(_ e: Int32) {
        guard e != newest else { return }
        unlink(e)
        entries[Int(e)].older = newest
        entries[Int(e)].newer = -1
        if newest >= 0 { entries[Int(newest)].newer = e }
        newest = e
        if oldest < 0 { oldest = e }
    }

    private mutating func rehash(minimumCapacity: Int) {
        var size = 16
        while size < minimumCapacity * 2 { size <<= 1 }
        buckets = [Int32](repeating: Self.empty, count: size)
        tombstones = 0
        let mask = size - 1
        var e = oldest
        while e >= 0 {
            let key = entries[Int(e)].key
            var i = Int(truncatingIfNeeded: key.tableHash(idHash: identityHash(key.id))) & mask
            while buckets[i] != Self.empty { i = (i + 1) & mask }
            buckets[i] = e
            e = entries[Int(e)].newer
        }
    }

    mutating func removeAll() {
        self = LRUTable(maxEntries: maxEntries, maxBytes: maxBytes)
    }

    mutating func resetCounters() {
        hits = 0
        misses = 0
        evictions = 0
    }
}
