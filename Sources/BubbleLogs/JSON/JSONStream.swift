#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON document read in one streamed pass, its lists of messages (arrays that are the value of
/// a member named `messages`) deferred without holding the document: memory holds one chunk of
/// input, one element at a time, the text outside those lists (the skeleton), and 24 bytes and a
/// line per element.
///
/// As the input streams past, each element of a list is parsed (so checked, within the tree
/// budget), let go, and remembered as the byte range it lies at; the elements are read again from
/// `JSONElementText` (the file through its descriptor, a copy of a pipe in an unlinked temporary
/// file, or bytes already in memory) when a reader asks for them. The rest of the document is kept
/// as text with one marker byte for each list and parsed by `JSONParser.parse(skeleton:)`, which
/// goes on after a marker on the line and column the list ended at. Values, lines and errors are
/// those of `JSONParser.parse(document:)` with `.messageArrays` over the whole text, except that an
/// element past the tree budget is reported where it passes the budget.
enum JSONStream {
    /// The byte that stands for a list in a skeleton (never a valid byte between JSON tokens).
    static let marker: UInt8 = 0x01

    /// A list read while streaming.
    struct List: Sendable {
        var ranges: [Range<Int>] = []
        var lines: [Int] = []
        /// The line and column of the byte after the list's `]`.
        var endLine = 1
        var endColumn = 1
        /// The error the document has in or right after this list: nothing after it was read.
        var failure: JSONSyntaxError?
    }

    /// A document's text outside its lists, and the lists by the offset of their marker.
    struct Skeleton: Sendable {
        var bytes: [UInt8] = []
        var arrays: [Int: List] = [:]
        let text: any JSONElementText
    }

    /// Reads the document `prefix` then `source` hold (returning it and how many bytes that was), with `parser`'s options (its `deferring`
    /// is taken as `.messageArrays`). `text` is where elements are read again, at the offsets
    /// counted from the first byte of `prefix`; when it is a `JSONSpool` every byte read is kept
    /// in it.
    static func parse(prefix: [UInt8], source: ByteSource?, parser: JSONParser, text: any JSONElementText)
        throws(JSONSyntaxError) -> (value: JSONValue, length: Int) {
        var scanner = Scanner(window: prefix, source: source, parser: parser, text: text)
        scanner.spool?.keep(prefix[...])
        scanner.scanDocument()
        let length = scanner.base + scanner.window.count
        scanner.window = []
        do {
            return (try parser.parse(skeleton: scanner.skeleton), length)
        } catch {
            // A skeleton cut at its budget ends early: what it says there is that it is too large.
            guard scanner.cut, error.isTruncation else { throw error }
            var over = JSONSyntaxError(message: "more than \(byteCount(parser.maximumTreeBytes)) of JSON outside the lists of messages (the memory budget allows a tree of that much)",
                                       line: scanner.line, column: scanner.column, isTruncation: false)
            over.isOverBudget = true
            throw over
        }
    }

    private enum Step { case go, stop }

    private struct Scanner {
        /// Input read and not yet consumed, from absolute offset `base`.
        var window: [UInt8]
        var position = 0
        var base = 0
        var line = 1
        /// The absolute offset of the current line's first byte.
        var lineStart = 0
        let source: ByteSource?
        let parser: JSONParser
        let spool: JSONSpool?
        var skeleton: Skeleton
        /// The skeleton reached its budget, or a list failed: nothing more is read.
        var full = false
        /// The skeleton reached its budget.
        var cut = false
        var ended = false
        let skeletonLimit: Int
        var markers = 0

        init(window: [UInt8], source: ByteSource?, parser: JSONParser, text: any JSONElementText) {
            self.window = window
            self.source = source
            self.parser = parser
            spool = text as? JSONSpool
            skeleton = Skeleton(text: text)
            skeletonLimit = parser.maximumTreeBytes == .max ? .max : parser.maximumTreeBytes + 1
        }

        var column: Int { base + position - lineStart + 1 }

        /// Reads another chunk onto the window; false at the end of the input.
        mutating func fill() -> Bool {
            guard !ended, let source else { ended = true; return false }
            let before = window.count
            guard source.read(appendingTo: &window) else { ended = true; return false }
            spool?.keep(window[before...])
            return true
        }

