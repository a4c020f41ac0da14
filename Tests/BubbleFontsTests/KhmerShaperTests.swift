import Foundation
import BubbleText
import Testing
import BubbleSamples
@testable import BubbleFonts

/// The Khmer shaper against HarfBuzz (Corpora/fonts/harfbuzz-khmer.json, made by
/// Tools/fonts/harfbuzz-shapes.py with hb-shape): the same glyphs in the same order with the same
/// advances, for the sweep's Khmer texts and syllable cases (COENG RO, pre-base and split vowels,
/// two subscripts, a broken cluster), with Noto Sans Khmer.
@Suite struct KhmerShaperTests {
    struct Fixture: Decodable {
        struct Shape: Decodable { var font: String; var language: String; var text: String; var glyphs: [[Int]] }
        var shapes: [Shape]
    }

    /// Shapes `text` as the preparer does (one glyph per scalar, joiners without a glyph), at a
    /// size of one px per font unit: each glyph and its advance in font units.
    static func shaped(_ text: String, font: OpenTypeFont) throws -> [[Int]] {
        let shaper = try #require(try font.khmerShaper(language: nil))
        return FontFixtures.shaped(text, font: font, with: shaper.shape)
    }

    @Test func glyphsAndAdvancesMatchHarfBuzz() throws {
        let url = FontFixtures.directory.appendingPathComponent("harfbuzz-khmer.json")
        let fixture = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
        #expect(fixture.shapes.count >= 7)
        for shape in fixture.shapes {
            let font = try FontFixtures.font(shape.font)
            let expected = shape.glyphs.map { [$0[0], $0[2]] }
            let ours = try Self.shaped(shape.text, font: font)
            #expect(ours == expected, "\(shape.text)")
        }
    }
}

extension KhmerShaperTests {
    static func categories(_ text: String) -> [SyllabicCategory] { text.unicodeScalars.map { SyllabicCategory.of($0.value) } }

    /// Syllable ends from the start, as the grammar cuts `text`.
    static func syllables(_ text: String) -> [Int] {
        let categories = Self.categories(text)
        var ends: [Int] = [], start = 0
        while start < categories.count {
            start = KhmerShaper.syllable(categories, from: start).end
            ends.append(start)
        }
        return ends
    }

    @Test func syllablesFollowTheGrammar() {
        // ស្រី: consonant, COENG RO, vowel above: one syllable; then a space on its own.
        #expect(Self.syllables("\u{179F}\u{17D2}\u{179A}\u{17B8} ") == [4, 5])
        // ស្ត្រី: two subscripts in one syllable.
        #expect(Self.syllables("\u{179F}\u{17D2}\u{178F}\u{17D2}\u{179A}\u{17B8}") == [6])
        // A COENG with no base before it starts a broken cluster that takes its subscript and
        // vowel; a lone COENG before a space is one on its own.
        #expect(Self.syllables("\u{17D2}\u{1780}\u{17BB}") == [3])
        #expect(Self.syllables("\u{17D2} \u{1780}") == [1, 2, 3])
        // A Robatic sign (៉) after its consonant, then a vowel below: one syllable.
        #expect(Self.syllables("\u{1794}\u{17C9}\u{17BB}\u{1793}") == [3, 4])
    }

    @Test func coengRoAndPreBaseVowelsMoveToTheSyllableStart() throws {
        let font = try FontFixtures.font("NotoSansKhmer-Subset.ttf")
        let ka = Int(try #require(font.glyph(for: "\u{1780}"))), e = Int(try #require(font.glyph(for: "\u{17C1}")))
        // កេ: the vowel E is drawn before its consonant.
        let shaped = try Self.shaped("\u{1780}\u{17C1}", font: font)
        #expect(shaped.map { $0[0] } == [e, ka])
        // ក្រ: COENG RO comes first (its `pref` form), the consonant after.
        let cluster = try Self.shaped("\u{1780}\u{17D2}\u{179A}", font: font)
        #expect(cluster.last?[0] == ka && cluster.count == 2, "\(cluster)")
    }
}

extension KhmerShaperTests {
    /// Random Khmer (any code point of the block, joiners, spaces; fixed seeds): shaping stays
    /// within its bounds and gives no negative advance, whatever order the characters come in.
    @Test(arguments: 1...8) func randomTextsShapeWithinBounds(seed: UInt64) throws {
        let font = try FontFixtures.font("NotoSansKhmer-Subset.ttf")
        var random = SeededGenerator(seed: seed)
        for _ in 0..<50 {
            let length = Int.random(in: 1...24, using: &random)
            let text = String(String.UnicodeScalarView((0..<length).map { _ in
                let pick = Int.random(in: 0..<10, using: &random)
                let value: UInt32 = pick == 0 ? 0x20 : pick == 1 ? 0x200C : UInt32.random(in: 0x1780...0x17FF, using: &random)
                return Unicode.Scalar(value)!
            }))
            let shaped = try Self.shaped(text, font: font)
            #expect(shaped.count >= 1 && shaped.count <= 3 * length, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(shaped.allSatisfy { $0[1] >= 0 })
        }
    }
}
