#if canImport(Glibc)
import Glibc
#endif

/// The terminal's settings to give back, kept where a signal handler and an exit handler can
/// reach them. Set once, before the handlers are installed.
nonisolated(unsafe) private var quietDescriptor: Int32 = -1
/// The saved settings live on the heap, not in a global `termios`: Swift 6.3.1 gives a lazily
/// initialised global of that type 57 bytes of storage and copies 60 into it (AddressSanitizer:
/// global-buffer-overflow; `LateProbeReplyTests.aHeldTerminalGetsAllOfItsSettingsBack`).
/// Allocated at the first `hold`, before any handler can read it.
nonisolated(unsafe) private let quietSaved: UnsafeMutablePointer<termios> = {
    let storage = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    storage.initialize(to: termios())
    return storage
}()
nonisolated(unsafe) private var quietDeadline = 0
nonisolated(unsafe) private var quietDevice: TerminalDevice?
nonisolated(unsafe) private var registeredAtExit = false

private let quietSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

private func quietRestore() {
    guard quietDescriptor >= 0 else { return }
    tcflush(quietDescriptor, TCIFLUSH)
    tcsetattr(quietDescriptor, TCSANOW, quietSaved)
    quietDescriptor = -1
}

private func quietOnSignal(_ number: Int32) {
    // Async-signal-safe calls only: flush, restore, die of the same signal.
    quietRestore()
    signal(number, SIG_DFL)
    raise(number)
}

private func quietAtExit() {
    QuietTerminal.finish()
}

/// Keeps the terminal quiet (echo off, keys not edited, signals still on) after a probe the
/// terminal has not answered in full within the probe's bound: a reply that comes later must not
/// be echoed onto the screen or left for the shell to read. The replies are read and dropped at
/// exit (waiting at most until `graceMilliseconds` after the hold began, and only for the
/// device attributes reply that ends them), then the input is flushed and the settings given
/// back; a SIGINT, SIGTERM or SIGHUP gives them back too. The viewer, which reads the terminal
/// itself, drops replies as keys it does not know and flushes the input on the way out.
public enum QuietTerminal {
    /// How long after the probe gave up its late replies are still waited for at exit.
    public static let graceMilliseconds = 400

    /// Holds `device` quiet until the process ends (or `release()`).
    public static func hold(_ device: TerminalDevice) {
        guard let saved = device.savedMode else { return }
        quietSaved.pointee = saved
        quietDevice = device
        quietDeadline = TerminalProbe.monotonicMilliseconds() + graceMilliseconds
        quietDescriptor = device.fileDescriptor
        for number in quietSignals { signal(number, quietOnSignal) }
        if !registeredAtExit {
            registeredAtExit = true
            atexit(quietAtExit)
        }
    }

    /// Reads and drops what the terminal sends until its device attributes reply is in or the
    /// grace time is over.
    static func drain() {
        guard let device = quietDevice else { return }
        var replies = TerminalReplies()
        var pending: [UInt8] = []
        while !replies.sawDeviceAttributes {
            let left = quietDeadline - TerminalProbe.monotonicMilliseconds()
            guard left > 0, let bytes = device.read(timeoutMilliseconds: Int32(left)), !bytes.isEmpty else { break }
            pending += bytes
            pending.removeFirst(replies.parse(pending))
        }
    }

    /// Swallows the late replies (within the grace time), flushes the input and gives the
    /// settings back; what happens at exit, callable before.
    public static func finish() {
        guard quietDescriptor >= 0 else { return }
        drain()
        for number in quietSignals { signal(number, SIG_DFL) }
        quietRestore()
        quietDevice = nil
    }

    /// Whether a terminal is being held quiet.
    public static var isHolding: Bool { quietDescriptor >= 0 }
}
