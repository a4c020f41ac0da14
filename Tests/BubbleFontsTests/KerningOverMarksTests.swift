import Testing
import BubbleText
@testable import BubbleFonts

/// Kerning passes over marks (`PieceWriter.finishRun`): a pointed word is as wide as its
/// unpointed form, as HarfBuzz and Chromium measure it (the font's kern lookups ignore marks, and
/// its marks have no advance).
@Suite struct KerningOverMarksTests {
    static func measurer() throws -> PixelMeasurer {
        PixelMeasurer(chain: try FontChain(fonts: [try FontFixtures.font("NotoSansHebrew-Subset.ttf")], size: 17.5, script: "hebr"))
    }

    @Test func pointedWordsMeasureAsTheirLetters() throws {
        let measurer = try Self.measurer()
        // (Pairs that Noto Sans Hebrew kerns: דה in תודה, רב in רבה, with points between.)
        for (pointed, bare) in [("תּוֹדָה", "תודה"), ("רַבָּה", "רבה"), ("נִתְרָאֶה", "נתראה"), ("שְּׁלוֹמְךָ", "שלומך")] {
            #expect(measurer.width(of: pointed) == measurer.width(of: bare), "\(pointed)")
        }
    }

    @Test func theKerningBetweenTheLettersStays() throws {
        let font = try FontFixtures.font("NotoSansHebrew-Subset.ttf")
        let resh = try #require(font.glyph(for: "\u{05E8}")), bet = try #require(font.glyph(for: "\u{05D1}"))
        let kerning = try font.kerning(script: "hebr")
        #expect(kerning.adjustment(resh, bet) < 0, "the pair is kerned")
        let measurer = try Self.measurer()
        // With a point between them the pair is kerned still: narrower than the letters apart.
        #expect(measurer.width(of: "רַב") < measurer.width(of: "ר") + measurer.width(of: "ב"))
        #expect(measurer.width(of: "רַב") == measurer.width(of: "רב"))
    }
}
