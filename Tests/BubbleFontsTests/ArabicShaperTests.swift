import Foundation
import BubbleText
import Testing
@testable import BubbleFonts

/// The Arabic shaper against HarfBuzz (Corpora/fonts/harfbuzz-arabic.json, made by
/// Tools/fonts/harfbuzz-shapes.py with hb-shape): the same glyphs with the same advances, for
/// the sweep's Arabic (Noto Sans Arabic) and Urdu (Noto Nastaliq Urdu) texts and joining cases.
@Suite struct ArabicShaperTests {
    struct Fixture: Decodable {
        struct Shape: Decodable { var font: String; var language: String; var text: String; var glyphs: [[Int]] }
        var shapes: [Shape]
    }

    /// Shapes `text` as the preparer does (one glyph per scalar, joiners without a glyph), at a
    /// size of one px per font unit; glyphs and advances in font units.
    static func shaped(_ text: String, font: OpenTypeFont, language: String?) throws -> [[Int]] {
        let shaper = try #require(try font.arabicShaper(language: language))
        return FontFixtures.shaped(text, font: font, with: shaper.shape)
    }

    @Test func glyphsAndAdvancesMatchHarfBuzz() throws {
        let url = FontFixtures.directory.appendingPathComponent("harfbuzz-arabic.json")
        let fixture = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
        #expect(fixture.shapes.count >= 18)
        for shape in fixture.shapes {
            let font = try FontFixtures.font(shape.font)
            // HarfBuzz draws a ZWJ or ZWNJ as a zero-width space; the preparer gives a ZWJ no glyph
            // and a ZWNJ its own (zero-width, `.notdef` in these subsets).
            let space = Int(font.glyph(for: " ") ?? 0)
            let expected = shape.glyphs.filter { !($0[2] == 0 && $0[0] == space) }.map { [$0[0], $0[2]] }
            let ours = try Self.shaped(shape.text, font: font, language: TextLanguage(bcp47: shape.language)?.language)
                .filter { !($0[1] == 0 && ($0[0] == 0 || $0[0] == space)) }
            #expect(ours == expected, "\(shape.font) \(shape.text)")
        }
    }

    @Test func joiningFormsFollowNeighbours() throws {
        let font = try FontFixtures.font("NotoSansArabic-Subset.ttf")
        let beh = try #require(font.glyph(for: "\u{0628}"))
        // ب alone, then بب: the first takes its initial form, the second its final one.
        let alone = try Self.shaped("\u{0628}", font: font, language: nil)
        let pair = try Self.shaped("\u{0628}\u{0628}", font: font, language: nil)
        #expect(alone.count == 1 && pair.count == 2)
        #expect(Set([alone[0][0], pair[0][0], pair[1][0]]).count == 3, "isolated, initial and final forms differ")
        #expect(pair[0][0] != Int(beh) || alone[0][0] != Int(beh))
        // A space ends joining: ب ب is two isolated forms.
        let apart = try Self.shaped("\u{0628} \u{0628}", font: font, language: nil)
        #expect(apart[0][0] == alone[0][0] && apart[2][0] == alone[0][0])
    }

    @Test func fontsWithoutJoiningFormsHaveNoShaper() throws {
        #expect(try FontFixtures.font("NotoSans-Subset.ttf").arabicShaper(language: nil) == nil)
        #expect(try FontFixtures.font("NotoSansHebrew-Subset.ttf").arabicShaper(language: nil) == nil)
    }
}
