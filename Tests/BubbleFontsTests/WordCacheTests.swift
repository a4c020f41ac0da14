import Foundation
import Testing
@testable import BubbleFonts

/// Preparing a word at a time through the word cache (`PixelWordCache`) gives, array for array,
/// what preparing the whole text grapheme by grapheme gives: randomised texts with fixed seeds
/// over every chain of the sweep, mixing scripts, repeated words, kerning pairs and ligatures
/// across spaces, punctuation that line breaking and `text-spacing-trim` look at, and words too
/// long to keep.
@Suite struct WordCacheTests {
    /// Tokens chosen for what happens where words meet.
    static let tokens = [
        "AV", "T", "Yo", "W.", "y,", "\"", "'", "L'", "f", "ff", "ffi", "fi", "Ta", "P.", "To", "AVATAR", "Wave,",
        "(", ")", "[", "]", "{", "«", "»", "“", "”", "‘", "’", "!", "?", "-", "-5", "—", "–", "/", "%", "$5", "#", "&", "...",
        "10:30", "3.5", ".5", ",", ";", ":", "x-ray", "?!", "(ok)", "e\u{301}", "\u{301}", "\u{600}", "\u{A0}", "\u{200B}",
        "\u{2060}", "。", "」", "「", "：", "（", "）", "、", "ー", "ッ", "・", "日本語", "今日は。", "「はい」。", "한국어", "안녕",
        "👍🏽", "🇺🇸", "🇬🇧", "👨‍👩‍👧", "1️⃣", "❤️", "😂", "☕", "#️⃣", "שלום", "בוקר", "مرحبا", "كيف", "สวัสดี", "ครับ",
        "नमस्ते", "आप", "Привет", "καλημέρα", "Ἐν", "https://example.com/a-b/c?d=e&f=g", "coffee", "a", "I", "ok",
        String(repeating: "ab", count: 150), String(repeating: "日本", count: 140),
    ]
    static let separators = [" ", " ", " ", " ", "  ", "", "\n", "\t", "\u{3000}", "\r\n", " \u{301}", "\u{600} "]

    /// Every array of the two preparations is equal.
    static func expectSame(_ cached: PixelPreparedText, _ plain: PixelPreparedText, _ text: String,
                           sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let same = cached.starts == plain.starts && cached.advances == plain.advances && cached.kernAfter == plain.kernAfter
            && cached.faces == plain.faces && cached.breakAfter == plain.breakAfter && cached.isSpace == plain.isSpace
            && cached.endTrim == plain.endTrim && cached.segmentEnds == plain.segmentEnds
            && cached.segmentWidths == plain.segmentWidths && cached.segmentVisible == plain.segmentVisible
            && cached.utf8Count == plain.utf8Count && cached.tabSpace1616 == plain.tabSpace1616
        #expect(same, "\(text.debugDescription)", sourceLocation: sourceLocation)
        return same
    }

    /// Words of the sweep's real chat texts in `group`, plus the tokens.
    static func vocabulary(_ sweep: ChromiumSweepTests.Sweep, groups: Set<String>) -> [String] {
        var words = tokens
        for text in sweep.texts where groups.contains(text.group) {
            words += text.text.split(whereSeparator: { $0 == " " }).map(String.init)
        }
        return words
    }

    static let chains: [(name: String, groups: Set<String>)] = [
        ("noto", ["latin", "cyrillic", "greek", "emoji"]), ("dejavu", ["latin", "emoji"]), ("hebrew", ["hebrew", "hebrew-pointed"]),
        ("cjk-jp", ["cjk", "cjk-trim"]), ("cjk-kr", ["korean"]), ("thai", ["thai"]), ("arabic", ["arabic"]),
        ("urdu", ["urdu"]), ("devanagari", ["devanagari"]),
    ]

    @Test(arguments: chains.indices)
    func wordsPreparedApartJoinAsTheWholeText(chainIndex: Int) throws {
        let sweep = try #require(ChromiumSweepTests.sweep, "Corpora/fonts/chromium-sweep.json is missing")
        let (name, groups) = Self.chains[chainIndex]
        let sample = try #require(sweep.texts.first { groups.contains($0.group) })
        let chain = try ChromiumSweepTests.chain(name, size: 15.5, sweep: sweep, text: sample)
        let measurer = PixelMeasurer(chain: chain)
        #expect(chain.cutsAtSpaces)
        let words = Self.vocabulary(sweep, groups: groups)
        var generator = SplitMix(seed: UInt64(1_000 + chainIndex))
        var same = 0
        for _ in 0..<400 {
            var text = ""
            for i in 0..<(1 + Int(generator.next() % 24)) {
                if i > 0 { text += Self.separators[Int(generator.next() % UInt64(Self.separators.count))] }
                text += words[Int(generator.next() % UInt64(words.count))]
            }
            if generator.next() % 5 == 0 { text += " " }
            if Self.expectSame(measurer.prepare(text), PixelPreparedText(text, chain: chain), text) { same += 1 }
        }
        #expect(same == 400)
        // And the empty text.
        _ = Self.expectSame(measurer.prepare(""), PixelPreparedText("", chain: chain), "")
    }

