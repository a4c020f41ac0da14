import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An opened input, read once as a stream whatever it is (regular file, pipe, FIFO, process
/// substitution, standard input, bytes in memory): its first bytes are sniffed for a byte order
/// mark, then up to 64 KiB of decoded text are kept as `prefix` for format detection, and every
/// reader continues from that prefix rather than reading the input again.
final class InputFile {
    let path: String
    let display: String
    let magic: InputMagic
    /// The decoded bytes read so far for detection (the whole input when it is smaller).
    private(set) var prefix: [UInt8] = []
    /// True when `prefix` is the whole input.
    private(set) var prefixIsWhole = false
    /// Where the bytes come from.
    private let origin: Origin
    /// The decoded stream after `prefix`.
    private var source: ByteSource
    private var taken = false
    /// The parsed document, and whether `\xHH` escapes were allowed when it was parsed.
    private var document: (value: JSONValue, allowedHexEscapes: Bool)?
    /// Where a streamed document's text is kept, and its length, to parse it again.
    private var streamed: (text: any JSONElementText, length: Int)?

    static let detectionPrefix = 64 << 10
    /// What the reader should say once about the input's encoding (see `TextEncodingHint`).
    private(set) var notes: [String] = []

    private enum Origin {
        case descriptor(DescriptorSource)
        /// The whole raw input (before decoding), as the caller gave it.
        case memory([UInt8])
    }

    /// The descriptor being read, for a reader that takes the raw bytes after `prefix` itself (a
    /// zip archive, which is read by offset, or whole from a pipe); -1 for bytes in memory.
    var fileDescriptor: Int32 {
        if case .descriptor(let descriptor) = origin { return descriptor.descriptor }
        return -1
    }

    /// The raw input when it was given as bytes in memory (a zip archive is then read in place).
    var memoryBytes: [UInt8]? {
        if case .memory(let bytes) = origin { return bytes }
        return nil
    }

    convenience init(path: String, display: String) throws(LogInputError) {
        let descriptor: DescriptorSource
        if path == "-" {
            descriptor = DescriptorSource(descriptor: STDIN_FILENO, owns: false)
        } else {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 {
                throw LogInputError(file: display, message: "cannot open: \(String(cString: strerror(errno)))")
            }
            descriptor = DescriptorSource(descriptor: fd, owns: true)
        }
        try self.init(path: path, display: display, origin: .descriptor(descriptor), raw: descriptor)
    }

    /// `bytes` read as a file named `name` would be: the same chunks, so the same prefix.
    convenience init(bytes: [UInt8], name: String) throws(LogInputError) {
        try self.init(path: name, display: name, origin: .memory(bytes), raw: MemorySource(bytes))
    }

    private init(path: String, display: String, origin: Origin, raw: ByteSource) throws(LogInputError) {
        self.path = path
        self.display = display
        self.origin = origin
        var head: [UInt8] = []
        while head.count < InputMagic.longestMark, raw.read(appendingTo: &head) {}
        magic = InputMagic.sniff(head)
        let body = Array(head.dropFirst(min(magic.length, head.count)))
        switch magic {
        case .none, .utf8BOM:
            prefix = body
            source = raw
        case .utf16LittleEndian, .utf16BigEndian, .utf16LittleEndianUnmarked, .utf16BigEndianUnmarked:
            source = UTF16DecodingSource(PrefixedSource(head: body, rest: raw), bigEndian: magic.isBigEndian)
        case .utf32:
            throw LogInputError(file: display, message: "UTF-32 text (it starts with a UTF-32 byte order mark): save it as UTF-8 or UTF-16")
        }
        while prefix.count < Self.detectionPrefix && !Self.holdsFirstJSONLine(prefix) {
            guard source.read(appendingTo: &prefix) else {
                prefixIsWhole = true
                break
            }
        }
        if let code = source.readError {
            throw LogInputError(file: display, message: "cannot read: \(String(cString: strerror(code)))")
        }
        notes = TextEncodingHint.notes(magic: magic, decodedPrefix: prefix, isWhole: prefixIsWhole, file: display,
                                       path: path == "-" ? nil : path)
    }

    /// Whether `prefix` already says enough to detect the format: its first non-blank byte opens
    /// a JSON object and a line break follows, so the first line is whole. That line tells JSON
    /// Lines from an export (which is then read whole anyway), so a slow pipe of JSON Lines is
    /// read on as soon as its first record has come, not after 64 KiB.
    static func holdsFirstJSONLine(_ prefix: [UInt8]) -> Bool {
        guard let first = prefix.firstIndex(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
              prefix[first] == UInt8(ascii: "{") else { return false }
        return prefix[first...].contains(0x0A)
    }

    /// Lines streamed from the rest of the input, after the prefix. Call once.
    func streamingLines(crIsLineBreak: Bool = false) -> LineReader {
        precondition(!taken, "the input is read once")
        taken = true
        return LineReader(source: source, prefix: prefix, crIsLineBreak: crIsLineBreak)
    }

    /// Two passes over the lines, for a reader that must see the whole input before it can read
    /// it (WhatsApp's date order). The first pass streams the input; the second reads a regular
    /// file again through the same descriptor from the start (never reopening the path), and
    /// anything else from a copy the first pass kept in an unlinked temporary file. Memory holds
    /// one chunk either way. Bytes given in memory are read again where they are.
    func twoPassLines(crIsLineBreak: Bool) -> (first: LineReader, second: () throws(LogInputError) -> LineReader) {
        precondition(!taken, "the input is read once")
        taken = true
        let display = display
        let magic = magic
        let decoded = { (raw: ByteSource) -> ByteSource in
            magic.isUTF16 ? UTF16DecodingSource(raw, bigEndian: magic.isBigEndian) : raw
        }
        let descriptor: DescriptorSource
        switch origin {
        case .memory(let bytes):
            // Read again from memory, after the mark, as a regular file is read again from disk.
            let first = LineReader(source: source, prefix: prefix, crIsLineBreak: crIsLineBreak)
            return (first, { () throws(LogInputError) -> LineReader in
                LineReader(source: decoded(MemorySource(bytes, from: magic.length)), crIsLineBreak: crIsLineBreak)
            })
        case .descriptor(let opened):
            descriptor = opened
        }
        if descriptor.isSeekableFile {
            let first = LineReader(source: source, prefix: prefix, crIsLineBreak: crIsLineBreak)
            return (first, { () throws(LogInputError) -> LineReader in
                guard descriptor.seek(to: descriptor.startOffset + magic.length) else {
                    throw LogInputError(file: display, message: "cannot read the file a second time: \(String(cString: strerror(errno)))")
                }
                return LineReader(source: decoded(descriptor), crIsLineBreak: crIsLineBreak)
            })
        }
        let spool = SpoolingSource(source, alreadyRead: prefix)
        let first = LineReader(source: spool, prefix: prefix, crIsLineBreak: crIsLineBreak)
        return (first, { () throws(LogInputError) -> LineReader in
            guard let replay = spool.replay() else {
                throw LogInputError(file: display, message: spool.failure ?? "cannot read the input a second time")
            }
            return LineReader(source: replay, crIsLineBreak: crIsLineBreak)
        })
    }

    /// The whole decoded input, for formats that are one document; throws when it is larger than
    /// `budget` (checked against a regular file's size before reading, and as it is read).
    func wholeInput(budget: Int) throws(LogInputError) -> [UInt8] {
        if !prefixIsWhole {
            precondition(!taken, "the input is read once")
            var info = stat()
            let descriptor = fileDescriptor
            if descriptor >= 0, fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
                let size = Int(info.st_size)
                if size > budget { throw overBudget(size, budget: budget, exact: true) }
                prefix.reserveCapacity(size + 1)
            }
            while source.read(appendingTo: &prefix) {
                if prefix.count > budget { throw overBudget(prefix.count, budget: budget, exact: false) }
            }
            prefixIsWhole = true
            if prefix.count > budget { throw overBudget(prefix.count, budget: budget, exact: true) }
        } else if prefix.count > budget {
            throw overBudget(prefix.count, budget: budget, exact: true)
        }
        return prefix
    }

    private func overBudget(_ size: Int, budget: Int, exact: Bool) -> LogInputError {
        LogInputError(file: display, message: "\(byteCount(size))\(exact ? "" : " or more"), past the memory budget of \(byteCount(budget)) for a document read whole")
    }

    /// The whole input parsed as one JSON document (cached), streamed (`JSONStream`): its lists
    /// of messages are read element by element and read again from the input when asked for, so
    /// memory holds the rest of the document and one message, within `budget`
    /// (`LogReadOptions.memoryBudget`) for the trees. A document parsed leniently (for detection,
    /// which allows Telegram's `\xHH` escapes) is parsed again when strict JSON is asked for, so a
    /// Discord file never gets Telegram's leniency.
    func parseDocument(allowingHexEscapes: Bool, budget: Int) throws(LogInputError) -> JSONValue {
        if let document, allowingHexEscapes || !document.allowedHexEscapes { return document.value }
        let parser = JSONParser(allowsHexEscapes: allowingHexEscapes, deferring: .messageArrays,
                                maximumTreeBytes: LogReadOptions.maximumTreeBytes(budget: budget))
        // The cached tree goes before another is parsed: one at a time.
        document = nil
        let head: [UInt8], rest: ByteSource?, text: any JSONElementText
        if let streamed {
            // Parsed before: the same text again, from where it was kept.
            (head, rest, text) = ([], JSONTextSource(streamed.text, count: streamed.length), streamed.text)
        } else if prefixIsWhole {
            (head, rest, text) = (prefix, nil, JSONDocumentBytes(prefix))
        } else {
            precondition(!taken, "the input is read once")
            taken = true
            let kept: (any JSONElementText)?
            switch origin {
            case .memory(let bytes) where !magic.isUTF16:
                kept = JSONMemoryText(bytes, origin: magic.length)
            case .descriptor(let descriptor) where !magic.isUTF16 && descriptor.isSeekableFile:
                kept = JSONSpool(file: descriptor.descriptor, origin: descriptor.startOffset + magic.length)
            default:
                kept = JSONSpool()
            }
            guard let kept else {
                throw LogInputError(file: display, message: "cannot keep a copy of the input in a temporary file (\(String(cString: strerror(errno)))); set TMPDIR to a folder with room")
            }
            (head, rest, text) = (prefix, source, kept)
        }
        do {
            let (value, length) = try JSONStream.parse(prefix: head, source: rest, parser: parser, text: text)
            if let code = source.readError {
                throw LogInputError(file: display, message: "cannot read: \(String(cString: strerror(code)))")
            }
            if let failure = (text as? JSONSpool)?.failure { throw LogInputError(file: display, message: failure) }
            streamed = (text, length)
            document = (value, allowingHexEscapes)
            return value
        } catch let error as JSONSyntaxError {
            if let code = source.readError {
                throw LogInputError(file: display, message: "cannot read: \(String(cString: strerror(code)))")
            }
            if error.isOverBudget {
                throw LogInputError(file: display, line: error.line, message: "\(error.message), past the memory budget of \(byteCount(budget)) for a document read whole")
            }
            let what = error.isTruncation ? "truncated JSON" : "invalid JSON"
            // Objects one after another over several lines are JSON Lines pretty-printed: say how
            // to write the one record per line that JSON Lines is.
            let hint = error.anotherValueFollows ? " (several JSON values one after another: JSON Lines takes one record per line, as `jq -c .` writes it)" : ""
            throw LogInputError(file: display, line: error.line, message: "\(what) at column \(error.column): \(error.message); expected one complete JSON document\(hint)")
        } catch let error as LogInputError {
            throw error
        } catch {
            preconditionFailure("unreachable")
        }
    }
}
