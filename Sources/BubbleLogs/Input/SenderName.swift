import BubbleText

/// How `--me` is compared with a sender's name. Exports dress names in invisible formatting: iOS
/// WhatsApp wraps a phone-number sender in U+202A … U+202C and writes `~` and U+202F before a name
/// that is not in the exporter's contacts (`~ Ana`), and apps put directional marks around
/// right-to-left names; iOS WhatsApp groups a phone number's digits with U+00A0 (`+44 7700 900123`),
/// where a person types plain spaces. None of that makes a different person, so both sides are
/// compared without the invisible marks and with every run of spaces of any kind (Unicode's Zs and
/// the tab) as one plain space; otherwise the comparison is exact (case and spelling count).
public enum SenderName {
    /// `name` without bidi controls (marks, embeddings, overrides, isolates), without WhatsApp's
    /// leading `~` and the space after it, without surrounding spaces, and with each run of
    /// spaces inside (any Zs, the tab) one U+0020.
    public static func comparable(_ name: String) -> String {
        isOwnComparableForm(name) ? name : comparableByScalars(name)
    }

    /// True when `comparable` would give `name` back unchanged, told from its UTF-8 alone: no bidi
    /// control in it, neither a space nor `~` first nor a space last, and no space inside but
    /// single U+0020s. Most names are so, and `matches` runs on every message, where the scalar
    /// path costs an allocation a name.
    /// Conservative: a two-byte scalar led by C2 or a three-byte one led by E2 at either end (where
    /// the non-ASCII spaces lie) sends the name down the scalar path.
    static func isOwnComparableForm(_ name: String) -> Bool {
        guard !InvisibleFormatting.mayHoldBidiControl(name) else { return false }
        let utf8 = name.utf8
        guard let first = utf8.first, let last = utf8.last else { return true }
        if first == 0x20 || first == 0x09 || first == 0x7E || first == 0xC2 || first == 0xE2 { return false }
        if last == 0x20 || last == 0x09 { return false }
        // Lead bytes of the non-ASCII Zs spaces: C2 (U+00A0), E1 (U+1680), E2 (U+2000…U+205F), E3 (U+3000).
        var previous: UInt8 = 0
        for byte in utf8 {
            if byte == 0x09 || byte == 0xC2 || (byte >= 0xE1 && byte <= 0xE3) || (byte == 0x20 && previous == 0x20) { return false }
            previous = byte
        }
        if last >= 0x80 {
            var end = utf8.endIndex
            utf8.formIndex(before: &end)
            if end > utf8.startIndex {
                utf8.formIndex(before: &end)
                if utf8[end] == 0xC2 { return false }
                if end > utf8.startIndex {
                    utf8.formIndex(before: &end)
                    if utf8[end] == 0xE2 { return false }
                }
            }
        }
        return true
    }

    /// `comparable` scalar by scalar: the rule as written.
    static func comparableByScalars(_ name: String) -> String {
        var scalars = Substring(name).unicodeScalars.filter { !isBidiControl($0.value) }[...]
        func dropSpaces() {
            while let first = scalars.first, isSpace(first.value) { scalars.removeFirst() }
            while let last = scalars.last, isSpace(last.value) { scalars.removeLast() }
        }
        dropSpaces()
        if scalars.first == "~" {
            scalars.removeFirst()
            dropSpaces()
        }
        var result = String.UnicodeScalarView()
        for scalar in scalars {
            if isSpace(scalar.value) {
                if result.last != " " { result.append(" ") }
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// True when `name` is `me`'s (both present and equal as `comparable` forms).
    public static func matches(_ me: String?, _ name: String?) -> Bool {
        guard let me, let name else { return false }
        return me == name || comparable(me) == comparable(name)
    }

    /// `matches(me, name)` for one `me` and many names: `me`'s comparable form is worked out once,
    /// not again for every message (half of what `matches` costs a record).
    struct Matcher {
        let me: String?
        private let comparableMe: String?

        init(me: String?) {
            self.me = me
            comparableMe = me.map(SenderName.comparable)
        }

        /// `SenderName.matches(me, name)`.
        func matches(_ name: String?) -> Bool {
            guard let me, let name, let comparableMe else { return false }
            return me == name || SenderName.comparable(name) == comparableMe
        }
    }

    /// Bidi_Control, from the generated table.
    static func isBidiControl(_ v: UInt32) -> Bool { BidiControl(v) != nil }

    /// A space of Unicode's general category Zs (U+0020, U+00A0, U+1680, U+2000…U+200A, U+202F,
    /// U+205F, U+3000), or the tab.
    static func isSpace(_ v: UInt32) -> Bool {
        v == 0x20 || v == 0x09 || v == 0xA0 || v == 0x1680 || (0x2000...0x200A).contains(v) || v == 0x202F || v == 0x205F || v == 0x3000
    }

    /// `name` as a warning shows it so that the kind of each space can be seen: every space other
    /// than U+0020 (the tab, U+00A0, U+202F…) written as `\u{A0}`, the rest as is.
    public static func visible(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            if scalar.value != 0x20 && isSpace(scalar.value) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
