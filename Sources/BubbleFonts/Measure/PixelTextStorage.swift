import BubbleText

/// The module's unsafe code, all of it: a prepared text's columns in one allocation (one `malloc`
/// and one `free` per prepared text, where ten arrays cost ten of each), written once when the
/// text is prepared and only read after.
///
/// Layout, 8-byte aligned first: segment widths and visible widths (`Int`), then UTF-8 starts,
/// advances, kerning after and segment ends (`Int32`), then faces, breaks after and spaces (a byte
/// each), and last, only when the text has one, the line-end trims (`Int32`, 4-byte aligned): the
/// columns laying out reads sit at offsets that do not depend on whether there are trims.
///
/// Everything else in the module reads and writes memory through the views this file makes
/// (`PixelColumns` here, BubbleText's `ElementsView`/`MutableElementsView`, the word cache's
/// `WordBuffer` over `MutableElementsView.allocate`), which assert in debug builds that each index
/// is inside its column.
///
/// Invariants (asserted in debug builds where they can be): each column's region lies inside the
/// allocation and is bound to its type once, when the storage is made (`make`), and never rebound;
/// the columns are written only by the initialiser that made the storage, before any other thread
/// can see it, and only read after, so sharing the storage between threads is safe
/// (`SharedPixelTextStorage`); a view of the columns is used only inside `withColumns`.
final class PixelTextStorage: ManagedBuffer<Int, UInt64> {

    /// Storage for `graphemes` graphemes and `segments` segments, uninitialised.
    static func make(graphemes: Int, segments: Int, hasEndTrim: Bool) -> PixelTextStorage {
        let bytes = byteCount(graphemes: graphemes, segments: segments, hasEndTrim: hasEndTrim)
        let made = create(minimumCapacity: (bytes + 7) >> 3) { _ in bytes }
        return unsafeDowncast(made, to: PixelTextStorage.self)
    }

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

    /// Runs `body` with the columns of `graphemes` graphemes and `segments` segments, read in place
    /// (the sizes the storage was made with).
    @inline(__always)
    func withColumns<R>(graphemes: Int, segments: Int, hasEndTrim: Bool, _ body: (PixelColumns) -> R) -> R {
        assert(capacity * 8 >= Self.byteCount(graphemes: graphemes, segments: segments, hasEndTrim: hasEndTrim),
               "PixelTextStorage: columns larger than the storage")
        return withUnsafeMutablePointerToElements { elements in
            withFence { fence in
                body(PixelColumns(base: UnsafeMutableRawPointer(elements), graphemes: graphemes, segments: segments,
                                  hasEndTrim: hasEndTrim, fence: fence))
            }
        }
    }

    /// Storage for the columns of `columns` (each as long as `PreparedColumns` says), copied in.
    static func copying(_ columns: PreparedColumns, graphemes g: Int, segments s: Int, hasEndTrim: Bool) -> SharedPixelTextStorage {
        let storage = make(graphemes: g, segments: s, hasEndTrim: hasEndTrim)
        storage.withUnsafeMutablePointerToElements { elements in withFence { fence in
            let c = PixelColumns(base: UnsafeMutableRawPointer(elements), graphemes: g, segments: s, hasEndTrim: hasEndTrim,
                                 fence: fence, bind: true)
            c.segmentWidths.copy(from: columns.segmentWidths.prefix)
            c.segmentVisible.copy(from: columns.segmentVisible.prefix)
            c.starts.copy(from: columns.starts.prefix)
            c.advances.copy(from: columns.advances.prefix)
            c.kernAfter.copy(from: columns.kernAfter.prefix)
            c.segmentEnds.copy(from: columns.segmentEnds.prefix)
            if hasEndTrim { c.endTrim.copy(from: columns.endTrim.prefix) }
            c.faces.copy(from: columns.faces.prefix)
            c.breakAfter.copy(from: columns.breakAfter.prefix)
            c.isSpace.copy(from: columns.isSpace.prefix)
        } }
        return SharedPixelTextStorage(storage)
    }
}

/// A `PixelTextStorage` as a prepared text holds it, shared between threads: `ManagedBuffer` is
/// not `Sendable`, and this one is written only while it is made (`PixelTextStorage.copying`),
/// before any other thread can see it.
struct SharedPixelTextStorage: @unchecked Sendable {
    private let storage: PixelTextStorage

    fileprivate init(_ storage: PixelTextStorage) { self.storage = storage }

    /// The storage of every empty text.
    static let empty = SharedPixelTextStorage(PixelTextStorage.make(graphemes: 0, segments: 0, hasEndTrim: false))

    /// `PixelTextStorage.withColumns`.
    @inline(__always)
    func withColumns<R>(graphemes: Int, segments: Int, hasEndTrim: Bool, _ body: (PixelColumns) -> R) -> R {
        storage.withColumns(graphemes: graphemes, segments: segments, hasEndTrim: hasEndTrim, body)
    }
}

/// Views of a prepared text's columns in its `PixelTextStorage`, valid while that storage is
/// (inside `withColumns`; debug builds stop at a use after it). Each is as long as its column: `graphemes` or `segments` elements
/// (`endTrim` none when the text has no line-end trims).
struct PixelColumns {
    let segmentWidths: MutableElementsView<Int>
    let segmentVisible: MutableElementsView<Int>
    let starts: MutableElementsView<Int32>
    let advances: MutableElementsView<Int32>
    let kernAfter: MutableElementsView<Int32>
    let segmentEnds: MutableElementsView<Int32>
    let endTrim: MutableElementsView<Int32>
    let faces: MutableElementsView<UInt8>
    let breakAfter: MutableElementsView<UInt8>
    let isSpace: MutableElementsView<Bool>

    /// The columns of `graphemes` and `segments` at `base`, the start of a `PixelTextStorage`'s
    /// elements, valid while `fence` is; `bind` binds each region to its type (once, when the
    /// storage is made).
    @inline(__always)
    fileprivate init(base: UnsafeMutableRawPointer, graphemes g: Int, segments s: Int, hasEndTrim: Bool, fence: FenceToken,
                     bind: Bool = false) {
        let int32s = base + 16 * s, bytes = int32s + 12 * g + 4 * s
        let trims = base + PixelTextStorage.endTrimOffset(graphemes: g, segments: s)
        if bind {
            base.bindMemory(to: Int.self, capacity: 2 * s)
            int32s.bindMemory(to: Int32.self, capacity: 3 * g + s)
            bytes.bindMemory(to: UInt8.self, capacity: 2 * g)
            (bytes + 2 * g).bindMemory(to: Bool.self, capacity: g)
            if hasEndTrim { trims.bindMemory(to: Int32.self, capacity: g) }
        }
        @inline(__always) func view<T>(_ start: UnsafeMutableRawPointer, _ count: Int, _: T.Type) -> MutableElementsView<T> {
            MutableElementsView(UnsafeMutableBufferPointer(start: start.assumingMemoryBound(to: T.self), count: count), fence: fence)
        }
        segmentWidths = view(base, s, Int.self)
        segmentVisible = view(base + 8 * s, s, Int.self)
        starts = view(int32s, g, Int32.self)
        advances = view(int32s + 4 * g, g, Int32.self)
        kernAfter = view(int32s + 8 * g, g, Int32.self)
        segmentEnds = view(int32s + 12 * g, s, Int32.self)
        endTrim = view(trims, hasEndTrim ? g : 0, Int32.self)
        faces = view(bytes, g, UInt8.self)
        breakAfter = view(bytes + g, g, UInt8.self)
        isSpace = view(bytes + 2 * g, g, Bool.self)
    }
}
