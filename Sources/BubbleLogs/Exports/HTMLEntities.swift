/// HTML character references: numeric ones (`&#39;`, `&#x1F600;`) and the named ones an exporter
/// escapes with (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;`). A reference without its
/// `;`, or a name not among these, stays as written; a number that is no scalar (zero, a
/// surrogate, past U+10FFFF) is U+FFFD.
enum HTMLEntities {
    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
    ]

    static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            guard byte == UInt8(ascii: "&"), let (scalar, next) = reference(bytes, at: i) else {
                out.append(byte)
                i += 1
                continue
            }
            out.append(contentsOf: Array(String(scalar).utf8))
            i = next
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The text of the reference at `i` (an `&`) and the index after its `;`.
    private static func reference(_ bytes: ArraySlice<UInt8>, at i: Int) -> (String, Int)? {
        var j = i + 1
        let limit = min(bytes.endIndex, i + 12)
        if j < limit, bytes[j] == UInt8(ascii: "#") {
            j += 1
            let hex = j < limit && (bytes[j] == UInt8(ascii: "x") || bytes[j] == UInt8(ascii: "X"))
            if hex { j += 1 }
            var value: UInt32 = 0
            var digits = 0
            while j < limit, let digit = digitValue(bytes[j], hex: hex) {
                value = min(value * (hex ? 16 : 10) + digit, 0x110000)
                digits += 1
                j += 1
            }
            guard digits > 0, j < bytes.endIndex, bytes[j] == UInt8(ascii: ";") else { return nil }
            let scalar = value == 0 ? nil : Unicode.Scalar(value)
            return (String(Character(scalar ?? "\u{FFFD}")), j + 1)
        }
        let start = j
        while j < limit, (0x61...0x7A).contains(bytes[j]) || (0x41...0x5A).contains(bytes[j]) { j += 1 }
        guard j > start, j < bytes.endIndex, bytes[j] == UInt8(ascii: ";"),
              let text = named[String(decoding: bytes[start..<j], as: UTF8.self)] else { return nil }
        return (text, j + 1)
    }

    private static func digitValue(_ byte: UInt8, hex: Bool) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x61...0x66 where hex: UInt32(byte - 0x61 + 10)
        case 0x41...0x46 where hex: UInt32(byte - 0x41 + 10)
        default: nil
        }
    }
}
