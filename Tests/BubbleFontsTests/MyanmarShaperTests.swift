import Foundation
import BubbleText
import Testing
import BubbleSamples
@testable import BubbleFonts

/// The Myanmar shaper against HarfBuzz (Corpora/fonts/harfbuzz-myanmar.json, made by
/// Tools/fonts/harfbuzz-shapes.py with hb-shape): the same glyphs in the same order with the same
/// advances, for the sweep's Myanmar texts and syllable cases (kinzi, medial RA, the vowel E,
/// stacked consonants, a lone asat), with Noto Sans Myanmar.
@Suite struct MyanmarShaperTests {
    /// Shapes `text` as the preparer does, at a size of one px per font unit: each glyph and its
    /// advance in font units.
    static func shaped(_ text: String, font: OpenTypeFont) throws -> [[Int]] {
        let shaper = try #require(try font.myanmarShaper(language: nil))
        return FontFixtures.shaped(text, font: font, with: shaper.shape)
    }

    @Test func glyphsAndAdvancesMatchHarfBuzz() throws {
        let url = FontFixtures.directory.appendingPathComponent("harfbuzz-myanmar.json")
        let fixture = try JSONDecoder().decode(KhmerShaperTests.Fixture.self, from: Data(contentsOf: url))
        #expect(fixture.shapes.count >= 7)
        for shape in fixture.shapes {
            let font = try FontFixtures.font(shape.font)
            let expected = shape.glyphs.map { [$0[0], $0[2]] }
            let ours = try Self.shaped(shape.text, font: font)
            #expect(ours == expected, "\(shape.text)")
        }
    }

    static func syllables(_ text: String) -> [Int] {
        let categories = text.unicodeScalars.map { SyllabicCategory.of($0.value) }
        var ends: [Int] = [], start = 0
        while start < categories.count {
            start = MyanmarShaper.syllable(categories, from: start).end
            ends.append(start)
        }
        return ends
    }

    @Test func syllablesFollowTheGrammar() {
        // မင်္ဂလာ: မ, then a kinzi (င်္) with its base ဂ, then လာ.
        #expect(Self.syllables("\u{1019}\u{1004}\u{103A}\u{1039}\u{1002}\u{101C}\u{102C}") == [1, 5, 7])
        // ကြေး: a base, medial RA, the vowel E and a visarga: one syllable.
        #expect(Self.syllables("\u{1000}\u{103C}\u{1031}\u{1038}") == [4])
        // ဗုဒ္ဓ: stacked consonants (virama) stay in one syllable.
        #expect(Self.syllables("\u{1017}\u{102F}\u{1012}\u{1039}\u{1013}") == [2, 5])
    }

    @Test func medialRaAndVowelEGoBeforeTheBase() throws {
        let font = try FontFixtures.font("NotoSansMyanmar-Subset.ttf")
        let ka = Int(try #require(font.glyph(for: "\u{1000}")))
        let shaped = try Self.shaped("\u{1000}\u{103C}\u{1031}", font: font)
        // The vowel E first, then medial RA (in a form the font picks), then the base.
        #expect(shaped.count == 3 && shaped[2][0] == ka, "\(shaped)")
        #expect(shaped[0][0] == Int(try #require(font.glyph(for: "\u{1031}"))))
    }
}

extension MyanmarShaperTests {
    /// Random Myanmar (any code point of the block, joiners, spaces; fixed seeds): shaping stays
    /// within its bounds whatever order the characters come in.
    @Test(arguments: 1...8) func randomTextsShapeWithinBounds(seed: UInt64) throws {
        let font = try FontFixtures.font("NotoSansMyanmar-Subset.ttf")
        var random = SeededGenerator(seed: seed)
        for _ in 0..<50 {
            let length = Int.random(in: 1...24, using: &random)
            let text = String(String.UnicodeScalarView((0..<length).map { _ in
                let pick = Int.random(in: 0..<10, using: &random)
                let value: UInt32 = pick == 0 ? 0x20 : pick == 1 ? 0x200C : UInt32.random(in: 0x1000...0x109F, using: &random)
                return Unicode.Scalar(value)!
            }))
            let shaped = try Self.shaped(text, font: font)
            #expect(shaped.count >= 1 && shaped.count <= 3 * length, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(shaped.allSatisfy { $0[1] >= 0 })
        }
    }
}
