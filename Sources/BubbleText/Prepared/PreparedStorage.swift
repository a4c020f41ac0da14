/// A prepared text's segments and grapheme map, byte-coded in ONE allocation, or in none at all
/// when they fit in this value.
///
/// Chat is mostly short messages, and preparing a whole log is bound by memory, not by the
/// Unicode work: each allocation, and every byte written to it, cost more than the work that
/// filled it. So a segment is a record of 2–5 bytes instead of a 12-byte struct: a flags byte,
/// then LEB128 lengths (content, hang, width when it differs from the content length, and the
/// segment's grapheme-map bytes when it has any). Offsets are not stored; each segment starts
/// where the one before ended, and layout reads the segments in order anyway. The grapheme map
/// follows the records. A text whose records fit in 11 bytes and that needs no map ("ok",
/// "sounds good", "👍🏽", "好的") is kept inside this value, with no allocation.
@usableFromInline
struct PreparedStorage: @unchecked Sendable {  // the bytes are immutable once written
    /// Nil when the text is empty or its records are stored inline.
    @usableFromInline let buffer: PreparedBytes?
    /// With a buffer: the segment count, the record bytes and the map bytes. Without one: the
    /// segment count in the first byte and the records in the other eleven, or all zero for
    /// the empty text.
    @usableFromInline let word0: UInt32
    @usableFromInline let word1: UInt32
    @usableFromInline let word2: UInt32

    /// Record flags. Bits 0–5 are `PreparedSegment.packed` bits 24–29 (break length, mandatory,
    /// tab, map, single grapheme) and bit 6 is its run bit, so a record's flags shift into place.
    @usableFromInline static let runFlag: UInt8 = 1 << 6
    @usableFromInline static let mapFlag: UInt8 = 1 << 4
    @usableFromInline static let mandatoryFlag = UInt8(truncatingIfNeeded: PreparedSegment.mandatoryBit >> 24)
    @usableFromInline static let tabFlag = UInt8(truncatingIfNeeded: PreparedSegment.tabBit >> 24)
    @usableFromInline static let singleGraphemeFlag = UInt8(truncatingIfNeeded: PreparedSegment.singleGraphemeBit >> 24)
    /// Bit 7: for a run record, units of 4 bytes (else 3); for any other, the width equals the
    /// content length and is not stored (as in an ASCII word: one byte and one cell a grapheme).
    @usableFromInline static let bit7: UInt8 = 1 << 7
    /// Record bytes that fit inline (the first of the twelve holds the segment count).
    @usableFromInline static let inlineCapacity = 11

    /// The storage of the empty text.
    init() {
        buffer = nil
        (word0, word1, word2) = (0, 0, 0)
    }

    /// Storage for `segmentCount` segments coded as `records` (by `TextPreparer`), followed by
    /// `graphemeMap`.
    init(records: UnsafeBufferPointer<UInt8>, segmentCount: Int, graphemeMap: UnsafeBufferPointer<UInt8>, allowInline: Bool = true) {
        if segmentCount == 0 || (allowInline && graphemeMap.isEmpty && records.count <= Self.inlineCapacity && segmentCount < 256) {
            buffer = nil
            var words: (UInt32, UInt32, UInt32) = (0, 0, 0)
            withUnsafeMutableBytes(of: &words) { bytes in
                bytes[0] = UInt8(truncatingIfNeeded: segmentCount)
                if let source = records.baseAddress, segmentCount > 0 {
                    (bytes.baseAddress.unsafelyUnwrapped + 1).copyMemory(from: source, byteCount: records.count)
                }
            }
            (word0, word1, word2) = words
            return
        }
        word0 = UInt32(truncatingIfNeeded: segmentCount)
        word1 = UInt32(truncatingIfNeeded: records.count)
        word2 = UInt32(truncatingIfNeeded: graphemeMap.count)
        let total = records.count &+ graphemeMap.count
        // A final class of its own, not `[UInt8]`: creating an array looked up its generic
        // storage metadata at run time on every call, which cost as much as the copy.
        let buffer = unsafeDowncast(PreparedBytes.create(minimumCapacity: total) { _ in UInt32(truncatingIfNeeded: total) },
                                    to: PreparedBytes.self)
        buffer.withUnsafeMutablePointerToElements { bytes in
            if let source = records.baseAddress {
                bytes.update(from: source, count: records.count)
            }
            if let source = graphemeMap.baseAddress {
                (bytes + records.count).update(from: source, count: graphemeMap.count)
            }
        }
        self.buffer = buffer
    }

