/// Where and why a JSON text could not be parsed.
package struct JSONSyntaxError: Error, Sendable, Equatable {
    /// What went wrong, phrased as what was expected ("expected ',' or '}' after an object member").
    package var message: String
    /// 1-based line and column (column in bytes) of the offending byte.
    package var line: Int
    package var column: Int
    /// True when the text ended before the value was complete: the usual sign of a truncated file.
    var isTruncation: Bool
    /// True when a whole value was read and another object or array starts after it: several
    /// documents one after another, as pretty-printed JSON Lines (`jq .` without `-c`) are.
    var anotherValueFollows = false
    /// True when the text would build a tree larger than `JSONParser.maximumTreeBytes` allows:
    /// not a syntax error, a memory bound.
    var isOverBudget = false
}

/// A small strict JSON parser (RFC 8259) over UTF-8 bytes that remembers the line of every object
/// and of every array element.
///
/// Written here rather than using JSONSerialization so that diagnostics can name a line, so that
/// booleans stay distinct from numbers, so that number literals keep their exact text, and so that
/// Telegram's non-standard `\xHH` escapes can be accepted when asked.
///
/// A tree takes several times the bytes it was parsed from (about 8 times for a chat export), so
/// the long lists of a document can be deferred (`deferring`): their elements are parsed one at a
/// time, checked and let go, and kept as byte ranges to parse again when asked for. Memory then
/// holds the document's bytes, its skeleton, and one element's tree.
package struct JSONParser: Sendable {
    /// Accept `\xHH` (two hex digits, one byte < 0x80 or a Latin-1 code point) inside strings.
    var allowsHexEscapes = false
    /// Nesting beyond this is rejected instead of exhausting the stack on hostile input.
    var maximumDepth = 256
    /// Which arrays are deferred when parsing a `JSONDocumentBytes`.
    var deferring = Deferring.none
    /// The most bytes of text one tree may be built from: the document outside its deferred
    /// arrays, or one element of a deferred array. Beyond it parsing stops with `isOverBudget`.
    var maximumTreeBytes = Int.max

    enum Deferring: Sendable {
        case none
        /// The document's own array (a Slack day file, `users.json`).
        case topLevelArray
        /// Every array that is the value of a member named `messages` (a chat export's lists),
        /// outside a deferred element.
        case messageArrays
    }

    init(allowsHexEscapes: Bool = false, deferring: Deferring = .none, maximumTreeBytes: Int = .max) {
        self.allowsHexEscapes = allowsHexEscapes
        self.deferring = deferring
        self.maximumTreeBytes = maximumTreeBytes
    }

    /// Parses `document` as one JSON value, deferring the arrays `deferring` names.
    func parse(document: JSONDocumentBytes) throws(JSONSyntaxError) -> JSONValue {
        try document.bytes.withByteView { (buffer) throws(JSONSyntaxError) in try parse(buffer, firstLine: 1, document: document) }
    }

    /// Parses exactly one JSON value, allowing surrounding whitespace and a leading byte-order mark.
    /// `firstLine` numbers the first byte's line (for a line taken from the middle of a file).
    func parse(_ bytes: ByteView, firstLine: Int = 1) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes, firstLine: firstLine, document: nil)
    }

    private func parse(_ bytes: ByteView, firstLine: Int, document: JSONDocumentBytes?) throws(JSONSyntaxError) -> JSONValue {
        var cursor = Cursor(bytes: bytes, line: firstLine, lineStart: 0, position: 0, options: self, document: document)
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { cursor.position = 3 }
        cursor.skipWhitespace()
        let value = try cursor.parseValue(depth: 0, deferred: deferring == .topLevelArray)
        try cursor.checkTree()
        cursor.skipWhitespace()
        if cursor.position < bytes.count {
            var error = cursor.error("unexpected text after the end of the JSON value")
            error.anotherValueFollows = bytes[cursor.position] == UInt8(ascii: "{") || bytes[cursor.position] == UInt8(ascii: "[")
            throw error
        }
        return value
    }

    package func parse(_ bytes: [UInt8], firstLine: Int = 1) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withByteView { (buffer) throws(JSONSyntaxError) in try parse(buffer, firstLine: firstLine) }
    }
}

