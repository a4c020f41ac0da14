import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A SIGINT, SIGTERM, SIGHUP or SIGQUIT not yet acted on by the viewer's loop (0 when none): the
/// loop's signal handler sets it, the loop clears it when it reads the signal, and the watchdog
/// acts on it when the loop is busy.
let viewerPendingStop = Atomic<Int32>(0)

/// Answers the ways out of the viewer while its loop is busy for longer than `bound`
/// milliseconds (laying out a very tall message, a long search): a stopping signal, ctrl-C, or
/// `q` as the first key typed while busy (when `q` quits). It gives the terminal back
/// (`TerminalRescue.giveBack`) and ends the process: of the signal, or with status 0 for a key,
/// as `q` ends the viewer. Other keys typed meanwhile are kept for the loop (`takeKeys`), in
/// order. Idle loops cost it nothing but a wake-up every few tens of milliseconds.
final class ViewerWatchdog: Sendable {
    /// When the loop started its current work (monotonic ms), 0 while it waits for input.
    let busySince = Atomic<Int>(0)
    /// Whether `q` quits in the screen's present mode (not while a search is typed, on the help
    /// screen, or after a count).
    let quitKeyQuits = Atomic<Bool>(true)
    private let stopped = Atomic<Bool>(false)
    private let keys = Mutex<[UInt8]>([])
    /// Whether a key other than a way out was kept since the loop became busy (a `q` after it
    /// may be part of a search or a count, so it is kept too).
    private let keptSinceBusy = Atomic<Bool>(false)
    private let terminal: Int32
    private let bound: Int
    /// Written when keys were kept, so the loop's poll wakes for them.
    let wakeRead: Int32
    private let wakeWrite: Int32

    init(terminal: Int32, bound: Int = 100) {
        self.terminal = terminal
        self.bound = bound
        var fds: [Int32] = [-1, -1]
        pipe(&fds)
        wakeRead = fds[0]
        wakeWrite = fds[1]
        _ = fcntl(wakeRead, F_SETFL, fcntl(wakeRead, F_GETFL) | O_NONBLOCK)
        _ = fcntl(wakeWrite, F_SETFL, fcntl(wakeWrite, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    static func now() -> Int { TerminalProbe.monotonicMilliseconds() }

    /// Starts watching (on a thread of its own) until `stop()`.
    func start() {
        stopped.store(false, ordering: .sequentiallyConsistent)
        let thread = Thread { [self] in
            while !stopped.load(ordering: .sequentiallyConsistent) {
                usleep(20_000)
                check()
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    func stop() { stopped.store(true, ordering: .sequentiallyConsistent) }

    /// The loop is waiting for input now (`busy` false) or has work in hand.
    func loop(busy: Bool) {
        if !busy { keptSinceBusy.store(false, ordering: .sequentiallyConsistent) }
        busySince.store(busy ? Self.now() : 0, ordering: .sequentiallyConsistent)
    }

    /// The keys kept while the loop was busy, oldest first (and the wake byte drained).
    func takeKeys() -> [UInt8] {
        var drain = [UInt8](repeating: 0, count: 64)
        while read(wakeRead, &drain, drain.count) > 0 {}
        return keys.withLock { kept in
            defer { kept = [] }
            return kept
        }
    }

    private func check() {
        let since = busySince.load(ordering: .sequentiallyConsistent)
        guard since != 0, Self.now() - since >= bound, !stopped.load(ordering: .sequentiallyConsistent) else { return }
        let signal = viewerPendingStop.load(ordering: .sequentiallyConsistent)
        if signal != 0 { end(signal: signal) }
        var poller = pollfd(fd: terminal, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 0) > 0, poller.revents & Int16(POLLIN) != 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(terminal, &buffer, buffer.count)
        guard count > 0 else { return }
        let bytes = Array(buffer[0..<count])
        let first = !keptSinceBusy.load(ordering: .sequentiallyConsistent)
        if bytes.contains(0x03) { end(signal: 0) }
        if first, quitKeyQuits.load(ordering: .sequentiallyConsistent), bytes[0] == UInt8(ascii: "q") || bytes[0] == UInt8(ascii: "Q") {
            end(signal: 0)
        }
        keptSinceBusy.store(true, ordering: .sequentiallyConsistent)
        keys.withLock { $0 += bytes }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Gives the terminal back and ends the process: of `signal` (its default action), or with
    /// status 0 (a quitting key).
    private func end(signal number: Int32) -> Never {
        TerminalRescue.giveBack()
        if number != 0 {
            _ = signal(number, SIG_DFL)
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, number)
            _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
            _ = raise(number)
            _exit(128 + number)
        }
        _exit(0)
    }
}
