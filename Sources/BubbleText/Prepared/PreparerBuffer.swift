/// Append-only scratch storage for what `TextPreparer` produces.
///
/// `Array.append` checks uniqueness and capacity through the runtime on every call, and
/// `removeLast(_:)` goes through `replaceSubrange`; both showed in the prepare profile. This buffer
/// appends with one compare and truncates by moving its count. It starts either in storage it
/// allocates or in storage lent by the caller (a stack block, so that a short message costs no
/// heap allocation for its scratch space); it moves to the heap only when it outgrows that.
/// Elements are bitwise-copyable, so nothing needs deinitialising. Call `release()` exactly once.
struct PreparerBuffer<Element: BitwiseCopyable> {
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
        base = borrowed.baseAddress.unsafelyUnwrapped
        capacity = borrowed.count
        owned = false
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if _slowPath(count == capacity) { grow() }
        (base + count).initialize(to: element)
        count &+= 1
    }

    /// Forgets the last `removed` elements.
    @inline(__always)
    mutating func removeLast(_ removed: Int) {
        count &-= removed
    }

    /// The last element; the buffer must not be empty.
    @inline(__always)
    var last: Element {
        get { base[count &- 1] }
        set { base[count &- 1] = newValue }
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

    /// Frees the storage if the buffer allocated it.
    mutating func release() {
        if owned { base.deallocate() }
        count = 0
        capacity = 0
        owned = false
    }
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
