import BubbleLayout
import BubbleText
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where signal handlers leave the signal's number: the write end of a pipe the loop polls.
/// Set before the handlers are installed, and never changed while they are (an atomic: a
/// lock-free load is async-signal-safe).
private let signalPipeWrite = Atomic<Int32>(-1)

private func recordSignal(_ number: Int32) {
    if number == SIGINT || number == SIGTERM || number == SIGHUP || number == SIGQUIT {
        viewerPendingStop.store(number, ordering: .sequentiallyConsistent)
    }
    var byte = UInt8(truncatingIfNeeded: number)
    let saved = errno
    _ = write(signalPipeWrite.load(ordering: .relaxed), &byte, 1)
    errno = saved
}

/// What a follow tick found in the followed file.
public enum ViewerFollowUpdate: Hashable, Sendable {
    case unchanged
    /// Messages were appended.
    case grew
    /// What was read changed (the file was truncated, rewritten or replaced), so the source read
    /// it again from its start: its positions now hold other messages. `note` says why, for the
    /// status line.
    case readAgain(note: String)
    /// Something for the status line about the followed name (it no longer leads to a regular
    /// file); `grew`: messages were appended too.
    case notice(String, grew: Bool)
}

/// A source made elsewhere (the whole log, indexed after its end was shown), handed over to the
/// loop with the shift from the old positions to its own. The loader thread stores it once; the
/// loop takes it.
public final class ViewerHandover: Sendable {
    private struct Box: @unchecked Sendable {  // the source is owned by one side at a time
        var source: ViewerSource?
        var shift = 0
        var note: String?
    }
    private let slot = Mutex(Box())
    private let wakeRead: Int32
    private let wakeWrite: Int32

    public init() {
        var fds: [Int32] = [-1, -1]
        pipe(&fds)
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Called once by the loader: the whole log's source, where old position p is `p + shift`,
    /// and a note for the status line.
    package func deliver(_ source: ViewerSource, shift: Int, note: String?) {
        let box = Box(source: source, shift: shift, note: note)
        slot.withLock { $0 = box }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// The delivered source, or nil when none came yet (`waiting`: blocks until one does).
    package func take(waiting: Bool = false) -> (source: ViewerSource, shift: Int, note: String?)? {
        if waiting {
            var poller = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, -1)
        }
        var drain = [UInt8](repeating: 0, count: 16)
        _ = read(wakeRead, &drain, drain.count)
        return slot.withLock { box in
            defer { box = Box() }
            return box.source.map { ($0, box.shift, box.note) }
        }
    }

    var fileDescriptor: Int32 { wakeRead }
}

/// Runs a `ViewerScreen` on the real terminal: alternate screen, raw mode, cursor hidden, mouse
/// wheel reporting, and a loop over keys, signals, follow ticks and a handover. The terminal is
/// always given back (normal screen, the modes it had, cursor shown, mouse reporting off, mode
/// 2027 off if the probe turned it on): on `q`, on SIGINT, SIGTERM and SIGHUP, when the terminal
/// closes, around a suspend (ctrl-Z or SIGTSTP), after which it is taken again and redrawn, and
/// when the process dies of any signal whose default action ends it (`TerminalRescue`).
public final class ViewerSession {
    public let screen: ViewerScreen
    let device: TerminalDevice
    /// Polled every `followInterval` ms when set: reads what was appended to the log into the
    /// screen's source, or the whole log again when it changed, and says which.
    public var follow: (() -> ViewerFollowUpdate)?
    public var followInterval: Int32 = 250
    /// Whether the last follow tick left more to read (the next comes at once, after the keys).
    public var followHasMore: (() -> Bool)?
    /// Delivers the whole log when the screen opened on its end only.
    public var handover: ViewerHandover?
    /// Whether the probe turned mode 2027 on (it is turned off on the way out).
    public var graphemeClusteringEnabled = false
    /// For a terminal that reorders right-to-left text itself, the switch to its explicit mode
    /// while visual lines are drawn (and back on the way out).
    public var bidiModeSwitch: TerminalBidi.ModeSwitch?

    private var signalRead: Int32 = -1
    private var watchdog: ViewerWatchdog?
    private var decoder = ViewerKeyDecoder()
    private var entered = false

    public init(screen: ViewerScreen, device: TerminalDevice) {
        self.screen = screen
        self.device = device
    }

