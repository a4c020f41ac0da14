import BubbleSamples
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
        "😂😂😂", "👋👋🏿👋", "🙈🙉🙊", "漢😂字", "😂\u{FE0F}😂", "😂\u{200D}🔥😂", "☕⌚☕", "😂\u{20E3}", "👨‍👩‍👧‍👦🎉🎉",
        "🏳️‍🌈😂", "\u{1FAF8}😂\u{1FAF9}", "😂\u{1F3FB}", "「😂」", "😂、", "😂\u{E0067}\u{E007F}", "\u{1F1EF}\u{1F1F5}😂",
        "क\u{93E}\u{93F}ख", "a\u{300}b", "e\u{301}\u{302}x", "a\u{16FF0}b", "ж\u{301}ж", "ก\u{E31}\u{E49}ข",
        "a" + String(repeating: "\u{301}", count: 70) + "b", "क\u{94D}\u{200D}ष", "a\u{FE0F}b", "#\u{20E3}", "#\u{FE0F}\u{20E3}x", "a\u{1AB0}\u{E0100}c",
        "שלום-עולם", "בית\u{5BE}ספר", "a\u{5D0}-", "\u{5D0}a-", "\u{5E9}\u{5C1}\u{5B8}", "/\u{5D0}", "\u{5D0}\u{5D1}/",
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
        // The scalar-by-scalar path writes no run records: compare with them spelled out.
        let (fastUnits, fastIndex) = fast.unitSegments()
        #expect(fastUnits.map(\.packed) == reference.segments.map(\.packed), "\(describe())")
        #expect(fastUnits.map(\.contentEnd) == reference.segments.map(\.contentEnd), "\(describe())")
        #expect(fastUnits.map(\.hangEnd) == reference.segments.map(\.hangEnd), "\(describe())")
        #expect(fast.graphemeMap == reference.graphemeMap, "\(describe())")
        #expect(fastIndex == reference.graphemeMapIndex, "\(describe())")
        #expect(reference.segments.allSatisfy { !$0.isRun })
    }

    /// Records an issue unless run records lay out exactly as the segments they stand for, at
    /// every width from 1 to 100.
    static func expectSameLayouts(_ text: String) {
        let fast = PreparedText(text, options: TextOptions(), allowASCIIPath: false, allowRuns: true)
        let reference = PreparedText(text, options: TextOptions(), allowASCIIPath: false, allowRuns: false)
        for width in 1...100 {
            #expect(fast.layout(width: width) == reference.layout(width: width), "\(text.debugDescription) at \(width)")
            #expect(fast.measure(width: width) == reference.measure(width: width), "\(text.debugDescription) at \(width)")
        }
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
        let prepared = PreparedText(text, options: TextOptions(), allowASCIIPath: false, allowRuns: false)
        #expect(prepared.segmentCount == 7)
        #expect(prepared.segments.allSatisfy { $0.width == 2 && $0.isSingleGrapheme && !$0.hasGraphemeMap })
        #expect(prepared.layout(width: 4).lines.map(\.width) == [4, 4, 4, 2])
    }

    /// First unit (finished by the general step), one run record of the 3-byte units, the
    /// 4-byte unit alone, and the last unit (still open when the run ended).
    @Test func runsOfIdeographsAndSyllablesBecomeOneRecord() {
        let prepared = PreparedText("漢字かな가각\u{20000}\u{20001}\u{20002}\u{20003}")
        #expect(prepared.segments.map(\.isRun) == [false, true, true, false])
        #expect(prepared.segments.map(\.width) == [2, 10, 6, 2])
        #expect(prepared.segments.map(\.runUnitLength)[1...2] == [3, 4])
        #expect(prepared.layout(width: 4).lines.map(\.width) == [4, 4, 4, 4, 4])
        #expect(prepared.layout(width: 5).lines.map(\.utf8Range) == [0..<6, 6..<12, 12..<18, 18..<26, 26..<34])
        #expect(prepared.measure(width: 1) == TextMetrics(lineCount: 10, widestLine: 2))
        #expect(prepared.unitSegments().segments.count == 10)
    }

    @Test func runRecordsLayOutAsTheirSegmentsAtEveryWidth() {
        var random = SeededGenerator(seed: 0x0DD_BA11)
        let wide = ["漢字", "今日は本当にありがとう", "我们明天下午三点", "안녕하세요 반갑습니다", "\u{20000}\u{2A6D6}\u{20001}",
                    "「漢字」", "（笑）", "。", "好的，明天见！", "오늘 회의는 3시에 시작합니다.", "ｱｲｳ", "ＡＢＣ"]
        let other = [" ", "", "", "\n", "a", "word ", "\t", "👍🏽", "\u{3000}", "e\u{301}"]
        for _ in 0..<400 {
            var text = ""
            for _ in 0..<Int.random(in: 1...10, using: &random) {
                text += wide.randomElement(using: &random)!
                for _ in 0..<Int.random(in: 0...3, using: &random) { text += wide.randomElement(using: &random)! }
                text += other.randomElement(using: &random)!
            }
            Self.expectSameLayouts(text)
        }
        for text in TextBenchmarkCorpus.phrases { Self.expectSameLayouts(text) }
    }

    /// The wide run writes segments without asking the line breaker: it relies on a break being
    /// allowed between any two of ID, H2 and H3 (LB31) and a grapheme ending between them.
    @Test func wideRunClassesAlwaysBreakBetweenEachOther() {
        let samples: [UInt32] = [0x6F22, 0x3042, 0xAC00, 0xAC01, 0x20000, 0xFF21, 0x1F602, 0x1F44B, 0x2615, 0x231A, 0x1F389]
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
        #expect(!TextPreparer.isPlainWide(UnicodeTables.info(0x3297)))  // ㊗: pictographic, text presentation
        // Emoji that take the run, and what may join an emoji, which must not.
        for emoji: UInt32 in [0x1F602, 0x1F44B, 0x2615, 0x1F389] { #expect(TextPreparer.isPlainWide(UnicodeTables.info(emoji))) }
        for joiner: UInt32 in [0x1F3FB, 0xFE0F, 0x200D, 0x20E3, 0xE0067, 0x1F1EF, 0x2764, 0x1FAF9] {
            #expect(!TextPreparer.isPlainWide(UnicodeTables.info(joiner)), "\(String(joiner, radix: 16))")
        }
    }

    /// The pair table's size is folded from the last class; a class added after it would not fit.
    @Test func pairTableCoversEveryClass() {
        #expect(LineBreakPairTable.classCount == LineBreakClass.allCases.count)
        #expect(LineBreakClass.allCases.last == .ri)
    }

    /// LB21a (HL (HY | BA) ×) and LB21b (SY × HL) look past the letter run: its last two
    /// classes must be those the scalar-by-scalar path leaves.
    @Test func hebrewLetterRunsKeepTheHyphenRule() {
        let texts = ["שלום-עולם", "abc אב-ג", "אב a-ב", "אבג\u{5BE}דה", "אב גד-הו", "ab אב/גד", "אב ab-cd", "א-ב"]
        for text in texts {
            Self.expectSamePreparation(text)
            Self.expectSameLayouts(text)
        }
        // No break after a hyphen that follows a Hebrew letter, so the word is force-broken at
        // the width; after a Latin letter the line ends at the hyphen.
        #expect(PreparedText("שלום-עולם").layout(width: 6).lines.map(\.width) == [6, 3])
        #expect(PreparedText("abcd-efgh").layout(width: 6).lines.map(\.width) == [5, 4])
        #expect(PreparedText("ab שלום-עולם").layout(width: 9).lines.map(\.width) == [2, 9])
    }

    /// A text that fits on one line is laid out without walking its segments: the same lines
    /// and metrics as the walk, at every width.
    @Test func oneLineShortcutMatchesTheSegmentWalk() {
        var random = SeededGenerator(seed: 0x0E_11E5)
        let sampler = TextSampler.shared
        var shortcutTaken = 0
        for round in 0..<600 {
            let text = round % 2 == 0 ? Self.mixedText(&random) : sampler.text(&random)
            let prepared = PreparedText(text)
            for width in [0, Int.max] + Array(1...100) {
                var lines = LinesSink()
                prepared.layOut(width: width, into: &lines)
                var metrics = MetricsSink()
                prepared.layOut(width: width, into: &metrics)
                if prepared.onlyLine(width: width) != nil { shortcutTaken += 1 }
                #expect(prepared.layout(width: width) == TextLayout(lines: lines.lines, widestLine: lines.widestLine),
                        "\(text.debugDescription) at \(width)")
                #expect(prepared.measure(width: width) == TextMetrics(lineCount: metrics.lineCount, widestLine: metrics.widestLine),
                        "\(text.debugDescription) at \(width)")
            }
        }
        #expect(shortcutTaken > 10_000)
        #expect(PreparedText("").onlyLine(width: 1) == TextLine(utf8Range: 0..<0, width: 0))
        #expect(PreparedText("ab  ").onlyLine(width: 2) == TextLine(utf8Range: 0..<2, width: 2))
        #expect(PreparedText("ab cd").onlyLine(width: 4) == nil)
        #expect(PreparedText("a\nb").onlyLine(width: 80) == nil)
        #expect(PreparedText("a\tb").onlyLine(width: 80) == nil)
    }

    @Test func naturalWidthWithTabsMatchesTheSegmentWalk() {
        // The preparer finds each tab's column as it goes; layout at unlimited width walks the
        // segments and expands every tab at its column. Both must give the widest hard line.
        var random = SeededGenerator(seed: 0x7AB5)
        let extras = ["\t", "\t\t", " \t", "\t ", "a\tb", "\t\n", "\t\u{301}", "漢\t", "\t😂", "\r\n\t"]
        var tabbed = 0
        for round in 0..<800 {
            var text = Self.mixedText(&random)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let at = text.unicodeScalars.index(text.unicodeScalars.startIndex,
                                                   offsetBy: Int.random(in: 0...text.unicodeScalars.count, using: &random))
                text.unicodeScalars.insert(contentsOf: extras.randomElement(using: &random)!.unicodeScalars, at: at)
            }
            let options = round % 3 == 0 ? TextOptions(ambiguousWidth: 2, tabStop: [1, 3, 4][round % 9 / 3]) : TextOptions()
            for prepared in [PreparedText(text, options: options),
                             PreparedText(text, options: options, allowASCIIPath: false, allowRuns: false)] {
                var walk = MetricsSink()
                prepared.layOut(width: Int.max, into: &walk)
                #expect(prepared.naturalWidth == walk.widestLine, "\(text.debugDescription) tab stop \(options.tabStop)")
                if text.contains("\t") { tabbed += 1 }
            }
        }
        #expect(tabbed > 1000)
        #expect(PreparedText("ab\tc").naturalWidth == 9)
        #expect(PreparedText("ab \t\tc\t").naturalWidth == 17)
        #expect(PreparedText("漢字\t\nabc\t\td").naturalWidth == 17)
    }

    @Test func wordsOfOneLetterLengthNeedNoGraphemeMap() {
        for word in ["Встречаемся", "שלום", "مرحبا", "λόγος", "ok"] {
            let prepared = PreparedText(word)
            #expect(prepared.segmentCount == 1 && prepared.graphemeMap.isEmpty, "\(word)")
            #expect(prepared.segments[0].width == word.unicodeScalars.count, "\(word)")
        }
        // Mixed lengths (a Latin letter in a Cyrillic word, an accent as a combining mark) keep one
        // entry per grapheme; spaces in the hang never do.
        #expect(PreparedText("Приветa").graphemeMap.count == 7)
        #expect(PreparedText("Как  дела").graphemeMap.isEmpty)
        #expect(PreparedText("Как\tдела").graphemeMap.count == 4)
        // A hang that becomes content: three two-byte letters, then a space and "!" of one byte.
        let twoBytes: UInt8 = 1 << 6 | 2, oneByte: UInt8 = 1 << 6 | 1
        #expect(PreparedText("Как !").graphemeMap == [twoBytes, twoBytes, twoBytes, oneByte, oneByte])
    }

    @Test func ambiguousLettersTakeTheLetterRunOnlyAtWidthOne() {
        let text = "Привет мир"
        #expect(PreparedText(text).naturalWidth == 10)
        #expect(PreparedText(text, options: TextOptions(ambiguousWidth: 2)).naturalWidth == 19)
        Self.expectSamePreparation(text)
        Self.expectSamePreparation(text, options: TextOptions(ambiguousWidth: 2))
    }
}