        mutating func peek() -> UInt8? {
            if full { return nil }
            if position == window.count {
                base += window.count
                window.removeAll(keepingCapacity: true)
                position = 0
                guard fill() else { return nil }
            }
            return window[position]
        }

        /// Moves past the current byte, counting lines; `keep` copies it into the skeleton.
        mutating func advance(keep: Bool) {
            let byte = window[position]
            if keep {
                if skeleton.bytes.count - markers >= skeletonLimit { full = true; cut = true; return }
                skeleton.bytes.append(byte)
            }
            position += 1
            if byte == 0x0A {
                line += 1
                lineStart = base + position
            }
        }

        mutating func whitespace(keep: Bool) {
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { advance(keep: keep) }
        }

        mutating func scanDocument() {
            if window.count >= 3, window[0] == 0xEF, window[1] == 0xBB, window[2] == 0xBF {
                for _ in 0..<3 { advance(keep: true) }
            }
            whitespace(keep: true)
            if scanValue(containers: 0) == .go { whitespace(keep: true) }
            // Whatever follows (or the rest after a surprise) is kept for the parser to report.
            while peek() != nil { advance(keep: true) }
        }

        /// Copies one value into the skeleton, deferring the lists in it. `.stop` when the text
        /// is not what JSON has there (the parser reports it from the skeleton) or has ended.
        mutating func scanValue(containers: Int) -> Step {
            guard containers < parser.maximumDepth, let first = peek() else { return .stop }
            switch first {
            case UInt8(ascii: "{"):
                advance(keep: true)
                whitespace(keep: true)
                if peek() == UInt8(ascii: "}") { advance(keep: true); return .go }
                while true {
                    whitespace(keep: true)
                    guard peek() == UInt8(ascii: "\"") else { return .stop }
                    guard let key = scanString(collectingKey: true) else { return .stop }
                    whitespace(keep: true)
                    guard peek() == UInt8(ascii: ":") else { return .stop }
                    advance(keep: true)
                    whitespace(keep: true)
                    if key == "messages", peek() == UInt8(ascii: "[") {
                        guard deferList(depth: containers + 2) == .go else { return .stop }
                    } else {
                        guard scanValue(containers: containers + 1) == .go else { return .stop }
                    }
                    whitespace(keep: true)
                    switch peek() {
                    case UInt8(ascii: ","): advance(keep: true)
                    case UInt8(ascii: "}"): advance(keep: true); return .go
                    default: return .stop
                    }
                }
            case UInt8(ascii: "["):
                advance(keep: true)
                whitespace(keep: true)
                if peek() == UInt8(ascii: "]") { advance(keep: true); return .go }
                while true {
                    whitespace(keep: true)
                    guard scanValue(containers: containers + 1) == .go else { return .stop }
                    whitespace(keep: true)
                    switch peek() {
                    case UInt8(ascii: ","): advance(keep: true)
                    case UInt8(ascii: "]"): advance(keep: true); return .go
                    default: return .stop
                    }
                }
            case UInt8(ascii: "\""):
                return scanString(collectingKey: false) == nil ? .stop : .go
            default:
                // A number or a literal: up to the next byte that ends one.
                var any = false
                while let byte = peek(), !Self.endsScalar(byte) {
                    advance(keep: true)
                    any = true
                }
                return any ? .go : .stop
            }
        }

