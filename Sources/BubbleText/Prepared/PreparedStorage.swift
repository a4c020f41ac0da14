/// A prepared text's segments, grapheme-map index and grapheme map, in ONE allocation, or in
/// none at all for a text of one segment with no map entries.
///
/// Chat is mostly short messages, where each allocation (and each release when the message goes
/// away) cost more than the Unicode work itself; three arrays made three of each. The words are
/// the segments (three words each), then the index pairs, then the map bytes packed four to a
/// word. A text with nothing to store allocates nothing, and neither does a text whose only
/// segment needs no map ("ok", "lol", "👋", a one-word reply): that segment's three words take
/// the place of the three counts, so the value is no larger for it.
@usableFromInline
struct PreparedStorage: @unchecked Sendable {  // the words are immutable once written
    /// Nil when the text is empty or its one segment is stored inline.
    @usableFromInline let buffer: PreparedWords?
    /// With a buffer: the segment count, the words of grapheme-map index (pairs: segment index,
    /// offset of its entries in the map), and the bytes of grapheme map. Without one: the only
    /// segment's `contentEnd`, `hangEnd` and `packed`, or all zero for the empty text (a
    /// segment of a non-empty text ends past 0, so its `hangEnd` or break length is not 0).
    @usableFromInline let word0: UInt32
    @usableFromInline let word1: UInt32
    @usableFromInline let word2: UInt32

    init(segments: UnsafeBufferPointer<PreparedSegment>, graphemeMapIndex: UnsafeBufferPointer<UInt32>,
         graphemeMap: UnsafeBufferPointer<UInt8>, allowInline: Bool = true) {
        if segments.count <= 1 && (allowInline || segments.isEmpty) && graphemeMapIndex.isEmpty && graphemeMap.isEmpty {
            buffer = nil
            if let only = segments.first {
                word0 = only.contentEnd
                word1 = only.hangEnd
                word2 = only.packed
            } else {
                word0 = 0
                word1 = 0
                word2 = 0
            }
            return
        }
        word0 = UInt32(truncatingIfNeeded: segments.count)
        word1 = UInt32(truncatingIfNeeded: graphemeMapIndex.count)
        word2 = UInt32(truncatingIfNeeded: graphemeMap.count)
        let segmentWords = segments.count &* Self.wordsPerSegment
        let total = segmentWords &+ graphemeMapIndex.count &+ (graphemeMap.count &+ 3) / 4
        // A final class of its own, not `[UInt32]`: creating an array looked up its generic
        // storage metadata at run time on every call, which cost as much as the copy.
        let buffer = unsafeDowncast(PreparedWords.create(minimumCapacity: total) { _ in total }, to: PreparedWords.self)
        buffer.withUnsafeMutablePointerToElements { words in
            let base = UnsafeMutableRawPointer(words)
            let segmentBytes = segmentWords &* 4
            if let source = segments.baseAddress {
                base.copyMemory(from: source, byteCount: segmentBytes)
            }
            if let source = graphemeMapIndex.baseAddress {
                (base + segmentBytes).copyMemory(from: source, byteCount: graphemeMapIndex.count &* 4)
            }
            if let source = graphemeMap.baseAddress {
                (base + segmentBytes + graphemeMapIndex.count &* 4).copyMemory(from: source, byteCount: graphemeMap.count)
            }
        }
        self.buffer = buffer
    }

    /// Segments stored.
    @inlinable var segmentCount: UInt32 {
        if buffer != nil { return word0 }
        return word1 | word2 != 0 ? 1 : 0
    }

    @usableFromInline static var wordsPerSegment: Int { MemoryLayout<PreparedSegment>.stride / 4 }

    /// Calls `body` with the three parts in place.
    @inlinable @inline(__always)
    func withParts<Result>(_ body: (_ segments: UnsafeBufferPointer<PreparedSegment>,
                                    _ graphemeMapIndex: UnsafeBufferPointer<UInt32>,
                                    _ graphemeMap: UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        // `body` is called from one place only, so that it is inlined once into each caller.
        var only = PreparedSegment(contentEnd: word0, hangEnd: word1, packed: word2)
        return try withUnsafePointer(to: &only) { onlySegment in
            guard let buffer else {
                return try body(UnsafeBufferPointer(start: onlySegment, count: word1 | word2 == 0 ? 0 : 1),
                                UnsafeBufferPointer(start: nil, count: 0), UnsafeBufferPointer(start: nil, count: 0))
            }
            // `self` holds the buffer for as long as the call lasts.
            let base = UnsafeRawPointer(buffer.withUnsafeMutablePointerToElements { $0 })
            let segmentCount = Int(word0)
            let indexCount = Int(word1)
            let segmentBytes = segmentCount &* Self.wordsPerSegment &* 4
            // The words were written as these types and are only ever read as them.
            let segments = UnsafeBufferPointer(
                start: base.assumingMemoryBound(to: PreparedSegment.self), count: segmentCount)
            let index = UnsafeBufferPointer(
                start: (base + segmentBytes).assumingMemoryBound(to: UInt32.self), count: indexCount)
            let map = UnsafeBufferPointer(
                start: (base + segmentBytes + indexCount &* 4).assumingMemoryBound(to: UInt8.self), count: Int(word2))
            return try withExtendedLifetime(buffer) { try body(segments, index, map) }
        }
    }

    /// The only segment is kept in this value, with no allocation.
    var isInline: Bool { buffer == nil && word1 | word2 != 0 }

    /// Bytes allocated for the words (the object header aside, as an array's was).
    var byteCount: Int { buffer.map { $0.header &* 4 } ?? 0 }
}

/// The words of a `PreparedStorage`; the header is their count. Written once while preparing,
/// then only read, so sharing it between threads is safe.
@usableFromInline
final class PreparedWords: ManagedBuffer<Int, UInt32> {}
