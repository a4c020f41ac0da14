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
// Every view carries a `FenceToken`: in debug builds it stops the first use of a view kept past
// the closure that lent it (a use-after-free in release builds), so no view can outlive its scope
// unnoticed; in release builds the token is empty.

/// The scope a fenced view is valid in: open while the closure that lent the view runs, closed
/// when it returns (debug builds only).
@usableFromInline package final class FenceScope: Sendable {
    @usableFromInline let open = Atomic<Bool>(true)
    @usableFromInline init() {}
    /// Ends the scope: every view made in it stops at its next use.
    @usableFromInline func close() { open.store(false, ordering: .releasing) }
}

/// What a view checks at each use, in debug builds, that the closure which lent it is still
/// running; empty in release builds. Made only by `withFence` (or, for an owner that ends the
/// scope itself, `FenceToken.owned`).
@usableFromInline package struct FenceToken: Sendable {
    #if DEBUG
    @usableFromInline let scope: FenceScope
    @usableFromInline init(scope: FenceScope) { self.scope = scope }
    #else
    @usableFromInline init() {}
    #endif

    /// Stops (debug builds) when the view named `what` is used after its scope ended.
    @inlinable @inline(__always)
    package func check(_ what: @autoclosure () -> String) {
        #if DEBUG
        precondition(scope.open.load(ordering: .acquiring), "\(what()) used after the closure that lent it returned")
        #endif
    }

    /// A token for memory its owner frees itself, with `close` to call before it does.
    @usableFromInline static func owned() -> (token: FenceToken, close: () -> Void) {
        #if DEBUG
        let scope = FenceScope()
        return (FenceToken(scope: scope), { scope.close() })
        #else
        return (FenceToken(), {})
        #endif
    }

    /// A token that never ends: for memory that lives as long as the process (a `StaticString`).
    @usableFromInline package static let immortal = owned().token
}

/// Calls `body` with a token valid only while `body` runs: views made with it stop (in debug
/// builds) at any use after `body` returns.
@inlinable @inline(__always)
package func withFence<R, E: Error>(_ body: (FenceToken) throws(E) -> R) throws(E) -> R {
    #if DEBUG
    let scope = FenceScope()
    defer { scope.close() }
    return try body(FenceToken(scope: scope))
    #else
    return try body(FenceToken())
    #endif
}

/// Elements of an array read without a bounds check in release builds (checked in debug builds),
/// for loops that read many: valid only inside the closure that made it.
@usableFromInline package struct ElementView<Element> {
    @usableFromInline let base: UnsafePointer<Element>?
    /// The number of elements.
    @usableFromInline package let count: Int
    @usableFromInline let fence: FenceToken

    @usableFromInline init(base: UnsafePointer<Element>?, count: Int, fence: FenceToken) {
        self.base = base
        self.count = count
        self.fence = fence
    }

    /// Element `i` (checked in debug builds).
    @inlinable package subscript(i: Int) -> Element {
        @inline(__always) get {
            fence.check("ElementView")
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
            withFence { fence in
                do throws(E) { return .success(try body(ElementView(base: buffer.baseAddress, count: buffer.count, fence: fence))) }
                catch { return .failure(error) }
            }
        }
        return try result.get()
    }
}

/// An array's elements shared by workers that each read and write their own indices only (the
/// split is the caller's): valid only inside `withSharedElements`.
@usableFromInline package struct SharedElements<Element>: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<Element>?
    @usableFromInline package let count: Int
    @usableFromInline let fence: FenceToken

    @usableFromInline init(base: UnsafeMutablePointer<Element>?, count: Int, fence: FenceToken) {
        self.base = base
        self.count = count
        self.fence = fence
    }

    /// Element `i`, read or modified in place, never copied whole (checked in debug builds).
    @inlinable package subscript(i: Int) -> Element {
        @inline(__always) _read {
            fence.check("SharedElements")
            assert(i >= 0 && i < count, "SharedElements: index \(i) outside 0..<\(count)")
            yield base.unsafelyUnwrapped[i]
        }
        @inline(__always) nonmutating _modify {
            fence.check("SharedElements")
            assert(i >= 0 && i < count, "SharedElements: index \(i) outside 0..<\(count)")
            yield &base.unsafelyUnwrapped[i]
        }
    }
}

