import BubbleText

/// OSC 8 hyperlinks (`ESC ] 8 ; id=ID ; URI ESC \`), the escape terminals open links by. We only
/// write our own: the URI is rebuilt from an address found in the text (`URLSpans`), byte by byte,
/// and refused when it holds anything a terminal could read as the end of the sequence.
enum Hyperlink {
    /// The longest URI written; a longer address is drawn as plain text (terminals cap theirs:
    /// VTE at 2,083 bytes).
    static let maximumLength = 2_048

    /// `address` as an OSC 8 URI: printable ASCII kept, `%` kept only before two hex digits, a
    /// space, a non-ASCII byte or a stray `%` percent-encoded; nil when it holds a C0 or C1 control,
    /// DEL, ESC, BEL or ST (U+009C), or is empty or too long.
    static func target(_ address: Substring) -> String? {
        let bytes = Array(address.utf8)
        guard !bytes.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        let hex = Array("0123456789ABCDEF".utf8)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte < 0x20 || byte == 0x7F { return nil }
            // U+0080…U+009F (C1, ST among them) as UTF-8: C2 80…C2 9F.
            if byte == 0xC2, i + 1 < bytes.count, bytes[i + 1] >= 0x80 && bytes[i + 1] <= 0x9F { return nil }
            let isHex = { (b: UInt8) in (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x66) }
            let keptPercent = byte == 0x25 && i + 2 < bytes.count && isHex(bytes[i + 1]) && isHex(bytes[i + 2])
            if byte > 0x20 && byte < 0x7F && (byte != 0x25 || keptPercent) {
                out.append(byte)
            } else {
                out += [0x25, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
            i += 1
        }
        guard out.count <= maximumLength else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    /// The sequence opening a link to `target` (from `target(_:)`) with `id`: pieces of one link
    /// on several lines share an id, so a terminal opens and underlines them as one.
    static func open(_ target: String, id: String) -> String { "\u{1B}]8;id=\(id);\(target)\u{1B}\\" }

    /// The sequence closing a link.
    static let close = "\u{1B}]8;;\u{1B}\\"

    /// An id for link `index` of message `messageID` (at `revision`): the same however often the
    /// message is drawn (the viewer draws it again on every scroll), letters and digits only.
    static func id(messageID: String, revision: Int, index: Int) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in messageID.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash = (hash ^ UInt64(truncatingIfNeeded: revision)) &* 0x100_0000_01b3
        return "bl" + String(hash, radix: 36) + "x" + String(index, radix: 36)
    }
}
