/// Untrusted text made safe for XML (SVG) and HTML: the five markup characters as entities,
/// and every scalar that could act rather than be read dropped.
///
/// Dropped: C0 controls (a tab becomes a space), DEL, C1 controls, the bidi controls (LRM, RLM,
/// ALM, LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI), U+FFFE and U+FFFF (not characters in XML).
/// A picture's lines are already in visual order, so an RLO left in would make the viewer reorder
/// the rest of its line a second time, and an unclosed one could reach our own labels; taking the
/// controls out leaves nothing for the viewer's bidi algorithm to act on but the letters. The text
/// was measured with them, and they take no width.
public enum MarkupText {
    /// `text` escaped for an XML or HTML text node or a quoted attribute value.
    public static func escaped(_ text: some StringProtocol) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        append(text, to: &out)
        return out
    }

    /// Appends `text` escaped to `out`.
    public static func append(_ text: some StringProtocol, to out: inout String) {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: out += "&amp;"
            case 0x3C: out += "&lt;"
            case 0x3E: out += "&gt;"
            case 0x22: out += "&quot;"
            case 0x27: out += "&#39;"
            case 0x09: out += " "
            default:
                if !isDropped(scalar.value) { out.unicodeScalars.append(scalar) }
            }
        }
    }

    /// Whether `value` is left out of markup (see the type's description).
    @inline(__always)
    public static func isDropped(_ value: UInt32) -> Bool {
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        if value < 0x61C { return false }
        return value == 0x61C || value == 0x200E || value == 0x200F || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value) || value == 0xFFFE || value == 0xFFFF
    }
}
