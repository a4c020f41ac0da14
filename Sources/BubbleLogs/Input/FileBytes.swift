#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A whole file read into memory (an export's member, a font, a style file), or why it cannot be,
/// in the words the inputs use: "cannot open: No such file or directory", "cannot open:
/// Permission denied" (the system's `strerror`), "a folder", "a FIFO (named pipe), not opened".
public enum FileBytes {
    /// The bytes of the file at `path`. Opened without blocking and checked to be a regular file
    /// first, so a FIFO is not waited on and a folder is named as one. `atMost` stops the read
    /// after that many bytes (a header's prefix).
    public static func read(_ path: String, atMost limit: Int = .max) -> Result<[UInt8], FileBytesError> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(FileBytesError(reason: "cannot open: \(String(cString: strerror(errno)))")) }
        defer { _ = close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(FileBytesError(reason: "cannot read: \(String(cString: strerror(errno)))")) }
        let kind = kind(mode: info.st_mode)
        guard kind == .file else { return .failure(FileBytesError(reason: kind.description)) }
        var bytes: [UInt8] = []
        // Room for the size the file has now, so a large file (a 19 MB font) is not copied and
        // faulted in again at each doubling; a file that grows meanwhile is still read to its end.
        bytes.reserveCapacity(min(limit, max(0, Int(info.st_size))))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let got = SystemIO.readSome(fd, into: &chunk)
            if got < 0 { return .failure(FileBytesError(reason: "cannot read: \(String(cString: strerror(errno)))")) }
            if got == 0 { break }
            bytes += chunk[..<min(got, limit - bytes.count)]
            if bytes.count >= limit { break }
        }
        return .success(bytes)
    }

    /// What a file of `mode` is, for saying why it is not read.
    static func kind(mode: mode_t) -> ExportItemKind {
        switch mode & S_IFMT {
        case S_IFREG: .file
        case S_IFDIR: .folder
        case S_IFIFO: .fifo
        case S_IFSOCK: .special("a socket")
        case S_IFCHR, S_IFBLK: .special("a device")
        default: .special("not a regular file")
        }
    }
}

/// Why a file could not be read: the system's reason, or what the path is instead of a file.
public struct FileBytesError: Error, Sendable, Equatable {
    public var reason: String
}
