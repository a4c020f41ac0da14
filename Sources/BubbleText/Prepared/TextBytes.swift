// The fence around reading and writing memory in place: every pointer read or write of text
// bytes, scalars, bidi scratch space and the other modules' columns goes through the views in
// this file, and nothing else in the module indexes memory through a pointer.
//
// The hot loops (preparing, the quick scans for web addresses, dictionary scripts, right-to-left
// and bidi controls, the bidi resolver, the layout cache's probes) read and write at indices they
// compute from the data itself; an `Array` or `String.UTF8View` would bounds-check each access
// and keep its owner alive through reference counting, which the loops cannot afford per element.
//
// Invariants, asserted in debug builds:
// - every element read or written is at `0 ..< count`, every word read at `i` has `i + 8 <= count`
//   (`i + 4` for a 32-bit word), and every slice, fill, copy and move lies inside the view;
// - text bytes are valid UTF-8 (as a Swift `String`'s always are), so `decodeScalar(at:)` at a
//   lead byte reads only continuation bytes inside the text;
// - the memory outlives the view: a view is made only inside a closure that lends the memory
//   (`withElementsView`, `withUTF8Elements`, `withView(of:)`), or by `allocate` for memory its
//   owner frees with `deallocate`, and its `FenceToken` stops a debug build at the first use
//   after that closure returned or that memory was freed;
// - no two mutable views written at once overlap, except where workers write disjoint indices of
//   one view (the caller's split guarantees it).

/// Elements read in place from memory another value owns (an array's, a string's UTF-8, a
/// caller's buffer), for loops that index them at positions they compute: each index is checked
/// in debug builds, and so is the scope that lent the memory (see the invariants above).
@usableFromInline
package struct ElementsView<Element> {
    @usableFromInline let base: UnsafePointer<Element>?
    @usableFromInline package let count: Int
    /// Stops (debug builds) at any use after the scope that lent the memory ended.
    @usableFromInline let fence: FenceToken

    /// The elements `buffer` lends, valid while `fence` is (the caller keeps the memory alive that
    /// long; the other modules' fences make views of their own storage this way).
    @inlinable @inline(__always)
    package init(_ buffer: UnsafeBufferPointer<Element>, fence: FenceToken) {
        base = buffer.baseAddress
        count = buffer.baseAddress == nil ? 0 : buffer.count
        self.fence = fence
    }

    /// The elements `view` writes, read only (valid as long as `view`).
    @inlinable @inline(__always)
    package init(_ view: MutableElementsView<Element>) { self = view.readable }

    /// A view of nothing.
    @inlinable package static var empty: ElementsView { ElementsView(UnsafeBufferPointer(start: nil, count: 0), fence: .immortal) }

    /// Calls `body` with a view of `buffer` (memory the caller keeps alive during the call),
    /// valid only inside `body`.
    @inlinable @inline(__always)
    package static func withView<R, E: Error>(of buffer: UnsafeBufferPointer<Element>,
                                              _ body: (ElementsView) throws(E) -> R) throws(E) -> R {
        try withFence { (fence) throws(E) in try body(ElementsView(buffer, fence: fence)) }
    }

    /// The `count` elements from `start` (inside the view).
    @inlinable @inline(__always)
    package func slice(from start: Int, count: Int) -> ElementsView {
        assert(start >= 0 && count >= 0 && start &+ count <= self.count, "ElementsView: \(start)+\(count) outside 0..<\(self.count)")
        return ElementsView(UnsafeBufferPointer(start: base.map { $0 + start }, count: count), fence: fence)
    }

    /// The elements from `start` to the end (`start` at most `count`).
    @inlinable @inline(__always)
    package func tail(from start: Int) -> ElementsView { slice(from: start, count: count &- start) }

    @inlinable @inline(__always)
    package subscript(index: Int) -> Element {
        fence.check("ElementsView")
        assert(index >= 0 && index < count, "ElementsView: element \(index) outside 0..<\(count)")
        return base.unsafelyUnwrapped[index]
    }

    /// The element at `index`, read where it is stored: a value whose copy retains references
    /// (a font face and its tables) is used without being copied.
    @inlinable
    package subscript(inPlace index: Int) -> Element {
        unsafeAddress {
            fence.check("ElementsView")
            assert(index >= 0 && index < count, "ElementsView: element \(index) outside 0..<\(count)")
            return base.unsafelyUnwrapped + index
        }
    }

    /// The elements, as a copy.
    package var elements: [Element] { (0..<count).map { self[$0] } }
}

