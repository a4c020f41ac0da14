import BubbleLayout
import BubbleLogs
import BubbleTerminal
#if canImport(Glibc)
import Glibc
#endif

/// A JSON Lines file as the viewer's source: only where each message's line starts is kept (and
/// a hash of its id, to refuse repeated ids and find replies), and the messages on screen are
/// decoded again from the file's bytes when asked for. So memory is a few tens of bytes a
/// message, not the messages.
///
/// It is built by reading the file once (`index(…)`) as the JSON Lines reader reads it: every
/// record is decoded and checked once, and rejected lines and refused messages are reported
/// then (and never become positions). Appended lines are read the same way (`index()`), once
/// `change()` has found the bytes already read unchanged; when they changed (the file was
/// truncated, rewritten or replaced), `readAgain()` starts over from the file's start.
final class JSONLinesFileSource: ViewerSource {
    let path: String
    let readOptions: LogReadOptions
    private let registry: CellRegistry
    private var descriptor: Int32
    /// Where the first line read starts (after a byte order mark, or a tail's first line).
    private var firstStart: UInt64
    /// The first and last bytes read so far (up to `Self.checkedBytes` each), to tell a file
    /// rewritten under us from one that only grew.
    private var headBytes: [UInt8] = []
    private var tailBytes: [UInt8] = []
    static let checkedBytes = 64
    /// Where each message's line starts in the file.
    private(set) var offsets: [UInt64] = []
    /// The first position of each id hash; ids whose hash an earlier different id had, by name.
    private var positionsByHash: [Int: Int32] = [:]
    private var collidedIDs: [String: Int32] = [:]
    /// The parties of the first messages read (`PartyWindow`), or of the file's head (a tail).
    var parties = PartyWindow()
    /// Each conversation's messages and names (the viewer shows each as a section of its own).
    let sections: ConversationSections? = ConversationSections()
    /// Bytes and lines of the file read so far.
    private(set) var indexedEnd: UInt64
    private(set) var linesRead: Int
    /// Rejected records and refused messages, as `file:line: reason`, in file order.
    private(set) var diagnostics: [String] = []
    private(set) var rejected = 0
    /// Records rejected in what the file held before it was read again (they were listed).
    private(set) var rejectedEarlier = 0
    /// Blank lines skipped, and messages from the `--me` sender (outgoing).
    private(set) var blankLines = 0
    private(set) var outgoing = 0
    /// Records read with a warning.
    private(set) var warnings = 0
    /// Why the last `readAgain` did not read the name again, when it leads to something that is
    /// not a regular file.
    private(set) var refusal: Change?

    /// A source over `path` whose lines are read from byte `start` (a line's start), the first of
    /// them being line `firstLine`. Nil when the file cannot be opened.
    init?(path: String, readOptions: LogReadOptions, registry: CellRegistry = .standard, start: UInt64 = 0, firstLine: Int = 1) {
        guard case let .opened(fd) = Self.openRegularFile(path) else { return nil }
        descriptor = fd
        self.path = path
        self.readOptions = readOptions
        self.registry = registry
        indexedEnd = start
        firstStart = start
        linesRead = firstLine - 1
    }

    deinit { close(descriptor) }

    /// What opening a followed name found.
    enum Opening {
        case opened(Int32)
        /// The name leads to something other than a regular file (`kind` names it).
        case notRegular(kind: String)
        case failed
    }

