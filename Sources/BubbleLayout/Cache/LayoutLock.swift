import Synchronization

#if BUBBLES_TSAN_LOCKS
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