/// A text whose segment records fit in 11 bytes and that needs no grapheme map keeps them inside
/// the value instead of an allocation; it must lay out exactly as the same records stored in an
/// allocation.
@Suite struct InlineStorageTests {
    /// Short replies: one or two pieces, often a single word or emoji, sometimes with a space,
    /// a line break or a tab, so that some fit inline and some do not.
    static func shortText(_ random: inout SeededGenerator) -> String {
        let endings = ["", "", "", " ", "  ", "\n", "\t", "!", "\r\n"]
        let replies = ["ok", "lol", "yes", "thanks", "👋", "😂", "👍🏽", "好", "ok?", "(y)", "1", "🇫🇷"]
        var text = Int.random(in: 0..<2, using: &random) == 0
            ? replies.randomElement(using: &random)! : PrepareFastPathTests.pieces.randomElement(using: &random)!
        if Int.random(in: 0..<4, using: &random) == 0 {
            text += PrepareFastPathTests.separators.randomElement(using: &random)!
            text += PrepareFastPathTests.pieces.randomElement(using: &random)!
        }
        return text + endings.randomElement(using: &random)!
    }

    static func expectSameAsAllocated(_ text: String, options: TextOptions = TextOptions()) -> Bool {
        let inline = PreparedText(text, options: options)
        let allocated = PreparedText(text, options: options, allowASCIIPath: true, allowRuns: true, allowInlineStorage: false)
        #expect(allocated.storage.buffer != nil || text.isEmpty, "\(text.debugDescription)")
        #expect(inline.segments.map(\.packed) == allocated.segments.map(\.packed), "\(text.debugDescription)")
        #expect(inline.segments.map(\.contentEnd) == allocated.segments.map(\.contentEnd), "\(text.debugDescription)")
        #expect(inline.segments.map(\.hangEnd) == allocated.segments.map(\.hangEnd), "\(text.debugDescription)")
        #expect(inline.segmentCount == allocated.segmentCount && inline.naturalWidth == allocated.naturalWidth)
        #expect(inline.graphemeMap == allocated.graphemeMap && inline.graphemeMapIndex == allocated.graphemeMapIndex)
        for width in 1...100 {
            #expect(inline.layout(width: width) == allocated.layout(width: width), "\(text.debugDescription) at \(width)")
            #expect(inline.measure(width: width) == allocated.measure(width: width), "\(text.debugDescription) at \(width)")
        }
        if inline.storage.isInline {
            #expect(inline.segmentCount >= 1 && inline.memoryFootprint == MemoryLayout<PreparedText>.size)
        }
        return inline.storage.isInline
    }

