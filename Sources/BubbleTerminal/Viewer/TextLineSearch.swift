import BubbleText

/// Finds, in a message's text, the places where one of its wrapped lines, drawn, can show a
/// search's query, without wrapping or drawing the text: a search through a very tall message
/// draws only the lines around those places (`ViewerScreen.matchingLine`), and a message that
/// cannot show the query costs one pass over its bytes.
///
/// A drawn text line shows the text of its range (`SafeText`), with tabs as spaces and controls
/// in their visible forms, between padding, side borders or rules (`SearchableText.chrome`). A
/// match on such a line (`SearchMatcher.isShown`, folded as it folds) has its *core*, the query
/// from its first to its last character that no chrome can show, inside the text's part, so the
/// core is in the text of that one line: the key searched for is the core (or, when the text has
/// tabs, whose spaces are not the text's, the core's longest run without a space). Each place
/// found is only a candidate; the line holding it is drawn and `isShown` decides, so what is
/// found is exactly what reading every line would find. Nil (read the lines) when the key cannot
/// be made sound: a query with right-to-left letters (found in visual orders too), one with a
/// control, one all chrome, or a text with bidi controls or a grapheme not drawn as itself.
struct TextLineSearch {
    private enum Key {
        /// A text of ASCII only: the key's bytes, ASCII-folded.
        case bytes([UInt8])
        /// Any other text: the key's folded characters, compared with each character's fold.
        case characters([Character], FoldTable)
        /// Nothing on the text's lines can show the query.
        case none
    }

    /// Each character's fold (`SearchMatcher.fold`), as a text line draws it; kept for the
    /// characters met, so a text of a few distinct characters folds each once.
    final class FoldTable {
        enum Fold: Equatable {
            /// Ends a line: no match goes across.
            case lineBreak
            /// What it shows, folded (a tab shows as a mark no key holds).
            case shown([Character])
        }
        let options: TextOptions
        var folds: [Character: Fold] = [:]

        init(options: TextOptions) { self.options = options }

        /// Nil when `character` is not drawn as a function of itself alone.
        func fold(_ character: Character) -> Fold? {
            if let known = folds[character] { return known }
            let fold = Self.make(character, options: options)
            if let fold { folds[character] = fold }
            return fold
        }

        static let tabMark: Character = "\t"

        static func make(_ character: Character, options: TextOptions) -> Fold? {
            let scalars = character.unicodeScalars
            var special = false
            for scalar in scalars {
                switch scalar.value {
                case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return .lineBreak
                default: break
                }
                if BidiControl(scalar.value) != nil { return nil }
                if SafeText.isSpecial(scalar.value) { special = true }
            }
            if special {
                // Controls stand alone: drawn as their visible form, a tab as spaces.
                guard scalars.count == 1, let value = scalars.first?.value else { return nil }
                if value == 0x09 { return .shown([tabMark]) }
                guard let form = SafeText.notation(of: value) else { return nil }
                return .shown(form.flatMap { SearchMatcher.fold(String($0)) })
            }
            guard SafeText.drawsWhole(scalars, options: options) else { return nil }
            return .shown(SearchMatcher.fold(String(character)))
        }
    }

    private let key: Key
    private let text: String

    /// The search for `matcher`'s query in `text`, drawn with chrome `chrome` (folded) around
    /// its lines under `options`; nil when the lines must be read as drawn (see the type).
    init?(_ matcher: SearchMatcher, text: String, chrome: Set<Character>, options: TextOptions) {
        guard matcher.drawnNeedles.count == 1, let needle = matcher.drawnNeedles.first?.folded else { return nil }
        if needle.contains(where: { $0.unicodeScalars.contains { SafeText.isSpecial($0.value) || $0.value == 0x09 } }) { return nil }
        guard let first = needle.firstIndex(where: { !chrome.contains($0) }),
              let last = needle.lastIndex(where: { !chrome.contains($0) }) else { return nil }
        var core = Array(needle[first...last])
        self.text = text
        let bytes = Self.asciiShape(text)
        guard let bytes else {
            // Any other text: by characters, if every one of them is drawn as itself.
            let table = FoldTable(options: options)
            var hasTab = false
            for character in text {
                guard let fold = table.fold(character) else { return nil }
                if fold == .shown([FoldTable.tabMark]) { hasTab = true }
            }
            if hasTab { core = Self.longestRunWithoutSpace(core) }
            key = .characters(core, table)
            return
        }
        if bytes.hasTab { core = Self.longestRunWithoutSpace(core) }
        // An ASCII text draws one character a byte: a key of anything else is not on its lines.
        let keyBytes = core.compactMap { $0.asciiValue }
        key = keyBytes.count == core.count ? .bytes(keyBytes.map(SearchMatcher.folded)) : .none
    }

    /// Whether `text` is ASCII that draws a character a byte: printable, tabs and line breaks
    /// (which end lines); nil for any other text.
    private static func asciiShape(_ text: String) -> (hasTab: Bool, Void)? {
        var text = text
        return text.withUTF8 { bytes -> (hasTab: Bool, Void)? in
            var hasTab = false
            for byte in bytes {
                if byte >= 0x20 && byte < 0x7F { continue }
                switch byte {
                case 0x09: hasTab = true
                case 0x0A, 0x0B, 0x0C, 0x0D: continue
                default: return nil
                }
            }
            return (hasTab, ())
        }
    }

