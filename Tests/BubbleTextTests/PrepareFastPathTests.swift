import Testing
@testable import BubbleText

/// The prepare loop's runs (letters, spaces, letters after spaces, ideographs and Hangul
/// syllables) against the same loop feeding every scalar to both machines.
@Suite struct PrepareFastPathTests {
    /// Words that exercise each run, and the places where a run must stop: marks, joiners,
    /// ambiguous letters, Hebrew (HL), numbers, opening punctuation before spaces, prepend.
    static let pieces = [
        "hello", "world", "Привет", "Γεια", "naïve", "e\u{301}", "שלום", "مرحبا", "ภาษาไทย", "नमस्ते",
        "漢字", "今日は本当にありがとう", "我们明天下午三点", "안녕하세요", "각가깍", "\u{1100}\u{1161}\u{11A8}",
        "漢\u{FE00}字", "漢\u{E0100}", "字\u{301}", "\u{20000}\u{2A6D6}", "㊗", "〽", "「漢字」", "（笑）", "。", "、",
        "ｱｲｳ", "ＡＢＣ", "#️⃣", "👍🏽", "a\u{200D}b", "\u{200B}", "\u{600}a", "\u{0D}\u{0A}", "\n", "\t",
        "( ", "(  a", "\u{201C} \u{201D}", "1,234", "$-5", "a-b", "\u{5D0}-\u{5D1}", "🇫🇷🇩🇪", "x\u{200D}👍",
    ]
    static let separators = [" ", " ", "  ", "", "", "\n", "\u{3000}", "\u{A0}", " \u{301}", "\u{200D}"]

    static func mixedText(_ random: inout SeededGenerator) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...16, using: &random) {
            text += pieces.randomElement(using: &random)!
            text += separators.randomElement(using: &random)!
        }
        return text
    }

    /// Records an issue unless the runs and the scalar-by-scalar path prepare `text` identically.
    static func expectSamePreparation(_ text: String, options: TextOptions = TextOptions()) {
        let fast = PreparedText(text, options: options, allowASCIIPath: false, allowRuns: true)
        let reference = PreparedText(text, options: options, allowASCIIPath: false, allowRuns: false)
        let describe = { "\(text.unicodeScalars.map { String($0.value, radix: 16) }) ambiguous \(options.ambiguousWidth)" }
        #expect(fast.scalarCount == reference.scalarCount, "\(describe())")
        #expect(fast.naturalWidth == reference.naturalWidth, "\(describe())")
        #expect(fast.segments.map(\.packed) == reference.segments.map(\.packed), "\(describe())")
        #expect(fast.segments.map(\.contentEnd) == reference.segments.map(\.contentEnd), "\(describe())")
        #expect(fast.segments.map(\.hangEnd) == reference.segments.map(\.hangEnd), "\(describe())")
        #expect(fast.graphemeMap == reference.graphemeMap, "\(describe())")
        #expect(fast.graphemeMapIndex == reference.graphemeMapIndex, "\(describe())")
    }

    @Test func runsMatchTheScalarByScalarPathOnMixedScripts() {
        var random = SeededGenerator(seed: 0x5CA1_AB1E)
        for _ in 0..<3000 {
            let text = Self.mixedText(&random)
            Self.expectSamePreparation(text)
            Self.expectSamePreparation(text, options: TextOptions(ambiguousWidth: 2))
        }
    }

    @Test func runsMatchTheScalarByScalarPathOnCorpusTexts() {
        var random = SeededGenerator(seed: 0xC0FF_EE)
        let sampler = TextSampler.shared
        for _ in 0..<1500 {
            let text = sampler.text(&random)
            Self.expectSamePreparation(text)
            Self.expectSamePreparation(text, options: TextOptions(ambiguousWidth: 2))
        }
    }

    @Test func runsMatchTheScalarByScalarPathOnEveryConformanceLine() {
        let sampler = TextSampler.shared
        #expect(sampler.lineBreakCases.count == 7654 && !sampler.graphemeCases.isEmpty)
        for scalars in sampler.lineBreakCases + sampler.graphemeCases {
            var text = String.UnicodeScalarView()
            sampler.append(scalars, to: &text)
            Self.expectSamePreparation(String(text))
            Self.expectSamePreparation("a" + String(text) + " b")
        }
    }

    @Test func runsMatchTheScalarByScalarPathOnTheBenchmarkCorpus() {
        for text in TextBenchmarkCorpus.messages(count: 300) + TextBenchmarkCorpus.phrases {
            Self.expectSamePreparation(text)
        }
    }

    @Test func ideographsAndHangulSyllablesEachBecomeOneSegment() {
        let text = "漢字かな가각\u{20000}"
        let prepared = PreparedText(text)
        #expect(prepared.segmentCount == 7)
        #expect(prepared.segments.allSatisfy { $0.width == 2 && $0.isSingleGrapheme && !$0.hasGraphemeMap })
        #expect(prepared.layout(width: 4).lines.map(\.width) == [4, 4, 4, 2])
    }

    /// The wide run writes segments without asking the line breaker: it relies on a break being
    /// allowed between any two of ID, H2 and H3 (LB31) and a grapheme ending between them.
    @Test func wideRunClassesAlwaysBreakBetweenEachOther() {
        let samples: [UInt32] = [0x6F22, 0x3042, 0xAC00, 0xAC01, 0x20000, 0xFF21]
        for left in samples {
            for right in samples {
                let leftInfo = UnicodeTables.info(left)
                let rightInfo = UnicodeTables.info(right)
                guard TextPreparer.isPlainWide(leftInfo) && TextPreparer.isPlainWide(rightInfo) else { continue }
                #expect(LineBreaker.opportunities(in: [left, right]) == [.prohibited, .allowed], "\(left) \(right)")
                var graphemes = GraphemeBreaker()
                _ = graphemes.breaksBefore(leftInfo)
                let breaks = graphemes.breaksBefore(rightInfo)
                #expect(breaks, "\(left) \(right)")
            }
        }
        #expect(TextPreparer.isPlainWide(UnicodeTables.info(0x6F22)) && TextPreparer.isPlainWide(UnicodeTables.info(0xAC00)))
        #expect(!TextPreparer.isPlainWide(UnicodeTables.info(0x3297)))  // ㊗ is Extended_Pictographic
    }

    /// The pair table's size is folded from the last class; a class added after it would not fit.
    @Test func pairTableCoversEveryClass() {
        #expect(LineBreakPairTable.classCount == LineBreakClass.allCases.count)
        #expect(LineBreakClass.allCases.last == .ri)
    }

    @Test func ambiguousLettersTakeTheLetterRunOnlyAtWidthOne() {
        let text = "Привет мир"
        #expect(PreparedText(text).naturalWidth == 10)
        #expect(PreparedText(text, options: TextOptions(ambiguousWidth: 2)).naturalWidth == 19)
        Self.expectSamePreparation(text)
        Self.expectSamePreparation(text, options: TextOptions(ambiguousWidth: 2))
    }
}
