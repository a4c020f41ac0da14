import BubbleSamples
import Testing
@testable import BubbleText

/// Thai, Lao, Khmer and Myanmar texts, whose words `DictionaryBreaks` finds, through the prepare
/// loop's fast paths: they stop at each dictionary break and give what feeding every scalar to
/// both machines gives.
@Suite struct TextPreparerDictionaryTests {
    static let words = [
        "ภาษาไทยเป็นภาษาที่สวยงาม", "สวัสดีครับ", "ไปกินข้าวกันไหม", "ขอบคุณมากๆ", "ฯลฯ", "กรุงเทพฯ",
        "ພາສາລາວ", "ສະບາຍດີ", "ភាសាខ្មែរ", "សួស្តី", "မြန်မာဘာသာ", "မင်္ဂလာပါ",
        "hello", "Привет", "漢字", "😂", "https://example.com/ไทย", "123", "(ไทย)", "ไทย-English", "\t", "\n",
    ]
    static let separators = [" ", "", "", "  ", "\n", "\u{A0}", "\u{200B}"]

    static func text(_ random: inout SeededGenerator) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 1...20, using: &random) {
            text += words.randomElement(using: &random)!
            text += separators.randomElement(using: &random)!
        }
        return text
    }

    @Test func fastPathsOfferEveryDictionaryBreak() {
        var random = SeededGenerator(seed: 36)
        for _ in 0..<600 {
            let text = Self.text(&random)
            PrepareFastPathTests.expectSamePreparation(text)
            PrepareFastPathTests.expectSamePreparation(text, options: TextOptions(ambiguousWidth: 2))
        }
    }

    @Test func wordsBetweenDictionaryBreaksLayOutAsTheScalarPathAtEveryWidth() {
        var random = SeededGenerator(seed: 37)
        for _ in 0..<40 { PrepareFastPathTests.expectSameLayouts(Self.text(&random)) }
    }

    @Test func thaiBreaksBetweenWordsOnTheFastPath() {
        // Two Thai words and no space: the line breaks between them, not inside either.
        let prepared = PreparedText("สวัสดีครับ", options: TextOptions())
        #expect(prepared.layout(width: 6).lines.count == 2)
        #expect(prepared.segments.count == 2)
    }
}
