/// A prepared text's segments, grapheme-map index and grapheme map, in ONE allocation.
///
/// Chat is mostly short messages, where each allocation (and each release when the message goes
/// away) cost more than the Unicode work itself; three arrays made three of each. The words are
/// the segments (three words each), then the index pairs, then the map bytes packed four to a
/// word. A text with nothing to store allocates nothing.
@usableFromInline
struct PreparedStorage: @unchecked Sendable {  // the words are immutable once written
    /// Nil when there is nothing to store (the empty text).
    @usableFromInline let buffer: PreparedWords?
    @usableFromInline let segmentCount: UInt32
    /// Words of grapheme-map index: pairs (segment index, offset of its entries in the map).
    @usableFromInline let indexCount: UInt32
    /// Bytes of grapheme map.
    @usableFromInline let mapCount: UInt32

    init(segments: UnsafeBufferPointer<PreparedSegment>, graphemeMapIndex: UnsafeBufferPointer<UInt32>,
         graphemeMap: UnsafeBufferPointer<UInt8>) {
        segmentCount = UInt32(truncatingIfNeeded: segments.count)
        indexCount = UInt32(truncatingIfNeeded: graphemeMapIndex.count)
        mapCount = UInt32(truncatingIfNeeded: graphemeMap.count)
        let segmentWords = segments.count &* Self.wordsPerSegment
        let total = segmentWords &+ graphemeMapIndex.count &+ (graphemeMap.count &+ 3) / 4
        if total == 0 {
            buffer = nil
            return
        }
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

    @usableFromInline static var wordsPerSegment: Int { MemoryLayout<PreparedSegment>.stride / 4 }

    /// Calls `body` with the three parts in place.
    @inlinable @inline(__always)
    func withParts<Result>(_ body: (_ segments: UnsafeBufferPointer<PreparedSegment>,
                                    _ graphemeMapIndex: UnsafeBufferPointer<UInt32>,
                                    _ graphemeMap: UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        guard let buffer else {
            return try body(UnsafeBufferPointer(start: nil, count: 0), UnsafeBufferPointer(start: nil, count: 0),
                            UnsafeBufferPointer(start: nil, count: 0))
        }
        return try buffer.withUnsafeMutablePointerToElements { words in
            let base = UnsafeRawPointer(words)
            let segmentCount = Int(self.segmentCount)
            let indexCount = Int(self.indexCount)
            let segmentBytes = segmentCount &* Self.wordsPerSegment &* 4
            // The words were written as these types and are only ever read as them.
            let segments = UnsafeBufferPointer(
                start: base.assumingMemoryBound(to: PreparedSegment.self), count: segmentCount)
            let index = UnsafeBufferPointer(
                start: (base + segmentBytes).assumingMemoryBound(to: UInt32.self), count: indexCount)
            let map = UnsafeBufferPointer(
                start: (base + segmentBytes + indexCount &* 4).assumingMemoryBound(to: UInt8.self), count: Int(mapCount))
            return try body(segments, index, map)
        }
    }

    /// Bytes allocated for the words (the object header aside, as an array's was).
    var byteCount: Int { buffer.map { $0.header &* 4 } ?? 0 }
}

/// The words of a `PreparedStorage`; the header is their count. Written once while preparing,
/// then only read, so sharing it between threads is safe.
@usableFromInline
final class PreparedWords: ManagedBuffer<Int, UInt32> {}
