/// The fence around reading a text's UTF-8 in place: every pointer read of text bytes in
/// BubbleText goes through this type, and nothing else in the module reads text through a
/// pointer.
///
/// The hot loops (preparing, the quick scans for web addresses, dictionary scripts, right-to-left
/// and bidi controls) read bytes and eight-byte words at indices they compute from the text itself;
/// an `Array` or `String.UTF8View` would bounds-check each read and keep its owner alive through
/// reference counting, which the loops cannot afford per byte.
///
/// Invariants, asserted in debug builds:
/// - every byte read is at `0 ..< count`, and every word read at `i` has `i + 8 <= count`;
/// - the bytes are valid UTF-8 (as a Swift `String`'s always are), so `decodeScalar(at:)` at a
///   lead byte reads only continuation bytes inside the text;
/// - the bytes outlive the value: it is made only inside a closure that lends them
///   (`withUTF8`, `withUnsafeBufferPointer`) and never escapes it.
@usableFromInline
struct TextBytes {
    @usableFromInline let base: UnsafePointer<UInt8>?
    @usableFromInline let count: Int

    /// The bytes `buffer` lends, for as long as it lends them.
    @inlinable @inline(__always)
    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        base = buffer.baseAddress
        count = buffer.baseAddress == nil ? 0 : buffer.count
    }

    /// The byte at `index`.
    @inlinable @inline(__always)
    subscript(index: Int) -> UInt8 {
        assert(index >= 0 && index < count, "TextBytes: byte \(index) outside 0..<\(count)")
        return base.unsafelyUnwrapped[index]
    }

    /// The eight bytes from `index`, the first in the lowest bits.
    @inlinable @inline(__always)
    func word(at index: Int) -> UInt64 {
        assert(index >= 0 && index &+ 8 <= count, "TextBytes: word at \(index) outside 0..<\(count)")
        return UInt64(littleEndian: UnsafeRawPointer(base.unsafelyUnwrapped).loadUnaligned(fromByteOffset: index, as: UInt64.self))
    }

    /// Decodes the scalar whose UTF-8 encoding starts at `index` (a lead byte).
    @inlinable @inline(__always)
    func decodeScalar(at index: Int) -> (scalar: UInt32, length: Int) {
        let lead = UInt32(self[index])
        if lead < 0x80 { return (lead, 1) }
        assert(lead >= 0xC0, "TextBytes: no scalar starts at \(index) (a continuation byte)")
        let bytes = base.unsafelyUnwrapped
        assert(index &+ (lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4) <= count, "TextBytes: the scalar at \(index) runs past the end")
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
}

