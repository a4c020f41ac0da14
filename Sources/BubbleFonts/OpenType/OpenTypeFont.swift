import Foundation
import BubbleText

/// One face of an OpenType font file, read and checked once: what measuring text needs from it.
/// TrueType- and CFF-flavoured fonts and collections (`.ttc`, with a face index) are read; every
/// table read is bounds-checked, so a damaged or hostile file gets a `FontError`, never a crash.
public struct OpenTypeFont: Sendable {
    /// Font units per em.
    package let unitsPerEm: Int
    /// Glyphs in the font.
    package let glyphCount: Int
    /// True when the outlines are CFF (`OTTO`).
    package let isCFF: Bool
    /// Faces in the file this face came from.
    public let faceCount: Int
    /// Line metrics in font units, from `OS/2` when USE_TYPO_METRICS is set, else from `hhea`
    /// (descent positive, below the baseline).
    package let ascent: Int
    package let descent: Int
    package let lineGap: Int

    let cmap: CmapTable
    let hmtx: HmtxTable
    let colorBitmaps: ColorBitmaps?
    private let gpos: FontBytes?
    private let gsub: FontBytes?
    /// Glyph classes, mark attachment classes and mark sets, for the lookup flags of shaping.
    private let definitions: GlyphDefinitions
    /// The `kern` table's pairs, used only when the font has no `GPOS`.
    private let legacyKerning: Kerning

    /// Reads face `faceIndex` of a font file's bytes.
    public init(bytes: [UInt8], faceIndex: Int = 0) throws(FontError) {
        let file = try FontFile(bytes: bytes, faceIndex: faceIndex)
        isCFF = file.isCFF
        faceCount = file.faceCount
        let head = try HeadTable(file.required("head"))
        unitsPerEm = head.unitsPerEm
        glyphCount = try BubbleFonts.glyphCount(maxp: file.required("maxp"))
        let hhea = try HheaTable(file.required("hhea"))
        hmtx = try HmtxTable(file.required("hmtx"), metricsCount: hhea.numberOfHMetrics, glyphCount: glyphCount)
        cmap = try CmapTable(file.required("cmap"), glyphCount: glyphCount)
        let os2 = try file.tables["OS/2"].map { table throws(FontError) in try OS2Table(table) }
        if let os2, os2.useTypoMetrics {
            (ascent, descent, lineGap) = (os2.typoAscender, -os2.typoDescender, os2.typoLineGap)
        } else {
            (ascent, descent, lineGap) = (hhea.ascender, -hhea.descender, hhea.lineGap)
        }
        if let cblc = file.tables["CBLC"], let cbdt = file.tables["CBDT"] {
            colorBitmaps = try ColorBitmaps(cblc: cblc, cbdt: cbdt, glyphCount: glyphCount)
        } else {
            colorBitmaps = nil
        }
        gpos = file.tables["GPOS"]
        gsub = file.tables["GSUB"]
        if let gdef = file.tables["GDEF"] {
            definitions = try GlyphDefinitions(gdef: gdef, glyphCount: glyphCount)
        } else {
            definitions = GlyphDefinitions()
        }
        if gpos == nil, let kern = file.tables["kern"] {
            legacyKerning = try Kerning(kern: kern)
        } else {
            legacyKerning = Kerning()
        }
        // Read the default script's kerning and substitutions now, so a damaged GPOS or GSUB is
        // reported at load.
        _ = try kerning(script: "DFLT")
        _ = try substitutions(script: "DFLT", language: nil)
        _ = try alternateHalfWidths(language: nil)
        _ = try arabicShaper(language: nil)
        _ = try khmerShaper(language: nil)
        _ = try myanmarShaper(language: nil)
    }

    /// Reads face `faceIndex` of a font file's bytes held as `Data` (a bundled resource read
    /// with `Data(contentsOf:)`, an asset's data, a download). Throws `FontError` as
    /// `init(bytes:faceIndex:)` does.
    public init(data: Data, faceIndex: Int = 0) throws(FontError) {
        try self.init(bytes: [UInt8](data), faceIndex: faceIndex)
    }

    /// Reads face `faceIndex` of the font file at the file URL `url`, such as an app bundle's
    /// `Bundle.main.url(forResource: "NotoSans-Regular", withExtension: "ttf")`. A `.ttc` holds
    /// several faces: `faceCount` says how many. Throws `FontError` for a URL that is not a file
    /// URL, a file that cannot be read, or a damaged font.
    public init(contentsOf url: URL, faceIndex: Int = 0) throws(FontError) {
        guard url.isFileURL else {
            throw FontError(table: "file", offset: 0, reason: "not a file URL: \(url.absoluteString)")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw FontError(table: "file", offset: 0, reason: "cannot read \(url.path)")
        }
        try self.init(data: data, faceIndex: faceIndex)
    }

