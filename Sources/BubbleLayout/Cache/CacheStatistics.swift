/// Counters of a `LayoutCache`.
public struct CacheStatistics: Hashable, Sendable {
    /// Lookups that found a layout.
    public var hits = 0
    /// Lookups that found none.
    public var misses = 0
    /// Entries dropped to stay within the entry or byte cap.
    public var evictions = 0
    /// Entries held now.
    public var count = 0
    /// Bytes allocated now: entry storage by capacity (48 bytes an entry), index slots, ids too
    /// long to be stored inline, and the rare layouts too large to pack.
    public var bytes = 0
    /// Messages whose last content the cache remembers, to hand out `ContentStamp`s.
    public var contents = 0
    /// Bytes of that record, apart from `bytes`: it is per message, not per entry (a message has an
    /// entry per width and decoration), and the texts it holds are the messages' own strings.
    public var contentBytes = 0

    public init() {}

    /// hits / (hits + misses), 0 before any lookup.
    public var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }
    /// `bytes / count`: the measured cost of one entry, index included.
    public var bytesPerEntry: Double { count == 0 ? 0 : Double(bytes) / Double(count) }
}
