/// Makes untrusted text safe to quote inside a diagnostic that goes to a terminal.
enum DiagnosticText {
    /// Escapes controls, bidi controls and quotes (as JSON does, so nothing raw reaches stderr) and
    /// shortens long values to keep the message on one line.
    static func quoted(_ text: String, limit: Int = 60) -> String {
        let scalars = text.unicodeScalars.prefix(limit)
        var clipped = String(String.UnicodeScalarView(scalars))
        if scalars.count < text.unicodeScalars.count { clipped += "…" }
        var out = ""
        JSONObjectWriter.appendQuoted(clipped, to: &out)
        return String(out.dropFirst().dropLast())
    }
}
