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

    /// A source over `path` whose lines are read from byte `start` (a line's start), the first of
    /// them being line `firstLine`. Nil when the file cannot be opened.
    init?(path: String, readOptions: LogReadOptions, registry: CellRegistry = .standard, start: UInt64 = 0, firstLine: Int = 1) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        descriptor = fd
        self.path = path
        self.readOptions = readOptions
        self.registry = registry
        indexedEnd = start
        firstStart = start
        linesRead = firstLine - 1
    }

    deinit { close(descriptor) }

    /// The size of the file now.
    var fileSize: UInt64 {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? UInt64(status.st_size) : 0
    }

    /// Reads whole lines from where the last read stopped up to `end` (the file's size when nil),
    /// a block at a time; returns the number of messages added.
    @discardableResult
    func index(upTo end: UInt64? = nil) -> Int {
        let limit = end ?? fileSize
        let before = offsets.count
        let block = 1 << 20
        var buffer = [UInt8]()
        while indexedEnd < limit {
            let want = Int(min(UInt64(block), limit - indexedEnd))
            buffer = read(at: indexedEnd, count: want)
            guard !buffer.isEmpty else { break }
            var wholeEnd = buffer.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
            if wholeEnd == 0 {
                // A line longer than the block: read on to its end (or to the limit).
                var more = UInt64(buffer.count)
                while wholeEnd == 0 && indexedEnd + more < limit {
                    let next = read(at: indexedEnd + more, count: Int(min(UInt64(block), limit - indexedEnd - more)))
                    guard !next.isEmpty else { break }
                    buffer += next
                    more += UInt64(next.count)
                    wholeEnd = buffer.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
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

        var description: String {
            switch self {
            case .truncated: "file truncated"
            case .replaced: "file replaced"
            case .rewritten: "file rewritten"
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
            return .replaced
        }
        if UInt64(max(0, opened.st_size)) < indexedEnd { return .truncated }
        if !headBytes.isEmpty, read(at: firstStart, count: headBytes.count) != headBytes { return .rewritten }
        if !tailBytes.isEmpty, read(at: indexedEnd - UInt64(tailBytes.count), count: tailBytes.count) != tailBytes { return .rewritten }
        return nil
    }

    /// Forgets everything read and reads the file from its start again (reopening its name
    /// when it was replaced). The diagnostics of what it held before are kept, followed by a
    /// line saying why what follows was read again. False, changing nothing, when a replaced
    /// file's name cannot be opened (the old file is followed on until it can).
    @discardableResult
    func readAgain(because change: Change) -> Bool {
        if change == .replaced {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return false }
            close(descriptor)
            descriptor = fd
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
        rejectedEarlier += rejected
        rejected = 0
        blankLines = 0
        outgoing = 0
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
        var got = 0
        while got < count {
            let n = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + got, count - got, off_t(offset) + off_t(got)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
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
        return bytes.withUnsafeBufferPointer { buffer in
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
