import BubbleLayout
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes the common native record straight from its bytes, with no JSON tree and no `String`
/// for keys: one object of known members (id, type, from, outgoing, date, status, edited, replyTo,
/// text, conversation, and an image's width, height and name). Strings may hold the escapes JSON
/// defines but surrogates (`\ud83d\udc4b`), decoded as the parser decodes them; keys, types,
/// dates and statuses may hold none. Anything else (an unknown or repeated member, any other
/// nested value, null, a number that is not plain digits, any error at all)
/// returns nil, and the line goes through the full parser and decoder, which give every
/// diagnostic with its column. So a line is either decoded here exactly as the full path would
/// decode it, or left to it.
///
/// `decode` needs no UTF-8 check of the line beforehand, and its caller makes none: the scan takes
/// only ASCII outside strings (keys it knows, digits, literals, punctuation), strings it compares
/// (type, status, a date) must equal ASCII words, and every other string becomes a `String` through
/// `string(validating:)`, the one check of those bytes; a line that is not UTF-8 is declined and
/// goes to the full path, which names the bad byte. (`transcribe` makes no `String`, so its caller
/// checks the line first.)
struct NativeFastDecoder {
    let me: String?
    /// `me`, compared with each sender's name (its comparable form worked out once).
    private let sender: SenderName.Matcher
    /// The last sender `build` compared with `me`, and the answer.
    private let lastSender = ConfinedStorage(LastSender())
    /// Senders' names made lately.
    private let names = RecentNames()

    /// The last few short strings made for senders (a log has few, and they repeat), by their
    /// bytes: the same bytes make the same `String`, so a name met again is handed out as it
    /// was made (finding one is far cheaper than making a short string). Used by
    /// one thread at a time, as `LastSender`.
    private final class RecentNames {
        private static let size = 8
        private let state = ConfinedStorage(State())

        private struct State {
            /// Each name's bytes as two little-endian words and its length (-1 for an empty slot).
            var keys = [(UInt64, UInt64, Int)](repeating: (0, 0, -1), count: size)
            var strings = [String](repeating: "", count: size)
            var next = 0
        }

        private static func key(_ line: ByteView, _ start: Int, _ end: Int) -> (UInt64, UInt64, Int) {
            let count = end - start
            assert(count <= 15)
            return (word(line, start, min(count, 8)), count > 8 ? word(line, start + 8, count - 8) : 0, count)
        }

        /// The name made before from `line[start..<end]` (at most 15 bytes), or nil.
        func name(_ line: ByteView, _ start: Int, _ end: Int) -> String? {
            let key = Self.key(line, start, end)
            let keys = state.value.keys
            for i in 0..<Self.size where keys[i] == key {
                let name = state.value.strings[i]
                assert(name.utf8.elementsEqual(line[start..<end]), "a remembered name is not its bytes")
                return name
            }
            return nil
        }

        /// Remembers `name`, made from `line[start..<end]`, in place of the oldest; returns it.
        func remember(_ name: String, _ line: ByteView, _ start: Int, _ end: Int) -> String {
            let key = Self.key(line, start, end)
            state.value.keys[state.value.next] = key
            state.value.strings[state.value.next] = name
            state.value.next = (state.value.next + 1) % Self.size
            return name
        }
    }

    /// Most messages follow one by the same sender: comparing a name with the last one is far
    /// cheaper than working out its comparable form.
    /// A decoder is used by one thread at a time (its producer's, see `LogReader`), so this
    /// state is kept without run-time exclusivity checks (`ConfinedStorage`).
    private struct LastSender {
        var name: String?
        var isMe = false
    }

    init(me: String?) {
        self.me = me
        sender = SenderName.Matcher(me: me)
        assert(Keys.check(), "a member name's literal is not its packed bytes")
    }

    /// The members this path knows, as bits of a seen-set.
    private enum Member: UInt16 {
        case id = 1, type = 2, from = 4, outgoing = 8, date = 16, status = 32, edited = 64, replyTo = 128,
             text = 256, conversation = 512, image = 1024
        /// The members of the nested `image` object.
        case imageWidth = 2048, imageHeight = 4096, imageName = 8192
    }

