#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the transcript width comes from, in order of precedence.
public enum TerminalWidth {
    /// `--width`, else `COLUMNS`, else the terminal's size (TIOCGWINSZ on stdout), else 80.
    public static func resolve(explicit: Int?, environment: [String: String], fileDescriptor: Int32 = 1) -> Int {
        if let explicit { return explicit }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        if let measured = windowColumns(fileDescriptor) { return measured }
        return 80
    }

    /// Columns of the terminal behind `fileDescriptor`, or nil when it is not a terminal.
    public static func windowColumns(_ fileDescriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
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