extension ElementsView where Element == UInt8 {
    /// The eight elements from `index`, the first in the lowest bits.
    @inlinable @inline(__always)
    package func word(at index: Int) -> UInt64 {
        fence.check("ElementsView")
        assert(index >= 0 && index &+ 8 <= count, "ElementsView: word at \(index) outside 0..<\(count)")
        return UInt64(littleEndian: UnsafeRawPointer(base.unsafelyUnwrapped).loadUnaligned(fromByteOffset: index, as: UInt64.self))
    }

    /// The four elements from `index`, the first in the lowest bits.
    @inlinable @inline(__always)
    package func word32(at index: Int) -> UInt32 {
        fence.check("ElementsView")
        assert(index >= 0 && index &+ 4 <= count, "ElementsView: word at \(index) outside 0..<\(count)")
        return UInt32(littleEndian: UnsafeRawPointer(base.unsafelyUnwrapped).loadUnaligned(fromByteOffset: index, as: UInt32.self))
    }

    /// Decodes the scalar whose UTF-8 encoding starts at `index` (a lead byte of valid UTF-8).
    @inlinable @inline(__always)
    func decodeScalar(at index: Int) -> (scalar: UInt32, length: Int) {
        let lead = UInt32(self[index])
        if lead < 0x80 { return (lead, 1) }
        assert(lead >= 0xC0, "ElementsView: no scalar starts at \(index) (a continuation byte)")
        let bytes = base.unsafelyUnwrapped
        assert(index &+ (lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4) <= count, "ElementsView: the scalar at \(index) runs past the end")
        let second = UInt32(bytes[index &+ 1]) & 0x3F
        if lead < 0xE0 { return ((lead & 0x1F) << 6 | second, 2) }
        let third = UInt32(bytes[index &+ 2]) & 0x3F
        if lead < 0xF0 { return ((lead & 0x0F) << 12 | second << 6 | third, 3) }
        let fourth = UInt32(bytes[index &+ 3]) & 0x3F
        return ((lead & 0x07) << 18 | second << 12 | third << 6 | fourth, 4)
    }

    /// The length of the longest prefix below 0x80 (`count` when the text is ASCII), rounded down
    /// to a multiple of eight where the first byte at or above 0x80 is found eight at a time.
    @inlinable
    func asciiPrefixLength() -> Int {
        var index = 0
        while index &+ 8 <= count {
            if word(at: index) & 0x8080_8080_8080_8080 != 0 { return index }
            index &+= 8
        }
        while index < count {
            if self[index] >= 0x80 { return index }
            index &+= 1
        }
        return count
    }

    /// Runs `body` with `text`'s UTF-8 in place, or in a copy when it is not contiguous.
    @inlinable
    static func reading<Text: StringProtocol, R>(_ text: Text, _ body: (ElementsView) throws -> R) rethrows -> R {
        if let result = try text.utf8.withContiguousStorageIfAvailable({ try withView(of: $0, body) }) { return result }
        return try Array(text.utf8).withElementsView(body)
    }
}