    @Test func shortTextsLayOutAsIfAllocated() {
        var random = SeededGenerator(seed: 0x1_1A1E)
        var inlineCount = 0
        for _ in 0..<1500 {
            let text = Self.shortText(&random)
            if Self.expectSameAsAllocated(text) { inlineCount += 1 }
            _ = Self.expectSameAsAllocated(text, options: TextOptions(ambiguousWidth: 2, tabStop: 4))
        }
        // Both representations must actually be exercised.
        #expect(inlineCount > 300 && inlineCount < 1400)
    }

    @Test func repliesWithoutMapEntriesAllocateNothing() {
        for text in ["ok", "lol", "👋", "👍🏽", "好", "ok\n", "thanks!", "\n", " ", "sounds good", "好的", "on my way", "Привет", "שלום"] {
            #expect(PreparedText(text).storage.isInline, "\(text.debugDescription)")
            #expect(Self.expectSameAsAllocated(text))
        }
        // Empty, a grapheme map (non-ASCII letters, a tab), or more than 11 bytes of records.
        for text in ["", "naïve", "a\tb", "Can you send me the slides before the meeting tomorrow?"] {
            #expect(!PreparedText(text).storage.isInline, "\(text.debugDescription)")
            _ = Self.expectSameAsAllocated(text)
        }
        #expect(PreparedText("").segmentCount == 0 && PreparedText("").memoryFootprint == MemoryLayout<PreparedText>.size)
    }
}

extension PreparedText {
    /// The segments with every run record spelled out as the one-grapheme segments it stands
    /// for, and the grapheme-map index renumbered to match.
    func unitSegments() -> (segments: [PreparedSegment], graphemeMapIndex: [UInt32]) {
        var units: [PreparedSegment] = []
        var unitIndex: [Int] = []
        var start = 0
        for segment in segments {
            unitIndex.append(units.count)
            if segment.isRun {
                for unit in 1...segment.runCount {
                    let end = start + unit * segment.runUnitLength
                    units.append(PreparedSegment(contentEnd: end, hangEnd: end, width: 2, breakLength: 0,
                                                 flags: PreparedSegment.singleGraphemeBit))
                }
                #expect(start + segment.runCount * segment.runUnitLength == Int(segment.contentEnd))
            } else {
                units.append(segment)
            }
            start = segment.end
        }
        var index = graphemeMapIndex
        for pair in stride(from: 0, to: index.count, by: 2) {
            index[pair] = UInt32(unitIndex[Int(index[pair])])
        }
        return (units, index)
    }
}
