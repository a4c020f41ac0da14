import Testing
@testable import BubbleText

/// Dictionary line breaking (Thai, Lao, Khmer, Myanmar) against ICU's own line BreakIterator:
/// Corpora/unicode/dictionary-breaks/icu-line-breaks.txt is what Tools/icu/icu-line-breaks.cpp
/// printed for texts.txt with Debian's ICU. Inside a run of one script's SA letters, where only the
/// dictionary engine decides, our breaks must be ICU's (Thai and Myanmar, whose word lists Debian's
/// ICU shares with Chromium's); the wrap of the cell engine must end its lines only where ICU allows
/// a break.
@Suite struct DictionaryBreakerTests {
    struct Case {
        let text: String
        let scalars: [UInt32]
        let icuBreaks: Set<Int>
    }

    static func cases() throws -> [Case] {
        let texts = try LineBreakCorpus.read("unicode/dictionary-breaks/texts.txt").split(separator: "\n")
        let breaks = try LineBreakCorpus.read("unicode/dictionary-breaks/icu-line-breaks.txt").split(separator: "\n")
            .filter { !$0.hasPrefix("#") }
        #expect(texts.count == breaks.count && texts.count >= 40)
        return zip(texts, breaks).map { text, line in
            Case(text: String(text), scalars: text.unicodeScalars.map(\.value),
                 icuBreaks: Set(line.split(separator: " ").compactMap { Int($0) }))
        }
    }

    /// The positions inside runs of one engine's letters: only the dictionary decides there.
    static func innerPositions(_ scalars: [UInt32]) -> [Int] {
        guard scalars.count > 1 else { return [] }
        return (1..<scalars.count).filter { i in
            guard let engine = DictionaryBreaks.engine(for: scalars[i - 1]) else { return false }
            return engine.handles(scalars[i])
        }
    }

    /// The script of a text's first dictionary letter.
    static func script(_ scalars: [UInt32]) -> String {
        let first = scalars.first { DictionaryBreaks.engine(for: $0) != nil } ?? 0
        return first < 0x0E80 ? "thai" : first < 0x0F00 ? "lao" : first >= 0x1780 ? "khmer" : "myanmar"
    }

    /// Debian's ICU (72) has the same Thai and Burmese word lists as the ICU data Chromium ships,
    /// from which the table is made; its Lao and Khmer lists are larger (Chromium ships smaller
    /// ones), so there the breaks differ where a word is in one list only.
    static let sameWordLists: Set<String> = ["thai", "myanmar"]

    @Test func breaksInsideRunsAreICUs() throws {
        var compared: [String: Int] = [:], agreed: [String: Int] = [:]
        for c in try Self.cases() {
            let ours = Set(c.scalars.withUnsafeBufferPointer { DictionaryBreaks.find(in: $0) })
            let script = Self.script(c.scalars)
            for i in Self.innerPositions(c.scalars) {
                compared[script, default: 0] += 1
                let same = ours.contains(i) == c.icuBreaks.contains(i)
                agreed[script, default: 0] += same ? 1 : 0
                if Self.sameWordLists.contains(script) {
                    #expect(same, "\(c.text): at \(i) ICU \(c.icuBreaks.contains(i) ? "breaks" : "does not break"), we \(ours.contains(i) ? "do" : "do not")")
                }
            }
        }
        print("dictionary breaks inside runs agreeing with ICU 72: "
              + compared.keys.sorted().map { "\($0) \(agreed[$0]!)/\(compared[$0]!)" }.joined(separator: ", "))
        #expect(compared.count == 4)
        #expect((compared["thai"] ?? 0) > 500 && (compared["myanmar"] ?? 0) > 30)
        // Lao and Khmer: the lists differ, the engine is the same; most positions still agree.
        for script in ["lao", "khmer"] {
            #expect(agreed[script, default: 0] * 10 >= compared[script, default: 0] * 8, "\(script)")
        }
    }