    /// A value's bytes: a string's contents (quotes excluded) or a literal's text.
    private struct Value {
        var start: Int
        var end: Int
        var isString: Bool
        /// A string holding escapes (`\n`, `\"`, `\u00E9`…): its bytes are not its text.
        var isEscaped = false
    }

    func decode(_ line: ByteView) -> (any LogRecord)? {
        withScratch(of: Value.self, capacity: Self.memberCount) { values in
            guard let seen = scan(line, into: values) else { return nil }
            return build(line, seen: seen, values: values)
        }
    }

    /// Writes the record on `line` straight to `out` as `nativeLine` writes it (and a newline),
    /// from the bytes, with no `String` but the sender's when `me` must be compared with it.
    /// Returns nil, having written nothing, for any line `decode` leaves to the full path.
    func transcribe(_ line: ByteView, into out: inout OutputBuffer) -> Transcribed? {
        withScratch(of: Value.self, capacity: Self.memberCount) { values in
            guard let seen = scan(line, into: values) else { return nil }
            let start = out.count
            guard let done = write(line, seen: seen, values: values, into: &out) else {
                out.truncate(to: start)
                return nil
            }
            return done
        }
    }

    /// What the reader counts of a transcribed record: its direction, and its sender's name
    /// (nil for none, and for a system notice).
    struct Transcribed {
        var isOutgoing: Bool
        var sender: String?
    }

    private static let memberCount = 14

