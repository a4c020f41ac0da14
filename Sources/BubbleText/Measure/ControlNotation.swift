/// The visible form of a scalar that must never reach a terminal raw.
///
/// The text engine measures a control by its visible form, so the renderer can draw that form
/// and every width the engine reports stays true on screen.
package enum ControlNotation {
    /// The visible stand-in for `scalar`, or nil when the scalar is safe to draw as itself.
    ///
    /// C0 and DEL use caret notation (`^[`, `^?`), C1 uses its hex byte (`<9B>`), and the bidi
    /// controls use their standard abbreviations (`<RLO>`). Tab and the mandatory line breaks
    /// (LF, VT, FF, CR, NEL, LS, PS) are layout, not text, and are handled by the wrapper.
    @inlinable
    package static func visibleForm(of scalar: UInt32) -> String? {
        switch scalar {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029:
            return nil
        case 0x00...0x1F:
            return "^" + String(UnicodeScalar(UInt8(scalar + 0x40)))
        case 0x7F:
            return "^?"
        case 0x80...0x9F:
            return "<" + hexByte(UInt8(scalar)) + ">"
        default:
            return bidiAbbreviation(scalar).map { "<" + $0 + ">" }
        }
    }

    /// Cell width of `visibleForm(of:)`, without building the string.
    @inlinable
    package static func visibleWidth(of scalar: UInt32) -> Int {
        switch scalar {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return 0
        case 0x00...0x1F, 0x7F: return 2
        case 0x80...0x9F: return 4
        default: return bidiAbbreviation(scalar).map { $0.utf8.count + 2 } ?? 0
        }
    }

    /// True for the scalars this type gives a visible form: C0 (less tab and breaks), DEL, C1
    /// (less NEL) and the bidi formatting controls.
    @inlinable
    package static func isNeutralised(_ scalar: UInt32) -> Bool {
        visibleWidth(of: scalar) != 0
    }

    @usableFromInline
    static func bidiAbbreviation(_ scalar: UInt32) -> String? {
        switch scalar {
        case 0x061C: return "ALM"
        case 0x200E: return "LRM"
        case 0x200F: return "RLM"
        case 0x202A: return "LRE"
        case 0x202B: return "RLE"
        case 0x202C: return "PDF"
        case 0x202D: return "LRO"
        case 0x202E: return "RLO"
        case 0x2066: return "LRI"
        case 0x2067: return "RLI"
        case 0x2068: return "FSI"
        case 0x2069: return "PDI"
        default: return nil
        }
    }

    @usableFromInline
    static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        return String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }
}
