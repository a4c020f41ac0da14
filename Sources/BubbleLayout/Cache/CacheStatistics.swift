/// Counters of a `LayoutCache`.
package struct CacheStatistics: Hashable, Sendable {
    /// Lookups that found a layout.
    package var hits = 0
    /// Lookups that found none.
    package var misses = 0
    /// Entries dropped to stay within the entry or byte cap.
    package var evictions = 0
    /// Entries held now.
    package var count = 0
    /// Bytes allocated now: entry storage by capacity (48 bytes an entry), index slots, ids too
    /// long to be stored inline, and the rare layouts too large to pack.
    package var bytes = 0
    /// Messages whose last content the cache remembers, to hand out `ContentStamp`s.
    package var contents = 0
    /// Bytes of that record, apart from `bytes`: it is per message, not per entry (a message has an
    /// entry per width and decoration), and the texts it holds are the messages' own strings.
    package var contentBytes = 0

    package init() {}

    /// hits / (hits + misses), 0 before any lookup.
    package var hitRate: Double { hits + misses == 0 ? 0 : Double(hits) / Double(hits + misses) }
    /// `bytes / count`: the measured cost of one entry, index included.
    package var bytesPerEntry: Double { count == 0 ? 0 : Double(bytes) / Double(count) }
}