extension Array {
    /// Calls `body` with the elements shared for workers writing disjoint indices.
    @inlinable
    package mutating func withSharedElements<R>(_ body: (SharedElements<Element>) -> R) -> R {
        withUnsafeMutableBufferPointer { buffer in
            withFence { fence in body(SharedElements(base: buffer.baseAddress, count: buffer.count, fence: fence)) }
        }
    }
}

extension ContiguousArray {
    /// Calls `body` with the elements shared for workers writing disjoint indices.
    @inlinable
    package mutating func withSharedElements<R>(_ body: (SharedElements<Element>) -> R) -> R {
        withUnsafeMutableBufferPointer { buffer in
            withFence { fence in body(SharedElements(base: buffer.baseAddress, count: buffer.count, fence: fence)) }
        }
    }
}

/// The uninitialised output of a parallel layout: tasks write disjoint indices, each once
/// (`initialize(_:to:)`), then `finish` makes the array. Debug builds count the writes and stop
/// when `finish` finds any index unwritten.
package final class ParallelOutput<Element>: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<Element>
    @usableFromInline package let count: Int
    private var finished = false
    /// The views' token, ended by `finish` (the memory is the array's after it).
    @usableFromInline let fence: (token: FenceToken, close: () -> Void) = FenceToken.owned()
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
    /// Valid until `finish`; debug builds stop at a use after it.
    @inlinable package var view: ElementView<Element> { ElementView(base: UnsafePointer(base), count: count, fence: fence.token) }

    /// The whole output as an array, once every index is written; the output is empty after.
    package func finish() -> [Element] {
        precondition(!finished, "ParallelOutput: finished twice")
        #if DEBUG
        precondition(written.load(ordering: .relaxed) == count, "ParallelOutput: \(written.load(ordering: .relaxed)) of \(count) written")
        #endif
        finished = true
        fence.close()
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
    @usableFromInline let fence: FenceToken
    @usableFromInline init(pointer: UnsafePointer<Value>, fence: FenceToken) {
        self.pointer = pointer
        self.fence = fence
    }
    /// The value lent (debug builds stop when `withBorrowed` has returned).
    @inlinable package var value: Value {
        _read {
            fence.check("Borrowed<\(Value.self)>")
            yield pointer.pointee
        }
    }
}

/// Calls `body` with `value` lent, valid only inside `body`.
@inlinable @inline(__always)
package func withBorrowed<Value, R>(_ value: inout Value, _ body: (Borrowed<Value>) -> R) -> R {
    withUnsafePointer(to: &value) { pointer in withFence { body(Borrowed(pointer: pointer, fence: $0)) } }
}

/// The UTF-8 bytes of a string read a word at a time (`IDHash`): valid only inside `withUTF8Words`.
@usableFromInline package struct UTF8Words {
    @usableFromInline let bytes: UnsafeRawBufferPointer
    @usableFromInline let fence: FenceToken
    @usableFromInline init(bytes: UnsafeRawBufferPointer, fence: FenceToken) {
        self.bytes = bytes
        self.fence = fence
    }
    @inlinable package var count: Int { bytes.count }

    /// Byte `i` (checked in debug builds).
    @inlinable package subscript(i: Int) -> UInt8 {
        @inline(__always) get {
            fence.check("UTF8Words")
            assert(i >= 0 && i < bytes.count, "UTF8Words: index \(i) outside 0..<\(bytes.count)")
            return bytes[i]
        }
    }

    /// The eight bytes at `offset`, little-endian, at any alignment (checked in debug builds).
    @inlinable @inline(__always)
    package func word(at offset: Int) -> UInt64 {
        fence.check("UTF8Words")
        assert(offset >= 0 && offset + 8 <= bytes.count, "UTF8Words: word at \(offset) outside 0..<\(bytes.count)")
        return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The four bytes at `offset`, little-endian, at any alignment (checked in debug builds).
    @inlinable @inline(__always)
    package func word32(at offset: Int) -> UInt32 {
        fence.check("UTF8Words")
        assert(offset >= 0 && offset + 4 <= bytes.count, "UTF8Words: word at \(offset) outside 0..<\(bytes.count)")
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}

extension String {
    /// Calls `body` with the string's UTF-8 (made contiguous first when it is not).
    @inlinable @inline(__always)
    package mutating func withUTF8Words<R>(_ body: (UTF8Words) -> R) -> R {
        withUTF8 { utf8 in withFence { body(UTF8Words(bytes: UnsafeRawBufferPointer(utf8), fence: $0)) } }
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
