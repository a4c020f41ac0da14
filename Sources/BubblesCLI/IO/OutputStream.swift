import BubbleLogs
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Thrown when the reader of our output has gone away (`bubbles render log | head`).
public struct OutputClosed: Error {}

/// A write failed for a reason other than a closed pipe (a full disk, say).
public struct WriteFailed: Error, CustomStringConvertible {
    public var code: Int32
    public var description: String { "cannot write output: \(String(cString: strerror(code)))" }
}

/// Where a command writes. Standard output in the tool, a string in tests.
package protocol TextSink: AnyObject {
    func write(_ text: String) throws
    /// Writes UTF-8 `bytes` as they are (formatted output, already escaped).
    func write(bytes: [UInt8]) throws
    /// Writes UTF-8 bytes from memory the caller owns (an `OutputBuffer`), as they are.
    func write(contentsOf bytes: ByteView) throws
    func flush() throws
}

extension TextSink {
    package func write(bytes: [UInt8]) throws { try write(String(decoding: bytes, as: UTF8.self)) }
    package func write(contentsOf bytes: ByteView) throws { try write(bytes: bytes.array) }
}

/// A buffered writer on a file descriptor that reports a closed pipe as `OutputClosed`.
public final class FileSink: TextSink {
    private let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    private let capacity = 64 * 1024

    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        buffer.reserveCapacity(capacity)
    }

    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { try flush() }
    }

    public func write(bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    package func write(contentsOf bytes: ByteView) throws {
        guard bytes.count >= capacity else {
            buffer.append(contentsOf: bytes)
            if buffer.count >= capacity { try flush() }
            return
        }
        // A whole chunk of formatted rows: written from the caller's memory, not copied first.
        try flush()
        try writeAll(bytes)
    }

    public func flush() throws {
        defer { buffer.removeAll(keepingCapacity: true) }
        try buffer.withByteView { try writeAll($0) }
    }

    /// All of `bytes`, through as many `write` calls as it takes.
    private func writeAll(_ bytes: ByteView) throws {
        let code = SystemIO.writeAll(fileDescriptor, bytes)
        if code == EPIPE { throw OutputClosed() }
        if code != 0 { throw WriteFailed(code: code) }
    }

    /// Makes a closed pipe an EPIPE error rather than a fatal signal.
    public static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }
}

/// Collects output in memory, for tests.
public final class StringSink: TextSink {
    public private(set) var text = ""
    public init() {}
    public func write(_ text: String) throws { self.text += text }
    public func flush() throws {}
}
