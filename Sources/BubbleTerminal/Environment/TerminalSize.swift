#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the transcript width comes from, in order of precedence.
public enum TerminalWidth {
    /// `--width`, else `COLUMNS`, else `measured` (the terminal's size), else 80.
    public static func resolve(explicit: Int?, environment: [String: String], measured: () -> Int?) -> Int {
        if let explicit { return explicit }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        if let measured = measured() { return measured }
        return 80
    }

    /// Columns of the terminal behind `fileDescriptor`, or nil when it is not a terminal.
    public static func windowColumns(_ fileDescriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Columns of the process's controlling terminal (`/dev/tty`), or nil when it has none: the
    /// terminal a pager draws piped output in (`bubbles render | less -R`), as git and bat ask it.
    public static func controllingTerminalColumns() -> Int? {
        let descriptor = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return windowColumns(descriptor)
    }

    /// True when `fileDescriptor` is a terminal.
    public static func isTerminal(_ fileDescriptor: Int32) -> Bool {
        isatty(fileDescriptor) == 1
    }

    /// True when `fileDescriptor` is a regular file (`render > chat.txt`): what is written there
    /// is drawn later, by whatever shows the file, not by the terminal the command runs in.
    public static func isRegularFile(_ fileDescriptor: Int32) -> Bool {
        var info = stat()
        return fstat(fileDescriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