extension JSONParser {
    /// Parses the skeleton of a streamed document (`JSONStream`): its text outside the lists of
    /// messages, each list replaced by a marker byte standing for the elements already read.
    func parse(skeleton: JSONStream.Skeleton) throws(JSONSyntaxError) -> JSONValue {
        try skeleton.bytes.withByteView { (buffer) throws(JSONSyntaxError) in
            var cursor = Cursor(bytes: buffer, line: 1, lineStart: 0, position: 0, options: self, document: nil)
            cursor.streamed = skeleton
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { cursor.position = 3 }
            cursor.skipWhitespace()
            let value = try cursor.parseValue(depth: 0)
            try cursor.checkTree()
            cursor.skipWhitespace()
            if cursor.position < buffer.count {
                var error = cursor.error("unexpected text after the end of the JSON value")
                error.anotherValueFollows = buffer[cursor.position] == UInt8(ascii: "{") || buffer[cursor.position] == UInt8(ascii: "[")
                throw error
            }
            return value
        }
    }

    /// Parses the one value `bytes` starts with, as an element of a deferred list at `depth`
    /// whose first byte is at `line` and `column`, and returns where it ends; bytes after it are
    /// left alone. Throws what parsing the whole document would throw there.
    func parseElement(_ bytes: ByteView, line: Int, column: Int, depth: Int) throws(JSONSyntaxError) -> Int {
        var options = self
        options.deferring = .none
        var cursor = Cursor(bytes: bytes, line: line, lineStart: 1 - column, position: 0, options: options, document: nil)
        cursor.inDeferredElement = true
        _ = try cursor.parseValue(depth: depth)
        try cursor.checkTree()
        return cursor.position
    }
}

