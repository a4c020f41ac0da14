import BubbleText

/// Escaping for the machine-readable outputs, so untrusted ids never carry raw controls.
enum OutputEscaping {
    /// `text` as a JSON string literal. Controls, DEL, C1 and bidi controls are `\u` escaped, so
    /// the output is safe to print to a terminal as well as to parse.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || ControlNotation.isNeutralised(scalar.value) || scalar.value == 0x85
                    || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    out += "\\u" + hex4(scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `text` as one CSV field (RFC 4180 quoting). Controls are shown in their visible form, since
    /// CSV has no escapes of its own.
    static func csvField(_ text: String) -> String {
        var visible = ""
        var needsQuotes = false
        for scalar in text.unicodeScalars {
            if let form = ControlNotation.visibleForm(of: scalar.value) {
                visible += form
            } else {
                if scalar == "," || scalar == "\"" || scalar == "\n" || scalar == "\r" { needsQuotes = true }
                visible.unicodeScalars.append(scalar)
            }
        }
        guard needsQuotes else { return visible }
        return "\"" + visible.replacingQuotes() + "\""
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
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