/// Elements read in place from storage another value owns (an array's, a caller's buffer), for
/// loops that index them at positions they compute: as `TextBytes`, the invariants are that every
/// index read is in `0 ..< count` (asserted in debug builds) and that the storage outlives the
/// view (made only inside a closure that lends it).
@usableFromInline
package struct ElementsView<Element> {
    @usableFromInline let base: UnsafePointer<Element>?
    @usableFromInline package let count: Int

    /// The elements `buffer` lends, for as long as it lends them (the other modules' fences make
    /// views of their own storage this way).
    @inlinable @inline(__always)
    package init(_ buffer: UnsafeBufferPointer<Element>) {
        base = buffer.baseAddress
        count = buffer.baseAddress == nil ? 0 : buffer.count
    }

    /// The elements `view` writes, read only.
    @inlinable @inline(__always)
    package init(_ view: MutableElementsView<Element>) {
        base = UnsafePointer(view.base)
        count = view.count
    }

    /// The `count` elements from `start` (inside the view).
    @inlinable @inline(__always)
    package func slice(from start: Int, count: Int) -> ElementsView {
        assert(start >= 0 && count >= 0 && start &+ count <= self.count, "ElementsView: \(start)+\(count) outside 0..<\(self.count)")
        return ElementsView(UnsafeBufferPointer(start: base.map { $0 + start }, count: count))
    }

    /// The elements from `start` to the end (`start` at most `count`).
    @inlinable @inline(__always)
    package func tail(from start: Int) -> ElementsView { slice(from: start, count: count &- start) }

    @inlinable @inline(__always)
    package subscript(index: Int) -> Element {
        assert(index >= 0 && index < count, "ElementsView: element \(index) outside 0..<\(count)")
        return base.unsafelyUnwrapped[index]
    }

    /// The element at `index`, read where it is stored: a value whose copy retains references
    /// (a font face and its tables) is used without being copied.
    @inlinable
    package subscript(inPlace index: Int) -> Element {
        unsafeAddress {
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
        assert(index >= 0 && index &+ 8 <= count, "ElementsView: word at \(index) outside 0..<\(count)")
        return UInt64(littleEndian: UnsafeRawPointer(base.unsafelyUnwrapped).loadUnaligned(fromByteOffset: index, as: UInt64.self))
    }

    /// The four elements from `index`, the first in the lowest bits.
    @inlinable @inline(__always)
    package func word32(at index: Int) -> UInt32 {
        assert(index >= 0 && index &+ 4 <= count, "ElementsView: word at \(index) outside 0..<\(count)")
        return UInt32(littleEndian: UnsafeRawPointer(base.unsafelyUnwrapped).loadUnaligned(fromByteOffset: index, as: UInt32.self))
    }
}

/// Elements written in place, in storage another value owns (an array's, the bidi resolver's
/// scratch space), by loops that index them at positions they compute. Invariants, asserted in
/// debug builds: every index is in `0 ..< count`; the storage outlives the view (made only inside
/// a closure that lends it, or by `allocate`, owned by the one object that calls `deallocate`);
/// no two views written at once overlap.
@usableFromInline
package struct MutableElementsView<Element> {
    @usableFromInline let base: UnsafeMutablePointer<Element>?
    @usableFromInline package let count: Int

    /// The elements `buffer` lends, for as long as it lends them (the other modules' fences make
    /// views of their own storage this way).
    @inlinable @inline(__always)
    package init(_ buffer: UnsafeMutableBufferPointer<Element>) {
        base = buffer.baseAddress
        count = buffer.baseAddress == nil ? 0 : buffer.count
    }

    /// Storage for `capacity` elements, not initialised: for elements of a trivial type (integers,
    /// `Bool`), written before they are read. Its owner calls `deallocate()` once.
    @inlinable
    package static func allocate(capacity: Int) -> MutableElementsView {
        MutableElementsView(UnsafeMutableBufferPointer<Element>.allocate(capacity: capacity))
    }

    /// Frees storage `allocate` made.
    @inlinable
    package func deallocate() { base?.deallocate() }

    @inlinable @inline(__always)
    package subscript(index: Int) -> Element {
        get {
            assert(index >= 0 && index < count, "MutableElementsView: element \(index) outside 0..<\(count)")
            return base.unsafelyUnwrapped[index]
        }
        nonmutating set {
            assert(index >= 0 && index < count, "MutableElementsView: element \(index) outside 0..<\(count)")
            base.unsafelyUnwrapped[index] = newValue
        }
    }

    /// The `count` elements from `start` (inside the view).
    @inlinable @inline(__always)
    package func slice(from start: Int, count: Int) -> MutableElementsView {
        assert(start >= 0 && count >= 0 && start &+ count <= self.count,
               "MutableElementsView: \(start)+\(count) outside 0..<\(self.count)")
        return MutableElementsView(UnsafeMutableBufferPointer(start: base.map { $0 + start }, count: count))
    }

    /// The elements from `start` to the end (`start` at most `count`).
    @inlinable @inline(__always)
    package func tail(from start: Int) -> MutableElementsView { slice(from: start, count: count &- start) }

    /// Writes `value` to the first `prefix` elements.
    @inlinable @inline(__always)
    package func fill(_ value: Element, prefix: Int) {
        assert(prefix >= 0 && prefix <= count, "MutableElementsView: filling \(prefix) of \(count)")
        guard prefix > 0 else { return }
        base.unsafelyUnwrapped.update(repeating: value, count: prefix)
    }

    /// Moves the `length` elements from `start` to the start of the view (the two may overlap).
    @inlinable @inline(__always)
    package func moveToStart(from start: Int, count length: Int) {
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
        assert(prefix >= 0 && prefix <= count, "MutableElementsView: sorting \(prefix) of \(count)")
        guard prefix > 1 else { return }
        var buffer = UnsafeMutableBufferPointer(start: base, count: prefix)
        buffer.sort()
    }
}

extension Array {
    /// Runs `body` with the elements in place.
    @inlinable @inline(__always)
    package func withElementsView<R>(_ body: (ElementsView<Element>) throws -> R) rethrows -> R {
        try withUnsafeBufferPointer { try body(ElementsView($0)) }
    }

    /// Runs `body` with the elements in place, to write.
    @inlinable @inline(__always)
    package mutating func withMutableElementsView<R>(_ body: (MutableElementsView<Element>) throws -> R) rethrows -> R {
        try withUnsafeMutableBufferPointer { try body(MutableElementsView($0)) }
    }
}

// As collections, for the generic code (`URLSpans.find(in:)`) that reads any UTF-8 or UTF-16.
extension TextBytes: RandomAccessCollection {
    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { count }
}

extension ElementsView: RandomAccessCollection {
    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { count }
}

/// Decodes the scalar whose UTF-8 encoding starts at `index` of `bytes` (valid UTF-8).
@inlinable @inline(__always)
func decodeScalar(_ bytes: TextBytes, at index: Int) -> (scalar: UInt32, length: Int) {
    bytes.decodeScalar(at: index)
}

extension TextBytes {
    /// Runs `body` with `text`'s UTF-8 in place, or in a copy when it is not contiguous.
    @inlinable
    static func reading<Text: StringProtocol, R>(_ text: Text, _ body: (TextBytes) throws -> R) rethrows -> R {
        if let result = try text.utf8.withContiguousStorageIfAvailable({ try body(TextBytes($0)) }) { return result }
        return try Array(text.utf8).withUnsafeBufferPointer { try body(TextBytes($0)) }
    }
}

extension String {
    /// Runs `body` with the string's UTF-8 in place (made contiguous first if it is not).
    @inlinable
    mutating func withTextBytes<R>(_ body: (TextBytes) throws -> R) rethrows -> R {
        try withUTF8 { try body(TextBytes($0)) }
    }

    /// Runs `body` with the string's UTF-8 in place (made contiguous first if it is not), for
    /// the other modules.
    @inlinable
    package mutating func withUTF8Elements<R>(_ body: (ElementsView<UInt8>) throws -> R) rethrows -> R {
        try withUTF8 { try body(ElementsView($0)) }
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
    package static func mayContain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { mayContain(TextBytes(bytes)) }
}

extension BidiTables {
    /// `mayContainRightToLeft(_:)` on bytes another module lends.
    @inlinable
    package static func mayContainRightToLeft(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        mayContainRightToLeft(TextBytes(bytes))
    }
}

extension DictionaryBreaks {
    /// `mayContain(_:from:)` on bytes another module lends.
    package static func mayContain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { mayContain(TextBytes(bytes), from: 0) }

    /// True when the scalars another module lends hold a character of the four scripts' blocks.
    package static func mayContain(_ scalars: UnsafeBufferPointer<UInt32>) -> Bool {
        mayContain(ElementsView(scalars))
    }

    /// `find(in:)` on scalars another module lends.
    package static func find(in scalars: UnsafeBufferPointer<UInt32>) -> [Int] { find(in: ElementsView(scalars)) }
}
