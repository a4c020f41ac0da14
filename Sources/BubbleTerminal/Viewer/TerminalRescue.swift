#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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
