#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes records as native JSON Lines (`bubbles convert`), buffered, to a file descriptor.
///
/// Each record is one line: `{"id":…,"type":…,"from":…,"outgoing":…,"date":…,…}`. Strings are
/// escaped so the output carries no raw control or bidi characters.
public final class NativeLogWriter {
    private let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    /// Records written so far.
    public private(set) var recordsWritten = 0

    /// Writes to `fileDescriptor` (1 for standard output). The descriptor is not closed.
    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        buffer.reserveCapacity(1 << 16)
    }

    /// One record as its native line, without the newline.
    public static func line(for record: any LogRecord) -> String { record.nativeLine }

    /// Appends one record; flushes when the buffer fills. Throws `NativeLogWriteError` (EPIPE included).
    public func write(_ record: any LogRecord) throws(NativeLogWriteError) {
        buffer.append(contentsOf: record.nativeLine.utf8)
        buffer.append(0x0A)
        recordsWritten += 1
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes out everything buffered.
    public func flush() throws(NativeLogWriteError) {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { raw in
                #if canImport(Glibc)
                Glibc.write(fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
                #else
                Darwin.write(fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                buffer.removeAll(keepingCapacity: true)
                throw NativeLogWriteError(errorNumber: code)
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// A failed write: `isBrokenPipe` lets `convert | head` end quietly.
public struct NativeLogWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    public var errorNumber: Int32
    public var isBrokenPipe: Bool { errorNumber == EPIPE }
    public var description: String { "write failed: \(String(cString: strerror(errorNumber)))" }
}
