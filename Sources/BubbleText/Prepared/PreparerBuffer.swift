/// Append-only scratch storage for what `TextPreparer` produces.
///
/// `Array.append` checks uniqueness and capacity through the runtime on every call, and
/// `removeLast(_:)` goes through `replaceSubrange`; both showed in the prepare profile. This buffer
/// appends with one compare, truncates by moving its count, and hands its contents over as an
/// array of exactly the right size (so `memoryFootprint` counts no spare capacity).
/// Elements are bitwise-copyable, so nothing needs deinitialising. Call `takeArray()` exactly once.
struct PreparerBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 8)
        base = .allocate(capacity: self.capacity)
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

    @inline(never)
    mutating func grow() {
        let larger = capacity &* 2
        let newBase = UnsafeMutablePointer<Element>.allocate(capacity: larger)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = larger
    }

    /// The elements as an array, then frees the buffer.
    mutating func takeArray() -> [Element] {
        defer {
            base.deallocate()
            count = 0
            capacity = 0
        }
        if count == 0 { return [] }
        // `Array(_:)` of a buffer specialises down to one allocation and a copy;
        // `init(unsafeUninitializedCapacity:)` went through the runtime's generic path.
        return Array(UnsafeBufferPointer(start: base, count: count))
    }
}
