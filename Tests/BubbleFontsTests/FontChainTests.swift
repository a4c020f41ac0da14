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

/// The flat tables a face lays out at load (`FontChain.Face`: the first 4,096 advances in 16.16 px,
/// the kerning between printable ASCII glyphs) hold, for every glyph and every ASCII pair of the
/// installed Noto fonts, what the parsed `hmtx`, colour-bitmap metrics and `GPOS`/`kern` give.
@Suite struct FontChainFlatTableTests {
    static let installed = ["/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
                            "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf",
                            "/usr/share/fonts/truetype/noto/NotoSansHebrew-Regular.ttf",
                            "/usr/share/fonts/truetype/noto/NotoSansThai-Regular.ttf",
                            "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf",
                            "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
                            "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"]

    @Test(arguments: installed)
    func flatTablesHoldTheParsedValues(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }  // a machine without the Noto packages
        let font = try OpenTypeFont(contentsOf: path)
        for size in [13.0, 16.0, 21.5] {
            let face = try #require(try FontChain(fonts: [font], size: size).faces.first)
            let scale = FontScale(size: size, unitsPerEm: font.unitsPerEm)
            #expect(face.advances.count == min(font.glyphCount, 4096))
            for glyph in 0..<font.glyphCount {
                let parsed = font.bitmapAdvance(of: UInt16(glyph)).map { scale.pixels1616(bitmapPixels: $0.pixels, ppem: $0.ppem) }
                    ?? scale.pixels1616(units: font.advance(of: UInt16(glyph)))
                #expect(face.advance1616(UInt16(glyph)) == Int(Int32(clamping: parsed)), "glyph \(glyph) at \(size) px")
            }
            let kerning = try font.kerning(script: "latn")
            var ascii: [UInt16] = []
            for scalar in UInt32(0x20)...0x7E {
                if let glyph = font.glyph(for: Unicode.Scalar(scalar)!), !ascii.contains(glyph) { ascii.append(glyph) }
            }
            var kerned = 0
            for left in ascii {
                for right in ascii {
                    let parsed = scale.pixels1616(units: kerning.adjustment(left, right))
                    #expect(face.kerning1616(left, right) == parsed, "\(left) \(right) at \(size) px")
                    if parsed != 0 { kerned += 1 }
                }
            }
            if path.hasSuffix("NotoSans-Regular.ttf") { #expect(kerned > 200, "Noto Sans kerns its Latin pairs") }
        }
    }
}