    /// Finds each member's value on `line`; the seen-set, or nil for a line this path does not take.
    private func scan(_ line: ByteView, into values: ScratchBuffer<Value>) -> UInt16? {
        var p = 0
        let n = line.count
        @inline(__always) func skipSpace() {
            // Most calls find no space: one comparison says so (space, tab and CR are all <= 0x20).
            while p < n, line[p] <= 0x20, line[p] == 0x20 || line[p] == 0x09 || line[p] == 0x0D { p += 1 }
        }
        /// Moves `p` to the end of a string's plain run: a quote, a backslash, a control or the end.
        @inline(__always) func skipString() {
            while p + 8 <= n {
                let ends = SWAR.stringEnds(line.word(at: p))
                if ends != 0 {
                    p += ends.trailingZeroBitCount >> 3
                    return
                }
                p += 8
            }
            while p < n, line[p] >= 0x20, line[p] != 0x22, line[p] != 0x5C { p += 1 }
        }
        /// Moves `p` past a string value's contents, escapes included, to its closing quote;
        /// whether it held escapes, or nil for a string this path leaves to the parser (a bad
        /// escape, a surrogate, a control, no closing quote).
        @inline(__always) func skipStringValue() -> Bool? {
            var escaped = false
            while true {
                skipString()
                guard p < n else { return nil }
                if line[p] == UInt8(ascii: "\"") { return escaped }
                guard line[p] == UInt8(ascii: "\\"), p + 1 < n else { return nil }
                escaped = true
                switch line[p + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    p += 2
                case UInt8(ascii: "u"):
                    guard p + 6 <= n, let scalar = Self.hex4(line, p + 2), !(0xD800...0xDFFF).contains(scalar) else { return nil }
                    p += 6
                default:
                    return nil
                }
            }
        }
        skipSpace()
        guard p < n, line[p] == UInt8(ascii: "{") else { return nil }
        p += 1
        var seen: UInt16 = 0
        skipSpace()
        guard p < n, line[p] != UInt8(ascii: "}") else { return nil }
        // Between tokens, the byte expected is tried before spaces are skipped: compact JSON has
        // none there.
        while true {
            if p >= n || line[p] != UInt8(ascii: "\"") {
                skipSpace()
                guard p < n, line[p] == UInt8(ascii: "\"") else { return nil }
            }
            p += 1
            let keyStart = p
            let found: Member?
            // Most keys lie in one word with their closing quote: that word, read once, gives
            // both the key's end and its name.
            let keyWord = p + 8 <= n ? line.word(at: p) : 0
            let keyEnds = SWAR.stringEnds(keyWord)
            let keyCount = keyEnds.trailingZeroBitCount >> 3
            if p + 8 <= n, keyEnds != 0, line[p + keyCount] == UInt8(ascii: "\"") {
                p += keyCount
                found = Self.member(head: keyWord & ((1 << (8 * UInt64(keyCount))) &- 1), count: keyCount)
            } else {
                skipString()
                guard p < n, line[p] == UInt8(ascii: "\"") else { return nil }
                found = Self.member(line, keyStart, p)
            }
            guard let member = found, seen & member.rawValue == 0 else { return nil }
            seen |= member.rawValue
            p += 1
            if p >= n || line[p] != UInt8(ascii: ":") {
                skipSpace()
                guard p < n, line[p] == UInt8(ascii: ":") else { return nil }
            }
            p += 1
            skipSpace()
            guard p < n else { return nil }
            let value: Value
            switch line[p] {
            case UInt8(ascii: "\""):
                p += 1
                let start = p
                guard let escaped = skipStringValue() else { return nil }
                value = Value(start: start, end: p, isString: true, isEscaped: escaped)
                p += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "t"), UInt8(ascii: "f"):
                let start = p
                while p < n, Self.isLiteralByte(line[p]) { p += 1 }
                value = Value(start: start, end: p, isString: false)
            case UInt8(ascii: "{") where member == .image:
                // The image's own members: width, height (numbers) and name (a string), each once.
                // Their keys are read as the record's are, written out again on purpose: a local
                // function shared by both loops captures `p` and `seen`, and the dynamic
                // exclusivity checks that brings would slow `convert` by almost half.
                let start = p
                p += 1
                skipSpace()
                if p < n, line[p] == UInt8(ascii: "}") {
                    p += 1
                } else {
                    while true {
                        skipSpace()
                        guard p < n, line[p] == UInt8(ascii: "\"") else { return nil }
                        p += 1
                        let keyStart = p
                        skipString()
                        guard p < n, line[p] == UInt8(ascii: "\"") else { return nil }
                        guard let inner = Self.imageMember(line, keyStart, p), seen & inner.rawValue == 0 else { return nil }
                        seen |= inner.rawValue
                        p += 1
                        skipSpace()
                        guard p < n, line[p] == UInt8(ascii: ":") else { return nil }
                        p += 1
                        skipSpace()
                        let innerStart = p
                        if inner == .imageName {
                            guard p < n, line[p] == UInt8(ascii: "\"") else { return nil }
                            p += 1
                            let textStart = p
                            guard let escaped = skipStringValue() else { return nil }
                            values[Self.slot(inner)] = Value(start: textStart, end: p, isString: true, isEscaped: escaped)
                            p += 1
                        } else {
                            while p < n, Self.isLiteralByte(line[p]) { p += 1 }
                            guard p > innerStart else { return nil }
                            values[Self.slot(inner)] = Value(start: innerStart, end: p, isString: false)
                        }
                        skipSpace()
                        guard p < n else { return nil }
                        if line[p] == UInt8(ascii: ",") {
                            p += 1
                            continue
                        }
                        guard line[p] == UInt8(ascii: "}") else { return nil }
                        p += 1
                        break
                    }
                }
                value = Value(start: start, end: p, isString: false)
            default:
                return nil
            }
            values[Self.slot(member)] = value
            if p < n, line[p] == UInt8(ascii: ",") {
                p += 1
                continue
            }
            skipSpace()
            guard p < n else { return nil }
            if line[p] == UInt8(ascii: ",") {
                p += 1
                continue
            }
            guard line[p] == UInt8(ascii: "}") else { return nil }
            p += 1
            skipSpace()
            guard p == n else { return nil }
            return seen
        }
    }

    private func build(_ line: ByteView, seen: UInt16, values: ScratchBuffer<Value>) -> (any LogRecord)? {
        func has(_ m: Member) -> Bool { seen & m.rawValue != 0 }
        func value(_ m: Member) -> Value { values[Self.slot(m)] }
        func string(_ m: Member) -> String? {
            let v = value(m)
            guard v.isString else { return nil }
            return Self.withText(line, v) { Self.string(validating: $0) }
        }
        /// A string, or plain decimal digits (what `identifierValue` takes that this path checks).
        func identifier(_ m: Member) -> String? {
            let v = value(m)
            if v.isString { return string(m) }
            guard Self.isPlainInteger(line, v), line[v.start] != UInt8(ascii: "-") else { return nil }
            // ASCII digits, so valid UTF-8 as they stand.
            return line.bytes(v.start..<v.end).string
        }
        func bool(_ m: Member) -> Bool?? {
            guard has(m) else { return .some(nil) }
            let v = value(m)
            guard !v.isString else { return nil }
            let count = v.end - v.start
            if count == 4, line[v.start] == UInt8(ascii: "t"), line[v.start + 1] == UInt8(ascii: "r"),
               line[v.start + 2] == UInt8(ascii: "u"), line[v.start + 3] == UInt8(ascii: "e") { return .some(true) }
            if count == 5, line[v.start] == UInt8(ascii: "f"), line[v.start + 1] == UInt8(ascii: "a"),
               line[v.start + 2] == UInt8(ascii: "l"), line[v.start + 3] == UInt8(ascii: "s"),
               line[v.start + 4] == UInt8(ascii: "e") { return .some(false) }
            return nil
        }

        guard has(.id), has(.type), has(.date), let id = identifier(.id), value(.type).isString,
              let kind = Self.kind(line, seen: seen, values: values) else { return nil }
        guard let micros = Self.microseconds(line, value(.date)) else { return nil }
        var from: String?
        if has(.from) {
            let v = value(.from)
            if v.isString, !v.isEscaped, v.end - v.start <= 15 {
                from = names.name(line, v.start, v.end) ?? Self.string(validating: line.bytes(v.start..<v.end)).map {
                    names.remember($0, line, v.start, v.end)
                }
            } else {
                from = string(.from)
            }
            guard from != nil else { return nil }
        }
        guard let outgoing = bool(.outgoing), let edited = bool(.edited) else { return nil }
        var status: DeliveryStatus?
        if has(.status) {
            let v = value(.status)
            guard v.isString, let index = Self.statuses.firstIndex(where: { Self.equals(line, v, $0) }) else { return nil }
            status = DeliveryStatus.allCases[index]
        }
        var replyTo: String?
        if has(.replyTo) {
            guard let reply = identifier(.replyTo) else { return nil }
            replyTo = reply
        }
        var conversation: String?
        if has(.conversation) {
            guard let text = identifier(.conversation) else { return nil }
            conversation = text
        }
        var text: String?
        if has(.text) {
            guard let t = string(.text) else { return nil }
            text = t
        }
        let isOutgoing: Bool
        if let outgoing {
            isOutgoing = outgoing
        } else if me == nil || from == nil {
            isOutgoing = false
        } else if from == lastSender.value.name {
            isOutgoing = lastSender.value.isMe
        } else {
            isOutgoing = sender.matches(from)
            lastSender.value = LastSender(name: from, isMe: isOutgoing)
        }
        var name = "image"
        switch kind {
        case .text, .system:
            guard text != nil else { return nil }
        case .image:
            if has(.imageName) {
                guard let given = string(.imageName) else { return nil }
                name = given
            }
        }
        // The header is made whole, once, where the record takes it (a header made and then
        // changed would be copied twice).
        let direction: MessageDirection = isOutgoing ? .outgoing : .incoming
        let date = LogTimestamp.date(microseconds: micros), isEdited = edited ?? false
        switch kind {
        case .text:
            return LogTextMessage(
                header: LogMessageHeader(id: id, senderName: from, direction: direction, date: date, status: status,
                                         isEdited: isEdited, replyToID: replyTo, conversationID: conversation),
                text: text!)
        case .system:
            return LogSystemMessage(
                header: LogMessageHeader(id: id, senderName: nil, direction: direction, date: date, status: status,
                                         isEdited: isEdited, replyToID: replyTo, conversationID: conversation),
                notice: text!)
        case .image(let width, let height):
            return LogImageMessage(
                header: LogMessageHeader(id: id, senderName: from, direction: direction, date: date, status: status,
                                         isEdited: isEdited, replyToID: replyTo, conversationID: conversation),
                pixelWidth: width, pixelHeight: height, imageName: name, caption: text)
        }
    }

    /// The record kinds this path takes; an image with its sizes, when given.
    private enum Kind {
        case text, system
        case image(width: Int?, height: Int?)
    }

    /// The kind named by `type`, or nil for another type, an `image` member on a record that is
    /// not an image (or none on one that is), or an image size that is not a positive integer.
    private static func kind(_ line: ByteView, seen: UInt16, values: ScratchBuffer<Value>) -> Kind? {
        let type = values[slot(.type)]
        let hasImage = seen & Member.image.rawValue != 0
        // The type read as one word, as a key is (a byte loop for each name cost three times as much).
        let count = type.end - type.start
        let name = count <= 8 ? word(line, type.start, count) : 0
        if count == 4, name == Keys.text { return hasImage ? nil : .text }
        if count == 6, name == Keys.system { return hasImage ? nil : .system }
        guard count == 5, name == Keys.image, hasImage else { return nil }
        /// A size: plain digits, not zero, short enough for an `Int`.
        func size(_ m: Member) -> Int?? {
            guard seen & m.rawValue != 0 else { return .some(nil) }
            let v = values[slot(m)]
            guard isPlainInteger(line, v), line[v.start] != UInt8(ascii: "-"), line[v.start] != UInt8(ascii: "0"),
                  v.end - v.start <= 18 else { return nil }
            var result = 0
            for p in v.start..<v.end { result = result * 10 + Int(line[p] - 0x30) }
            return .some(result)
        }
        guard let width = size(.imageWidth), let height = size(.imageHeight) else { return nil }
        return .image(width: width, height: height)
    }

    /// Unix seconds or an ISO 8601 string, read from the bytes.
    private static func microseconds(_ line: ByteView, _ date: Value) -> Int64? {
        let bytes = line.bytes(date.start..<date.end)
        if date.isString { return LogTimestamp.microseconds(iso8601: bytes) }
        // Most dates are whole Unix seconds: up to 11 digits, no leading zero, so always in range
        // (year 5138 at most), read here in one pass (the general reader below costs 8 times as much).
        if bytes.count <= 11, bytes.count == 1 || bytes[0] != UInt8(ascii: "0") {
            var seconds: Int64 = 0
            var plain = true
            for byte in bytes {
                let digit = byte &- 0x30
                if digit > 9 { plain = false; break }
                seconds = seconds * 10 + Int64(digit)
            }
            if plain, !bytes.isEmpty { return seconds * 1_000_000 }
        }
        guard isPlainNumber(line, date) else { return nil }
        return LogTimestamp.microseconds(unixSecondsLiteral: bytes)
    }

    /// `build` and `nativeLine` in one, on bytes: the same checks as `build` (so the same lines
    /// are left to the full path), then the members in `nativeLine`'s order and form.
    private func write(_ line: ByteView, seen: UInt16, values: ScratchBuffer<Value>,
                       into out: inout OutputBuffer) -> Transcribed? {
        func has(_ m: Member) -> Bool { seen & m.rawValue != 0 }
        func value(_ m: Member) -> Value { values[Self.slot(m)] }
        func bytes(_ v: Value) -> ByteView { line.bytes(v.start..<v.end) }
        func isIdentifier(_ v: Value) -> Bool {
            v.isString || (Self.isPlainInteger(line, v) && line[v.start] != UInt8(ascii: "-"))
        }
        func bool(_ m: Member) -> Bool?? {
            guard has(m) else { return .some(nil) }
            let v = value(m)
            guard !v.isString else { return nil }
            if Self.equals(line, v, "true") { return .some(true) }
            if Self.equals(line, v, "false") { return .some(false) }
            return nil
        }
        guard has(.id), has(.type), has(.date) else { return nil }
        let id = value(.id), type = value(.type), text = value(.text)
        guard isIdentifier(id), type.isString, let kind = Self.kind(line, seen: seen, values: values) else { return nil }
        let isSystem: Bool
        switch kind {
        case .text, .system:
            // These need a text; an image's caption is optional.
            guard has(.text) else { return nil }
            isSystem = if case .system = kind { true } else { false }
        case .image:
            isSystem = false
        }
        if has(.text) { guard text.isString else { return nil } }
        if has(.imageName) { guard value(.imageName).isString else { return nil } }
        guard let micros = Self.microseconds(line, value(.date)) else { return nil }
        let from = value(.from)
        if has(.from) { guard from.isString else { return nil } }
        guard let outgoing = bool(.outgoing), let edited = bool(.edited) else { return nil }
        let status = value(.status)
        if has(.status) {
            guard status.isString, Self.statuses.contains(where: { Self.equals(line, status, $0) }) else { return nil }
        }
        let replyTo = value(.replyTo), conversation = value(.conversation)
        if has(.replyTo) { guard isIdentifier(replyTo) else { return nil } }
        if has(.conversation) { guard isIdentifier(conversation) else { return nil } }
        let isOutgoing = outgoing ?? (me != nil && has(.from)
            && sender.matches(Self.withText(line, from) { String(decoding: $0, as: UTF8.self) }))

        out.append("{\"id\":")
        Self.withText(line, id) { out.appendJSONString(utf8: $0) }
        if has(.conversation) {
            out.append(",\"conversation\":")
            Self.withText(line, conversation) { out.appendJSONString(utf8: $0) }
        }
        switch kind {
        case .text: out.append(",\"type\":\"text\"")
        case .system: out.append(",\"type\":\"system\"")
        case .image: out.append(",\"type\":\"image\"")
        }
        if !isSystem, has(.from) {
            out.append(",\"from\":")
            Self.withText(line, from) { out.appendJSONString(utf8: $0) }
        }
        if isOutgoing { out.append(",\"outgoing\":true") }
        out.append(",\"date\":\"")
        // Through a `Date` and back, as a decoded record is written: the same digits at any date.
        LogTimestamp.appendISO8601(microseconds: LogTimestamp.microseconds(of: LogTimestamp.date(microseconds: micros)), to: &out)
        out.append(byte: UInt8(ascii: "\""))
        if has(.status) {
            out.append(",\"status\":\"")
            out.append(bytes: bytes(status))
            out.append(byte: UInt8(ascii: "\""))
        }
        if edited == true { out.append(",\"edited\":true") }
        if has(.replyTo) {
            out.append(",\"replyTo\":")
            Self.withText(line, replyTo) { out.appendJSONString(utf8: $0) }
        }
        if case .image(let width, let height) = kind {
            out.append(",\"image\":{")
            if let width {
                out.append("\"width\":")
                out.append(width)
                out.append(byte: UInt8(ascii: ","))
            }
            if let height {
                out.append("\"height\":")
                out.append(height)
                out.append(byte: UInt8(ascii: ","))
            }
            out.append("\"name\":")
            if has(.imageName) {
                Self.withText(line, value(.imageName)) { out.appendJSONString(utf8: $0) }
            } else {
                out.append("\"image\"")
            }
            out.append(byte: UInt8(ascii: "}"))
        }
        if has(.text) {
            out.append(",\"text\":")
            Self.withText(line, text) { out.appendJSONString(utf8: $0) }
        }
        out.append("}\n")
        let sender = isSystem || !has(.from) ? nil : Self.withText(line, from) { String(decoding: $0, as: UTF8.self) }
        return Transcribed(isOutgoing: isOutgoing, sender: sender)
    }

    /// `DeliveryStatus`'s raw values, in the order of its `allCases`.
    private static let statuses: [StaticString] = ["sending", "sent", "delivered", "read", "failed"]

    private static func equals(_ line: ByteView, _ v: Value, _ name: StaticString) -> Bool {
        guard name.utf8CodeUnitCount == v.end - v.start else { return false }
        for i in 0..<(v.end - v.start) where name.utf8Start[i] != line[v.start + i] { return false }
        return true
    }

    /// Four hex digits at `line[at...]` as a number, or nil.
    private static func hex4(_ line: ByteView, _ at: Int) -> UInt32? {
        var value: UInt32 = 0
        for k in at..<(at + 4) {
            let b = line[k]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - 0x57
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - 0x37
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Calls `body` with the text of string `v`: its bytes in place, or, when it holds escapes,
    /// those decoded as the parser decodes them (the scan accepted only escapes it knows).
    private static func withText<R>(_ line: ByteView, _ v: Value,
                                    _ body: (ByteView) -> R) -> R {
        guard v.isEscaped else { return body(line.bytes(v.start..<v.end)) }
        // Decoding never lengthens: an escape of 2 or 6 bytes gives at most 3.
        return withScratch(of: UInt8.self, capacity: max(1, v.end - v.start)) { buffer in
            var count = 0
            var p = v.start
            while p < v.end {
                // The run up to the next backslash is copied whole.
                let runEnd = line.firstIndex(of: 0x5C, from: p, to: v.end) ?? v.end
                buffer.copy(line.bytes(p..<runEnd), to: count)
                count += runEnd - p
                p = runEnd
                guard p < v.end else { break }
                let letter = line[p + 1]
                p += 2
                var scalar: UInt32
                switch letter {
                case UInt8(ascii: "b"): scalar = 0x08
                case UInt8(ascii: "f"): scalar = 0x0C
                case UInt8(ascii: "n"): scalar = 0x0A
                case UInt8(ascii: "r"): scalar = 0x0D
                case UInt8(ascii: "t"): scalar = 0x09
                case UInt8(ascii: "u"):
                    scalar = hex4(line, p) ?? 0xFFFD
                    p += 4
                default: scalar = UInt32(letter)
                }
                for unit in UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}")! {
                    buffer[count] = unit
                    count += 1
                }
            }
            return body(buffer.view(count: count))
        }
    }

    /// `bytes` as a `String`, or nil when they are not UTF-8: the one UTF-8 check they get is the
    /// one `String(decoding:)` makes anyway. It repairs what is not UTF-8 instead of failing, and
    /// its result is always UTF-8, so a result with the very bytes given proves them valid, and
    /// any other means a repair. (`String(validating:as:)` would say nil itself, but it is
    /// generic and not inlined: its metadata look-ups cost more than the check itself.)
    static func string(validating bytes: ByteView) -> String? {
        // A short ASCII string (an id, most names) is UTF-8 as it stands, so it needs no
        // comparison: ORing its few bytes costs less than reading the small string back.
        if bytes.count <= 15 {
            var any: UInt8 = 0
            for byte in bytes { any |= byte }
            if any < 0x80 { return bytes.string }
        }
        var text = bytes.string
        let unchanged = text.withUTF8View { $0.equals(bytes) }
        return unchanged ? text : nil
    }

    @inline(__always)
    private static func slot(_ m: Member) -> Int { m.rawValue.trailingZeroBitCount }

    @inline(__always)
    private static func isLiteralByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "."),
             UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "E"): true
        default: false
        }
    }

    /// `-?(0|[1-9][0-9]*)`: an integer as JSON writes it.
    private static func isPlainInteger(_ line: ByteView, _ v: Value) -> Bool {
        var p = v.start
        if p < v.end, line[p] == UInt8(ascii: "-") { p += 1 }
        guard p < v.end else { return false }
        if line[p] == UInt8(ascii: "0") { return p + 1 == v.end }
        while p < v.end { guard (0x30...0x39).contains(line[p]) else { return false }; p += 1 }
        return true
    }

    /// An integer, optionally with a fraction of at least one digit (no exponent).
    private static func isPlainNumber(_ line: ByteView, _ v: Value) -> Bool {
        var end = v.start
        while end < v.end, line[end] != UInt8(ascii: ".") { end += 1 }
        guard isPlainInteger(line, Value(start: v.start, end: end, isString: false)) else { return false }
        guard end < v.end else { return true }
        guard end + 1 < v.end else { return false }
        for p in (end + 1)..<v.end { guard (0x30...0x39).contains(line[p]) else { return false } }
        return true
    }

    /// The member of the nested `image` object named by `line[start..<end]`, or nil.
    private static func imageMember(_ line: ByteView, _ start: Int, _ end: Int) -> Member? {
        let v = Value(start: start, end: end, isString: true)
        if equals(line, v, "width") { return .imageWidth }
        if equals(line, v, "height") { return .imageHeight }
        if equals(line, v, "name") { return .imageName }
        return nil
    }

    /// The member named by `line[start..<end]`, or nil for a name this path does not take. The
    /// name is read as one little-endian word and compared with each key's word (cheaper than
    /// comparing byte by byte against each candidate).
    private static func member(_ line: ByteView, _ start: Int, _ end: Int) -> Member? {
        let count = end - start
        guard count >= 2, count <= 12, count != 3 else { return nil }
        if count == 12 {
            return word(line, start, 8) == Keys.conversationHead && word(line, start + 8, 4) == Keys.conversationTail
                ? .conversation : nil
        }
        return member(head: word(line, start, min(count, 8)), count: count)
    }

    /// The member named by a key of `count` bytes, at most 8, whose bytes `word` reads as `head`.
    @inline(__always)
    private static func member(head: UInt64, count: Int) -> Member? {
        switch count {
        case 2: return head == Keys.id ? .id : nil
        case 4:
            switch head {
            case Keys.type: return .type
            case Keys.from: return .from
            case Keys.date: return .date
            case Keys.text: return .text
            default: return nil
            }
        case 5: return head == Keys.image ? .image : nil
        case 6: return head == Keys.status ? .status : head == Keys.edited ? .edited : nil
        case 7: return head == Keys.replyTo ? .replyTo : nil
        case 8: return head == Keys.outgoing ? .outgoing : nil
        default: return nil
        }
    }

    /// `count` (at most 8) bytes of `line` from `start` as a little-endian word, zero above them.
    @inline(__always)
    private static func word(_ line: ByteView, _ start: Int, _ count: Int) -> UInt64 {
        if start + 8 <= line.count {
            let loaded = line.word(at: start)
            return count == 8 ? loaded : loaded & (1 << (8 * UInt64(count)) &- 1)
        }
        var value: UInt64 = 0
        for i in 0..<count { value |= UInt64(line[start + i]) << (8 * UInt64(i)) }
        return value
    }

    /// The member names (and the type `system`) as `word` reads them (first byte lowest), as
    /// literals: a `static let` worked out at run time costs a `swift_once` check on every use.
    /// `check()` proves them in debug builds.
    private enum Keys {
        static let id: UInt64 = 0x6469, type: UInt64 = 0x6570_7974, from: UInt64 = 0x6D6F_7266,
                   date: UInt64 = 0x6574_6164, text: UInt64 = 0x7478_6574, image: UInt64 = 0x65_6761_6D69,
                   status: UInt64 = 0x7375_7461_7473, edited: UInt64 = 0x6465_7469_6465,
                   replyTo: UInt64 = 0x6F_5479_6C70_6572, outgoing: UInt64 = 0x676E_696F_6774_756F,
                   conversationHead: UInt64 = 0x6173_7265_766E_6F63, conversationTail: UInt64 = 0x6E6F_6974,
                   system: UInt64 = 0x6D65_7473_7973

        static func pack(_ name: String) -> UInt64 {
            name.utf8.prefix(8).enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        }

        /// True when every literal is its name's packed bytes.
        static func check() -> Bool {
            id == pack("id") && type == pack("type") && from == pack("from") && date == pack("date")
                && text == pack("text") && image == pack("image") && status == pack("status")
                && edited == pack("edited") && replyTo == pack("replyTo") && outgoing == pack("outgoing")
                && conversationHead == pack("conversation") && conversationTail == pack("tion")
                && system == pack("system")
        }
    }
}
