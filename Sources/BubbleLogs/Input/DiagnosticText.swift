/// Makes untrusted text safe to put in a diagnostic that goes to a terminal.
public enum DiagnosticText {
    /// Escapes controls, bidi controls and quotes (as JSON does, so nothing raw reaches stderr) and
    /// shortens long values to keep the message on one line. For a value inside double quotes.
    public static func quoted(_ text: String, limit: Int = 60) -> String {
        let scalars = text.unicodeScalars.prefix(limit)
        var clipped = String(String.UnicodeScalarView(scalars))
        if scalars.count < text.unicodeScalars.count { clipped += "…" }
        var out = ""
        JSONObjectWriter.appendQuoted(clipped, to: &out)
        return String(out.dropFirst().dropLast())
    }

    /// `text` whole, with only the scalars that must not reach a terminal raw (the ones JSON output
    /// escapes, less quotes and backslashes) written as `\uXXXX`: for file names and for a
    /// finished message, where a path should read as it was typed.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: mustNotReachTerminal) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard mustNotReachTerminal(scalar) else {
                out.append(scalar)
                continue
            }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            out.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).unicodeScalars)
        }
        return String(out)
    }

    /// A scalar JSON output escapes, other than a quote or a backslash.
    private static func mustNotReachTerminal(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\"" && scalar != "\\" && JSONObjectWriter.mustEscape(scalar.value)
    }
}
