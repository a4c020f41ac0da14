import Foundation
import Testing
@testable import BubbleFonts

/// A chain joined from one-font chains (`FontChain(joining:)`, what `heights --font` builds after
/// checking each font on its own) is the chain read from the fonts at once: the same faces, tables
/// and chain-wide answers, and texts prepared through it are the same, column for column.
@Suite struct FontChainTests {
    static let files = ["NotoSans-Subset.ttf", "NotoSansCJK-Subset.ttc", "NotoSansArabic-Subset.ttf", "NotoSansHebrew-Subset.ttf",
                        "NotoSansThai-Subset.ttf", "NotoSansDevanagari-Subset.ttf", "NotoColorEmoji-Subset.ttf",
                        "NotoNastaliqUrdu-Subset.ttf", "DejaVuSans-Subset.ttf"]

    static func expectSameFaces(_ a: FontChain, _ b: FontChain) {
        #expect(a.faces.count == b.faces.count)
        for (x, y) in zip(a.faces, b.faces) {
            #expect(x.advances == y.advances)
            #expect(x.asciiRank == y.asciiRank)
            #expect(x.asciiKerning == y.asciiKerning)
            #expect((x.ascent64, x.descent64, x.lineGap64) == (y.ascent64, y.descent64, y.lineGap64))
            #expect(x.scale.pixels1616(units: 1000) == y.scale.pixels1616(units: 1000))
            #expect(x.kerning.isEmpty == y.kerning.isEmpty && x.substitutions.isEmpty == y.substitutions.isEmpty)
            #expect((x.arabicShaper == nil) == (y.arabicShaper == nil))
            #expect(x.hanKerning.trims == y.hanKerning.trims)
        }
        #expect(a.asciiGlyphs == b.asciiGlyphs)
        #expect(a.cutsAtSpaces == b.cutsAtSpaces)
        #expect(a.trimsPunctuation == b.trimsPunctuation)
        #expect(a.size == b.size)
    }

    @Test(arguments: [(16.0, nil), (13.0, "ja"), (21.5, "ar")] as [(Double, String?)])
    func aJoinedChainIsTheChainOfItsFonts(size: Double, language: String?) throws {
        let fonts = try Self.files.map { try FontFixtures.font($0) }
        let whole = try FontChain(fonts: fonts, size: size, language: language)
        let joined = FontChain(joining: try fonts.map { try FontChain(fonts: [$0], size: size, language: language) })
        Self.expectSameFaces(joined, whole)
        // Texts of every script of the sweep, prepared through both.
        let sweep = try #require(ChromiumSweepTests.sweep)
        var checked = 0
        for text in sweep.texts {
            let a = PixelPreparedText(text.text, chain: joined), b = PixelPreparedText(text.text, chain: whole)
            if WordCacheTests.expectSame(a, b, text.text) { checked += 1 }
        }
        #expect(checked == sweep.texts.count && checked > 100)
    }

    /// Joining keeps the faces' order: fallback goes to the first face that covers a scalar.
    @Test func joiningKeepsTheFacesOrder() throws {
        let sans = try FontChain(fonts: [FontFixtures.font("NotoSans-Subset.ttf")], size: 16)
        let dejavu = try FontChain(fonts: [FontFixtures.font("DejaVuSans-Subset.ttf")], size: 16)
        let sansFirst = FontChain(joining: [sans, dejavu]), dejavuFirst = FontChain(joining: [dejavu, sans])
        #expect(sansFirst.asciiFace(0x41).face == 0 && dejavuFirst.asciiFace(0x41).face == 0)
        #expect(sansFirst.faces[0].advances == sans.faces[0].advances)
        #expect(dejavuFirst.faces[0].advances == dejavu.faces[0].advances)
        #expect(sansFirst.faces[0].advances != dejavuFirst.faces[0].advances)
    }
}
