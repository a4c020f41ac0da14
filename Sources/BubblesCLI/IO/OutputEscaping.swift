import BubbleLogs
import BubbleText

/// Escaping for CSV output, so untrusted ids never carry raw controls (JSON uses `JSONString`).
enum OutputEscaping {
    /// `text` as one CSV field (RFC 4180 quoting). CSV has no escapes of its own, so every
    /// scalar JSON output escapes is shown in a visible form instead: C0 controls in caret form
    /// (CR is `^M`, LF `^J`, VT `^K`, FF `^L`, tab `^I`), DEL as `^?`, C1 controls (NEL among
    /// them) as their hex byte (`<85>`), the bidi controls by abbreviation (`<RLO>`), and the
    /// line and paragraph separators as `<LS>` and `<PS>`. A field thus never spans lines, and
    /// quotes are needed only for commas and quotes.
    static func csvField(_ text: String) -> String {
        var visible = ""
        var needsQuotes = false
        for scalar in text.unicodeScalars {
            if let form = visibleForm(of: scalar.value) {
                visible += form
            } else {
                if scalar == "," || scalar == "\"" { needsQuotes = true }
                visible.unicodeScalars.append(scalar)
            }
        }
        guard needsQuotes else { return visible }
        return "\"" + visible.replacingQuotes() + "\""
    }

    /// The visible form of a scalar a CSV field must not carry raw, or nil when it is safe.
    static func visibleForm(of scalar: UInt32) -> String? {
        switch scalar {
        case 0x00...0x1F: "^" + String(UnicodeScalar(UInt8(scalar + 0x40)))
        case 0x85: "<85>"
        case 0x2028: "<LS>"
        case 0x2029: "<PS>"
        default: ControlNotation.visibleForm(of: scalar)
        }
    }
}

extension String {
    fileprivate func replacingQuotes() -> String {
        var out = ""
        for scalar in unicodeScalars {
            if scalar == "\"" { out += "\"\"" } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}

extension OutputBuffer {
    /// `text` as one CSV field (see `OutputEscaping.csvField`).
    mutating func appendCSVField(_ text: String) {
        var text = text
        let plain = text.withUTF8View { utf8 in
            for byte in utf8 where byte < 0x20 || byte == 0x22 || byte == 0x2C || byte >= 0x7F { return false }
            append(bytes: utf8)
            return true
        }
        if !plain { append(bytes: Array(OutputEscaping.csvField(text).utf8)) }
    }

    /// The end of a CSV record of `heights` (cells or pixels): the conversation column, empty for
    /// a log without conversations, then a newline.
    mutating func appendCSVRecordEnd(conversation: String?) {
        append(",")
        if let conversation { appendCSVField(conversation) }
        append("\n")
    }
}
