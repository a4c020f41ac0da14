import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The unsafe code of BubbleTerminal, in one place: the state signal handlers read (which must be
// reachable without allocation, locks or look-ups, so it lives in memory allocated once and never
// freed), and the terminal's system calls on raw memory. Invariants, asserted in debug builds:
// the handlers' state is allocated before any handler is installed and never freed; the restore
// bytes fit their fixed buffer; a read or write touches only the array it is given.

/// The terminal's system calls on memory (`termios` arrays, reads and writes).
enum TerminalCalls {
    /// Sets `VMIN` and `VTIME` in `mode`'s control characters.
    static func setReadTimers(_ mode: inout termios, minimum: cc_t, time: cc_t) {
        withUnsafeMutablePointer(to: &mode.c_cc) { pointer in
            pointer.withMemoryRebound(to: cc_t.self, capacity: Int(NCCS)) { cc in
                assert(Int(VMIN) < Int(NCCS) && Int(VTIME) < Int(NCCS))
                cc[Int(VMIN)] = minimum
                cc[Int(VTIME)] = time
            }
        }
    }

    /// Writes all of `bytes` to `fd`, retrying short writes and interruptions; false when the
    /// terminal is gone.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                write(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            assert(written <= bytes.count - offset, "write(2) wrote more than asked")
            offset += written
        }
        return true
    }

    /// `read(2)` into all of `buffer`: bytes read, 0 at the end, -1 with `errno` set.
    static func read(_ fd: Int32, into buffer: inout [UInt8]) -> Int {
        let count = buffer.withUnsafeMutableBytes { raw in
            #if canImport(Glibc)
            Glibc.read(fd, raw.baseAddress, raw.count)
            #else
            Musl.read(fd, raw.baseAddress, raw.count)
            #endif
        }
        assert(count <= buffer.count, "read(2) returned more than asked")
        return count
    }
}

/// The settings `QuietTerminal` gives back, where its signal and exit handlers can reach them.
/// The saved settings live on the heap, not in a global `termios`: Swift 6.3.1 gives a lazily
/// initialised global of that type 57 bytes of storage and copies 60 into it (AddressSanitizer:
/// global-buffer-overflow; `LateProbeReplyTests.aHeldTerminalGetsAllOfItsSettingsBack`).
enum QuietSettings {
    /// The held terminal, -1 when none: set after the settings, so a handler that sees it sees them.
    private static let descriptor = Atomic<Int32>(-1)
    /// Allocated at the first `save`, before any handler can read it; never freed.
    nonisolated(unsafe) private static let saved: UnsafeMutablePointer<termios> = {
        let storage = UnsafeMutablePointer<termios>.allocate(capacity: 1)
        storage.initialize(to: termios())
        return storage
    }()

    /// The device held, whose late replies are read at exit: touched only by the thread that
    /// holds and the exit handler (never by a signal handler), one after the other.
    nonisolated(unsafe) static var device: TerminalDevice?

    /// Keeps `mode` to give back to `fd` (before the handlers are installed).
    static func save(_ mode: termios, descriptor fd: Int32) {
        saved.pointee = mode
        descriptor.store(fd, ordering: .sequentiallyConsistent)
    }

    /// Whether settings are kept to give back.
    static var isHolding: Bool { descriptor.load(ordering: .sequentiallyConsistent) >= 0 }

    /// Flushes the input and gives the settings back, once. Async-signal-safe.
    static func restore() {
        let fd = descriptor.exchange(-1, ordering: .sequentiallyConsistent)
        guard fd >= 0 else { return }
        tcflush(fd, TCIFLUSH)
        tcsetattr(fd, TCSANOW, saved)
    }
}

/// What the fatal-signal handler needs, made before it is installed: the terminal, the bytes
/// that give it back, and its saved settings. The handler may only read memory and make
/// async-signal-safe calls (`write`, `tcsetattr`, `sigaction`, `raise`), so nothing here is
/// allocated, locked or looked up when it runs.
private struct RescueState {
    var fd: Int32 = -1
    /// 1 while the viewer holds the terminal (cleared by the handler, so it writes once).
    var armed: Int32 = 0
    var hasMode: Int32 = 0
    var mode = termios()
    var length = 0
    var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}

/// Allocated once, never freed: the handler may run on any thread at any time after install.
nonisolated(unsafe) private var rescueState: UnsafeMutablePointer<RescueState>?
/// The actions found for each signal (indexed by number), which take over after us.
nonisolated(unsafe) private var rescuePrevious: UnsafeMutablePointer<sigaction>?
private let rescueSignalLimit = 65

private func rescueTerminal(_ number: Int32) {
    let saved = errno
    giveTerminalBack()
    // The action found before ours (the Swift runtime's backtracer, or the default) takes over:
    // the signal, raised again while this handler blocks it, is delivered to it on return, with
    // the context of where the process was stopped.
    if let previous = rescuePrevious, number > 0, number < rescueSignalLimit {
        _ = sigaction(number, previous + Int(number), nil)
    } else {
        _ = signal(number, SIG_DFL)
    }
    errno = saved
    _ = raise(number)
}