/// Elements written in place, in memory another value owns (an array's, the bidi resolver's
/// scratch space, a prepared text's columns), by loops that index them at positions they
/// compute: each index is checked in debug builds, and so is the scope that lent the memory (see
/// the invariants above). Workers may share one, each writing its own indices only (the split is
/// the caller's), hence `Sendable`.
@usableFromInline
package struct MutableElementsView<Element>: @unchecked Sendable {
    /// The same elements read only: where they are, how many, and the scope that lent them.
    @usableFromInline let readable: ElementsView<Element>

    /// The elements `buffer` lends, valid while `fence` is (the caller keeps the memory alive that
    /// long; the other modules' fences make views of their own storage this way).
    @inlinable @inline(__always)
    package init(_ buffer: UnsafeMutableBufferPointer<Element>, fence: FenceToken) {
        readable = ElementsView(UnsafeBufferPointer(buffer), fence: fence)
    }

    @inlinable package var count: Int { @inline(__always) get { readable.count } }
    /// The memory lent, writable (it was lent as such).
    @inlinable var base: UnsafeMutablePointer<Element>? { @inline(__always) get { UnsafeMutablePointer(mutating: readable.base) } }
    @inlinable var fence: FenceToken { @inline(__always) get { readable.fence } }

    /// Storage for `capacity` elements, not initialised: for elements of a trivial type (integers,
    /// `Bool`), written before they are read. Its owner calls `deallocate()` once, after which
    /// a debug build stops at any use of the view or of a view made from it.
    @inlinable
    package static func allocate(capacity: Int) -> MutableElementsView {
        MutableElementsView(UnsafeMutableBufferPointer<Element>.allocate(capacity: capacity), fence: .owned())
    }

    /// Frees storage `allocate` made.
    @inlinable
    package func deallocate() {
        fence.end()
        base?.deallocate()
    }

    /// Element `index`, read or written where it is stored (a value whose copy retains references
    /// is modified in place, never copied whole).
    @inlinable
    package subscript(index: Int) -> Element {
        @inline(__always) unsafeAddress {
            fence.check("MutableElementsView")
            assert(index >= 0 && index < count, "MutableElementsView: element \(index) outside 0..<\(count)")
            return UnsafePointer(base.unsafelyUnwrapped + index)
        }
        @inline(__always) nonmutating unsafeMutableAddress {
            fence.check("MutableElementsView")
            assert(index >= 0 && index < count, "MutableElementsView: element \(index) outside 0..<\(count)")
            return base.unsafelyUnwrapped + index
        }
    }

    /// The `count` elements from `start` (inside the view).
    @inlinable @inline(__always)
    package func slice(from start: Int, count: Int) -> MutableElementsView {
        assert(start >= 0 && count >= 0 && start &+ count <= self.count,
               "MutableElementsView: \(start)+\(count) outside 0..<\(self.count)")
        return MutableElementsView(UnsafeMutableBufferPointer(start: base.map { $0 + start }, count: count), fence: fence)
    }

    /// The elements from `start` to the end (`start` at most `count`).
    @inlinable @inline(__always)
    package func tail(from start: Int) -> MutableElementsView { slice(from: start, count: count &- start) }

    /// Writes `value` to the first `prefix` elements.
    @inlinable @inline(__always)
    package func fill(_ value: Element, prefix: Int) {
        fence.check("MutableElementsView")
        assert(prefix >= 0 && prefix <= count, "MutableElementsView: filling \(prefix) of \(count)")
        guard prefix > 0 else { return }
        base.unsafelyUnwrapped.update(repeating: value, count: prefix)
    }

    /// Moves the `length` elements from `start` to the start of the view (the two may overlap).
    @inlinable @inline(__always)
    package func moveToStart(from start: Int, count length: Int) {
        fence.check("MutableElementsView")
        assert(start >= 0 && length >= 0 && start &+ length <= count,
               "MutableElementsView: moving \(start)+\(length) outside 0..<\(count)")
        guard length > 0 else { return }
        base.unsafelyUnwrapped.update(from: base.unsafelyUnwrapped + start, count: length)
    }

    /// The elements, as a copy.
    package var elements: [Element] { ElementsView(self).elements }

    /// Copies `source` to the start of the view (as long as `source` at most).
    @inlinable @inline(__always)
    package func copy(from source: ElementsView<Element>) {
        fence.check("MutableElementsView")
        source.fence.check("ElementsView")
        assert(source.count <= count, "MutableElementsView: \(source.count) elements into \(count)")
        guard source.count > 0 else { return }
        base.unsafelyUnwrapped.update(from: source.base.unsafelyUnwrapped, count: source.count)
    }

    /// Swaps the elements at `i` and `j`.
    @inlinable @inline(__always)
    func swapAt(_ i: Int, _ j: Int) {
        let t = self[i]
        self[i] = self[j]
        self[j] = t
    }
}