    /// Opens `path` for reading without ever waiting: a FIFO opened plainly blocks until a
    /// writer comes, so the name is opened non-blocking and kept only when `fstat` finds a
    /// regular file.
    static func openRegularFile(_ path: String) -> Opening {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return .failed }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            close(fd)
            return .failed
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return .notRegular(kind: kind(of: status.st_mode))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return .opened(fd)
    }

    /// What a file of `mode` is, in words.
    static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a folder"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    /// The size of the file now.
    var fileSize: UInt64 {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? UInt64(status.st_size) : 0
    }

    /// Reads whole lines from where the last read stopped up to `end` (the file's size when nil),
    /// a block at a time, and at most about `budget` bytes (a line is read whole, or skipped, so
    /// one may go past it); returns the number of messages added. A line longer than
    /// `LineLimit.bytes` is rejected as every reader rejects it (`file:line: line longer than 16
    /// MiB`) and skipped a block at a time, never held: memory stays a few blocks whatever the
    /// file holds. One still being written (no newline yet) is skipped as it grows.
    @discardableResult
    func index(upTo end: UInt64? = nil, budget: UInt64 = .max) -> Int {
        let limit = end ?? fileSize
        let before = offsets.count
        let block = 1 << 20
        let startedAt = indexedEnd
        stoppedAtBudget = false
        while indexedEnd < limit {
            if indexedEnd - startedAt >= budget {
                stoppedAtBudget = true
                break
            }
            if skippingLongLine {
                let chunk = read(at: indexedEnd, count: Int(min(UInt64(block), limit - indexedEnd)))
                guard !chunk.isEmpty else { break }
                let taken = chunk.firstIndex(of: 0x0A).map { $0 + 1 } ?? chunk.count
                if taken <= chunk.count && chunk[taken - 1] == 0x0A { skippingLongLine = false }
                rememberEnds(chunk[0..<taken])
                indexedEnd += UInt64(taken)
                continue
            }
            let want = Int(min(UInt64(block), limit - indexedEnd))
            var buffer = read(at: indexedEnd, count: want)
            guard !buffer.isEmpty else { break }
            var wholeEnd = buffer.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            if wholeEnd == 0 {
                // A line longer than the block: read on to its end (or to the limit), no further
                // than the line limit.
                var more = UInt64(buffer.count)
                while wholeEnd == 0 && indexedEnd + more < limit && buffer.count <= LineLimit.bytes {
                    let next = read(at: indexedEnd + more, count: Int(min(UInt64(block), limit - indexedEnd - more)))
                    guard !next.isEmpty else { break }
                    buffer += next
                    more += UInt64(next.count)
                    wholeEnd = buffer.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                }
                // The line is the buffer's start, up to its first newline (or all of it).
                let lineEnd = buffer.firstIndex(of: 0x0A) ?? buffer.count
                let lineLength = lineEnd > 0 && buffer[lineEnd - 1] == 0x0D ? lineEnd - 1 : lineEnd
                if lineLength > LineLimit.bytes {
                    rejectLongLine()
                    let taken = lineEnd < buffer.count ? lineEnd + 1 : buffer.count
                    skippingLongLine = lineEnd == buffer.count
                    rememberEnds(buffer[0..<taken])
                    indexedEnd += UInt64(taken)
                    continue
                }
                // The last line of a file that does not end in a newline is whole once the file's
                // end is reached; a line still being written is left for the next read.
                if wholeEnd == 0 {
                    if end == nil || indexedEnd + UInt64(buffer.count) < limit { break }
                    wholeEnd = buffer.count
                }
            }
            take(Array(buffer[0..<wholeEnd]), at: indexedEnd)
            indexedEnd += UInt64(wholeEnd)
            rememberEnds(buffer[0..<wholeEnd])
        }
        return offsets.count - before
    }

    /// Whether the last `index` stopped at its budget with more of the file to read.
    private(set) var stoppedAtBudget = false
    /// Whether the bytes from `indexedEnd` on are the rest of a line already rejected as too long.
    private var skippingLongLine = false

    /// Reports the line after those read as too long (as `LineReader`'s readers do) and counts it.
    private func rejectLongLine() {
        linesRead += 1
        rejected += 1
        diagnostics.append(LogDiagnostic(position: LogPosition(file: path, line: linesRead), reason: LineLimit.reason).description)
    }

    /// Keeps the first and last bytes read, which `change()` reads again.
    private func rememberEnds(_ read: ArraySlice<UInt8>) {
        let checked = Self.checkedBytes
        if headBytes.count < checked {
            headBytes += read.prefix(checked - headBytes.count)
        }
        tailBytes = Array((tailBytes + read.suffix(checked)).suffix(checked))
    }

    /// How the file differs from what was read, beyond growing at its end.
    enum Change: Equatable, CustomStringConvertible {
        /// It is shorter than what was read.
        case truncated
        /// Its name now leads to another file (a new file renamed over it, as editors save).
        case replaced
        /// Bytes already read hold something else now (rewritten in place, even if longer).
        case rewritten
        /// Its name now leads to something that is not a regular file (`kind`: "a FIFO"), which
        /// is never opened: the open file is followed on.
        case notRegular(kind: String)

        var description: String {
            switch self {
            case .truncated: "file truncated"
            case .replaced: "file replaced"
            case .rewritten: "file rewritten"
            case let .notRegular(kind): "the name is now \(kind), not a file: not followed there (the file opened before is shown)"
            }
        }
    }

    /// Whether the file still holds what was read, followed by anything: nil when it does. Cheap
    /// enough for every follow tick (a `stat`, an `fstat` and two reads of 64 bytes): the size
    /// tells a truncation, the inode a replacement, and the first and last bytes read, read
    /// again, a rewrite (the usual `>` redirection truncates, then writes, and a tick may see it
    /// already longer than before). A rewrite that keeps both ends, byte for byte, and the size
    /// at least, is not seen; `tail -f` and `less +F` look at the size alone.
    func change() -> Change? {
        var opened = stat(), named = stat()
        guard fstat(descriptor, &opened) == 0 else { return nil }
        // A name that leads nowhere (removed, or between an unlink and a rename): keep following
        // the open file, as `tail -f` does.
        if stat(path, &named) == 0, named.st_dev != opened.st_dev || named.st_ino != opened.st_ino {
            return named.st_mode & S_IFMT == S_IFREG ? .replaced : .notRegular(kind: Self.kind(of: named.st_mode))
        }
        if UInt64(max(0, opened.st_size)) < indexedEnd { return .truncated }
        if !headBytes.isEmpty, read(at: firstStart, count: headBytes.count) != headBytes { return .rewritten }
        if !tailBytes.isEmpty, read(at: indexedEnd - UInt64(tailBytes.count), count: tailBytes.count) != tailBytes { return .rewritten }
        return nil
    }

    /// Forgets everything read and reads the file from its start again (reopening its name
    /// when it was replaced). The diagnostics of what it held before are kept, followed by a
    /// line saying why what follows was read again. False, changing nothing, when a replaced
    /// file's name cannot be opened or is not a regular file (the old file is followed on until
    /// it can be); `refusal` then says why, when the name leads to something not a file.
    @discardableResult
    func readAgain(because change: Change) -> Bool {
        refusal = nil
        if case .notRegular = change {
            refusal = change
            return false
        }
        if change == .replaced {
            switch Self.openRegularFile(path) {
            case let .opened(fd):
                close(descriptor)
                descriptor = fd
            case let .notRegular(kind):
                refusal = .notRegular(kind: kind)
                return false
            case .failed:
                return false
            }
        }
        let mark = read(at: 0, count: 3)
        firstStart = mark == [0xEF, 0xBB, 0xBF] ? 3 : 0
        indexedEnd = firstStart
        linesRead = 0
        offsets = []
        positionsByHash = [:]
        collidedIDs = [:]
        parties = PartyWindow()
        sections?.removeAll()
        headBytes = []
        tailBytes = []
        skippingLongLine = false
        rejectedEarlier += rejected
        rejected = 0
        blankLines = 0
        outgoing = 0
        warnings = 0
        diagnostics.append("\(DiagnosticText.escaped(path)): \(change) while viewed: read again from its start (line numbers after this one are of its new lines)")
        index()
        return true
    }

    /// Decodes the whole lines `bytes` (starting at file offset `start`) and keeps their messages.
    private func take(_ bytes: [UInt8], at start: UInt64) {
        var lineStarts: [UInt64] = [start]
        for index in bytes.indices where bytes[index] == 0x0A && index + 1 < bytes.count {
            lineStarts.append(start + UInt64(index + 1))
        }
        let firstLine = linesRead + 1
        var linesWithEntries = 0
        for entry in LogSource.jsonLines(bytes, file: path, firstLine: firstLine, options: readOptions) {
            switch entry {
            case let .message(record, position):
                linesWithEntries += 1
                let line = position.line ?? firstLine
                do { _ = try registry.index(for: record) } catch {
                    refuse(record.id, line: line, error: .layout(error))
                    continue
                }
                if self.position(ofID: record.id) != nil {
                    refuse(record.id, line: line, error: .duplicateID(record.id))
                    continue
                }
                let position = Int32(offsets.count)
                let hash = record.id.hashValue
                if positionsByHash[hash] == nil { positionsByHash[hash] = position } else { collidedIDs[record.id] = position }
                offsets.append(lineStarts[min(lineStarts.count - 1, max(0, line - firstLine))])
                let sender = ViewerMessages.incomingBubbleSender(record, registry: registry)
                parties.count(incomingBubbleSender: sender)
                sections?.append(conversationID: record.conversationID, incomingBubbleSender: sender)
                if record.direction == .outgoing { outgoing += 1 }
            case let .diagnostic(diagnostic):
                if !diagnostic.isWarning {
                    rejected += 1
                    linesWithEntries += 1
                } else {
                    warnings += 1
                }
                diagnostics.append(diagnostic.description)
            }
        }
        // A file without a final newline: its last line is one line, counted once.
        let lineCount = lineStarts.count - (bytes.isEmpty ? 1 : 0)
        blankLines += max(0, lineCount - linesWithEntries)
        linesRead += lineCount
    }

    private func refuse(_ id: String, line: Int, error: ConversationError) {
        rejected += 1
        diagnostics.append("\(LogPosition(file: path, line: line)): message \(DiagnosticText.escaped(id)): \(error)")
    }

    /// `count` bytes at `offset` (fewer at the end of the file).
    private func read(at offset: UInt64, count: Int) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        let got = SystemIO.read(descriptor, at: Int(offset), into: &buffer, start: 0, count: count)
        buffer.removeSubrange(got...)
        return buffer
    }

    /// Bytes the index holds: the offsets, the id hashes (a dictionary's slots: key, value and
    /// a bit of occupancy each), the ids that collided, and each conversation's positions when
    /// there are several.
    var indexBytes: Int {
        offsets.capacity * 8 + positionsByHash.capacity * (8 + 4) + positionsByHash.capacity / 8
            + collidedIDs.count * 40 + (sections?.listBytes ?? 0)
    }

    // MARK: ViewerSource

    var count: Int { offsets.count }
    var otherParties: Int { parties.otherParties }

    func messages(in range: Range<Int>) -> [any MessageModel] {
        guard !range.isEmpty else { return [] }
        let start = offsets[range.lowerBound]
        let last = offsets[range.upperBound - 1]
        // One read from the first line to the end of the last; then only the indexed lines.
        var block = read(at: start, count: Int(last - start) + 4096)
        while Int(last - start) < block.count, !block[Int(last - start)...].contains(0x0A),
              start + UInt64(block.count) < indexedEnd {
            let more = read(at: start + UInt64(block.count), count: 1 << 16)
            if more.isEmpty { break }
            block += more
        }
        var lines: [UInt8] = []
        for position in range {
            let from = Int(offsets[position] - start)
            guard from < block.count else { break }  // the file is shorter now than when indexed
            let to = block[from...].firstIndex(of: 0x0A) ?? block.count
            lines += block[from..<to]
            lines.append(0x0A)
        }
        return LogSource.jsonLines(lines, file: path, options: readOptions).compactMap(\.record)
    }

    func position(ofID id: String) -> Int? {
        if let position = collidedIDs[id] { return Int(position) }
        guard let position = positionsByHash[id.hashValue].map(Int.init) else { return nil }
        return messages(in: position..<(position + 1)).first?.id == id ? position : nil
    }

    /// Skips blocks that cannot hold an ASCII query without decoding them: a block is decoded
    /// only when its bytes hold the query (ASCII case folded) or a JSON escape that could spell
    /// it.
    func find(from start: Int, forward: Bool, query: SearchMatcher, matches: (any MessageModel) -> Bool) -> Int? {
        let block = 512
        var low = forward ? max(0, start) : max(0, start + 1 - block)
        var high = forward ? min(count, start + block) : min(count, start + 1)
        while low < high {
            if mayHold(query, low..<high) {
                let models = messages(in: low..<high)
                let ordered = forward ? Array(models.enumerated()) : models.enumerated().reversed()
                for (offset, model) in ordered where matches(model) { return low + offset }
            }
            if forward {
                low = high
                high = min(count, high + block)
            } else {
                high = low
                low = max(0, low - block)
            }
        }
        return nil
    }

    /// Whether the lines of `range` could hold `query`: always, unless the query is ASCII and
    /// free of what JSON escapes, and the bytes hold neither it nor a `\u` escape (the only
    /// escape that can spell a letter, digit or space).
    private func mayHold(_ query: SearchMatcher, _ range: Range<Int>) -> Bool {
        guard let needle = query.asciiNeedle, !needle.isEmpty,
              !needle.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "/") }) else { return true }
        let start = offsets[range.lowerBound]
        let end = range.upperBound < count ? offsets[range.upperBound] : indexedEnd
        let bytes = read(at: start, count: Int(end - start))
        return bytes.withByteView { buffer in
            let n = buffer.count, m = needle.count
            var i = 0
            while i < n {
                let byte = buffer[i]
                if byte == UInt8(ascii: "\\") && i + 1 < n && buffer[i + 1] == UInt8(ascii: "u") { return true }
                if SearchMatcher.folded(byte) == needle[0] && i + m <= n {
                    var k = 1
                    while k < m && SearchMatcher.folded(buffer[i + k]) == needle[k] { k += 1 }
                    if k == m { return true }
                }
                i += 1
            }
            return false
        }
    }
}
