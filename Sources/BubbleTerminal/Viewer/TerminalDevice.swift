#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The controlling terminal, opened as `/dev/tty` so keys and replies come from it even when
/// standard input is a pipe. Keeps the settings it found, to give them back.
public final class TerminalDevice {
    public let fileDescriptor: Int32
    private var saved = termios()
    private var hasSaved = false

    /// Opens `/dev/tty`; nil when the process has no terminal.
    public init?() {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        fileDescriptor = fd
        if tcgetattr(fd, &saved) == 0 { hasSaved = true }
    }

    /// A terminal already open as `fileDescriptor` (owned from now on: closed with this).
    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        if tcgetattr(fileDescriptor, &saved) == 0 { hasSaved = true }
    }

    deinit { close(fileDescriptor) }

    /// Raw input: no echo, no line editing, no signals from keys (ctrl-C arrives as a byte),
    /// reads return what is there.
    public func enterRawMode(signalsFromKeys: Bool = false) {
        guard hasSaved else { return }
        var raw = saved
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | IGNCR | ISTRIP | BRKINT)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | (signalsFromKeys ? 0 : ISIG))
        TerminalCalls.setReadTimers(&raw, minimum: 0, time: 0)
        tcsetattr(fileDescriptor, TCSANOW, &raw)
    }

    /// The settings found at opening, if they could be read.
    public var savedMode: termios? { hasSaved ? saved : nil }

    /// The settings found at opening (cooked mode, echo).
    public func restoreMode() {
        guard hasSaved else { return }
        tcsetattr(fileDescriptor, TCSANOW, &saved)
    }

    /// Drops input not yet read (a late probe reply must not reach the shell).
    public func discardInput() { tcflush(fileDescriptor, TCIFLUSH) }

    /// Writes all of `bytes`; false when the terminal is gone.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        TerminalDevice.writeAll(fileDescriptor, bytes)
    }

    @discardableResult
    public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Writes all of `bytes` to `fd`, retrying short writes and interruptions.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        TerminalCalls.writeAll(fd, bytes)
    }

    /// Bytes available within `timeoutMilliseconds` (an empty array when none came, nil when the
    /// terminal is gone).
    public func read(timeoutMilliseconds: Int32) -> [UInt8]? {
        var poller = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, timeoutMilliseconds)
        if ready <= 0 { return ready < 0 && errno != EINTR ? nil : [] }
        if poller.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 && poller.revents & Int16(POLLIN) == 0 { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = TerminalCalls.read(fileDescriptor, into: &buffer)
        if count < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
        if count == 0 { return nil }
        return Array(buffer[0..<count])
    }

    /// Rows and columns of the terminal, or nil.
    public var size: (rows: Int, columns: Int)? {
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_row), Int(size.ws_col))
    }
}