extension MutableElementsView where Element: Comparable {
    /// Sorts the first `prefix` elements in place.
    @inlinable
    func sortPrefix(_ prefix: Int) {
        fence.check("MutableElementsView")
        assert(prefix >= 0 && prefix <= count, "MutableElementsView: sorting \(prefix) of \(count)")
        guard prefix > 1 else { return }
        var buffer = UnsafeMutableBufferPointer(start: base, count: prefix)
        buffer.sort()
    }
}

extension Array {
    /// Runs `body` with the elements in place, valid only inside `body`.
    @inlinable @inline(__always)
    package func withElementsView<R>(_ body: (ElementsView<Element>) throws -> R) rethrows -> R {
        try withUnsafeBufferPointer { buffer in try withFence { fence in try body(ElementsView(buffer, fence: fence)) } }
    }

    /// Runs `body` with the elements in place, to write (or for workers that each write their own
    /// indices), valid only inside `body`.
    @inlinable @inline(__always)
    package mutating func withMutableElementsView<R>(_ body: (MutableElementsView<Element>) throws -> R) rethrows -> R {
        try withUnsafeMutableBufferPointer { buffer in
            try withFence { fence in try body(MutableElementsView(buffer, fence: fence)) }
        }
    }
}

extension ContiguousArray {
    /// Runs `body` with the elements in place, to write (or for workers that each write their own
    /// indices), valid only inside `body`.
    @inlinable @inline(__always)
    package mutating func withMutableElementsView<R>(_ body: (MutableElementsView<Element>) throws -> R) rethrows -> R {
        try withUnsafeMutableBufferPointer { buffer in
            try withFence { fence in try body(MutableElementsView(buffer, fence: fence)) }
        }
    }
}

// As a collection, for the generic code (`URLSpans.find(in:)`) that reads any UTF-8 or UTF-16.
extension ElementsView: RandomAccessCollection {
    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { count }
}

/// Decodes the scalar whose UTF-8 encoding starts at `index` of `bytes` (valid UTF-8).
@inlinable @inline(__always)
func decodeScalar(_ bytes: ElementsView<UInt8>, at index: Int) -> (scalar: UInt32, length: Int) {
    bytes.decodeScalar(at: index)
}

extension String {
    /// Runs `body` with the string's UTF-8 in place (made contiguous first if it is not), valid
    /// only inside `body`.
    @inlinable
    package mutating func withUTF8Elements<R>(_ body: (ElementsView<UInt8>) throws -> R) rethrows -> R {
        try withUTF8 { buffer in try ElementsView.withView(of: buffer, body) }
    }
}

// MARK: Process-wide tables

/// A process-wide table read in the hot loops: filled once when made and never freed, so it is
/// read through a plain pointer, with no reference counting or uniqueness check per read.
///
/// Invariants, asserted in debug builds: every index read is in `0 ..< count`; the memory is
/// never written after `init` returns (so sharing it across threads is safe) and never freed
/// (made only for tables that live as long as the process).
@usableFromInline
struct TableMemory<Element>: @unchecked Sendable {
    @usableFromInline let base: UnsafePointer<Element>
    @usableFromInline let count: Int

    /// A table of `elements`, copied into memory that is never freed.
    init(_ elements: [Element]) {
        let storage = UnsafeMutablePointer<Element>.allocate(capacity: max(1, elements.count))
        storage.initialize(from: elements, count: elements.count)
        base = UnsafePointer(storage)
        count = elements.count
    }