        static func endsScalar(_ byte: UInt8) -> Bool {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"),
                 UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "\""), UInt8(ascii: ":"): true
            default: false
            }
        }

        /// Copies a string; returns its value when `collectingKey` (a member name: only a short
        /// one can be `messages`, so a long one is returned as empty), else "" ; nil when the text
        /// ends first.
        mutating func scanString(collectingKey: Bool) -> String? {
            advance(keep: true)
            var raw: [UInt8] = []
            var escaped = false
            while let byte = peek() {
                advance(keep: true)
                if full { return nil }
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    guard collectingKey, raw.count <= 64 else { return "" }
                    if !raw.contains(UInt8(ascii: "\\")) { return String(decoding: raw, as: UTF8.self) }
                    let quoted = [UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")]
                    return (try? JSONParser(allowsHexEscapes: parser.allowsHexEscapes).parse(quoted))?.stringValue ?? ""
                }
                if collectingKey, raw.count <= 64 { raw.append(byte) }
            }
            return nil
        }

        /// Reads a list of messages element by element, leaving one marker in the skeleton.
        mutating func deferList(depth: Int) -> Step {
            let markerAt = skeleton.bytes.count
            var list = List()
            func fail(_ error: JSONSyntaxError, _ scanner: inout Scanner) {
                list.failure = error
                scanner.full = true
            }
            let endError = { (scanner: Scanner, expected: String) in
                JSONSyntaxError(message: "the text ends where \(expected) was expected", line: scanner.line, column: scanner.column, isTruncation: true)
            }
            if depth > parser.maximumDepth {
                // The parser reports the nesting at the marker; nothing in the list is read.
                fail(JSONSyntaxError(message: "nesting deeper than \(parser.maximumDepth) levels", line: line, column: column, isTruncation: false), &self)
            } else {
                advance(keep: false)
                whitespace(keep: false)
                if peek() == nil {
                    fail(endError(self, "a value or ']'"), &self)
                } else if peek() == UInt8(ascii: "]") {
                    advance(keep: false)
                } else {
                    while true {
                        whitespace(keep: false)
                        let start = base + position
                        let firstLine = line
                        do throws(JSONSyntaxError) {
                            try element(depth: depth)
                        } catch {
                            fail(error, &self)
                            break
                        }
                        list.ranges.append(start..<(base + position))
                        list.lines.append(firstLine)
                        whitespace(keep: false)
                        guard let next = peek() else {
                            fail(endError(self, "',' or ']'"), &self)
                            break
                        }
                        if next == UInt8(ascii: ",") {
                            advance(keep: false)
                        } else if next == UInt8(ascii: "]") {
                            advance(keep: false)
                            break
                        } else {
                            fail(JSONSyntaxError(message: "expected ',' or ']' after an array element", line: line, column: column, isTruncation: false), &self)
                            break
                        }
                    }
                }
            }
            list.endLine = line
            list.endColumn = column
            skeleton.bytes.append(JSONStream.marker)
            markers += 1
            skeleton.arrays[markerAt] = list
            return list.failure == nil ? .go : .stop
        }

        /// Parses the element the window is at and moves past it: its text is gathered (to its
        /// closing bracket or quote, or the byte after a scalar) and parsed alone.
        mutating func element(depth: Int) throws(JSONSyntaxError) {
            guard peek() != nil else {
                throw JSONSyntaxError(message: "the text ends where a value was expected", line: line, column: column, isTruncation: true)
            }
            let limit = parser.maximumTreeBytes
            // `end` counts the element's bytes gathered, from `position`.
            var end = 0
            var complete = false
            var nesting = 0, inString = false, escaped = false
            let first = window[position]
            let isScalar = first != UInt8(ascii: "{") && first != UInt8(ascii: "[") && first != UInt8(ascii: "\"")
            scan: while true {
                while position + end < window.count {
                    let byte = window[position + end]
                    end += 1
                    if inString {
                        if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") {
                            inString = false
                            if nesting == 0 { complete = true; break scan }
                        }
                    } else if isScalar {
                        // The byte after a scalar is kept, as the parser looks at it.
                        if Self.endsScalar(byte) { complete = true; break scan }
                    } else {
                        switch byte {
                        case UInt8(ascii: "\""): inString = true
                        case UInt8(ascii: "{"), UInt8(ascii: "["): nesting += 1
                        case UInt8(ascii: "}"), UInt8(ascii: "]"):
                            nesting -= 1
                            if nesting <= 0 { complete = true; break scan }
                        default: break
                        }
                    }
                }
                if end > limit { break }
                // The window keeps the element from its first byte as it grows.
                if position > 0 {
                    window.removeFirst(position)
                    base += position
                    position = 0
                }
                guard fill() else { break }
            }
            let from = position
            let parsed: Result<Int, JSONSyntaxError>
            do throws(JSONSyntaxError) {
                parsed = .success(try window.withByteView { (buffer) throws(JSONSyntaxError) in
                    try parser.parseElement(buffer.bytes(from..<(from + end)), line: line, column: column, depth: depth)
                })
            } catch { parsed = .failure(error) }
            switch parsed {
            case .success(let length):
                for _ in 0..<length { advance(keep: false) }
            case .failure(let error):
                if !complete, end > limit, error.isTruncation {
                    // Cut at the budget: the element is larger than a tree may be built from.
                    for _ in 0..<end { advance(keep: false) }
                    var over = JSONSyntaxError(message: "more than \(byteCount(limit)) of JSON in one element of a list (the memory budget allows a tree of that much)",
                                               line: line, column: column, isTruncation: false)
                    over.isOverBudget = true
                    throw over
                }
                throw error
            }
        }
    }
}

