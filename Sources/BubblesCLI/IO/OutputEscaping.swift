import BubbleText

/// Escaping for CSV output, so untrusted ids never carry raw controls (JSON uses `JSONString`).
enum OutputEscaping {
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
