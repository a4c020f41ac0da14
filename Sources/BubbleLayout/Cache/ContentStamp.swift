import Synchronization

/// Names one exact content of one message in a `LayoutCache`'s keys, in 8 bytes.
///
/// Ids and revisions come from apps and logs, and nothing makes them unique: WhatsApp ids restart
/// in each file, a log may say "revision 1" for every edit. So a cached layout is not found by
/// them alone. The cache hands out a stamp for an id and its `LayoutContent`, compared in full
/// (texts included), and a layout is cached under the stamp. A stamp comes from a counter that only
/// goes up and is never handed out for a second content, so two different contents never share a
/// stamp, and so never a layout. This is exact: no fingerprint, no collision to argue away.
///
/// The converse is not promised: the cache remembers one content per id hash, a bounded number of
/// them, and content it has forgotten gets a new stamp when it comes back (a cache miss, never a
/// wrong layout). Two ids with equal content may share a stamp: they share the layout too, rightly.
package struct ContentStamp: Hashable, Sendable {
    /// The stamp's number, unique among the contents one cache remembers.
    package let rawValue: UInt64

    init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The stamp of a key that never reaches a cache (a one-pass batch that neither reads nor fills
    /// it): the counter starts at 1, so it names no content.
    static let unused = ContentStamp(rawValue: 0)

    /// A stamp never handed out before, by any cache of this process.
    static func fresh() -> ContentStamp {
        ContentStamp(rawValue: stampCounter.wrappingAdd(1, ordering: .relaxed).oldValue)
    }
}

/// Process-wide, so that stamps from different caches never meet by accident. 2^64 stamps do not
/// run out.
private let stampCounter = Atomic<UInt64>(1)

/// Everything of a message that its row layout reads, besides what the key holds apart (width,
/// style, decoration): the cell class that lays it out, the side it sits on, its revision, and
/// what the cell shows (`BubbleContent`: the text, the caption, the picture's name and size).
/// Compared exactly; a text is compared in O(1) when it is the same string.
///
/// The revision stays part of it so that a cell of an app's own kind whose layout reads a field it
/// does not show (a voice note's duration) still gets a new layout on an edit that bumps it.
package struct LayoutContent: Hashable, Sendable {
    /// The cell class that lays the message out.
    package var cell: ObjectIdentifier
    /// The message's side, which its bubble's shape depends on.
    package var direction: MessageDirection
    /// The message's revision (`MessageModel.revision`).
    package var revision: Int
    /// What the cell shows, from its configurator (`ConfigurableCell.content(of:)`).
    package var body: BubbleContent

    /// The content of a message laid out by `cell`, with its `direction`, `revision` and `body`.
    package init(cell: ObjectIdentifier, direction: MessageDirection, revision: Int, body: BubbleContent) {
        self.cell = cell
        self.direction = direction
        self.revision = revision
        self.body = body
    }
}

/// One shard's stamps: the last content seen under each id hash, and its stamp. Records sit in a
/// dense array behind an open-addressing index of 32-bit slots (as `LayoutTable`'s entries do).
/// A record keeps its content in 64 bytes (`StoredContent`): 72 bytes a message measured at
/// 100,000, index and growth included. The id itself is not kept: a stamp must name one content,
/// and it does whoever asks for it, so two ids whose hashes meet merely share a record (each
/// replacing the other's content: misses, never a wrong layout). Bounded: at `capacity` records the
/// table starts again empty, which also costs only misses, as stamps are never handed out again.
struct ContentStampTable {
    struct Record {
        var idHash: UInt64
        var stamp: ContentStamp
        var content: StoredContent
    }

    /// A `LayoutContent` as a record keeps it: the common content (a text and its style) inline,
    /// anything more (a picture's label) boxed, so a record is 64 bytes instead of 104. It
    /// compares equal to a `LayoutContent` exactly when that content does, whatever fields
    /// `BubbleContent` gains: a content the inline fields do not rebuild whole is kept whole.
    struct StoredContent: Sendable {
        var text: String?
        var cell: ObjectIdentifier
        var revision: Int
        /// The whole body, when the inline fields do not hold it all.
        var whole: Box?
        var direction: MessageDirection
        var textStyle: MessageTextStyle

        final class Box: Sendable {
            let body: BubbleContent
            init(_ body: BubbleContent) { self.body = body }
        }

        init(_ content: LayoutContent) {
            let body = content.body
            text = body.text
            cell = content.cell
            revision = content.revision
            direction = content.direction
            textStyle = body.textStyle
            whole = body.image == nil && BubbleContent(text: body.text, textStyle: body.textStyle) == body
                ? nil : Box(body)
        }

        @inline(__always)
        func matches(_ content: LayoutContent) -> Bool {
            guard revision == content.revision, cell == content.cell, direction == content.direction,
                  textStyle == content.body.textStyle else { return false }
            if let whole { return whole.body == content.body }
            return text == content.body.text && BubbleContent(text: text, textStyle: textStyle) == content.body
        }

        /// A content no message has (a deleted message's record).
        static let none = StoredContent(LayoutContent(cell: ObjectIdentifier(Box.self), direction: .incoming,
                                                      revision: .min, body: BubbleContent(text: nil)))
    }

    private var records: [Record] = []
    private var index: [UInt32] = []
    let capacity: Int

    init(capacity: Int) { self.capacity = min(max(1, capacity), Int(UInt32.max) - 1) }

    var count: Int { records.count }

    /// Bytes of the records and index (the strings the contents hold are the messages' own).
    var bytes: Int { records.capacity * MemoryLayout<Record>.stride + index.count * MemoryLayout<UInt32>.stride }

    @inline(__always)
    private static func home(_ hash: UInt64, size: Int) -> Int {
        Int(truncatingIfNeeded: ((hash >> 32) &* UInt64(size)) >> 32)
    }

    /// The stamp of `content` for the message whose id hashes to `idHash`: the one handed out
    /// before if `content` equals the content last stamped under that hash, else a new one.
    mutating func stamp(idHash: UInt64, content: LayoutContent) -> ContentStamp {
        let size = index.count
        if size > 0 {
            var i = Self.home(idHash, size: size)
            while index[i] != 0 {
                let r = Int(index[i] &- 1)
                if records[r].idHash == idHash {
                    if records[r].content.matches(content) { return records[r].stamp }
                    let stamp = ContentStamp.fresh()
                    records[r].content = StoredContent(content)
                    records[r].stamp = stamp
                    return stamp
                }
                i += 1
                if i == size { i = 0 }
            }
        }
        if records.count >= capacity { removeAll(keepingCapacity: true) }
        if (records.count + 1) * 4 > index.count * 3 { rebuildIndex(size: max(16, (records.count + 1) * 2)) }
        // Grown by an eighth at a time, as the layout table's entries are: little idle capacity.
        if records.count == records.capacity {
            records.reserveCapacity(min(capacity, records.capacity + max(16, records.capacity / 8)))
        }
        let stamp = ContentStamp.fresh()
        records.append(Record(idHash: idHash, stamp: stamp, content: StoredContent(content)))
        place(record: records.count - 1)
        return stamp
    }

    /// Forgets the content stamped under `idHash` (its message was deleted): the next request for
    /// that hash gets a new stamp.
    mutating func remove(idHash: UInt64) {
        let size = index.count
        guard size > 0 else { return }
        var i = Self.home(idHash, size: size)
        while index[i] != 0 {
            let r = Int(index[i] &- 1)
            if records[r].idHash == idHash {
                records[r].stamp = ContentStamp.fresh()
                records[r].content = .none
                return
            }
            i += 1
            if i == size { i = 0 }
        }
    }

    mutating func removeAll(keepingCapacity: Bool = false) {
        records.removeAll(keepingCapacity: keepingCapacity)
        if keepingCapacity {
            for i in index.indices { index[i] = 0 }
        } else {
            index = []
        }
    }

    private mutating func place(record r: Int) {
        let size = index.count
        var i = Self.home(records[r].idHash, size: size)
        while index[i] != 0 {
            i += 1
            if i == size { i = 0 }
        }
        index[i] = UInt32(r + 1)
    }

    private mutating func rebuildIndex(size: Int) {
        index = [UInt32](repeating: 0, count: size)
        for r in records.indices { place(record: r) }
    }
}
