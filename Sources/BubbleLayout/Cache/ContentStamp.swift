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
/// The converse is not promised: the cache remembers a bounded number of contents, and content it
/// has forgotten gets a new stamp when it comes back (a cache miss, never a wrong layout).
public struct ContentStamp: Hashable, Sendable {
    public let rawValue: UInt64

    init(rawValue: UInt64) { self.rawValue = rawValue }

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
public struct LayoutContent: Hashable, Sendable {
    /// The cell class that lays the message out.
    public var cell: ObjectIdentifier
    public var direction: MessageDirection
    public var revision: Int
    /// What the cell shows, from its configurator (`ConfigurableCell.content(of:)`).
    public var body: BubbleContent

    public init(cell: ObjectIdentifier, direction: MessageDirection, revision: Int, body: BubbleContent) {
        self.cell = cell
        self.direction = direction
        self.revision = revision
        self.body = body
    }

    /// `model`'s content as laid out by `configurator`'s cell.
    init(_ model: any MessageModel, configurator: AnyCellConfigurator) {
        self.init(cell: ObjectIdentifier(configurator.cellType), direction: model.direction, revision: model.revision,
                  body: configurator.content(model))
    }
}

/// One shard's stamps: the last content seen for each id (by the id's hash, the full id and
/// content compared) and its stamp. Bounded: when it holds `capacity` ids it starts again empty,
/// which only costs misses (stamps are never reused, so forgetting one cannot make a layout wrong).
struct ContentStampTable {
    struct Record {
        var id: String
        var content: LayoutContent
        var stamp: ContentStamp
    }

    private var records: [UInt64: Record] = [:]
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var count: Int { records.count }

    /// Bytes of the table's own storage (the strings it holds are the messages' own, shared).
    var bytes: Int { records.capacity * (MemoryLayout<UInt64>.stride + MemoryLayout<Record>.stride) }

    /// The stamp of `content` for message `id` (whose hash is `idHash`): the one handed out before
    /// if it is the content last seen for that id, else a new one that replaces it.
    mutating func stamp(id: String, idHash: UInt64, content: LayoutContent) -> ContentStamp {
        if let record = records[idHash], record.id == id, record.content == content { return record.stamp }
        if records.count >= capacity && records[idHash] == nil { records.removeAll(keepingCapacity: true) }
        let stamp = ContentStamp.fresh()
        records[idHash] = Record(id: id, content: content, stamp: stamp)
        return stamp
    }

    /// Forgets message `id`'s content (it was deleted).
    mutating func remove(id: String, idHash: UInt64) {
        if records[idHash]?.id == id { records[idHash] = nil }
    }

    mutating func removeAll() { records = [:] }
}