extension JSONParser {
    fileprivate struct Cursor {
        let bytes: ByteView
        var line: Int
        var lineStart: Int
        var position: Int
        let options: JSONParser
        /// The bytes as a shared document, when arrays may be deferred.
        let document: JSONDocumentBytes?
        /// The lists of messages a streamed document's skeleton stands for (see `JSONStream`).
        var streamed: JSONStream.Skeleton?
        /// Where the tree being built began, and the bytes of deferred elements inside it since.
        var treeStart = 0
        var deferredBytes = 0
        var inDeferredElement = false

        init(bytes: ByteView, line: Int, lineStart: Int, position: Int, options: JSONParser, document: JSONDocumentBytes?) {
            self.bytes = bytes
            self.line = line
            self.lineStart = lineStart
            self.position = position
            self.options = options
            self.document = document
        }

        func error(_ message: String, truncated: Bool = false) -> JSONSyntaxError {
            JSONSyntaxError(message: message, line: line, column: position - lineStart + 1, isTruncation: truncated)
        }

        func endError(_ expected: String) -> JSONSyntaxError {
            error("the text ends where \(expected) was expected", truncated: true)
        }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0D: position += 1
                case 0x0A:
                    position += 1
                    line += 1
                    lineStart = position
                default: return
                }
            }
        }

        mutating func parseValue(depth: Int, deferred: Bool = false) throws(JSONSyntaxError) -> JSONValue {
            guard position < bytes.count else { throw endError("a value") }
            try checkTree()
            switch bytes[position] {
            case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
            case JSONStream.marker where streamed?.arrays[position] != nil: return try takeStreamedArray(depth: depth + 1)
            case UInt8(ascii: "[") where deferred && document != nil && !inDeferredElement: return try parseDeferredArray(depth: depth + 1)
            case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
            case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
            case UInt8(ascii: "n"): try expectLiteral("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
            default: throw error("expected a value (object, array, string, number, true, false or null)")
            }
        }

        /// Throws once the tree being built spans more text than `maximumTreeBytes`.
        func checkTree() throws(JSONSyntaxError) {
            guard position - treeStart - deferredBytes > options.maximumTreeBytes else { return }
            var error = error("more than \(byteCount(options.maximumTreeBytes)) of JSON \(inDeferredElement ? "in one element of a list" : "outside the lists of messages") (the memory budget allows a tree of that much)")
            error.isOverBudget = true
            throw error
        }

        mutating func expectLiteral(_ word: StaticString) throws(JSONSyntaxError) {
            for k in 0..<word.utf8CodeUnitCount {
                let byte = word.utf8Start[k]
                guard position < bytes.count else { throw endError("'\(word)'") }
                guard bytes[position] == byte else { throw error("expected '\(word)'") }
                position += 1
            }
        }

        mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            if depth > options.maximumDepth { throw error("nesting deeper than \(options.maximumDepth) levels") }
            let startLine = line
            position += 1
            var members: [(key: String, value: JSONValue)] = []
            skipWhitespace()
            guard position < bytes.count else { throw endError("a member or '}'") }
            if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(JSONObject(line: startLine, members: members))
            }
            while true {
                skipWhitespace()
                guard position < bytes.count else { throw endError("a member name") }
                guard bytes[position] == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes") }
                let key = try parseString()
                skipWhitespace()
                guard position < bytes.count else { throw endError("':'") }
                guard bytes[position] == UInt8(ascii: ":") else { throw error("expected ':' after the member name \"\(DiagnosticText.quoted(key))\"") }
                position += 1
                skipWhitespace()
                let value = try parseValue(depth: depth, deferred: options.deferring == .messageArrays && key == "messages")
                members.append((key, value))
                skipWhitespace()
                guard position < bytes.count else { throw endError("',' or '}'") }
                switch bytes[position] {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"):
                    position += 1
                    return .object(JSONObject(line: startLine, members: members))
                default: throw error("expected ',' or '}' after an object member")
                }
            }
        }

        mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            if depth > options.maximumDepth { throw error("nesting deeper than \(options.maximumDepth) levels") }
            position += 1
            var elements: [JSONValue] = []
            var elementLines: [Int] = []
            skipWhitespace()
            guard position < bytes.count else { throw endError("a value or ']'") }
            if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(JSONArray(elements: elements, elementLines: elementLines))
            }
            while true {
                skipWhitespace()
                // After the whitespace, `line` is the line of the element's first byte.
                elementLines.append(line)
                elements.append(try parseValue(depth: depth))
                skipWhitespace()
                guard position < bytes.count else { throw endError("',' or ']'") }
                switch bytes[position] {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"):
                    position += 1
                    return .array(JSONArray(elements: elements, elementLines: elementLines))
                default: throw error("expected ',' or ']' after an array element")
                }
            }
        }

        /// An array whose elements are each parsed, checked and let go, and kept as byte ranges.
        mutating func parseDeferredArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            if depth > options.maximumDepth { throw error("nesting deeper than \(options.maximumDepth) levels") }
            position += 1
            var ranges: [Range<Int>] = []
            var elementLines: [Int] = []
            let arrayStart = position
            let outerTreeStart = treeStart, outerDeferred = deferredBytes
            func finish(_ cursor: inout Cursor) -> JSONValue {
                cursor.treeStart = outerTreeStart
                // The elements are not part of the enclosing tree: only the ranges are kept.
                cursor.deferredBytes = outerDeferred + (cursor.position - arrayStart) - 24 * ranges.count
                var parser = cursor.options
                parser.deferring = .none
                return .array(JSONArray(deferred: DeferredElements(text: cursor.document!, ranges: ranges, parser: parser), elementLines: elementLines))
            }
            skipWhitespace()
            guard position < bytes.count else { throw endError("a value or ']'") }
            if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return finish(&self)
            }
            while true {
                skipWhitespace()
                elementLines.append(line)
                let start = position
                treeStart = start
                deferredBytes = 0
                inDeferredElement = true
                _ = try parseValue(depth: depth)
                try checkTree()
                inDeferredElement = false
                ranges.append(start..<position)
                skipWhitespace()
                guard position < bytes.count else { throw endError("',' or ']'") }
                switch bytes[position] {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"):
                    position += 1
                    return finish(&self)
                default: throw error("expected ',' or ']' after an array element")
                }
            }
        }

        /// The list a skeleton's marker stands for: its elements were read (or failed) as the
        /// document streamed past; the lines and columns after it are the document's.
        mutating func takeStreamedArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
            if depth > options.maximumDepth { throw error("nesting deeper than \(options.maximumDepth) levels") }
            let skeleton = streamed!
            let list = skeleton.arrays[position]!
            if let failure = list.failure { throw failure }
            position += 1
            line = list.endLine
            lineStart = position - (list.endColumn - 1)
            // As a deferred array in memory: the `[` and 24 bytes an element count toward the tree.
            deferredBytes -= 24 * list.ranges.count
            var parser = options
            parser.deferring = .none
            return .array(JSONArray(deferred: DeferredElements(text: skeleton.text, ranges: list.ranges, parser: parser),
                                    elementLines: list.lines))
        }

        mutating func parseNumber() throws(JSONSyntaxError) -> String {
            let start = position
            func digits(_ cursor: inout Cursor) -> Int {
                let from = cursor.position
                while cursor.position < cursor.bytes.count, (0x30...0x39).contains(cursor.bytes[cursor.position]) { cursor.position += 1 }
                return cursor.position - from
            }
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count else { throw endError("a digit") }
            if bytes[position] == UInt8(ascii: "0") {
                position += 1
            } else if digits(&self) == 0 {
                throw error("expected a digit")
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                if digits(&self) == 0 { throw error("expected a digit after the decimal point") }
            }
            if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
                if digits(&self) == 0 { throw error("expected a digit in the exponent") }
            }
            return bytes.bytes(start..<position).string
        }

        mutating func hexValue(count: Int) throws(JSONSyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<count {
                guard position < bytes.count else { throw endError("a hex digit") }
                let byte = bytes[position]
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x41...0x46: digit = byte - 0x41 + 10
                case 0x61...0x66: digit = byte - 0x61 + 10
                default: throw error("expected a hex digit in an escape")
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }

        mutating func parseString() throws(JSONSyntaxError) -> String {
            position += 1
            let start = position
            // Fast path: no escapes, so the bytes are the string.
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    guard let text = bytes.bytes(start..<position).validatedString else {
                        throw error("invalid UTF-8 in a string")
                    }
                    position += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw controlError(byte) }
                position += 1
            }
            var utf8 = bytes.bytes(start..<position).array
            while true {
                guard position < bytes.count else { throw endError("the closing '\"' of a string") }
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    guard let text = String(validating: utf8, as: UTF8.self) else { throw error("invalid UTF-8 in a string") }
                    return text
                case UInt8(ascii: "\\"):
                    position += 1
                    try appendEscape(to: &utf8)
                case 0..<0x20:
                    throw controlError(byte)
                default:
                    utf8.append(byte)
                    position += 1
                }
            }
        }

        func controlError(_ byte: UInt8) -> JSONSyntaxError {
            if byte == 0x0A { return error("a string runs past the end of the line (unterminated string?)") }
            return error("raw control byte 0x\(String(byte, radix: 16, uppercase: true)) inside a string (must be escaped)")
        }

        mutating func appendEscape(to utf8: inout [UInt8]) throws(JSONSyntaxError) {
            guard position < bytes.count else { throw endError("an escape") }
            let letter = bytes[position]
            position += 1
            switch letter {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(letter)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hexValue(count: 4)
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate must be followed by an escaped low one.
                    guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                        throw error("a lone high surrogate \\u\(String(scalar, radix: 16, uppercase: true)) without its low half")
                    }
                    position += 2
                    let low = try hexValue(count: 4)
                    guard (0xDC00...0xDFFF).contains(low) else { throw error("a high surrogate followed by a non-low surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw error("a lone low surrogate \\u\(String(scalar, radix: 16, uppercase: true))")
                }
                utf8.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
            case UInt8(ascii: "x") where options.allowsHexEscapes:
                let value = try hexValue(count: 2)
                utf8.append(contentsOf: UTF8.encode(Unicode.Scalar(value)!)!)
            default:
                position -= 1
                throw error("unknown escape '\\\(Character(Unicode.Scalar(letter)))'")
            }
        }
    }
}
