#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes read once, in chunks, from whatever the input is: a regular file, a pipe, a FIFO, a
/// terminal or memory. Readers stack on one another (a descriptor, then a UTF-16 decoder, then a
/// copy kept for a second pass), and the line reader and the JSON parser only ever see the top one.
protocol ByteSource: AnyObject {
    /// Appends the next bytes (at most about one chunk) to `buffer`; false, having appended
    /// nothing, at the end of the input or after a read error (kept in `readError`).
    func read(appendingTo buffer: inout [UInt8]) -> Bool
    /// The errno of a failed read, which ended the input early.
    var readError: Int32? { get }
}

/// Reads a file descriptor in 64 KiB chunks.
final class DescriptorSource: ByteSource {
    private(set) var descriptor: Int32
    private let ownsDescriptor: Bool
    private(set) var readError: Int32?
    /// The end was reached; the descriptor stays open so that a regular file can be read again.
    private var ended = false
    static let chunk = 64 << 10

    /// Where reading began: standard input redirected from a file may already be partway in.
    let startOffset: Int

    init(descriptor: Int32, owns: Bool) {
        self.descriptor = descriptor
        ownsDescriptor = owns
        startOffset = max(0, Int(lseek(descriptor, 0, SEEK_CUR)))
    }

    deinit { close() }

    func close() {
        if descriptor >= 0, ownsDescriptor { _ = systemClose(descriptor) }
        descriptor = -1
    }

    /// Where each chunk is read, made on the first read and kept: appending a chunk of zeros to
    /// the caller's buffer for `read` to fill, then cutting it back, wrote 64 KiB for every read
    /// however few bytes came (a small file paid that twice, the second read finding the end).
    private var scratch: [UInt8] = []

    func read(appendingTo buffer: inout [UInt8]) -> Bool {
        guard descriptor >= 0, !ended else { return false }
        let got = SystemIO.read(descriptor, count: Self.chunk, appendingTo: &buffer, scratch: &scratch)
        if got < 0 { readError = errno }
        if got <= 0 {
            ended = true
            return false
        }
        return true
    }

    /// Whether the descriptor is a regular file, which can be read again from any offset.
    var isSeekableFile: Bool {
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Moves to `offset` (for a second pass over a regular file through the same descriptor, so
    /// the path is never opened again). False when the descriptor cannot seek.
    func seek(to offset: Int) -> Bool {
        guard descriptor >= 0, lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else { return false }
        ended = false
        readError = nil
        return true
    }
}

/// Serves bytes already in memory (`LogSource.open(bytes:name:)`), from `start`, in chunks of
/// `DescriptorSource.chunk` as a regular file's reads come: so detection sees the same prefix,
/// and every reader the same input, as when those bytes are read from a file.
final class MemorySource: ByteSource {
    private let bytes: [UInt8]
    private var offset: Int

    init(_ bytes: [UInt8], from start: Int = 0) {
        self.bytes = bytes
        offset = min(max(0, start), bytes.count)
    }

    var readError: Int32? { nil }

    func read(appendingTo buffer: inout [UInt8]) -> Bool {
        guard offset < bytes.count else { return false }
        let end = min(bytes.count, offset + DescriptorSource.chunk)
        buffer.append(contentsOf: bytes[offset..<end])
        offset = end
        return true
    }
}

/// Serves `head` (bytes already read, e.g. while sniffing the encoding), then `rest`.
final class PrefixedSource: ByteSource {
    private var head: [UInt8]
    private let rest: ByteSource

    init(head: [UInt8], rest: ByteSource) {
        self.head = head
        self.rest = rest
    }

    var readError: Int32? { rest.readError }

    func read(appendingTo buffer: inout [UInt8]) -> Bool {
        if !head.isEmpty {
            buffer += head
            head = []
            return true
        }
        return rest.read(appendingTo: &buffer)
    }
}

/// Decodes UTF-16 (after its byte order mark) into UTF-8 as it streams. An unpaired surrogate or
/// an odd last byte becomes U+FFFD, since UTF-16 has no other way to say "damaged here".
final class UTF16DecodingSource: ByteSource {
    private let inner: ByteSource
    private let bigEndian: Bool
    private var raw: [UInt8] = []
    private var highSurrogate: UInt32?
    private var ended = false

    init(_ inner: ByteSource, bigEndian: Bool) {
        self.inner = inner
        self.bigEndian = bigEndian
    }

    var readError: Int32? { inner.readError }

    func read(appendingTo buffer: inout [UInt8]) -> Bool {
        let before = buffer.count
        while buffer.count == before {
            guard !ended else { return false }
            if !inner.read(appendingTo: &raw) {
                ended = true
                if highSurrogate != nil { Self.appendUTF8(0xFFFD, to: &buffer) }
                highSurrogate = nil
                if !raw.isEmpty { Self.appendUTF8(0xFFFD, to: &buffer) }
                raw = []
                return buffer.count > before
            }
            let pairs = raw.count / 2
            buffer.reserveCapacity(buffer.count + pairs * 3)
            for k in 0..<pairs {
                let a = UInt32(raw[2 * k]), b = UInt32(raw[2 * k + 1])
                decode(bigEndian ? a << 8 | b : b << 8 | a, into: &buffer)
            }
            raw.removeFirst(pairs * 2)
        }
        return true
    }

    private func decode(_ unit: UInt32, into buffer: inout [UInt8]) {
        if let high = highSurrogate {
            highSurrogate = nil
            if (0xDC00...0xDFFF).contains(unit) {
                Self.appendUTF8(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00), to: &buffer)
                return
            }
            Self.appendUTF8(0xFFFD, to: &buffer)
        }
        switch unit {
        case 0xD800...0xDBFF: highSurrogate = unit
        case 0xDC00...0xDFFF: Self.appendUTF8(0xFFFD, to: &buffer)
        default: Self.appendUTF8(unit, to: &buffer)
        }
    }

    static func appendUTF8(_ scalar: UInt32, to buffer: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            buffer.append(UInt8(scalar))
        case 0x80..<0x800:
            buffer.append(UInt8(0xC0 | scalar >> 6)); buffer.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            buffer.append(UInt8(0xE0 | scalar >> 12)); buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            buffer.append(UInt8(0x80 | scalar & 0x3F))
        default:
            buffer.append(UInt8(0xF0 | scalar >> 18)); buffer.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F)); buffer.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}