/// Writes the bytes that give the terminal back and puts back its settings, once, when armed.
/// Async-signal-safe.
private func giveTerminalBack() {
    if let state = rescueState, state.pointee.armed != 0 {
        state.pointee.armed = 0
        let fd = state.pointee.fd
        withUnsafePointer(to: &state.pointee.bytes) { pointer in
            var offset = 0
            let length = state.pointee.length
            let raw = UnsafeRawPointer(pointer)
            while offset < length {
                let written = write(fd, raw + offset, length - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { break }
                offset += written
            }
        }
        if state.pointee.hasMode != 0 { _ = tcsetattr(fd, TCSANOW, &state.pointee.mode) }
    }
}

/// Gives the terminal back when the process dies of a signal while the viewer holds it: a fatal
/// one (a Swift trap is SIGILL on x86-64 and SIGTRAP on arm64; SIGSEGV, SIGBUS, SIGFPE and
/// SIGABRT besides), or any other whose default action ends the process and that the viewer
/// does not answer itself (SIGUSR1, SIGALRM, SIGPIPE, SIGXCPU, the real-time signals…; SIGINT,
/// SIGTERM, SIGHUP and SIGQUIT end the viewer's loop instead). The handler writes the bytes
/// that leave the viewer's modes and puts back the saved settings, then hands the signal on to
/// whoever had it before (the default action, or the runtime's backtracer), so the process
/// still dies of it (with the backtrace, now on the normal screen, when that is on). A signal
/// found ignored is left ignored: it ends nothing.
enum TerminalRescue {
    static let signals: [Int32] = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT] + terminating

    /// The signals besides the faults whose default action is to end the process (signal(7)),
    /// on Linux, the real-time ones included.
    static let terminating: [Int32] = {
        var numbers: [Int32] = [SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGSYS, SIGPIPE,
                                SIGSTKFLT, SIGPWR]
        let low = __libc_current_sigrtmin(), high = __libc_current_sigrtmax()
        if low > 0 && high >= low && high < Int32(rescueSignalLimit) { numbers += Array(low...high) }
        return numbers
    }()
    /// Room for the restore bytes (the handler's buffer is fixed: 32 × 8 bytes).
    static let capacity = 256
    nonisolated(unsafe) private static var installed = false

    /// Installs the handler for `signals` (once), on an alternate stack so a stack overflow is
    /// caught too, and unblocks them on the calling thread (a fault under a blocked signal kills
    /// at once, handler or not, and a parent may have left them blocked).
    static func install() {
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals { sigaddset(&unblock, number) }
        _ = pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        guard !installed else { return }
        installed = true
        let state = UnsafeMutablePointer<RescueState>.allocate(capacity: 1)
        state.initialize(to: RescueState())
        rescueState = state
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: rescueSignalLimit)
        previous.initialize(repeating: sigaction(), count: rescueSignalLimit)
        rescuePrevious = previous
        var stack = stack_t()
        if sigaltstack(nil, &stack) == 0, stack.ss_flags & Int32(SS_DISABLE) != 0 {
            let size = 64 << 10
            stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            stack.ss_size = size
            stack.ss_flags = 0
            _ = sigaltstack(&stack, nil)
        }
        for number in signals {
            var current = sigaction()
            if sigaction(number, nil, &current) == 0, unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1 {
                continue  // SIG_IGN, as `nohup` or a parent left it: the signal ends nothing
            }
            var action = sigaction()
            action.__sigaction_handler.sa_handler = rescueTerminal
            sigemptyset(&action.sa_mask)
            action.sa_flags = Int32(SA_ONSTACK)
            _ = sigaction(number, &action, previous + Int(number))
        }
    }

    /// From now on a fatal signal writes `bytes` to `fd` and sets `mode` on it, once.
    static func arm(fd: Int32, bytes: [UInt8], mode: termios?) {
        guard let state = rescueState else { return }
        state.pointee.armed = 0
        state.pointee.fd = fd
        state.pointee.hasMode = mode == nil ? 0 : 1
        if let mode { state.pointee.mode = mode }
        let length = min(bytes.count, capacity)
        assert(capacity == MemoryLayout.size(ofValue: state.pointee.bytes), "the restore buffer is 32 words")
        bytes.withUnsafeBytes { source in
            withUnsafeMutableBytes(of: &state.pointee.bytes) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: source.prefix(length))) }
        }
        state.pointee.length = length
        state.pointee.armed = 1
    }

    /// Gives the terminal back now, as a fatal signal would (once; nothing when not armed), from
    /// any thread: for a way out taken while the viewer's loop is busy (`ViewerWatchdog`).
    static func giveBack() {
        giveTerminalBack()
    }

    /// The terminal is given back: a fatal signal now only hands on.
    static func disarm() {
        rescueState?.pointee.armed = 0
    }
}