    /// No committed font kerns the space, so this one is made to: NotoSans-KernTable.ttf's `kern`
    /// pairs rewritten to space–T and T–space (still in order), so words meeting across a space
    /// kern, and the join must add it.
    @Test func kerningAcrossASpaceIsAddedWhereWordsMeet() throws {
        var bytes = try FontFixtures.bytes("NotoSans-KernTable.ttf")
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }
        func put(_ at: Int, _ value: Int) { bytes[at] = UInt8(truncatingIfNeeded: value >> 8); bytes[at + 1] = UInt8(truncatingIfNeeded: value) }
        let record = try #require((0..<u16(4)).map { 12 + 16 * $0 }.first { String(decoding: bytes[$0..<$0 + 4], as: UTF8.self) == "kern" })
        let pairs = u32(record + 8) + 18  // the first format 0 subtable's pairs
        let font = try OpenTypeFont(bytes: bytes)
        let space = Int(try #require(font.glyph(for: " "))), t = Int(try #require(font.glyph(for: "T")))
        try #require(u16(pairs - 8) >= 3 && space < t)
        for (i, (left, right, value)) in [(space, t, -80), (t, space, -60)].enumerated() {
            put(pairs + 6 * i, left); put(pairs + 6 * i + 2, right); put(pairs + 6 * i + 4, value)
        }
        let chain = try FontChain(fonts: [OpenTypeFont(bytes: bytes), FontFixtures.font("NotoColorEmoji-Subset.ttf")], size: 16)
        #expect(PixelPreparedText("a T", chain: chain).kernAfter[1] != 0, "the space does not kern")
        let measurer = PixelMeasurer(chain: chain)
        let words = ["T", "T.", "a", "To", "VA", "(T)", "T-5", "😂", "T\u{301}", "\u{A0}T", "-T"]
        var generator = SplitMix(seed: 11)
        var same = 0
        for _ in 0..<300 {
            let text = (0..<(1 + Int(generator.next() % 12))).map { _ in words[Int(generator.next() % UInt64(words.count))] }
                .joined(separator: generator.next() % 4 == 0 ? "  " : " ")
            if Self.expectSame(measurer.prepare(text), PixelPreparedText(text, chain: chain), text) { same += 1 }
        }
        #expect(same == 300)
    }

    /// More words than a table keeps: it empties and fills again, and every text still matches.
    @Test func aFullTableEmptiesAndStaysExact() throws {
        let chain = try FontChain(fonts: [FontFixtures.font("NotoSans-Subset.ttf"), FontFixtures.font("NotoColorEmoji-Subset.ttf")], size: 16)
        let measurer = PixelMeasurer(chain: chain)
        // Half of them not ASCII, so pieces also start where the break before them is UAX #14's
        // (and `(` or `«` alone, then a space: no break there).
        let syllables = ["ka", "to", "Av", "We", "ly", "ff", "fi", "ro", "мир", "δα", "(", "«", "при", "λό", "—да", "ну"]
        var generator = SplitMix(seed: 7)
        var same = 0
        let texts = 3_000
        for _ in 0..<texts {
            var words: [String] = []
            for _ in 0..<(2 + Int(generator.next() % 10)) {
                words.append((0..<(1 + Int(generator.next() % 6))).map { _ in syllables[Int(generator.next() % 16)] }.joined())
            }
            let text = words.joined(separator: " ")
            if Self.expectSame(measurer.prepare(text), PixelPreparedText(text, chain: chain), text) { same += 1 }
        }
        #expect(same == texts)
        #expect(measurer.words.emptied > 0, "the table never filled")
    }

    /// Copies of one measurer used from many threads at once give the same results.
    @Test func threadsShareOneMeasurer() async throws {
        let chain = try FontChain(fonts: [FontFixtures.font("NotoSans-Subset.ttf"), FontFixtures.font("NotoColorEmoji-Subset.ttf")], size: 16)
        let measurer = PixelMeasurer(chain: chain)
        let texts = (0..<64).map { i in (0..<20).map { j in Self.tokens[(i * 7 + j * 13) % 60] }.joined(separator: " ") }
        let results = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var same = 0
                    for round in 0..<20 {
                        let text = texts[(worker * 5 + round) % texts.count]
                        let a = measurer.prepare(text), b = PixelPreparedText(text, chain: chain)
                        if a.advances == b.advances && a.kernAfter == b.kernAfter && a.segmentWidths == b.segmentWidths
                            && a.breakAfter == b.breakAfter { same += 1 }
                    }
                    return same
                }
            }
            return await group.reduce(0, +)
        }
        #expect(results == 160)
    }
}