    /// The cell engine offers the dictionary's breaks: wrapped at 6 cells, lines end inside runs at
    /// ICU's breaks, or else are full (a word longer than a line, cut between graphemes).
    @Test func cellWrapEndsLinesAtICUBreaks() throws {
        var atDictionaryBreaks = 0
        for c in try Self.cases() {
            // UTF-8 offset of each scalar boundary -> scalar index.
            var scalarAt: [Int: Int] = [:]
            var utf8 = 0
            for (i, s) in c.scalars.enumerated() {
                scalarAt[utf8] = i
                utf8 += String(UnicodeScalar(s)!).utf8.count
            }
            scalarAt[utf8] = c.scalars.count
            guard Self.sameWordLists.contains(Self.script(c.scalars)) else { continue }
            let inner = Set(Self.innerPositions(c.scalars))
            let layout = wrap(c.text, width: 6)
            for line in layout.lines.dropLast() {
                var end = try #require(scalarAt[line.utf8Range.upperBound])
                while end < c.scalars.count && c.scalars[end] == 0x20 { end += 1 }  // hung spaces
                guard inner.contains(end) else { continue }
                if c.icuBreaks.contains(end) {
                    atDictionaryBreaks += 1
                } else {
                    #expect(line.width == 6, "\(c.text): a line of \(line.width) cells ends at \(end), where ICU does not break")
                }
            }
        }
        #expect(atDictionaryBreaks > 50)
    }

    /// Every word of every list is one the matcher finds whole (a sample of each list).
    @Test func matcherFindsTheListedWords() {
        for words in [DictionaryWords.thai, DictionaryWords.lao, DictionaryWords.khmer, DictionaryWords.myanmar] {
            var lengths: [Int] = []
            var prefix = 0
            for w in stride(from: 0, to: words.starts.count, by: 37) {
                let start = Int(words.starts[w])
                let length = Int(words.bytes[start - 1])
                let scalars: [UInt32] = (0..<length).map { k in
                    let b = words.bytes[start + k]
                    return b == 0xFF ? 0x200D : b == 0xFE ? 0x200C : words.offset + UInt32(b)
                }
                let found = scalars.withElementsView {
                    words.matches($0, 0, $0.count, limit: 20, lengths: &lengths, prefix: &prefix)
                }
                #expect(found > 0 && lengths[found - 1] == length, "word \(w) of \(words.starts.count)")
            }
        }
    }

    /// On random strings of Thai letters (fixed seed), no break falls before a mark or at a run's
    /// ends, and breaks are in order.
    @Test func noBreakBeforeMarksOnRandomThai() {
        var generator = SplitMix(seed: 0x7A11)
        let letters = Array(0x0E01...0x0E3A) + Array(0x0E40...0x0E4E)
        for _ in 0..<300 {
            let count = Int(generator.next() % 40) + 1
            let scalars = (0..<count).map { _ in UInt32(letters[Int(generator.next() % UInt64(letters.count))]) }
                .filter { DictionaryWords.thai.isLetter($0) }
            let breaks = scalars.withUnsafeBufferPointer { DictionaryBreaks.find(in: $0) }
            #expect(breaks == breaks.sorted())
            for b in breaks {
                #expect(b > 0 && b < scalars.count)
                #expect(!DictionaryWords.thai.isMark(scalars[b]), "a break before a mark in \(scalars)")
            }
        }
    }

    /// Texts without the four scripts skip the engine (the quick test says no).
    @Test func quickTestSeesOnlyTheFourScripts() {
        for (text, expected) in [("hello world", false), ("привет мир", false), ("日本語のテキスト", false),
                                 ("สวัสดีครับ", true), ("ສະບາຍດີ", true), ("ជំរាបសួរ", true), ("မင်္ဂလာပါ", true)] {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBufferPointer { DictionaryBreaks.mayContain($0) } == expected, "\(text)")
        }
    }

    /// The eight-byte scan finds a Thai, Lao, Khmer or Myanmar letter at any offset, and nothing in
    /// texts of other scripts whose lead bytes are near (CJK, Hangul, Devanagari, emoji).
    @Test func quickTestAtEveryOffset() {
        for letter in ["ก", "ລ", "ក", "က", "\u{A9E0}", "\u{AA60}"] {
            for offset in 0..<20 {
                for tail in [0, 1, 9] {
                    let text = String(repeating: "日", count: offset % 3) + String(repeating: "a", count: offset)
                        + letter + String(repeating: "b", count: tail)
                    #expect(Array(text.utf8).withUnsafeBufferPointer { DictionaryBreaks.mayContain($0) }, "\(text)")
                }
            }
        }
        for text in ["日本語のテキストです。よろしく", "한국어 텍스트입니다", "नमस्ते दुनिया", "🙂👍🏽🇹🇭 ok", "ꦲꦏꦱꦫ", "ḀḁẞỳỲ"] {
            for offset in 0..<9 {
                let shifted = String(repeating: "x", count: offset) + text
                #expect(!Array(shifted.utf8).withUnsafeBufferPointer { DictionaryBreaks.mayContain($0) }, "\(shifted)")
            }
        }
    }

    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