/// Passes bytes through while keeping a copy for a second pass: in an unlinked temporary file, so
/// memory holds one chunk whatever the size of the input, or in memory when no temporary file can
/// be made.
final class SpoolingSource: ByteSource {
    private let inner: ByteSource
    private var spoolDescriptor: Int32
    private var memory: [UInt8] = []
    /// Why the copy is incomplete (a failed write), which makes a second pass impossible.
    private(set) var failure: String?

    /// `alreadyRead` is what came before `inner` (the detection prefix); it is kept first.
    init(_ inner: ByteSource, alreadyRead: [UInt8]) {
        self.inner = inner
        spoolDescriptor = makeUnlinkedTemporaryFile()
        keep(alreadyRead[...])
    }

    deinit { if spoolDescriptor >= 0 { _ = systemClose(spoolDescriptor) } }

    var readError: Int32? { inner.readError }

    func read(appendingTo buffer: inout [UInt8]) -> Bool {
        let before = buffer.count
        guard inner.read(appendingTo: &buffer) else { return false }
        keep(buffer[before...])
        return true
    }

    private func keep(_ bytes: ArraySlice<UInt8>) {
        guard failure == nil, !bytes.isEmpty else { return }
        guard spoolDescriptor >= 0 else {
            memory += bytes
            return
        }
        var rest = bytes
        while !rest.isEmpty {
            let written = SystemIO.writeSome(spoolDescriptor, rest)
            guard written > 0 else {
                failure = "cannot keep a copy of the input in a temporary file (\(String(cString: strerror(errno)))); set TMPDIR to a folder with room"
                return
            }
            rest = rest.dropFirst(written)
        }
    }

    /// A source over everything passed through so far, from its first byte. Call once, after the
    /// first pass has reached the end.
    func replay() -> ByteSource? {
        guard failure == nil else { return nil }
        guard spoolDescriptor >= 0 else {
            let bytes = memory
            memory = []
            return PrefixedSource(head: bytes, rest: EmptySource())
        }
        let source = DescriptorSource(descriptor: spoolDescriptor, owns: true)
        spoolDescriptor = -1
        guard source.seek(to: 0) else { return nil }
        return source
    }
}

final class EmptySource: ByteSource {
    var readError: Int32? { nil }
    func read(appendingTo buffer: inout [UInt8]) -> Bool { false }
}

/// A temporary file already unlinked (so nothing is left behind, whatever happens), or -1.
func makeUnlinkedTemporaryFile() -> Int32 {
    var folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    if folder.isEmpty { folder = "/tmp" }
    return SystemIO.unlinkedTemporaryFile(in: folder, prefix: "bubbles-spool-")
}

func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(fd)
    #else
    Darwin.close(fd)
    #endif
}
