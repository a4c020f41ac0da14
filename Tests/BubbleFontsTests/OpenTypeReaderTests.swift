import Foundation
import Testing
@testable import BubbleFonts

/// The OpenType reader agrees with fontTools and HarfBuzz on every committed test font.
@Suite struct OpenTypeReaderTests {
    @Test func theExpectationsWereFound() {
        #expect(FontFixtures.expected.count == 7)
    }

    @Test(arguments: FontFixtures.expected)
    func headerAndLineMetricsMatchFontTools(_ facts: FontFixtures.FontFacts) throws {
        let font = try FontFixtures.font(facts.file, face: facts.face)
        #expect(font.unitsPerEm == facts.unitsPerEm)
        #expect(font.glyphCount == facts.glyphCount)
        #expect(font.ascent == facts.ascent && font.descent == facts.descent && font.lineGap == facts.lineGap)
    }

    @Test(arguments: FontFixtures.expected)
    func codePointsMapToTheGlyphsFontToolsReads(_ facts: FontFixtures.FontFacts) throws {
        let font = try FontFixtures.font(facts.file, face: facts.face)
        for sample in facts.cmap {
            let scalar = try #require(Unicode.Scalar(UInt32(sample[0])))
            #expect(Int(font.glyph(for: scalar) ?? 0) == sample[1], "U+\(String(sample[0], radix: 16))")
        }
    }

    @Test(arguments: FontFixtures.expected)
    func advancesMatchHmtx(_ facts: FontFixtures.FontFacts) throws {
        let font = try FontFixtures.font(facts.file, face: facts.face)
        for sample in facts.advances {
            #expect(font.advance(of: UInt16(sample[0])) == sample[1], "glyph \(sample[0])")
        }
    }

    @Test(arguments: FontFixtures.expected.filter { !$0.variationSequences.isEmpty })
    func variationSequencesFollowCmapFormat14(_ facts: FontFixtures.FontFacts) throws {
        let font = try FontFixtures.font(facts.file, face: facts.face)
        for sequence in facts.variationSequences {
            let base = try #require(Unicode.Scalar(UInt32(sequence[0])))
            let selector = try #require(Unicode.Scalar(UInt32(sequence[1])))
            #expect(Int(font.glyph(for: base, selector: selector) ?? 0) == sequence[2])
        }
        // A selector the font lists nothing for leaves the choice to the caller.
        #expect(font.glyph(for: "A", selector: "\u{FE0E}") == nil)
    }

    @Test(arguments: FontFixtures.expected.filter { $0.kerning != nil })
    func pairKerningMatchesHarfBuzz(_ facts: FontFixtures.FontFacts) throws {
        let font = try FontFixtures.font(facts.file, face: facts.face)
        let kerning = try font.kerning(script: try #require(facts.kerning).script)
        var expected: [UInt64: Int] = [:]
        for pair in facts.kerning!.pairs { expected[UInt64(pair[0]) << 32 | UInt64(pair[1])] = pair[2] }
        var checked = 0
        for left in FontFixtures.kerningLetters {
            guard let l = font.glyph(for: left) else { continue }
            for right in FontFixtures.kerningLetters {
                guard let r = font.glyph(for: right) else { continue }
                let want = expected[UInt64(left.value) << 32 | UInt64(right.value)] ?? 0
                #expect(kerning.adjustment(l, r) == want, "\(left)\(right)")
                checked += 1
            }
        }
        #expect(checked > 100)
        #expect(facts.kerning!.pairs.count >= 3)
    }

    @Test(arguments: FontFixtures.expected.filter { !$0.shaped.isEmpty })
    func ligaturesAndLocalFormsMatchHarfBuzz(_ facts: FontFixtures.FontFacts) throws {
        let font = try FontFixtures.font(facts.file, face: facts.face)
        for sample in facts.shaped {
            let substitutions = try font.substitutions(script: sample.script, language: sample.language)
            var glyphs = sample.text.unicodeScalars.map { font.glyph(for: $0) ?? 0 }
            var clusters = Array(glyphs.indices)
            substitutions.apply(&glyphs, clusters: &clusters)
            #expect(glyphs.map(Int.init) == sample.glyphs, "\(sample.text)")
            #expect(clusters == sample.clusters, "\(sample.text)")
        }
    }

    @Test func koreanTakesItsOwnSpaceOnlyWithItsLanguage() throws {
        let kr = try FontFixtures.font("NotoSansCJK-Subset.ttc", face: 1)
        let space = try #require(kr.glyph(for: " "))
        var korean = [space], clusters = [0]
        try kr.substitutions(script: "hang", language: "KOR ").apply(&korean, clusters: &clusters)
        var plain = [space]
        try kr.substitutions(script: "hang", language: nil).apply(&plain, clusters: &clusters)
        #expect(korean != plain)
        #expect(kr.advance(of: korean[0]) > kr.advance(of: plain[0]))
    }

    @Test func colourEmojiAdvancesComeFromTheBitmapStrike() throws {
        let facts = try #require(FontFixtures.expected.first { $0.bitmaps != nil })
        let font = try FontFixtures.font(facts.file)
        #expect(font.hasColorBitmaps)
        let bitmaps = try #require(facts.bitmaps)
        #expect(bitmaps.advances.count > 10)
        for sample in bitmaps.advances {
            let advance = try #require(font.bitmapAdvance(of: UInt16(sample[0])))
            #expect(advance.pixels == sample[1] && advance.ppem == bitmaps.ppem)
        }
        // Glyph 0 (.notdef) has no bitmap in Noto Color Emoji.
        #expect(font.bitmapAdvance(of: 0) == nil)
    }

    @Test func aCollectionNamesItsFacesAndRefusesOthers() throws {
        let jp = try FontFixtures.font("NotoSansCJK-Subset.ttc", face: 0)
        #expect(jp.faceCount == 2 && jp.isCFF)
        #expect(throws: FontError(table: "file", offset: 8, reason: "face 2 asked for, the collection has 2 (0…1)")) {
            try FontFixtures.font("NotoSansCJK-Subset.ttc", face: 2)
        }
        #expect(throws: FontError(table: "file", offset: 0, reason: "face 1 asked for, but this is not a collection")) {
            try FontFixtures.font("NotoSans-Subset.ttf", face: 1)
        }
    }

    @Test func aFileThatIsNotAFontSaysWhatItStartsWith() {
        #expect(throws: FontError(table: "file", offset: 0, reason: "not an OpenType font (starts with GIF8)")) {
            try OpenTypeFont(bytes: Array("GIF89a and more bytes".utf8))
        }
        #expect(throws: FontError.self) { try OpenTypeFont(bytes: []) }
    }
}