/// Where a streamed document's elements are read again: a regular file through a descriptor of
/// its own (`pread`, never reopening the path), or an unlinked temporary file the stream is copied
/// into as it is read (a pipe, or UTF-16 decoded to UTF-8), or bytes in memory.
final class JSONSpool: JSONElementText, @unchecked Sendable {
    // The descriptor is only read with `pread` after the single pass that writes it.
    private let descriptor: Int32
    /// Offset of byte 0 of the parsed text in the file.
    private let origin: Int
    private let copies: Bool
    /// Why the copy is incomplete, when a write failed.
    private(set) var failure: String?
    private var written = 0

    /// Reads the regular file `descriptor` (duplicated, so the caller's may close) from `origin`.
    init?(file descriptor: Int32, origin: Int) {
        let own = dup(descriptor)
        guard own >= 0 else { return nil }
        self.descriptor = own
        self.origin = origin
        copies = false
    }

    /// A copy kept in an unlinked temporary file as the text is read.
    init?() {
        let fd = makeUnlinkedTemporaryFile()
        guard fd >= 0 else { return nil }
        descriptor = fd
        origin = 0
        copies = true
    }

    deinit { _ = systemClose(descriptor) }

    func keep(_ bytes: ArraySlice<UInt8>) {
        guard copies, failure == nil, !bytes.isEmpty else { return }
        var rest = bytes
        while !rest.isEmpty {
            let count = SystemIO.writeSome(descriptor, rest)
            guard count > 0 else {
                failure = "cannot keep a copy of the input in a temporary file (\(String(cString: strerror(errno)))); set TMPDIR to a folder with room"
                return
            }
            rest = rest.dropFirst(count)
            written += count
        }
    }

    func withBytes<R>(_ range: Range<Int>, _ body: (ByteView) -> R) -> R? {
        guard range.lowerBound >= 0,
              let bytes = SystemIO.read(descriptor, at: origin + range.lowerBound, length: range.count) else { return nil }
        return bytes.withByteView(body)
    }
}

/// Bytes in memory from `origin` on, as a streamed document's text to read elements again from.
final class JSONMemoryText: JSONElementText {
    let bytes: [UInt8]
    let origin: Int

    init(_ bytes: [UInt8], origin: Int) {
        self.bytes = bytes
        self.origin = origin
    }

    func withBytes<R>(_ range: Range<Int>, _ body: (ByteView) -> R) -> R? {
        let start = origin + range.lowerBound, end = origin + range.upperBound
        guard range.lowerBound >= 0, end <= bytes.count else { return nil }
        return bytes.withByteView { body($0.bytes(start..<end)) }
    }
}

/// A streamed document's text read again from its start, in chunks (to parse it a second time
/// with other options).
final class JSONTextSource: ByteSource {
    private let text: any JSONElementText
    private var offset = 0
    private let count: Int

    init(_ text: any JSONElementText, count: Int) {
        self.text = text
        self.count = count
    }

    var readError: Int32? { nil }

    func read(appendingTo buffer: inout [UInt8]) -> Bool {
        guard offset < count else { return false }
        let end = min(count, offset + DescriptorSource.chunk)
        guard let appended: Void = text.withBytes(offset..<end, { $0.append(to: &buffer) }) else { return false }
        _ = appended
        offset = end
        return true
    }
}
