/// What an input's first bytes say about it before any format is looked at: a byte order mark
/// today. Recognising a container by its signature (a zip file's `PK\u{3}\u{4}`) belongs here too,
/// so detection stays one decision on the first bytes, then one on the decoded text.
enum InputMagic: Equatable {
    /// No mark: UTF-8 text (or something that is not text, which format detection will say).
    case none
    case utf8BOM
    case utf16LittleEndian
    case utf16BigEndian
    /// UTF-32 marks; we do not decode UTF-32 and say so.
    case utf32
    /// UTF-16 without a mark, told by its zero bytes: nearly all at odd offsets (little-endian)
    /// or at even ones (big-endian), as the ASCII digits, spaces and punctuation of any chat log make
    /// them. Windows tools that save "Unicode" text without a mark write it so.
    case utf16LittleEndianUnmarked
    case utf16BigEndianUnmarked

    /// The longest mark `sniff` needs to see.
    static let longestMark = 4

    /// Recognises the mark at the start of `head` (which may be shorter than a mark at the end of a
    /// tiny input).
    static func sniff<C: Collection<UInt8>>(_ head: C) -> InputMagic {
        let b = Array(head.prefix(longestMark))
        if b.starts(with: [0xFF, 0xFE, 0x00, 0x00]) || b.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return .utf32 }
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { return .utf8BOM }
        if b.starts(with: [0xFF, 0xFE]) { return .utf16LittleEndian }
        if b.starts(with: [0xFE, 0xFF]) { return .utf16BigEndian }
        return unmarkedUTF16(head)
    }

    /// How many of the first bytes `unmarkedUTF16` looks at.
    static let unmarkedSample = 512

    /// UTF-16 told from the first bytes without a mark: at least a quarter of the first code
    /// units have a zero byte, nearly always on the same side, and none is U+0000 (text has no NUL;
    /// UTF-32 and binary files have zero bytes on both sides). UTF-8 text has no zero byte at all.
    static func unmarkedUTF16<C: Collection<UInt8>>(_ head: C) -> InputMagic {
        let b = Array(head.prefix(unmarkedSample))
        let units = b.count / 2
        guard units >= 4 else { return .none }
        var zeroHigh = 0, zeroLow = 0
        for k in 0..<units {
            let first = b[2 * k], second = b[2 * k + 1]
            if first == 0 && second == 0 { return .none }
            if second == 0 { zeroHigh += 1 }  // little-endian: an ASCII unit's second byte
            if first == 0 { zeroLow += 1 }
        }
        let enough = max(2, units / 4)
        // A character such as U+2600 has a zero byte on the other side: a few are allowed.
        if zeroHigh >= enough && zeroLow * 8 <= zeroHigh { return .utf16LittleEndianUnmarked }
        if zeroLow >= enough && zeroHigh * 8 <= zeroLow { return .utf16BigEndianUnmarked }
        return .none
    }

    /// True for UTF-16, marked or not.
    var isUTF16: Bool {
        switch self {
        case .utf16LittleEndian, .utf16BigEndian, .utf16LittleEndianUnmarked, .utf16BigEndianUnmarked: true
        case .none, .utf8BOM, .utf32: false
        }
    }

    var isBigEndian: Bool { self == .utf16BigEndian || self == .utf16BigEndianUnmarked }

    /// Bytes the mark takes, which the decoded text does not include.
    var length: Int {
        switch self {
        case .none, .utf16LittleEndianUnmarked, .utf16BigEndianUnmarked: 0
        case .utf8BOM: 3
        case .utf16LittleEndian, .utf16BigEndian: 2
        case .utf32: 4
        }
    }
}

/// The structure of the first JSON object in a prefix of the input, which may end mid-value: its
/// top-level keys, found without parsing (and so without needing the rest of a value that runs
/// past the prefix), to tell an export minified onto one long line from a line of JSON Lines.
struct JSONShape {
    /// Keys of the first object's top level seen in the prefix (the first 256, each cut at 64
    /// bytes), leaving out keys written with escapes: the export keys looked for have none.
    var topLevelKeys: Set<String> = []
    /// The first object ends inside the prefix.
    var closes = false

    /// `bytes` starts at the opening `{`.
    init<C: Collection<UInt8>>(_ bytes: C) where C.Index == Int {
        var depth = 0
        var inString = false
        var escaped = false
        var expectingKey = false
        var readingKey = false
        var keyHasEscape = false
        var key: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            index += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                    keyHasEscape = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if readingKey {
                        readingKey = false
                        if !keyHasEscape, topLevelKeys.count < 256 { topLevelKeys.insert(String(decoding: key, as: UTF8.self)) }
                    }
                } else if readingKey, key.count < 64 {
                    key.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                readingKey = depth == 1 && expectingKey
                keyHasEscape = false
                expectingKey = false
                key.removeAll(keepingCapacity: true)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                expectingKey = depth == 1 && byte == UInt8(ascii: "{")
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    closes = true
                    return
                }
            case UInt8(ascii: ","):
                expectingKey = depth == 1
            default:
                break
            }
        }
    }
}
