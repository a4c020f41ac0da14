import BubbleLayout

/// Decodes the common native record straight from its bytes, with no JSON tree and no `String`
/// for keys: one object of known members (id, type, from, outgoing, date, status, edited, replyTo,
/// text, conversation) whose strings have no escapes. Anything else (an escape, an unknown or
/// repeated member, a nested object, null, a number that is not plain digits, any error at all)
/// returns nil, and the line goes through the full parser and decoder, which give every
/// diagnostic with its column. So a line is either decoded here exactly as the full path would
/// decode it, or left to it.
struct NativeFastDecoder {
    var me: String?

    /// The members this path knows, as bits of a seen-set.
    private enum Member: UInt16 {
        case id = 1, type = 2, from = 4, outgoing = 8, date = 16, status = 32, edited = 64, replyTo = 128,
             text = 256, conversation = 512
    }

    /// A value's bytes: a string's contents (quotes excluded) or a literal's text.
    private struct Value {
        var start: Int
        var end: Int
        var isString: Bool
    }

    func decode(_ line: UnsafeBufferPointer<UInt8>) -> (any LogRecord)? {
        var p = 0
        let n = line.count
        @inline(__always) func skipSpace() {
            while p < n, line[p] == 0x20 || line[p] == 0x09 || line[p] == 0x0D { p += 1 }
        }
        skipSpace()
        guard p < n, line[p] == UInt8(ascii: "{") else { return nil }
        p += 1
        var seen: UInt16 = 0
        var values = [Value](repeating: Value(start: 0, end: 0, isString: false), count: 10)
        skipSpace()
        guard p < n, line[p] != UInt8(ascii: "}") else { return nil }
        while true {
            skipSpace()
            guard p < n, line[p] == UInt8(ascii: "\"") else { return nil }
            p += 1
            let keyStart = p
            while p < n, line[p] != UInt8(ascii: "\""), line[p] != UInt8(ascii: "\\"), line[p] >= 0x20 { p += 1 }
            guard p < n, line[p] == UInt8(ascii: "\"") else { return nil }
            guard let member = Self.member(line, keyStart, p), seen & member.rawValue == 0 else { return nil }
            seen |= member.rawValue
            p += 1
            skipSpace()
            guard p < n, line[p] == UInt8(ascii: ":") else { return nil }
            p += 1
            skipSpace()
            guard p < n else { return nil }
            let value: Value
            switch line[p] {
            case UInt8(ascii: "\""):
                p += 1
                let start = p
                while p < n, line[p] != UInt8(ascii: "\""), line[p] != UInt8(ascii: "\\"), line[p] >= 0x20 { p += 1 }
                guard p < n, line[p] == UInt8(ascii: "\"") else { return nil }
                value = Value(start: start, end: p, isString: true)
                p += 1
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "t"), UInt8(ascii: "f"):
                let start = p
                while p < n, Self.isLiteralByte(line[p]) { p += 1 }
                value = Value(start: start, end: p, isString: false)
            default:
                return nil
            }
            values[Self.slot(member)] = value
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
            break
        }
        return build(line, seen: seen, values: values)
    }

    private func build(_ line: UnsafeBufferPointer<UInt8>, seen: UInt16, values: [Value]) -> (any LogRecord)? {
        func has(_ m: Member) -> Bool { seen & m.rawValue != 0 }
        func value(_ m: Member) -> Value { values[Self.slot(m)] }
        func string(_ m: Member) -> String? {
            let v = value(m)
            guard v.isString else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: line[v.start..<v.end]), as: UTF8.self)
        }
        /// A string, or plain decimal digits (what `identifierValue` takes that this path checks).
        func identifier(_ m: Member) -> String? {
            let v = value(m)
            if v.isString { return string(m) }
            guard Self.isPlainInteger(line, v), line[v.start] != UInt8(ascii: "-") else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: line[v.start..<v.end]), as: UTF8.self)
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

        guard has(.id), has(.type), has(.date), let id = identifier(.id), let type = string(.type) else { return nil }
        let micros: Int64
        let date = value(.date)
        if date.isString {
            guard let text = string(.date), let parsed = LogTimestamp.microseconds(iso8601: text) else { return nil }
            micros = parsed
        } else {
            guard Self.isPlainNumber(line, date) else { return nil }
            let literal = String(decoding: UnsafeBufferPointer(rebasing: line[date.start..<date.end]), as: UTF8.self)
            guard let parsed = LogTimestamp.microseconds(unixSecondsLiteral: literal) else { return nil }
            micros = parsed
        }
        var from: String?
        if has(.from) {
            guard let text = string(.from) else { return nil }
            from = text
        }
        guard let outgoing = bool(.outgoing), let edited = bool(.edited) else { return nil }
        var status: DeliveryStatus?
        if has(.status) {
            guard let text = string(.status), let parsed = DeliveryStatus(rawValue: text) else { return nil }
            status = parsed
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
        let isOutgoing = outgoing ?? SenderName.matches(me, from)
        var header = LogMessageHeader(
            id: id, senderName: from, direction: isOutgoing ? .outgoing : .incoming,
            date: LogTimestamp.date(microseconds: micros), status: status, isEdited: edited ?? false, replyToID: replyTo)
        header.conversationID = conversation
        switch type {
        case LogTextMessage.nativeType:
            guard let text else { return nil }
            return LogTextMessage(header: header, text: text)
        case LogSystemMessage.nativeType:
            guard let text else { return nil }
            header.senderName = nil
            return LogSystemMessage(header: header, notice: text)
        default:
            // Images have a nested object: the full path decodes them.
            return nil
        }
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
    private static func isPlainInteger(_ line: UnsafeBufferPointer<UInt8>, _ v: Value) -> Bool {
        var p = v.start
        if p < v.end, line[p] == UInt8(ascii: "-") { p += 1 }
        guard p < v.end else { return false }
        if line[p] == UInt8(ascii: "0") { return p + 1 == v.end }
        while p < v.end { guard (0x30...0x39).contains(line[p]) else { return false }; p += 1 }
        return true
    }

    /// An integer, optionally with a fraction of at least one digit (no exponent).
    private static func isPlainNumber(_ line: UnsafeBufferPointer<UInt8>, _ v: Value) -> Bool {
        var end = v.start
        while end < v.end, line[end] != UInt8(ascii: ".") { end += 1 }
        guard isPlainInteger(line, Value(start: v.start, end: end, isString: false)) else { return false }
        guard end < v.end else { return true }
        guard end + 1 < v.end else { return false }
        for p in (end + 1)..<v.end { guard (0x30...0x39).contains(line[p]) else { return false } }
        return true
    }

    /// The member named by `line[start..<end]`, or nil for a name this path does not take.
    private static func member(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Member? {
        func equals(_ name: StaticString) -> Bool {
            guard name.utf8CodeUnitCount == end - start else { return false }
            for i in 0..<(end - start) where name.utf8Start[i] != line[start + i] { return false }
            return true
        }
        switch end - start {
        case 2: return equals("id") ? .id : nil
        case 4: return equals("type") ? .type : equals("from") ? .from : equals("date") ? .date : equals("text") ? .text : nil
        case 6: return equals("status") ? .status : equals("edited") ? .edited : nil
        case 7: return equals("replyTo") ? .replyTo : nil
        case 8: return equals("outgoing") ? .outgoing : nil
        case 12: return equals("conversation") ? .conversation : nil
        default: return nil
        }
    }
}
