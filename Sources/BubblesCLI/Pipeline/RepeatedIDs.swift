import BubbleLayout

/// Notices a message id that an input repeats, so the reader can be told where both are
/// (`b.jsonl:1: id "1" repeats line 3 of a.jsonl`). Both messages are still laid out, each from its
/// own text (the layout cache finds layouts by content, not by id); this is only the warning.
///
/// Memory is bounded whatever the input's size: an id is remembered as its 64-bit hash (the
/// layout core's one id hash, `identityHash`, keyed per process) with the place it was first
/// seen, 16 bytes in order of arrival, found through a table of 4-byte slots kept 37–75% full
/// (each slot the entry's number and 8 bits of its hash, so a probe reads the small table and
/// touches an entry only when those bits agree), for the first `limit` distinct ids: at most
/// 24 MiB for the default 1,048,576. The table is a quarter of the entries' size: what a probe
/// reads at random stays in a core's cache for far longer logs. Ids after that are still checked against the remembered
/// ones but not remembered themselves, and `stoppedRemembering` says from where. Two different ids
/// whose hashes agree would be reported as a repeat: with a keyed 64-bit hash that needs about
/// 4 × 10⁹ ids to be even likely once, and it never changes a layout.
///
/// Ids are the same when `String` says so (canonically equivalent): the hash is taken over an id's
/// NFC bytes, which for an ASCII id are its own bytes, read eight at a time (`IDHash`).
struct RepeatedIDs: Sendable {
    /// Where an id was seen: a file and a line, when the input has lines.
    struct Place: Sendable, Hashable {
        var file: String
        var line: Int?

        init(file: String, line: Int?) {
            self.file = file
            self.line = line
        }
    }

    /// An id seen before, and where.
    struct Repeat: Sendable, Hashable {
        var id: String
        var first: Place
    }

    /// Most distinct ids remembered (at most 2²⁴ − 1: an entry's number fills 24 bits of a slot).
    let limit: Int
    /// The place of the first id not remembered (the limit was reached there), if any.
    private(set) var stoppedRemembering: Place?
    /// Repeats found so far.
    private(set) var repeats = 0

    /// The ids remembered, in order of arrival.
    private var entries: [Entry] = []
    /// Open addressing over `entries`: 0 for an empty slot, else the entry's number + 1 in the low
    /// 24 bits and the top 8 bits of its hash above.
    private var slots: [UInt32] = []
    private var files: [String] = []
    private var fileIndex: [String: Int] = [:]
    /// The file of the last id remembered: messages come a file at a time.
    private var lastFile: (name: String, index: Int)?

    /// A hash and a place, packed: the file's index in the high 24 bits of `place`, the line (+1,
    /// 0 for none) in the low 40.
    private struct Entry: Sendable {
        var hash: UInt64
        var place: UInt64
    }

    init(limit: Int = 1 << 20) {
        self.limit = min(max(1, limit), (1 << 24) - 1)
    }

    /// The bits of `hash` a slot keeps beside its entry's number (the table's index uses the low bits).
    @inline(__always)
    private static func tag(_ hash: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: hash >> 56) << 24 }

    /// Notes message `id` read at `file`:`line`; returns the earlier place when an earlier message
    /// had the same id (each later occurrence is reported against the first).
    mutating func note(id: String, file: String, line: Int?) -> Repeat? {
        let hash = identityHash(id)
        if slots.isEmpty { slots = [UInt32](repeating: 0, count: 1024) }
        let mask = slots.count - 1
        let tag = Self.tag(hash)
        var i = Int(truncatingIfNeeded: hash) & mask
        var found: UInt64?
        while slots[i] != 0 {  // the table is never full: an empty slot ends the probe
            let slot = slots[i]
            if slot & 0xFF00_0000 == tag {
                let entry = entries[Int(slot & 0x00FF_FFFF) - 1]
                if entry.hash == hash {
                    found = entry.place
                    break
                }
            }
            i = (i &+ 1) & mask
        }
        if let found {
            repeats += 1
            return Repeat(id: id, first: place(found))
        }
        guard entries.count < limit else {
            if stoppedRemembering == nil { stoppedRemembering = Place(file: file, line: line) }
            return nil
        }
        let packed = pack(file: file, line: line)
        entries.append(Entry(hash: hash, place: packed))
        slots[i] = tag | UInt32(entries.count)
        if entries.count * 4 > slots.count * 3 { grow() }
        return nil
    }

    private mutating func pack(file: String, line: Int?) -> UInt64 {
        let index: Int
        if let last = lastFile, last.name == file {
            index = last.index  // the file of the message before: no hashing of its name
        } else if let known = fileIndex[file] {
            index = known
            lastFile = (file, known)
        } else {
            index = files.count
            files.append(file)
            fileIndex[file] = index
            lastFile = (file, index)
        }
        let fileBits = UInt64(min(index + 1, (1 << 24) - 1))
        let lineBits = UInt64(min(max(0, (line ?? -1) + 1), (1 << 40) - 1))
        return fileBits << 40 | lineBits
    }

    private func place(_ packed: UInt64) -> Place {
        let f = Int(packed >> 40) - 1
        let line = Int(packed & ((1 << 40) - 1)) - 1
        return Place(file: f < files.count ? files[f] : "", line: line >= 0 ? line : nil)
    }

    /// Doubles the table and slots every entry in again, in order of arrival.
    private mutating func grow() {
        slots = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (number, entry) in entries.enumerated() {
            var i = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[i] != 0 { i = (i &+ 1) & mask }
            slots[i] = Self.tag(entry.hash) | UInt32(number + 1)
        }
    }
}