    /// The longest run of `characters` without a space (the first of the longest).
    private static func longestRunWithoutSpace(_ characters: [Character]) -> [Character] {
        var best: ArraySlice<Character> = []
        for run in characters.split(separator: " ") where run.count > best.count { best = run }
        return Array(best)
    }

    /// The UTF-8 offset of the first place at or after `offset` (a character boundary) where the
    /// key starts; nil when there is none.
    func next(from offset: Int) -> Int? {
        switch key {
        case .none: return nil
        case let .bytes(key): return Self.nextBytes(key, in: text, from: offset)
        case let .characters(key, table): return Self.nextCharacters(key, table: table, in: text, from: offset)
        }
    }

    /// The UTF-8 offset where the last place that ends at or before `end` (a character boundary)
    /// starts; nil when there is none.
    func previous(before end: Int) -> Int? {
        switch key {
        case .none: return nil
        case let .bytes(key): return Self.previousBytes(key, in: text, before: end)
        case let .characters(key, table): return Self.previousCharacters(key, table: table, in: text, before: end)
        }
    }

    private static func nextBytes(_ key: [UInt8], in text: String, from offset: Int) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            let count = key.count
            guard count > 0, bytes.count >= count else { return nil }
            let first = key[0]
            var start = max(0, offset)
            while start <= bytes.count - count {
                if SearchMatcher.folded(bytes[start]) == first {
                    var k = 1
                    while k < count && SearchMatcher.folded(bytes[start + k]) == key[k] { k += 1 }
                    if k == count { return start }
                }
                start += 1
            }
            return nil
        }
    }

    private static func previousBytes(_ key: [UInt8], in text: String, before end: Int) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            let count = key.count
            guard count > 0 else { return nil }
            let first = key[0]
            var start = min(end, bytes.count) - count
            while start >= 0 {
                if SearchMatcher.folded(bytes[start]) == first {
                    var k = 1
                    while k < count && SearchMatcher.folded(bytes[start + k]) == key[k] { k += 1 }
                    if k == count { return start }
                }
                start -= 1
            }
            return nil
        }
    }

    /// The failure function of `key` (Knuth–Morris–Pratt): for each prefix, the length of its
    /// longest proper prefix that is also its suffix.
    private static func failures(_ key: [Character]) -> [Int] {
        var failure = [Int](repeating: 0, count: key.count)
        var k = 0
        for i in 1..<max(1, key.count) {
            while k > 0 && key[i] != key[k] { k = failure[k - 1] }
            if key[i] == key[k] { k += 1 }
            failure[i] = k
        }
        return failure
    }

    /// Feeds `folded` to the matcher at state `matched`; the stream positions where a match ended.
    private static func step(_ character: Character, key: [Character], failure: [Int], matched: inout Int) -> Bool {
        while matched > 0 && character != key[matched] { matched = failure[matched - 1] }
        if character == key[matched] { matched += 1 }
        if matched == key.count {
            matched = failure[matched - 1]
            return true
        }
        return false
    }

    private static func nextCharacters(_ key: [Character], table: FoldTable, in text: String, from offset: Int) -> Int? {
        guard !key.isEmpty else { return nil }
        let utf8 = text.utf8
        let failure = failures(key)
        var matched = 0
        // The source offset of each of the last `key.count` folded characters, in a ring.
        var sources = [Int](repeating: 0, count: key.count)
        var fed = 0
        var index = utf8.index(utf8.startIndex, offsetBy: min(max(0, offset), utf8.count))
        var position = utf8.distance(from: utf8.startIndex, to: index)
        while index < text.endIndex {
            let character = text[index]
            let after = text.index(after: index)
            let length = utf8.distance(from: index, to: after)
            switch table.fold(character) {
            case .lineBreak?, nil:
                matched = 0
            case let .shown(folded)?:
                for piece in folded {
                    sources[fed % key.count] = position
                    fed += 1
                    if step(piece, key: key, failure: failure, matched: &matched) {
                        return sources[(fed - key.count) % key.count]
                    }
                }
            }
            index = after
            position += length
        }
        return nil
    }

    private static func previousCharacters(_ key: [Character], table: FoldTable, in text: String, before end: Int) -> Int? {
        guard !key.isEmpty else { return nil }
        let utf8 = text.utf8
        let reversedKey = Array(key.reversed())
        let failure = failures(reversedKey)
        var matched = 0
        var index = utf8.index(utf8.startIndex, offsetBy: min(max(0, end), utf8.count))
        while index > text.startIndex {
            let before = text.index(before: index)
            let character = text[before]
            switch table.fold(character) {
            case .lineBreak?, nil:
                matched = 0
            case let .shown(folded)?:
                for piece in folded.reversed() where step(piece, key: reversedKey, failure: failure, matched: &matched) {
                    // The match read backwards ends in this character: it starts here.
                    return utf8.distance(from: utf8.startIndex, to: before)
                }
            }
            index = before
        }
        return nil
    }
}
