#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads lines of bytes from a `ByteSource` one chunk at a time, so memory holds one chunk and one
/// line whatever the size of the input.
///
/// Lines end at LF, and a CR before it is dropped. With `crIsLineBreak` a lone CR ends a line too
/// (old Mac files; CRLF is still one break), for formats where a bare CR has no other meaning.
/// Used by one thread at a time, its methods never reentering one another: its state is kept in a
/// `ConfinedStorage`, without run-time exclusivity checks (see `LogReader`).
final class LineReader {
    struct Line {
        /// 1-based.
        var number: Int
        var bytes: [UInt8]
        /// The line exceeded `maximumLineLength`; `bytes` holds only its start.
        var isTooLong: Bool
    }

    /// What changes with every line, without run-time exclusivity checks (`ConfinedStorage`).
    private let state: ConfinedStorage<State>

    private struct State {
        /// The source still to read from; nil for memory input and once the end is reached.
        var source: ByteSource?
        var buffer: [UInt8]
        var start = 0
        var lineNumber = 0
    }
    private let crIsLineBreak: Bool
    let maximumLineLength: Int
    /// The errno of a failed read, which ended the input early.
    private(set) var readError: Int32?

    /// Reads from `source`, after first serving `prefix` (bytes already read to detect the format).
    init(source: ByteSource, prefix: [UInt8] = [], crIsLineBreak: Bool = false, maximumLineLength: Int = LineLimit.bytes) {
        state = ConfinedStorage(State(source: source, buffer: prefix))
        self.crIsLineBreak = crIsLineBreak
        self.maximumLineLength = maximumLineLength
    }

    /// Reads from a descriptor, closing it at the end when `closesOnEnd`.
    convenience init(fileDescriptor: Int32, closesOnEnd: Bool, prefix: [UInt8] = [], maximumLineLength: Int = LineLimit.bytes) {
        self.init(source: DescriptorSource(descriptor: fileDescriptor, owns: closesOnEnd), prefix: prefix,
                  maximumLineLength: maximumLineLength)
    }

    init(bytes: [UInt8], crIsLineBreak: Bool = false, maximumLineLength: Int = LineLimit.bytes) {
        state = ConfinedStorage(State(source: nil, buffer: bytes))
        self.crIsLineBreak = crIsLineBreak
        self.maximumLineLength = maximumLineLength
    }

    /// Stops reading (a descriptor this reader owns is closed when its source goes).
    func finish() {
        state.value.source = nil
    }

    /// Appends the next chunk to the buffer (first dropping consumed bytes); false at end of input.
    private func fill() -> Bool {
        guard let source = state.value.source else { return false }
        if state.value.start > 0 {
            state.value.buffer.removeSubrange(0..<state.value.start)
            state.value.start = 0
        }
        guard source.read(appendingTo: &state.value.buffer) else {
            readError = source.readError
            finish()
            return false
        }
        return true
    }

    /// The index of the first LF (or CR, when it breaks lines) at or after `from`.
    private func firstBreak(from: Int) -> Int? {
        state.value.buffer.withByteView { bytes in
            var i = from
            if crIsLineBreak {
                while i < bytes.count {
                    if bytes[i] == 0x0A || bytes[i] == 0x0D { return i }
                    i += 1
                }
                return nil
            }
            return i < bytes.count ? bytes.firstIndex(of: 0x0A, from: i, to: bytes.count) : nil
        }
    }

    /// True when the next line is not all in memory yet, so `next` will read more input, and
    /// may wait for it (a slow pipe).
    var mayWaitForInput: Bool { state.value.source != nil && firstBreak(from: state.value.start) == nil }

    func next() -> Line? {
        guard let (range, number, tooLong) = nextRange() else { return nil }
        return Line(number: number, bytes: Array(state.value.buffer[range]), isTooLong: tooLong)
    }

    /// Calls `body` with the next line's bytes where they lie in the buffer (no copy), its
    /// number and whether it was too long; nil at the end of input.
    func withNextLine<R>(_ body: (ByteView, Int, Bool) throws -> R) rethrows -> R? {
        guard let (range, number, tooLong) = nextRange() else { return nil }
        return try state.value.buffer.withByteView { (bytes) throws -> R in try body(bytes.bytes(range), number, tooLong) }
    }

    /// The next line's place in `buffer` (valid until the next call), its number and whether it was too long.
    private func nextRange() -> (Range<Int>, Int, Bool)? {
        var scanned = 0
        var tooLong = false
        while true {
            if let newline = firstBreak(from: state.value.start + scanned) {
                if state.value.buffer[newline] == 0x0A {
                    return take(upTo: newline, resumeAt: newline + 1, tooLong: tooLong)
                }
                // A CR: the break is CRLF when an LF follows, which may be in the next chunk.
                if newline + 1 == state.value.buffer.count {
                    let offset = newline - state.value.start
                    if fill() {
                        scanned = offset
                        continue
                    }
                    return take(upTo: state.value.start + offset, resumeAt: state.value.start + offset + 1, tooLong: tooLong, dropsCR: false)
                }
                let resume = state.value.buffer[newline + 1] == 0x0A ? newline + 2 : newline + 1
                return take(upTo: newline, resumeAt: resume, tooLong: tooLong, dropsCR: false)
            }
            if state.value.buffer.count - state.value.start > maximumLineLength {
                // Keep the head for the diagnostic and let the rest stream past.
                tooLong = true
                state.value.buffer.removeSubrange((state.value.start + 256)..<state.value.buffer.count)
            }
            scanned = state.value.buffer.count - state.value.start
            if !fill() {
                guard state.value.start < state.value.buffer.count else { return nil }
                return take(upTo: state.value.buffer.count, resumeAt: state.value.buffer.count, tooLong: tooLong)
            }
        }
    }

    private func take(upTo end: Int, resumeAt resume: Int, tooLong: Bool, dropsCR: Bool = true) -> (Range<Int>, Int, Bool) {
        var end = end
        if dropsCR, end > state.value.start && state.value.buffer[end - 1] == 0x0D { end -= 1 }
        if tooLong { end = min(end, state.value.start + 256) }
        let range = state.value.start..<end
        state.value.start = resume
        state.value.lineNumber += 1
        return (range, state.value.lineNumber, tooLong)
    }
}
