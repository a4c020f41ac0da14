import BubbleText

/// How `--me` is compared with a sender's name. Exports dress names in invisible formatting: iOS
/// WhatsApp wraps a phone-number sender in U+202A … U+202C and writes `~` and U+202F before a name
/// that is not in the exporter's contacts (`~ Ana`), and apps put directional marks around
/// right-to-left names. None of that makes a different person, so both sides are compared without
/// it; otherwise the comparison is exact (case and spelling count).
public enum SenderName {
    /// `name` without bidi controls (marks, embeddings, overrides, isolates), without WhatsApp's
    /// leading `~` and the space after it, and without surrounding spaces.
    public static func comparable(_ name: String) -> String {
        isOwnComparableForm(name) ? name : comparableByScalars(name)
    }

    /// True when `comparable` would give `name` back unchanged, told from its UTF-8 alone: no bidi
    /// control in it, and neither a space nor `~` first nor a space last. Most names are so, and
    /// `matches` runs on every message, where the scalar path costs an allocation a name.
    /// Conservative: a two-byte scalar led by C2 or a three-byte one led by E2 at either end (where
    /// the non-ASCII spaces lie) sends the name down the scalar path.
    static func isOwnComparableForm(_ name: String) -> Bool {
        guard !InvisibleFormatting.mayHoldBidiControl(name) else { return false }
        let utf8 = name.utf8
        guard let first = utf8.first, let last = utf8.last else { return true }
        if first == 0x20 || first == 0x09 || first == 0x7E || first == 0xC2 || first == 0xE2 { return false }
        if last == 0x20 || last == 0x09 { return false }
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
        return String(String.UnicodeScalarView(scalars))
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

    static func isSpace(_ v: UInt32) -> Bool {
        v == 0x20 || v == 0x09 || v == 0xA0 || v == 0x202F || v == 0x2007 || v == 0x2009
    }
}
