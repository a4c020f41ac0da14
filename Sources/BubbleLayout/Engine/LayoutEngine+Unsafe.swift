import BubbleText
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The unsafe code of the layout core, in one place; the engine, the cache, batches and
// conversations use the safe views below and BubbleText's `ElementsView`/`MutableElementsView`.
// Invariants, asserted in debug builds:
// - A `Borrowed` is used only inside the closure that made it, and a `ParallelOutput`'s view only
//   before `finish`, and every index a view is given lies inside it.
// - A `ParallelOutput` is filled by tasks writing disjoint indices, each exactly once, before the
//   array is made (debug builds count the writes); its other indices are never read early.
// - `LayoutLock`'s pthread mutex is held for every access to its value.
// Every view carries BubbleText's `FenceToken`: in debug builds it stops the first use of a view
// kept past the closure that lent it (a use-after-free in release builds); in release builds the
// token is empty.

/// The uninitialised output of a parallel layout: tasks write disjoint indices, each once
/// (`initialize(_:to:)`), then `finish` makes the array. Debug builds count the writes and stop
/// when `finish` finds any index unwritten.
package final class ParallelOutput<Element>: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<Element>
    @usableFromInline package let count: Int
    private var finished = false
    /// The views' token, ended by `finish` (the memory is the array's after it).
    @usableFromInline let fence = FenceToken.owned()
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
    @inlinable package var view: ElementsView<Element> { ElementsView(UnsafeBufferPointer(start: base, count: count), fence: fence) }

    /// The whole output as an array, once every index is written; the output is empty after.
    package func finish() -> [Element] {
        precondition(!finished, "ParallelOutput: finished twice")
        #if DEBUG
        precondition(written.load(ordering: .relaxed) == count, "ParallelOutput: \(written.load(ordering: .relaxed)) of \(count) written")
        #endif
        finished = true
        fence.end()
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
