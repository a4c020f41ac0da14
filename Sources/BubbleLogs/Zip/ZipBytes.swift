#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Random access to an archive's bytes: a zip is read from its end (the central directory) and
/// then at each entry's offset, so a file is read with `pread` where it lies and only a pipe is
/// held in memory.
protocol ZipBytes {
    var count: Int { get }
    /// Exactly `length` bytes at `offset`, which the caller has checked lie inside `count`; nil if
    /// the read fails (an I/O error, or a file that shrank under us).
    func read(at offset: Int, length: Int) -> [UInt8]?
}

/// An archive held in memory.
struct MemoryZipBytes: ZipBytes {
    let bytes: [UInt8]
    var count: Int { bytes.count }

    func read(at offset: Int, length: Int) -> [UInt8]? {
        guard offset >= 0, length >= 0, offset <= bytes.count - length else { return nil }
        return Array(bytes[offset..<(offset + length)])
    }
}

/// An archive read from a regular file through its descriptor, which this owns and closes.
final class FileZipBytes: ZipBytes {
    private let descriptor: Int32
    let count: Int

    init(descriptor: Int32, count: Int) {
        self.descriptor = descriptor
        self.count = count
    }

    deinit { _ = close(descriptor) }

    func read(at offset: Int, length: Int) -> [UInt8]? {
        guard offset >= 0, length >= 0, offset <= count - length else { return nil }
        return SystemIO.read(descriptor, at: offset, length: length)
    }
}