    /// Segments stored.
    @inlinable var segmentCount: UInt32 {
        buffer != nil ? word0 : word0 & 0xFF
    }

    /// Calls `body` with a reader over the segments, in order, and the grapheme map.
    @inlinable @inline(__always)
    func withSegments<Result>(_ body: (_ segments: inout SegmentReader, _ graphemeMap: ElementsView<UInt8>) throws -> Result) rethrows -> Result {
        // `body` is called from one place only, so that it is inlined once into each caller.
        var inline = (word0, word1, word2)
        return try withUnsafeBytes(of: &inline) { inlineBytes in
            guard let buffer else {
                var reader = SegmentReader(records: inlineBytes.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self) + 1,
                                           count: Int(word0 & 0xFF), byteCount: Self.inlineCapacity)
                return try body(&reader, .empty)
            }
            // `self` holds the buffer for as long as the call lasts.
            let base = UnsafePointer(buffer.withUnsafeMutablePointerToElements { $0 })
            var reader = SegmentReader(records: base, count: Int(word0), byteCount: Int(word1))
            return try withExtendedLifetime(buffer) {
                try ElementsView.withView(of: UnsafeBufferPointer(start: base + Int(word1), count: Int(word2))) { map in
                    try body(&reader, map)
                }
            }
        }
    }

    /// The records are kept in this value, with no allocation.
    var isInline: Bool { buffer == nil && word0 != 0 }

    /// Bytes allocated for the records and the map (the object header aside).
    var byteCount: Int { buffer.map { Int($0.header) } ?? 0 }
}

/// Reads a `PreparedStorage`'s segment records in order.
///
/// Unchecked in release builds: `records` must hold `count` well-formed records (as
/// `TextPreparer` writes them) in its first `byteCount` bytes, and `next()` may be called at
/// most `count` times. Debug builds check both, so a caller that reads one segment too many, or
/// storage that was written wrong, stops at the read instead of decoding whatever follows.
@usableFromInline
struct SegmentReader {
    @usableFromInline let records: UnsafePointer<UInt8>
    /// Segments in the storage.
    @usableFromInline let count: Int
    /// Bytes at `records` that may be read.
    @usableFromInline let byteCount: Int
    @usableFromInline var position = 0
    /// UTF-8 offset where the next segment starts.
    @usableFromInline var start = 0
    /// Where the next segment with map entries has them.
    @usableFromInline var nextMapOffset = 0
    #if DEBUG
    /// Segments read so far (debug builds only: it serves the checks).
    @usableFromInline var segmentsRead = 0
    #endif

    @inlinable
    init(records: UnsafePointer<UInt8>, count: Int, byteCount: Int) {
        self.records = records
        self.count = count
        self.byteCount = byteCount
    }

    /// Goes on from a record at `position` whose map entries (if any) are at `mapOffset`, with
    /// `segmentsRead` segments before it (a place an earlier walk was at).
    @inlinable
    mutating func skip(to position: Int, mapOffset: Int, segmentsRead: Int) {
        assert(position <= byteCount && segmentsRead <= count, "SegmentReader: no record \(segmentsRead) at byte \(position)")
        self.position = position
        nextMapOffset = mapOffset
        #if DEBUG
        self.segmentsRead = segmentsRead
        #endif
    }

    /// The next segment, and where its grapheme-map entries start (meaningful only when it
    /// has some).
    @inlinable @inline(__always)
    mutating func next() -> (segment: PreparedSegment, mapOffset: Int) {
        let record = nextRecord()
        let segment = record.segment(start: start)
        start = Int(segment.end)
        return (segment, record.mapOffset)
    }

