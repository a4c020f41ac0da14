/// JSON string literals that are safe to print: the one escaper every JSON output shares (native
/// records, `heights`, `bench --json`).
public enum JSONString {
    /// `text` as a JSON string literal, quotes included. Every C0 and C1 control, DEL, the bidi
    /// controls and the line/paragraph separators are written as `\uXXXX`, never raw.
    public static func quoted(_ text: String) -> String {
        var out = ""
        JSONObjectWriter.appendQuoted(text, to: &out)
        return out
    }
}

/// Builds one JSON object on a single line, members in the order they are added.
///
/// Strings are escaped so that the output is safe to `cat` to a terminal: every C0 and C1 control,
/// DEL, the bidi controls and the line/paragraph separators are written as `\uXXXX`, never raw.
struct JSONObjectWriter {
    private(set) var text = "{"
    private var isEmpty = true

    mutating func add(_ key: String, string value: String) {
        addKey(key)
        Self.appendQuoted(value, to: &text)
    }

    mutating func add(_ key: String, int value: Int) {
        addKey(key)
        text += String(value)
    }

    mutating func add(_ key: String, bool value: Bool) {
        addKey(key)
        text += value ? "true" : "false"
    }

    mutating func add(_ key: String, object value: JSONObjectWriter) {
        addKey(key)
        text += value.finished
    }

    mutating func add(_ key: String, objects values: [JSONObjectWriter]) {
        addKey(key)
        text += "["
        for (i, value) in values.enumerated() {
            if i > 0 { text += "," }
            text += value.finished
        }
        text += "]"
    }

    var finished: String { text + "}" }

    private mutating func addKey(_ key: String) {
        if !isEmpty { text += "," }
        isEmpty = false
        Self.appendQuoted(key, to: &text)
        text += ":"
    }

    static func mustEscape(_ value: UInt32) -> Bool {
        switch value {
        case 0x00...0x1F, 0x22, 0x5C, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// True when no scalar of `value` needs escaping (`mustEscape`), judged from its UTF-8 bytes:
    /// no byte below 0x20, no quote, backslash or DEL, and none of the encodings of the escaped
    /// scalars above U+007F (C2 80-9F: the C1 controls; D8 9C: U+061C; E2 80 8E-8F, E2 80 A8-AE and
    /// E2 81 A6-A9: the bidi marks, separators, embeddings and isolates).
    static func isPlain(_ value: String) -> Bool {
        var value = value
        return value.withUTF8 { utf8 in
            var i = 0
            let n = utf8.count
            while i < n {
                let byte = utf8[i]
                switch byte {
                case 0x00...0x1F, 0x22, 0x5C, 0x7F: return false
                case 0xC2: if i + 1 < n, utf8[i + 1] <= 0x9F { return false }
                case 0xD8: if i + 1 < n, utf8[i + 1] == 0x9C { return false }
                case 0xE2:
                    if i + 2 < n {
                        let b1 = utf8[i + 1], b2 = utf8[i + 2]
                        if b1 == 0x80, (0x8E...0x8F).contains(b2) || (0xA8...0xAE).contains(b2) { return false }
                        if b1 == 0x81, (0xA6...0xA9).contains(b2) { return false }
                    }
                default: break
                }
                i += 1
            }
            return true
        }
    }

    static func appendQuoted(_ value: String, to out: inout String) {
        guard !isPlain(value) else {
            out += "\""
            out += value
            out += "\""
            return
        }
        var buffer = OutputBuffer(capacity: value.utf8.count + 16)
        buffer.appendJSONString(value)
        out += buffer.withBytes { String(decoding: $0, as: UTF8.self) }
    }
}
