import BubbleText

/// A CSS-style font-family list at one size: each grapheme takes the first face that covers it.
public struct FontChain: Sendable {
    /// One face of the chain, with what measuring needs precomputed.
    public struct Face: Sendable {
        public let font: OpenTypeFont
        let kerning: PairKerning
        let substitutions: GlyphSubstitutions
        let scale: FontScale
        /// `line-height: normal` for this face in LayoutUnits: round(ascent) + round(descent) +
        /// round(lineGap), each in whole pixels as Chromium rounds them.
        let ascent64: Int
        let descent64: Int
        let lineGap64: Int
        /// `text-spacing-trim` in this face (`HanKerning.FontData.none` without `halt`).
        let hanKerning: HanKerning.FontData
    }

    public let faces: [Face]
    /// True when a face trims fullwidth punctuation (`text-spacing-trim`).
    let trimsPunctuation: Bool
    /// The font size in px.
    public let size: Double

    /// The chain `fonts` at `size` px, shaped as for `script` and `language` (OpenType tags such as
    /// `latn` and `KOR `; the language picks `locl` forms).
    public init(fonts: [OpenTypeFont], size: Double, script: String = "latn", language: String? = nil) throws(FontError) {
        precondition(!fonts.isEmpty, "a chain needs a font")
        var faces: [Face] = []
        for font in fonts {
            let scale = FontScale(size: size, unitsPerEm: font.unitsPerEm)
            func roundedPixels(_ units: Int) -> Int {
                (Double(units) * size / Double(font.unitsPerEm)).rounded() == 0 ? 0
                    : Int((Double(units) * size / Double(font.unitsPerEm)).rounded()) * 64
            }
            let substitutions = try font.substitutions(script: script, language: language)
            // Blink reads the punctuation's glyphs as Han text in the language: `locl` forms included.
            let hanKerning = HanKerning.FontData(halt: try font.alternateHalfWidths(language: language),
                                                 advance: font.advance(of:)) { scalar in
                guard let base = Unicode.Scalar(scalar), var glyph = font.glyph(for: base) else { return nil }
                var glyphs = [glyph], clusters = [0]
                substitutions.apply(&glyphs, clusters: &clusters)
                if glyphs.count == 1 { glyph = glyphs[0] }
                return glyph
            }
            faces.append(Face(font: font, kerning: try font.kerning(script: script), substitutions: substitutions, scale: scale,
                              ascent64: roundedPixels(font.ascent), descent64: roundedPixels(font.descent),
                              lineGap64: roundedPixels(font.lineGap), hanKerning: hanKerning))
        }
        self.faces = faces
        trimsPunctuation = faces.contains { $0.hanKerning.trims }
        self.size = size
    }

    /// The face for a grapheme whose scalars are `scalars`, and the glyph of its base: the first face
    /// covering the base (a grapheme asking for emoji presentation prefers a colour face), else
    /// the first face's `.notdef`.
    func face(for scalars: ArraySlice<UInt32>) -> (face: Int, glyph: UInt16) {
        guard let first = scalars.first, let base = Unicode.Scalar(first) else { return (0, 0) }
        // Only an explicit request for emoji presentation (VS16, a ZWJ sequence, a skin tone) passes
        // over a text font that covers the base: Chromium draws 😂 in DejaVu Sans from DejaVu.
        let wantsEmoji = scalars.contains(0xFE0F) || scalars.contains(0x200D)
            || (scalars.count > 1 && scalars.dropFirst().contains { UnicodeTables.info($0).isEmojiModifier })
        // By index: copying a Face retains each of its tables.
        if wantsEmoji {
            for index in faces.indices where faces[index].font.hasColorBitmaps {
                if let glyph = faces[index].font.glyph(for: base) { return (index, glyph) }
            }
        }
        for index in faces.indices {
            if let glyph = faces[index].font.glyph(for: base) { return (index, glyph) }
        }
        return (0, 0)
    }
}