    /// The next record's fields as stored, without building a `PreparedSegment` or keeping
    /// track of offsets: what the segment walk of `measure(width:)` reads.
    @inlinable @inline(__always)
    mutating func nextRecord() -> SegmentRecord {
        #if DEBUG
        assert(segmentsRead < count, "SegmentReader.next(): all \(count) segments were read")
        segmentsRead &+= 1
        #endif
        let flags = readByte()
        if flags & PreparedStorage.runFlag != 0 {
            let units = readLength()
            return SegmentRecord(flags: flags, contentLength: units &* (flags & PreparedStorage.bit7 != 0 ? 4 : 3), hangLength: 0,
                                 width: units &* 2, mapOffset: nextMapOffset)
        }
        let contentLength = readLength()
        let hangLength = readLength()
        let width = flags & PreparedStorage.bit7 != 0 ? contentLength : readLength()
        let mapOffset = nextMapOffset
        if flags & PreparedStorage.mapFlag != 0 { nextMapOffset &+= readLength() }
        return SegmentRecord(flags: flags, contentLength: contentLength, hangLength: hangLength, width: width, mapOffset: mapOffset)
    }

    @inlinable @inline(__always)
    mutating func readLength() -> Int {
        let first = readByte()
        if first < 0x80 { return Int(first) }
        var value = Int(first & 0x7F)
        var shift = 7
        while true {
            let byte = readByte()
            value |= Int(byte & 0x7F) &<< shift
            if byte < 0x80 { return value }
            shift &+= 7
            assert(shift < Int.bitWidth, "SegmentReader: a length of more than \(Int.bitWidth) bits at byte \(position)")
        }
    }

    @inlinable @inline(__always)
    mutating func readByte() -> UInt8 {
        assert(position < byteCount, "SegmentReader: read past the \(byteCount) record bytes")
        let byte = records[position]
        position &+= 1
        return byte
    }
}

/// One record of a `PreparedStorage`, decoded: a segment without its offsets.
@usableFromInline
struct SegmentRecord {
    /// The record's flags byte (see `PreparedStorage.runFlag` and the others): bits 0–1 are the
    /// break length; a run's record has no break, no mandatory break, no tab and no map.
    @usableFromInline let flags: UInt8
    /// UTF-8 bytes of the content (for a run, of all its units).
    @usableFromInline let contentLength: Int
    /// UTF-8 bytes of the hang (spaces and tabs after the content); a run has none.
    @usableFromInline let hangLength: Int
    /// Cells of the content (tabs count 0); a run's units take 2 each.
    @usableFromInline let width: Int
    /// Where its grapheme-map entries start, when it has some.
    @usableFromInline let mapOffset: Int

    @inlinable
    init(flags: UInt8, contentLength: Int, hangLength: Int, width: Int, mapOffset: Int) {
        self.flags = flags
        self.contentLength = contentLength
        self.hangLength = hangLength
        self.width = width
        self.mapOffset = mapOffset
    }

    /// The segment this record codes, when it starts at UTF-8 offset `start`.
    @inlinable @inline(__always)
    func segment(start: Int) -> PreparedSegment {
        let contentEnd = start &+ contentLength
        let flagBits = flags & PreparedStorage.runFlag != 0 ? flags : flags & ~PreparedStorage.bit7
        return PreparedSegment(contentEnd: UInt32(truncatingIfNeeded: contentEnd),
                               hangEnd: UInt32(truncatingIfNeeded: contentEnd &+ hangLength),
                               packed: UInt32(truncatingIfNeeded: width) | UInt32(flagBits) << 24)
    }
}

/// The bytes of a `PreparedStorage`; the header is their count. Written once while preparing,
/// then only read, so sharing it between threads is safe.
@usableFromInline
final class PreparedBytes: ManagedBuffer<UInt32, UInt8> {}

// MARK: The preparer's scratch storage