    /// The bytes of a generated table (a static string's UTF-8, which lives as long as the
    /// process), read in place.
    init(generated bytes: StaticString) where Element == UInt8 {
        precondition(bytes.hasPointerRepresentation, "TableMemory: a generated table must be a string literal")
        base = bytes.utf8Start
        count = bytes.utf8CodeUnitCount
    }

    @inlinable @inline(__always)
    subscript(index: Int) -> Element {
        assert(index >= 0 && index < count, "TableMemory: entry \(index) outside 0..<\(count)")
        return base[index]
    }
}

extension TableMemory: Equatable {
    /// The same table: the same memory (tables are never written, so that is the same contents).
    @usableFromInline static func == (a: TableMemory, b: TableMemory) -> Bool { a.base == b.base && a.count == b.count }
}

/// A value published once for the whole process through an atomic word, read back with one
/// load and no lazy-global check (on Linux a `static let` read is a `std::call_once`).
///
/// Invariant: the address published is of a value that is never freed or written again.
enum PublishedValue {
    /// The address of a copy of `value` that is never freed, for `read(at:)`.
    static func immortalAddress<Value>(of value: Value) -> UInt {
        let pointer = UnsafeMutablePointer<Value>.allocate(capacity: 1)
        pointer.initialize(to: value)
        return UInt(bitPattern: pointer)
    }

    /// The value at `address`, which `immortalAddress(of:)` gave for a value of this type.
    @inline(__always)
    static func read<Value>(at address: UInt, as _: Value.Type) -> Value {
        assert(address != 0, "PublishedValue: nothing published")
        return UnsafePointer<Value>(bitPattern: address).unsafelyUnwrapped.pointee
    }
}

// MARK: Values decoded from the generated tables

// A property read from a table is one of its enum's cases by construction (the generator writes
// only those); the checked `init(rawValue:)` is an out-of-line call per scalar, which the hot
// loops cannot afford. Debug builds check each.

/// An enum of one byte whose values the generated tables store as their raw values.
@usableFromInline
protocol TableCoded: RawRepresentable where RawValue == UInt8 {}

extension TableCoded {
    /// The value whose raw value is `raw`, which must be one (a table field, masked to its width).
    @inlinable @inline(__always)
    init(tableValue raw: UInt8) {
        assert(MemoryLayout<Self>.size == 1 && Self(rawValue: raw) != nil, "\(Self.self): \(raw) is not one of its values")
        self = unsafeBitCast(raw, to: Self.self)
    }
}

extension LineBreakClass: TableCoded {}
extension GraphemeBreakProperty: TableCoded {}
extension BidiClass: TableCoded {}
extension JoiningType: TableCoded {}

// MARK: Entry points for the other modules, which hold their bytes in pointers

extension URLSpans {
    /// `mayContain(_:)` on bytes another module lends.
    package static func mayContain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { ElementsView.withView(of: bytes) { mayContain($0) } }
}

extension BidiTables {
    /// `mayContainRightToLeft(_:)` on bytes another module lends.
    @inlinable
    package static func mayContainRightToLeft(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        ElementsView.withView(of: bytes) { mayContainRightToLeft($0) }
    }
}

extension DictionaryBreaks {
    /// `mayContain(_:from:)` on bytes another module lends.
    package static func mayContain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        ElementsView.withView(of: bytes) { mayContain($0, from: 0) }
    }

    /// True when the scalars another module lends hold a character of the four scripts' blocks.
    package static func mayContain(_ scalars: UnsafeBufferPointer<UInt32>) -> Bool {
        ElementsView.withView(of: scalars) { mayContain($0) }
    }

    /// `find(in:)` on scalars another module lends.
    package static func find(in scalars: UnsafeBufferPointer<UInt32>) -> [Int] {
        ElementsView.withView(of: scalars) { find(in: $0) }
    }
}
