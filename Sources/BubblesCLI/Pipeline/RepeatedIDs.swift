import BubbleLayout

/// Notices a message id that an input repeats, so the reader can be told where both are
/// (`b.jsonl:1: id "1" repeats line 3 of a.jsonl`). Both messages are still laid out, each from its
/// own text (the layout cache finds layouts by content, not by id); this is only the warning.
///
/// Memory is bounded whatever the input's size: an id is remembered as its 64-bit hash (the
/// layout core's one id hash, `identityHash`, keyed per process) with the place it was first
/// seen, in a 16-byte slot of a table kept 37–75% full, for the first `limit` distinct ids: at
/// most 32 MiB for the default 1,048,576. Ids after that are still checked against the remembered
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

    /// Most distinct ids remembered.
    let limit: Int
    /// The place of the first id not remembered (the limit was reached there), if any.
    private(set) var stoppedRemembering: Place?
    /// Repeats found so far.
    private(set) var repeats = 0

    private var slots: [Slot] = []
    private var count = 0
    private var files: [String] = []
    private var fileIndex: [String: Int] = [:]
    /// The file of the last id remembered: messages come a file at a time.
    private var lastFile: (name: String, index: Int)?

    /// A hash and a place, packed: the file's index in the high 24 bits of `place`, the line (+1,
    /// 0 for none) in the low 40. An empty slot has `place == 0` (file index 0 is stored as 1).
    private struct Slot: Sendable {
        var hash: UInt64
        var place: UInt64
    }

    init(limit: Int = 1 << 20) {
        self.limit = max(1, limit)
    }

    /// Notes message `id` read at `file`:`line`; returns the earlier place when an earlier message
    /// had the same id (each later occurrence is reported against the first).
    mutating func note(id: String, file: String, line: Int?) -> Repeat? {
        let hash = identityHash(id)
        if slots.isEmpty { slots = [Slot](repeating: Slot(hash: 0, place: 0), count: 1024) }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: hash) & mask
        var found: UInt64?
        while slots[i].place != 0 {  // the table is never full: an empty slot ends the probe
            if slots[i].hash == hash {
                found = slots[i].place
                break
            }
            i = (i &+ 1) & mask
        }
        if let found {
            repeats += 1
            return Repeat(id: id, first: place(found))
        }
        guard count < limit else {
            if stoppedRemembering == nil { stoppedRemembering = Place(file: file, line: line) }
            return nil
        }
        let packed = pack(file: file, line: line)
        slots[i] = Slot(hash: hash, place: packed)
        count += 1
        if count * 4 > slots.count * 3 { grow() }
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

    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(hash: 0, place: 0), count: old.count * 2)
        let mask = slots.count - 1
        for slot in old where slot.place != 0 {
            var i = Int(truncatingIfNeeded: slot.hash) & mask
            while slots[i].place != 0 { i = (i &+ 1) & mask }
            slots[i] = slot
        }
    }
}
