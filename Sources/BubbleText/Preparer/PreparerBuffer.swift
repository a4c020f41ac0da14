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
