/// Slack's emoji shortcodes: a message's text holds `:smile:` and `:+1::skin-tone-3:` where the
/// sender picked an emoji, and Slack draws the emoji. The names are Slack's own
/// (`SlackEmojiTable`, generated from the emoji data Slack uses); a workspace's custom emoji
/// (`:partyparrot:`) are images we do not have, and stay as written. Shortcodes inside code
/// (`` `a:b:` ``, ```` ``` ```` blocks) and inside `<…>` (links, mentions) are text, as Slack
/// shows them.
enum SlackEmoji {
    /// The emoji of each short name, with its five toned forms when it has them.
    private static let forms: [String: [String]] = {
        var forms: [String: [String]] = [:]
        forms.reserveCapacity(2_048)
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: "\t").map(String.init)
            forms[fields[0]] = Array(fields.dropFirst())
        }
        return forms
    }()

    /// The emoji `name` stands for (`+1` → 👍), toned by `tone` (2 to 6, as `skin-tone-N`)
    /// when the emoji has skin tones; nil for a name Slack does not know.
    static func emoji(named name: String, tone: Int? = nil) -> String? {
        guard let found = forms[name] else { return nil }
        if let tone, found.count == 6, (2...6).contains(tone) { return found[tone - 1] }
        return found[0]
    }

    /// `text` with every known shortcode outside code and `<…>` replaced by its emoji; a
    /// `:skin-tone-N:` right after one tones it when it can be toned, and is otherwise left as
    /// written. A shortcode starts a word: its colon follows no ASCII letter or digit, nor another
    /// colon (`12:ok:30`, `fe80::a:b` stay text), save the closing colon of a shortcode just read
    /// (`:tada::heart:`). Code is a span between two backticks on one line, or a block between
    /// two ```` ``` ````; a backtick or `<` with no partner (`don`t`) is plain text.
    static func replacingShortcodes(in text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: ":")) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        var shortcodeEnd = -1
        /// The index of `closing` after `from`, not past a line break when `sameLine`.
        func find(_ closing: [UInt8], from: Int, sameLine: Bool) -> Int? {
            var j = from
            while j + closing.count <= bytes.count {
                if sameLine && bytes[j] == 0x0A { return nil }
                if bytes[j] == closing[0] && (closing.count == 1 || bytes[j..<(j + closing.count)].elementsEqual(closing)) { return j }
                j += 1
            }
            return nil
        }
        while i < bytes.count {
            let byte = bytes[i]
            var skipTo: Int?
            if byte == UInt8(ascii: "`") {
                let fence = [UInt8](repeating: byte, count: 3)
                if i + 3 <= bytes.count, bytes[i..<(i + 3)].elementsEqual(fence) {
                    skipTo = find(fence, from: i + 3, sameLine: false).map { $0 + 3 }
                } else {
                    skipTo = find([byte], from: i + 1, sameLine: true).map { $0 + 1 }
                }
            } else if byte == UInt8(ascii: "<") {
                skipTo = find([UInt8(ascii: ">")], from: i + 1, sameLine: true).map { $0 + 1 }
            } else if byte == UInt8(ascii: ":"), i == 0 || shortcodeEnd == i || !Self.joinsWord(bytes[i - 1]),
                      let (name, end) = shortcode(in: bytes, at: i),
                      let emoji = Self.isTone(name) ? nil : emoji(named: name) {
                // A tone alone is a modifier with nothing to modify (no terminal draws it
                // where it stands): it stays as written, as after an emoji that takes no tone.
                var next = end
                var toned = emoji
                if let (toneName, toneEnd) = shortcode(in: bytes, at: end), Self.isTone(toneName),
                   let value = Int(toneName.suffix(1)), let form = forms[name], form.count == 6 {
                    toned = form[value - 1]
                    next = toneEnd
                }
                out += toned.utf8
                // Its closing colon may open the next one.
                shortcodeEnd = next
                i = next
                continue
            }
            if let skipTo {
                out += bytes[i..<skipTo]
                i = skipTo
                continue
            }
            out.append(byte)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether a shortcode's colon after `byte` would be inside a word or a number (`12:ok:`,
    /// `::a:`), where Slack's text is not a shortcode.
    private static func joinsWord(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: ":")
    }

    /// `skin-tone-2` … `skin-tone-6`.
    private static func isTone(_ name: String) -> Bool {
        name.utf8.count == 11 && name.hasPrefix("skin-tone-") && ("2"..."6").contains(name.suffix(1))
    }

    /// The name of the shortcode whose opening colon is at `start` (`:name:`: lowercase letters,
    /// digits, `_`, `+`, `-`, at most 100 of them), and the index after its closing colon.
    private static func shortcode(in bytes: [UInt8], at start: Int) -> (String, Int)? {
        guard start < bytes.count, bytes[start] == UInt8(ascii: ":") else { return nil }
        var j = start + 1
        while j < bytes.count, j - start <= 101 {
            let byte = bytes[j]
            if byte == UInt8(ascii: ":") {
                guard j > start + 1 else { return nil }
                return (String(decoding: bytes[(start + 1)..<j], as: UTF8.self), j + 1)
            }
            guard (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x5F || byte == 0x2B || byte == 0x2D else { return nil }
            j += 1
        }
        return nil
    }
}