    /// Reads face `faceIndex` of the font file at `path`.
    public init(contentsOf path: String, faceIndex: Int = 0) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FontError(table: "file", offset: 0, reason: "cannot read \(path)")
        }
        try self.init(bytes: [UInt8](data), faceIndex: faceIndex)
    }

    /// The glyph for `scalar`, nil when the font does not cover it.
    package func glyph(for scalar: Unicode.Scalar) -> UInt16? { cmap.glyph(scalar.value) }

    /// The glyph for `scalar` followed by variation selector `selector`, as `cmap` format 14 maps
    /// it; nil when the font has no such sequence.
    package func glyph(for scalar: Unicode.Scalar, selector: Unicode.Scalar) -> UInt16? {
        cmap.glyph(scalar.value, selector: selector.value)
    }

    /// True when the font's colour bitmaps supply advances (colour emoji fonts).
    package var hasColorBitmaps: Bool { colorBitmaps != nil }

    /// The advance of `glyph` in font units, from `hmtx`.
    package func advance(of glyph: UInt16) -> Int { hmtx.advance(glyph) }

    /// The advance of `glyph` in strike pixels and the strike's ppem, for bitmap glyphs.
    package func bitmapAdvance(of glyph: UInt16) -> (pixels: Int, ppem: Int)? {
        guard let colorBitmaps, let pixels = colorBitmaps.advance(glyph) else { return nil }
        return (pixels, colorBitmaps.ppem)
    }

    /// The pair kerning applied to text in `script` (an OpenType script tag): the `kern` feature of
    /// `GPOS`, or the old `kern` table when the font has no `GPOS`.
    package func kerning(script: String) throws(FontError) -> PairKerning {
        guard let gpos else { return PairKerning(kerning: legacyKerning) }
        return PairKerning(kerning: try Kerning(gpos: gpos, script: script, glyphCount: glyphCount))
    }

    /// The `halt` adjustments (alternate half widths) for Han text in `language`.
    func alternateHalfWidths(language: String?) throws(FontError) -> AlternateHalfWidths {
        guard let gpos else { return AlternateHalfWidths() }
        return try AlternateHalfWidths(gpos: gpos, script: "hani", language: language, glyphCount: glyphCount)
    }
}

extension OpenTypeFont {
    /// The substitutions a browser applies by default (`ccmp`, `locl`, `rlig`, `liga`, `clig`: single
    /// and ligature lookups) for `script` and `language` (OpenType tags: `latn`, `KOR `).
    package func substitutions(script: String, language: String?) throws(FontError) -> GlyphSubstitutions {
        guard let gsub else { return GlyphSubstitutions(substitutions: Substitutions()) }
        return GlyphSubstitutions(substitutions: try Substitutions(gsub: gsub, script: script, language: language,
                                                                   glyphCount: glyphCount))
    }
}

extension OpenTypeFont {
    /// The Arabic-script shaper for `language` (an OpenType language tag), nil when the font has
    /// no joining forms.
    func arabicShaper(language: String?) throws(FontError) -> ArabicShaper? {
        try ArabicShaper(gsub: gsub, gpos: gpos, definitions: definitions, language: language, glyphCount: glyphCount)
    }

    /// Whether `GDEF` classes `glyph` as a mark.
    func isMark(_ glyph: UInt16) -> Bool { definitions.properties(glyph) & GlyphDefinitions.mark != 0 }

    /// The Khmer shaper for `language` (an OpenType language tag), nil when the font has no
    /// Khmer features.
    func khmerShaper(language: String?) throws(FontError) -> KhmerShaper? {
        try KhmerShaper(gsub: gsub, gpos: gpos, definitions: definitions, language: language, glyphCount: glyphCount,
                        vowelE: glyph(for: "\u{17C1}"))
    }

    /// The Myanmar shaper for `language` (an OpenType language tag), nil when the font has no
    /// `mym2` script.
    func myanmarShaper(language: String?) throws(FontError) -> MyanmarShaper? {
        let parts = glyph(for: "\u{1025}").flatMap { first in glyph(for: "\u{102E}").map { (first, $0) } }
        return try MyanmarShaper(gsub: gsub, gpos: gpos, definitions: definitions, language: language, glyphCount: glyphCount,
                                 decomposition: glyph(for: "\u{1026}") == nil ? nil : parts)
    }
}

/// Glyph substitutions for one script and language.
package struct GlyphSubstitutions: Sendable {
    let substitutions: Substitutions

    /// Applies the substitutions to `glyphs`; `clusters` (one per glyph) is kept in step, each glyph
    /// left keeping the cluster of its first component.
    package func apply(_ glyphs: inout [UInt16], clusters: inout [Int]) {
        substitutions.apply(&glyphs, clusters: &clusters)
    }

    /// `apply` on the `count` glyphs at `glyphs`, in place (the preparer's reused buffers).
    @inline(__always)
    func apply(_ glyphs: MutableElementsView<UInt16>, clusters: MutableElementsView<Int32>, count: inout Int) {
        substitutions.apply(glyphs, clusters: clusters, count: &count)
    }

    /// True when nothing is ever substituted.
    package var isEmpty: Bool { substitutions.isEmpty }

    /// Whether a ligature could take in `glyph` (or a form of it), so text cannot be cut there.
    func ligatures(involve glyph: UInt16) -> Bool { substitutions.ligatures(involve: glyph) }
}

/// Pair adjustments for one script, in font units.
package struct PairKerning: Sendable {
    let kerning: Kerning

    /// The adjustment between two adjacent glyphs.
    package func adjustment(_ left: UInt16, _ right: UInt16) -> Int { kerning.adjustment(left, right) }

    /// True when no pair is ever adjusted.
    package var isEmpty: Bool { kerning.isEmpty }

    /// Whether kerning passes over marks (`Kerning.ignoresMarks`).
    var ignoresMarks: Bool { kerning.ignoresMarks }
}
