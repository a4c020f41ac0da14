import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The unsafe code of the layout core, in one place; the engine, the cache, batches and
// conversations use the safe views below. Invariants, asserted in debug builds:
// - An `ElementView`, `SharedElements` or `Borrowed` is used only inside the closure that made it
//   (or, for a `ParallelOutput`, before `finish`), and every index it is given lies inside it.
// - A `ParallelOutput` is filled by tasks writing disjoint indices, each exactly once, before the
//   array is made (debug builds count the writes); its other indices are never read early.
// - Workers given `SharedElements` touch disjoint indices (the caller's split guarantees it).
// - `LayoutLock`'s pthread mutex is held for every access to its value.

/// Elements of an array read without a bounds check in release builds (checked in debug builds),
/// for loops that read many: valid only inside the closure that made it.
@usableFromInline package struct ElementView<Element> {
    @usableFromInline let base: UnsafePointer<Element>?
    /// The number of elements.
    @usableFromInline package let count: Int

    @usableFromInline init(base: UnsafePointer<Element>?, count: Int) {
        self.base = base
        self.count = count
    }

    /// Element `i` (checked in debug builds).
    @inlinable package subscript(i: Int) -> Element {
        @inline(__always) get {
            assert(i >= 0 && i < count, "ElementView: index \(i) outside 0..<\(count)")
            return base.unsafelyUnwrapped[i]
        }
    }
}

extension Array {
    /// Calls `body` with a view of the elements, valid only inside `body`.
    @inlinable @inline(__always)
    package func withElementView<R, E: Error>(_ body: (ElementView<Element>) throws(E) -> R) throws(E) -> R {
        let result: Result<R, E> = withUnsafeBufferPointer { buffer in
            do throws(E) { return .success(try body(ElementView(base: buffer.baseAddress, count: buffer.count))) }
            catch { return .failure(error) }
        }
        return try result.get()
    }
}

/// An array's elements shared by workers that each read and write their own indices only (the
/// split is the caller's): valid only inside `withSharedElements`.
@usableFromInline package struct SharedElements<Element>: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<Element>?
    @usableFromInline package let count: Int

    @usableFromInline init(base: UnsafeMutablePointer<Element>?, count: Int) {
        self.base = base
        self.count = count
    }

    /// Element `i`, read or modified in place, never copied whole (checked in debug builds).
    @inlinable package subscript(i: Int) -> Element {
        @inline(__always) _read {
            assert(i >= 0 && i < count, "SharedElements: index \(i) outside 0..<\(count)")
            yield base.unsafelyUnwrapped[i]
        }
        @inline(__always) nonmutating _modify {
            assert(i >= 0 && i < count, "SharedElements: index \(i) outside 0..<\(count)")
            yield &base.unsafelyUnwrapped[i]
        }
    }
}

extension Array {
    /// Calls `body` with the elements shared for workers writing disjoint indices.
    @inlinable
    package mutating func withSharedElements<R>(_ body: (SharedElements<Element>) -> R) -> R {
        withUnsafeMutableBufferPointer { buffer in body(SharedElements(base: buffer.baseAddress, count: buffer.count)) }
    }
}

extension ContiguousArray {
    /// Calls `body` with the elements shared for workers writing disjoint indices.
    @inlinable
    package mutating func withSharedElements<R>(_ body: (SharedElements<Element>) -> R) -> R {
        withUnsafeMutableBufferPointer { buffer in body(SharedElements(base: buffer.baseAddress, count: buffer.count)) }
    }
}

