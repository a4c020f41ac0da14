// Does ThreadSanitizer see `Synchronization.Mutex` on this toolchain? Built by
// `Tools/sanitize.sh mutex-check` twice, with -sanitize=thread: as is (a `Mutex`) and with
// -DPTHREAD_LOCK (a pthread mutex). Each thread adds to a counter held in a class, only under
// the lock, so there is no race: a report under `Mutex` is TSan not seeing the lock.
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

final class Counter: @unchecked Sendable { var value = 0 }

#if PTHREAD_LOCK
final class Lock: @unchecked Sendable {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    var unused = 0
    init() { pthread_mutex_init(mutex, nil) }
    func withLock<R>(_ body: (inout Int) -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&unused)
    }
}
let lock = Lock()
#else
let lock = Mutex(0)
#endif

let counter = Counter()
DispatchQueue.concurrentPerform(iterations: 8) { _ in
    for _ in 0..<20_000 {
        lock.withLock { _ in counter.value += 1 }
    }
}
print("counter \(counter.value)")
