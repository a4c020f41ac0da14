#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads lines of bytes from a file descriptor in fixed-size chunks, so memory holds one chunk and
/// one line whatever the size of the input. Lines end at LF; a CR before it is dropped.
final class LineReader {
    struct Line {
        /// 1-based.
        var number: Int
        var bytes: [UInt8]
        /// The line exceeded `maximumLineLength`; `bytes` holds only its start.
        var isTooLong: Bool
    }

    /// The descriptor still to read from; nil for memory input and once the end is reached.
    private var descriptor: Int32?
    private let closesDescriptor: Bool
    private var buffer: [UInt8]
    private var start = 0
    private var lineNumber = 0
    let maximumLineLength: Int
    /// The errno of a failed read, which ended the input early.
    private(set) var readError: Int32?

    /// Reads from `fileDescriptor`, after first serving `prefix` (bytes already read to detect the format).
    init(fileDescriptor: Int32, closesOnEnd: Bool, prefix: [UInt8] = [], maximumLineLength: Int = 16 << 20) {
        descriptor = fileDescriptor
        closesDescriptor = closesOnEnd
        buffer = prefix
        self.maximumLineLength = maximumLineLength
    }

    init(bytes: [UInt8], maximumLineLength: Int = 16 << 20) {
        descriptor = nil
        closesDescriptor = false
        buffer = bytes
        self.maximumLineLength = maximumLineLength
    }

    deinit { finish() }

    /// Stops reading and closes the descriptor if this reader owns it.
    func finish() {
        if let fd = descriptor, closesDescriptor { _ = systemClose(fd) }
        descriptor = nil
    }

    /// Appends the next chunk to the buffer (first dropping consumed bytes); false at end of input.
    private func fill() -> Bool {
        guard let fd = descriptor else { return false }
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        let chunk = 64 << 10
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        var got: Int
        repeat {
            got = buffer.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress! + oldCount, chunk) }
        } while got < 0 && errno == EINTR
        if got < 0 { readError = errno }
        buffer.removeLast(chunk - max(got, 0))
        if got <= 0 {
            finish()
            return false
        }
        return true
    }

    func next() -> Line? {
        var scanned = 0
        var tooLong = false
        while true {
            if let newline = buffer[(start + scanned)...].firstIndex(of: 0x0A) {
                return take(upTo: newline, resumeAt: newline + 1, tooLong: tooLong)
            }
            if buffer.count - start > maximumLineLength {
                // Keep the head for the diagnostic and let the rest stream past.
                tooLong = true
                buffer.removeSubrange((start + 256)..<buffer.count)
            }
            scanned = buffer.count - start
            if !fill() {
                guard start < buffer.count else { return nil }
                return take(upTo: buffer.count, resumeAt: buffer.count, tooLong: tooLong)
            }
        }
    }

    private func take(upTo end: Int, resumeAt resume: Int, tooLong: Bool) -> Line {
        var end = end
        if end > start && buffer[end - 1] == 0x0D { end -= 1 }
        if tooLong { end = min(end, start + 256) }
        let bytes = Array(buffer[start..<end])
        start = resume
        lineNumber += 1
        return Line(number: lineNumber, bytes: bytes, isTooLong: tooLong)
    }
}

private func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(fd)
    #else
    Darwin.close(fd)
    #endif
}
