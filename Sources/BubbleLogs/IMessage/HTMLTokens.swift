/// A streaming HTML tokenizer for exports written as HTML pages: bytes go in a line at a time and
/// come out as start tags, end tags and text, with entities decoded and the line each token
/// starts on. It keeps one token's bytes at most (a tag, a run of text, the tail of a comment), so
/// memory is bounded by the largest token, never by the page.
///
/// It follows HTML's tokenizing rules as far as an export needs them: a `<` starts a tag only
/// before a letter, `/`, `!` or `?` (otherwise it is text); attribute values are quoted or not;
/// comments and declarations are skipped; `style` and `script` are raw text and dropped, `xmp`,
/// `title` and `textarea` raw text kept as written (no entities in `xmp`). Tag and attribute
/// names are lowercased.
struct HTMLTokenizer {
    struct Tag {
        var name: String
        var attributes: [(name: String, value: String)]
        var selfClosing: Bool

        /// The first value of the attribute `name` (lowercase), as HTML takes the first of duplicates.
        func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
    }

    enum Token {
        case start(Tag)
        case end(String)
        case text(String)
        /// A tag longer than `maximumTagBytes`, dropped.
        case overlongTag
    }

    /// The longest tag kept (an inline SVG path can be long); a longer one is dropped and said.
    static let maximumTagBytes = 4 << 20
    /// Text is handed out in runs of at most this many bytes.
    static let textChunkBytes = 64 << 10

    private enum State: Equatable {
        case text
        case tag
        case comment
        case declaration
        /// Inside `style`, `script`, `xmp`, `title` or `textarea`, until its end tag.
        case rawText(String)
        /// A tag past `maximumTagBytes`: skipped to its `>`.
        case skippingTag
    }

    private var state = State.text
    private var buffer: [UInt8] = []
    /// The quote an attribute value in a tag is inside (0: none), and whether an `=` came last.
    private var quote: UInt8 = 0
    private var afterEquals = false
    /// The line the token in `buffer` started on.
    private var tokenLine = 1

    /// Tokenizes `bytes` (a line and its line break), calling `emit` with each token and its line.
    mutating func feed(_ bytes: [UInt8], line: Int, emit: (Token, Int) -> Void) {
        var i = 0
        let count = bytes.count
        while i < count {
            let byte = bytes[i]
            switch state {
            case .text:
                if byte == UInt8(ascii: "<"), i + 1 < count, let next = startsMarkup(bytes, at: i + 1) {
                    flushText(emit)
                    tokenLine = line
                    state = next
                    quote = 0
                    afterEquals = false
                    if next == .comment { i += 3 }  // `!--`
                    i += 1
                    continue
                }
                if buffer.isEmpty { tokenLine = line }
                buffer.append(byte)
                // Cut at a space or line break, never inside a character or a reference.
                if buffer.count >= Self.textChunkBytes, byte == 0x20 || byte == 0x0A { flushText(emit) }
            case .tag:
                if quote != 0 {
                    if byte == quote { quote = 0 }
                    buffer.append(byte)
                } else if byte == UInt8(ascii: ">") {
                    let tag = buffer
                    buffer.removeAll(keepingCapacity: true)
                    state = .text
                    if let token = Self.parse(tag) {
                        emit(token, tokenLine)
                        if case .start(let started) = token, !started.selfClosing,
                           ["style", "script", "xmp", "title", "textarea"].contains(started.name) {
                            state = .rawText(started.name)
                            tokenLine = line
                        }
                    }
                } else {
                    if (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")) && afterEquals {
                        quote = byte
                    }
                    if byte == UInt8(ascii: "=") {
                        afterEquals = true
                    } else if !Self.isSpace(byte) {
                        afterEquals = false
                    }
                    buffer.append(byte)
                }
                if buffer.count > Self.maximumTagBytes {
                    buffer.removeAll()
                    state = .skippingTag
                    emit(.overlongTag, tokenLine)
                }
            case .skippingTag:
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == UInt8(ascii: ">") {
                    state = .text
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                }
            case .comment:
                // Only the last two bytes are kept, to see `-->`.
                if byte == UInt8(ascii: ">"), buffer.count == 2, buffer[0] == UInt8(ascii: "-"), buffer[1] == UInt8(ascii: "-") {
                    buffer.removeAll(keepingCapacity: true)
                    state = .text
                } else {
                    if buffer.count == 2 { buffer.removeFirst() }
                    buffer.append(byte)
                }
            case .declaration:
                if byte == UInt8(ascii: ">") { state = .text }
            case .rawText(let name):
                buffer.append(byte)
                if byte == UInt8(ascii: ">"), let end = Self.endTagStart(buffer, name: name) {
                    if name != "style" && name != "script" && end > 0 {
                        let raw = Array(buffer[..<end])
                        emit(.text(name == "xmp" ? String(decoding: raw, as: UTF8.self) : HTMLEntities.decode(raw[...])), tokenLine)
                    }
                    buffer.removeAll(keepingCapacity: true)
                    emit(.end(name), line)
                    state = .text
                } else if name == "style" || name == "script" {
                    // Dropped: keep only a tail long enough to hold the end tag.
                    if buffer.count > 64 { buffer.removeFirst(buffer.count - 32) }
                } else if buffer.count > Self.maximumTagBytes {
                    let keep = buffer.count - 32
                    let raw = Array(buffer[..<keep])
                    emit(.text(name == "xmp" ? String(decoding: raw, as: UTF8.self) : HTMLEntities.decode(raw[...])), tokenLine)
                    buffer.removeFirst(keep)
                    tokenLine = line
                }
            }
            i += 1
        }
    }