    static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1006h\u{1B}[H\u{1B}[2J"
    static let leaveSequence = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[m\u{1B}[2J\u{1B}[?25h\u{1B}[?1049l"

    /// Takes the terminal.
    func enter() {
        TerminalRescue.install()
        TerminalRescue.arm(fd: device.fileDescriptor, bytes: Array(leaveText.utf8), mode: device.savedMode)
        device.enterRawMode()
        device.write(Self.enterSequence + (graphemeClusteringEnabled ? "\u{1B}[?2027h" : "") + (bidiModeSwitch?.enter ?? ""))
        entered = true
    }

    /// What gives the screen and modes back.
    private var leaveText: String {
        Self.leaveSequence + (graphemeClusteringEnabled ? "\u{1B}[?2027l" : "") + (bidiModeSwitch?.exit ?? "")
    }

    /// Gives the terminal back as it was found.
    func leave() {
        guard entered else { return }
        entered = false
        device.write(leaveText)
        device.discardInput()
        device.restoreMode()
        TerminalRescue.disarm()
    }

    /// SIGQUIT (ctrl-\ where the line discipline sends it, or `kill -QUIT`) ends the viewer as
    /// SIGTERM does: left to the runtime, its backtracer would wait for a key on the alternate screen.
    private static let handled: [Int32] = [SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT]

    private func installSignals() {
        var fds: [Int32] = [-1, -1]
        pipe(&fds)
        signalRead = fds[0]
        signalPipeWrite.store(fds[1], ordering: .sequentiallyConsistent)
        _ = fcntl(signalRead, F_SETFL, fcntl(signalRead, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        for number in Self.handled { signal(number, recordSignal) }
        // A parent may have left some blocked (a blocked SIGTSTP would never stop us).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in Self.handled { sigaddset(&unblock, number) }
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
    }

    private func removeSignals() {
        for number in Self.handled { signal(number, SIG_DFL) }
    }

    /// Runs until quit; returns the exit status (128 + the signal that ended it, if one did).
    /// While the loop is busy (a very tall message laid out, a long search), a stopping signal,
    /// ctrl-C or `q` is still answered within a tenth of a second (`ViewerWatchdog`).
    public func run() -> Int32 {
        installSignals()
        defer { removeSignals() }
        let watchdog = ViewerWatchdog(terminal: device.fileDescriptor)
        self.watchdog = watchdog
        watchdog.loop(busy: true)
        watchdog.start()
        defer { watchdog.stop() }
        enter()
        if let size = device.size { screen.resize(rows: size.rows, columns: size.columns) }
        guard draw() else { return finish(1) }
        while true {
            var fds = [pollfd(fd: device.fileDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: signalRead, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: watchdog.wakeRead, events: Int16(POLLIN), revents: 0)]
            if let handover { fds.append(pollfd(fd: handover.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
            let timeout = follow == nil ? -1 : followHasMore?() == true ? 0 : followInterval
            watchdog.quitKeyQuits.store(screen.quitKeyQuits, ordering: .sequentiallyConsistent)
            watchdog.loop(busy: false)
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            watchdog.loop(busy: true)
            if ready < 0 && errno != EINTR { return finish(1) }
            var redraw = false
            if fds[1].revents & Int16(POLLIN) != 0 {
                var buffer = [UInt8](repeating: 0, count: 64)
                let count = read(signalRead, &buffer, buffer.count)
                for number in buffer.prefix(max(0, count)).map(Int32.init) {
                    if number == viewerPendingStop.load(ordering: .sequentiallyConsistent) {
                        viewerPendingStop.store(0, ordering: .sequentiallyConsistent)
                    }
                    switch number {
                    case SIGWINCH:
                        if let size = device.size {
                            screen.resize(rows: size.rows, columns: size.columns)
                            redraw = true
                        }
                    case SIGTSTP:
                        suspend()
                        redraw = true
                    case SIGCONT:
                        redraw = true
                    default:
                        return finish(128 + number)
                    }
                }
            }
            let kept = fds[2].revents & Int16(POLLIN) != 0 ? watchdog.takeKeys() : []
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 || !kept.isEmpty {
                var bytes = kept
                if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    guard let read = device.read(timeoutMilliseconds: 0) else { return finish(1) }
                    bytes += read
                }
                var keys = decoder.decode(bytes, final: false)
                if keys.isEmpty, let more = device.read(timeoutMilliseconds: 30) {
                    keys = decoder.decode(more, final: true)  // a lone ESC, or the rest of a sequence
                }
                for key in keys {
                    switch screen.handle(key) {
                    case .quit: return finish(0)
                    case .suspend:
                        suspend()
                        redraw = true
                    case .redraw: redraw = true
                    case .none: break
                    }
                }
            }
            if fds.count > 3, fds[3].revents & Int16(POLLIN) != 0, let taken = handover?.take() {
                screen.replaceSource(taken.source, shift: taken.shift)
                screen.note = taken.note
                handover = nil
                redraw = true
            }
            switch follow?() {
            case .grew?:
                screen.sourceDidGrow()
                redraw = true
            case let .readAgain(note)?:
                screen.sourceWasReadAgain()
                screen.note = note
                redraw = true
            case let .notice(note, grew)?:
                if grew { screen.sourceDidGrow() }
                screen.note = note
                redraw = true
            case .unchanged?, nil:
                break
            }
            if redraw { guard draw() else { return finish(1) } }
        }
    }

    private func draw() -> Bool {
        device.write(screen.frameText())
    }

    /// Gives the terminal back, stops, and takes it again when continued.
    private func suspend() {
        leave()
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        // Continued.
        signal(SIGTSTP, recordSignal)
        enter()
        if let size = device.size { screen.resize(rows: size.rows, columns: size.columns) }
    }

    private func finish(_ status: Int32) -> Int32 {
        leave()
        return status
    }
}
