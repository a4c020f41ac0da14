#if canImport(Glibc)
import Glibc
#endif

import Synchronization

/// When the late replies stop being waited for.
private let quietDeadline = Atomic<Int>(0)
private let registeredAtExit = Atomic<Bool>(false)

private let quietSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

private func quietOnSignal(_ number: Int32) {
    // Async-signal-safe calls only: flush, restore, die of the same signal.
    QuietSettings.restore()
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
        QuietSettings.device = device
        quietDeadline.store(TerminalProbe.monotonicMilliseconds() + graceMilliseconds, ordering: .sequentiallyConsistent)
        QuietSettings.save(saved, descriptor: device.fileDescriptor)
        for number in quietSignals { signal(number, quietOnSignal) }
        if !registeredAtExit.exchange(true, ordering: .sequentiallyConsistent) {
            atexit(quietAtExit)
        }
    }

    /// Reads and drops what the terminal sends until its device attributes reply is in or the
    /// grace time is over.
    static func drain() {
        guard let device = QuietSettings.device else { return }
        var replies = TerminalReplies()
        var pending: [UInt8] = []
        while !replies.sawDeviceAttributes {
            let left = quietDeadline.load(ordering: .sequentiallyConsistent) - TerminalProbe.monotonicMilliseconds()
            guard left > 0, let bytes = device.read(timeoutMilliseconds: Int32(left)), !bytes.isEmpty else { break }
            pending += bytes
            pending.removeFirst(replies.parse(pending))
        }
    }

    /// Swallows the late replies (within the grace time), flushes the input and gives the
    /// settings back; what happens at exit, callable before.
    public static func finish() {
        guard QuietSettings.isHolding else { return }
        drain()
        for number in quietSignals { signal(number, SIG_DFL) }
        QuietSettings.restore()
        QuietSettings.device = nil
    }

    /// Whether a terminal is being held quiet.
    public static var isHolding: Bool { QuietSettings.isHolding }
}