/// Append-only scratch storage for what `TextPreparer` produces.
///
/// `Array.append` checks uniqueness and capacity through the runtime on every call, and
/// `removeLast(_:)` goes through `replaceSubrange`; both showed in the prepare profile. This buffer
/// appends with one compare and truncates by moving its count. It starts either in storage it
/// allocates or in storage lent by the caller (a stack block, so that a short message costs no
/// heap allocation for its scratch space); it moves to the heap only when it outgrows that.
/// Elements are bitwise-copyable, so nothing needs deinitialising.
///
/// It cannot be copied, so what it allocated is freed exactly once, when it goes.
///
/// Invariants (checked in debug builds): `0 <= count <= capacity`; `base` points to `capacity`
/// elements, the first `count` of them written; `owned` is true exactly when the buffer
/// allocated `base`. Storage lent to `init(borrowing:)` must outlive the buffer: nothing can
/// check that, so the callers lend a block that lives as long as the call that uses it.
struct PreparerBuffer<Element: BitwiseCopyable>: ~Copyable {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int
    /// The buffer allocated `base` (and must free it), rather than borrowing it.
    private var owned: Bool

    init(capacity: Int) {
        self.capacity = max(capacity, 8)
        base = .allocate(capacity: self.capacity)
        owned = true
    }

    /// A buffer that starts in `borrowed`, which must outlive it.
    init(borrowing borrowed: UnsafeMutableBufferPointer<Element>) {
        assert(borrowed.baseAddress != nil, "PreparerBuffer: lent storage has no address")
        base = borrowed.baseAddress.unsafelyUnwrapped
        capacity = borrowed.count
        owned = false
    }

    deinit {
        if owned { base.deallocate() }
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        assert(count >= 0 && count <= capacity, "PreparerBuffer: count \(count) outside 0...\(capacity)")
        if _slowPath(count == capacity) { grow() }
        (base + count).initialize(to: element)
        count &+= 1
    }

    /// Forgets the last `removed` elements (`0...count` of them).
    @inline(__always)
    mutating func removeLast(_ removed: Int) {
        assert(removed >= 0 && removed <= count, "PreparerBuffer.removeLast(\(removed)) with \(count) elements")
        count &-= removed
    }

    @inline(never)
    mutating func grow() {
        let larger = max(capacity &* 2, 8)
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: larger)
        newBase.moveInitialize(from: base, count: count)
        if owned { base.deallocate() }
        base = newBase
        capacity = larger
        owned = true
    }

    /// The elements written so far.
    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }
}

extension PreparerBuffer where Element == UInt8 {
    /// Appends `value` in LEB128: seven bits a byte, low bits first, the high bit set on every
    /// byte but the last.
    @inline(__always)
    mutating func appendLEB128(_ value: Int) {
        if _fastPath(value < 0x80) {
            append(UInt8(truncatingIfNeeded: value))
        } else {
            appendLongLEB128(value)
        }
    }

    /// `appendLEB128` for values of two bytes or more, out of line: most lengths take one byte.
    @inline(never)
    mutating func appendLongLEB128(_ value: Int) {
        var rest = value
        while rest >= 0x80 {
            append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest &>>= 7
        }
        append(UInt8(truncatingIfNeeded: rest))
    }
}

/// Runs `body` with two scratch buffers lent from one block on the stack: `recordBytes` for the
/// records, then `mapBytes` for the grapheme map. The buffers must not outlive the call (they
/// cannot: they are consumed by `body`).
@inline(__always)
func withStackScratch(recordBytes: Int, mapBytes: Int,
                      _ body: (consuming PreparerBuffer<UInt8>, consuming PreparerBuffer<UInt8>) -> Void) {
    let byteCount = recordBytes &+ mapBytes
    withUnsafeTemporaryAllocation(byteCount: byteCount, alignment: 8) { raw in
        assert(raw.count == byteCount, "withStackScratch: \(raw.count) bytes lent for \(byteCount)")
        let base = raw.baseAddress.unsafelyUnwrapped.bindMemory(to: UInt8.self, capacity: byteCount)
        body(PreparerBuffer(borrowing: UnsafeMutableBufferPointer(start: base, count: recordBytes)),
             PreparerBuffer(borrowing: UnsafeMutableBufferPointer(start: base + recordBytes, count: mapBytes)))
    }
}