    /// Hands out what is left at the end of the input: pending text, or the text of an unclosed
    /// raw-text element. A tag cut off by the end is dropped.
    mutating func finish(emit: (Token, Int) -> Void) {
        switch state {
        case .text:
            flushText(emit)
        case .rawText(let name) where name != "style" && name != "script":
            if !buffer.isEmpty { emit(.text(HTMLEntities.decode(buffer[...])), tokenLine) }
        default:
            break
        }
        buffer.removeAll()
        state = .text
    }

    private mutating func flushText(_ emit: (Token, Int) -> Void) {
        guard !buffer.isEmpty else { return }
        emit(.text(HTMLEntities.decode(buffer[...])), tokenLine)
        buffer.removeAll(keepingCapacity: true)
    }

    /// What a `<` followed by `bytes[at]` starts, or nil when it is text.
    private func startsMarkup(_ bytes: [UInt8], at i: Int) -> State? {
        let next = bytes[i]
        if Self.isLetter(next) { return .tag }
        if next == UInt8(ascii: "/") { return i + 1 < bytes.count && Self.isLetter(bytes[i + 1]) ? .tag : nil }
        if next == UInt8(ascii: "!") {
            if i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "-"), bytes[i + 2] == UInt8(ascii: "-") { return .comment }
            return .declaration
        }
        if next == UInt8(ascii: "?") { return .declaration }
        return nil
    }

    /// Where `</name` starts when `buffer` ends with it and a `>` (spaces allowed before it).
    private static func endTagStart(_ buffer: [UInt8], name: String) -> Int? {
        var end = buffer.count - 1  // the `>`
        while end > 0, isSpace(buffer[end - 1]) { end -= 1 }
        let nameBytes = Array(name.utf8)
        let start = end - nameBytes.count - 2
        guard start >= 0, buffer[start] == UInt8(ascii: "<"), buffer[start + 1] == UInt8(ascii: "/") else { return nil }
        for k in 0..<nameBytes.count where lower(buffer[start + 2 + k]) != nameBytes[k] { return nil }
        return start
    }

    /// A tag's bytes between `<` and `>` as a token; nil for an empty one.
    static func parse(_ bytes: [UInt8]) -> Token? {
        var i = 0
        let isEnd = bytes.first == UInt8(ascii: "/")
        if isEnd { i = 1 }
        let nameStart = i
        while i < bytes.count, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: "/") { i += 1 }
        guard i > nameStart else { return nil }
        let name = String(decoding: bytes[nameStart..<i].map(lower), as: UTF8.self)
        if isEnd { return .end(name) }
        var attributes: [(name: String, value: String)] = []
        var selfClosing = false
        while i < bytes.count {
            while i < bytes.count, isSpace(bytes[i]) || bytes[i] == UInt8(ascii: "/") {
                selfClosing = bytes[i] == UInt8(ascii: "/")
                i += 1
            }
            guard i < bytes.count else { break }
            selfClosing = false
            let start = i
            // An attribute name runs to a space, `/` or `=` (its first byte may be `=`).
            i += 1
            while i < bytes.count, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: "/"), bytes[i] != UInt8(ascii: "=") { i += 1 }
            let attributeName = String(decoding: bytes[start..<i].map(lower), as: UTF8.self)
            var j = i
            while j < bytes.count, isSpace(bytes[j]) { j += 1 }
            var value = ""
            if j < bytes.count, bytes[j] == UInt8(ascii: "=") {
                j += 1
                while j < bytes.count, isSpace(bytes[j]) { j += 1 }
                if j < bytes.count, bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "'") {
                    let quote = bytes[j]
                    let valueStart = j + 1
                    var end = valueStart
                    while end < bytes.count, bytes[end] != quote { end += 1 }
                    value = HTMLEntities.decode(bytes[valueStart..<end])
                    i = min(end + 1, bytes.count)
                } else {
                    let valueStart = j
                    var end = j
                    while end < bytes.count, !isSpace(bytes[end]) { end += 1 }
                    value = HTMLEntities.decode(bytes[valueStart..<end])
                    i = end
                }
            }
            if attributes.count < 64 { attributes.append((attributeName, value)) }
        }
        return .start(Tag(name: name, attributes: attributes, selfClosing: selfClosing))
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C }
    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func lower(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
}
