/// A prepared text's columns in one allocation (one `malloc` and one `free` per prepared text, where
/// ten arrays cost ten of each), written once when the text is prepared and only read after.
///
/// Layout, 8-byte aligned first: segment widths and visible widths (`Int`), then UTF-8 starts,
/// advances, kerning after and segment ends (`Int32`), then faces, breaks after and spaces (a byte
/// each), and last, only when the text has one, the line-end trims (`Int32`, 4-byte aligned): the
/// columns laying out reads sit at offsets that do not depend on whether there are trims.
///
/// `ManagedBuffer` is not `Sendable`; this one is written only while it is made, before any other
/// thread can see it, so the prepared text that holds it shares it (`nonisolated(unsafe)`).
final class PixelTextStorage: ManagedBuffer<Int, UInt64> {

    /// Storage for `graphemes` graphemes and `segments` segments, uninitialised.
    static func make(graphemes: Int, segments: Int, hasEndTrim: Bool) -> PixelTextStorage {
        let bytes = byteCount(graphemes: graphemes, segments: segments, hasEndTrim: hasEndTrim)
        let made = create(minimumCapacity: (bytes + 7) >> 3) { _ in bytes }
        return unsafeDowncast(made, to: PixelTextStorage.self)
    }

    /// The storage of every empty text.
    nonisolated(unsafe) static let empty = make(graphemes: 0, segments: 0, hasEndTrim: false)

    static func byteCount(graphemes g: Int, segments s: Int, hasEndTrim: Bool) -> Int {
        hasEndTrim ? endTrimOffset(graphemes: g, segments: s) + 4 * g : 20 * s + 15 * g
    }

    /// The bytes one storage of that size allocates: the object's header (type and reference
    /// count), the `Int` header, and the columns rounded up to whole `UInt64` elements.
    static func allocatedBytes(graphemes g: Int, segments s: Int, hasEndTrim: Bool) -> Int {
        16 + MemoryLayout<Int>.size + (byteCount(graphemes: g, segments: s, hasEndTrim: hasEndTrim) + 7) & ~7
    }

    /// Where the line-end trims start: after the byte columns, 4-byte aligned.
    @inline(__always)
    static func endTrimOffset(graphemes g: Int, segments s: Int) -> Int { (20 * s + 15 * g + 3) & ~3 }
}

/// Pointers to a prepared text's columns in its `PixelTextStorage`, valid while that storage is.
struct PixelColumns {
    let segmentWidths: UnsafeMutablePointer<Int>
    let segmentVisible: UnsafeMutablePointer<Int>
    let starts: UnsafeMutablePointer<Int32>
    let advances: UnsafeMutablePointer<Int32>
    let kernAfter: UnsafeMutablePointer<Int32>
    let segmentEnds: UnsafeMutablePointer<Int32>
    /// Only when the text has line-end trims (else past the end: never read).
    let endTrim: UnsafeMutablePointer<Int32>
    let faces: UnsafeMutablePointer<UInt8>
    let breakAfter: UnsafeMutablePointer<UInt8>
    let isSpace: UnsafeMutablePointer<Bool>

    /// The columns of `graphemes` and `segments` at `base`, the start of a `PixelTextStorage`'s
    /// elements; `bind` binds each region to its type (once, when the storage is made).
    @inline(__always)
    init(base: UnsafeMutableRawPointer, graphemes g: Int, segments s: Int, hasEndTrim: Bool, bind: Bool = false) {
        let int32s = base + 16 * s, bytes = int32s + 12 * g + 4 * s
        let trims = base + PixelTextStorage.endTrimOffset(graphemes: g, segments: s)
        if bind {
            base.bindMemory(to: Int.self, capacity: 2 * s)
            int32s.bindMemory(to: Int32.self, capacity: 3 * g + s)
            bytes.bindMemory(to: UInt8.self, capacity: 2 * g)
            (bytes + 2 * g).bindMemory(to: Bool.self, capacity: g)
            if hasEndTrim { trims.bindMemory(to: Int32.self, capacity: g) }
        }
        segmentWidths = base.assumingMemoryBound(to: Int.self)
        segmentVisible = segmentWidths + s
        starts = int32s.assumingMemoryBound(to: Int32.self)
        advances = starts + g
        kernAfter = advances + g
        segmentEnds = kernAfter + g
        endTrim = trims.assumingMemoryBound(to: Int32.self)
        faces = bytes.assumingMemoryBound(to: UInt8.self)
        breakAfter = faces + g
        isSpace = (bytes + 2 * g).assumingMemoryBound(to: Bool.self)
    }
}