/// The uninitialised output of a parallel layout: tasks write disjoint indices, each once
/// (`initialize(_:to:)`), then `finish` makes the array. Debug builds count the writes and stop
/// when `finish` finds any index unwritten.
package final class ParallelOutput<Element>: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<Element>
    @usableFromInline package let count: Int
    private var finished = false
    #if DEBUG
    @usableFromInline let written = Atomic<Int>(0)
    #endif

    package init(count: Int) {
        precondition(count >= 0)
        self.count = count
        base = .allocate(capacity: max(1, count))
    }

    /// Frees the memory; an output never finished (a path that stops anyway) leaks what was written.
    deinit { base.deallocate() }

    /// Writes element `i` (once; checked in debug builds).
    @inlinable @inline(__always)
    package func initialize(_ i: Int, to value: consuming Element) {
        assert(i >= 0 && i < count, "ParallelOutput: index \(i) outside 0..<\(count)")
        (base + i).initialize(to: value)
        #if DEBUG
        written.add(1, ordering: .relaxed)
        #endif
    }

    /// The elements written so far at indices the caller's task wrote (no other task's).
    @inlinable package var view: ElementView<Element> { ElementView(base: UnsafePointer(base), count: count) }

    /// The whole output as an array, once every index is written; the output is empty after.
    package func finish() -> [Element] {
        precondition(!finished, "ParallelOutput: finished twice")
        #if DEBUG
        precondition(written.load(ordering: .relaxed) == count, "ParallelOutput: \(written.load(ordering: .relaxed)) of \(count) written")
        #endif
        finished = true
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 { buffer.baseAddress!.moveInitialize(from: base, count: count) }
            initialized = count
        }
    }
}

/// A value lent for the duration of one call without a copy (copying prepared texts retains each
/// of their arrays): valid only inside `withBorrowed`.
@usableFromInline package struct Borrowed<Value> {
    @usableFromInline let pointer: UnsafePointer<Value>
    @usableFromInline init(pointer: UnsafePointer<Value>) { self.pointer = pointer }
    /// The value lent.
    @inlinable package var value: Value { _read { yield pointer.pointee } }
}

/// Calls `body` with `value` lent, valid only inside `body`.
@inlinable @inline(__always)
package func withBorrowed<Value, R>(_ value: inout Value, _ body: (Borrowed<Value>) -> R) -> R {
    withUnsafePointer(to: &value) { body(Borrowed(pointer: $0)) }
}

/// The UTF-8 bytes of a string read a word at a time (`IDHash`): valid only inside `withUTF8Words`.
@usableFromInline package struct UTF8Words {
    @usableFromInline let bytes: UnsafeRawBufferPointer
    @usableFromInline init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    @inlinable package var count: Int { bytes.count }

    /// Byte `i` (checked in debug builds).
    @inlinable package subscript(i: Int) -> UInt8 {
        @inline(__always) get {
            assert(i >= 0 && i < bytes.count, "UTF8Words: index \(i) outside 0..<\(bytes.count)")
            return bytes[i]
        }
    }

    /// The eight bytes at `offset`, little-endian, at any alignment (checked in debug builds).
    @inlinable @inline(__always)
    package func word(at offset: Int) -> UInt64 {
        assert(offset >= 0 && offset + 8 <= bytes.count, "UTF8Words: word at \(offset) outside 0..<\(bytes.count)")
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The four bytes at `offset`, little-endian, at any alignment (checked in debug builds).
    @inlinable @inline(__always)
    package func word32(at offset: Int) -> UInt32 {
        assert(offset >= 0 && offset + 4 <= bytes.count, "UTF8Words: word at \(offset) outside 0..<\(bytes.count)")
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 (made contiguous first when it is not).
    @inlinable @inline(__always)
    package mutating func withUTF8Words<R>(_ body: (UTF8Words) -> R) -> R {
        withUTF8 { body(UTF8Words(bytes: UnsafeRawBufferPointer($0))) }
    }
}

#if BUBBLES_TSAN_LOCKS
/// The lock of the layout caches, built for ThreadSanitizer (`Tools/sanitize.sh thread` defines
/// `BUBBLES_TSAN_LOCKS`): a pthread mutex, which TSan intercepts.
///
/// Why: on this toolchain TSan does not see `Synchronization.Mutex` as synchronisation (its lock
/// and unlock are a futex and atomics inside the uninstrumented Synchronization library), so a
/// trivial program passing a value between threads under a `Mutex` is reported as racing, and
/// the cache's accesses under its mutexes were reported as races that are not. With this lock in
/// its place the reports stop, so any race TSan still reports is one in our code.
final class LayoutLock<Value>: @unchecked Sendable {  // every access to `value` holds `mutex`
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    init(_ value: consuming Value) {
        self.value = value
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the value with the mutex held, as `Mutex.withLock` does.
    func withLock<Result, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
#else
/// The lock of the layout caches: `Mutex`, except in ThreadSanitizer builds (see above, under
/// `BUBBLES_TSAN_LOCKS`), where it is a pthread mutex TSan can see.
typealias LayoutLock<Value> = Mutex<Value>
#endif
