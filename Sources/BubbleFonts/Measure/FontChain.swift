import BubbleText

/// A CSS-style font-family list at one size: each grapheme takes the first face that covers it.
public struct FontChain: Sendable {
    /// One face of the chain, with what measuring needs precomputed.
    package struct Face: Sendable {
        package let font: OpenTypeFont
        let kerning: PairKerning
        let substitutions: GlyphSubstitutions
        /// Shapes runs of Arabic-script text (joining forms, contextual lookups); nil for a face
        /// without joining forms.
        let arabicShaper: ArabicShaper?
        /// Shapes runs of Khmer text (syllables, reordering, contextual lookups); nil for a face
        /// without Khmer features.
        let khmerShaper: KhmerShaper?
        /// Shapes runs of Myanmar text; nil for a face without the `mym2` script.
        let myanmarShaper: MyanmarShaper?
        let scale: FontScale
        /// `line-height: normal` for this face in LayoutUnits: round(ascent) + round(descent) +
        /// round(lineGap), each in whole pixels as Chromium rounds them.
        let ascent64: Int
        let descent64: Int
        let lineGap64: Int
        /// `text-spacing-trim` in this face (`HanKerning.FontData.none` without `halt`).
        let hanKerning: HanKerning.FontData
        /// The 16.16 advance of each glyph below `advances.count` (colour bitmaps included), so
        /// measuring is an array read, not an `hmtx` lookup and a scaling.
        let advances: [Int32]
        /// The kerning between the glyphs of printable ASCII, by their rank: `asciiRank[glyph]`
        /// (255 for other glyphs), `asciiKerning[rank × 95 + rank]` in 16.16 px.
        let asciiRank: [UInt8]
        let asciiKerning: [Int32]

        /// `glyph`'s advance in 16.16 px.
        @inline(__always)
        func advance1616(_ glyph: UInt16) -> Int {
            if Int(glyph) < advances.count { return Int(advances[Int(glyph)]) }
            return Self.advance1616(glyph, font: font, scale: scale)
        }

        static func advance1616(_ glyph: UInt16, font: OpenTypeFont, scale: FontScale) -> Int {
            if let bitmap = font.bitmapAdvance(of: glyph) {
                return scale.pixels1616(bitmapPixels: bitmap.pixels, ppem: bitmap.ppem)
            }
            return scale.pixels1616(units: font.advance(of: glyph))
        }

        /// The kerning between `left` and `right` in 16.16 px.
        @inline(__always)
        func kerning1616(_ left: UInt16, _ right: UInt16) -> Int {
            if Int(left) < asciiRank.count && Int(right) < asciiRank.count {
                let l = Int(asciiRank[Int(left)]), r = Int(asciiRank[Int(right)])
                if l != 255 && r != 255 { return Int(asciiKerning[l * 95 + r]) }
            }
            return scale.pixels1616(units: kerning.adjustment(left, right))
        }
    }

    /// For each scalar below 0x80 alone in its grapheme, its face and glyph as `face(for:)` finds
    /// them (face << 16 | glyph): most chat text is ASCII, and this skips the `cmap` lookups.
    let asciiGlyphs: [UInt32]

    package let faces: [Face]
    /// True when a face trims fullwidth punctuation (`text-spacing-trim`).
    let trimsPunctuation: Bool
    /// True when no ligature of any face can take in the space, so a text can be prepared
    /// a word at a time (`PixelWordCache`): every piece cut after a space and before printable
    /// ASCII shapes as it does in the whole text.
    let cutsAtSpaces: Bool
    /// The font size in px.
    public let size: Double

    /// The chain `fonts` at `size` px, shaped as for `script` and `language` (OpenType tags such as
    /// `latn` and `KOR `; the language picks `locl` forms).
    public init(fonts: [OpenTypeFont], size: Double, script: String = "latn", language: String? = nil) throws(FontError) {
        precondition(!fonts.isEmpty, "a chain needs a font")
        var faces: [Face] = []
        for font in fonts { faces.append(try Face(font: font, size: size, script: script, language: language)) }
        self.init(faces: faces, size: size)
    }

    /// The chain of the faces of `chains`, in order: each face as its chain read it, not read again
    /// (a caller that checks fonts one chain at a time, then chains them). The chains must share
    /// one size, script and language.
    package init(joining chains: [FontChain]) {
        precondition(!chains.isEmpty, "a chain needs a font")
        precondition(chains.allSatisfy { $0.size == chains[0].size }, "chains of one size")
        self.init(faces: chains.flatMap(\.faces), size: chains[0].size)
    }

    /// The chain of `faces` at `size` px: what the chain finds over all its faces.
    private init(faces: [Face], size: Double) {
        self.faces = faces
        var asciiGlyphs = [UInt32](repeating: 0, count: 0x80)
        for scalar in 0..<UInt32(0x80) {
            let found = Self.face(for: [scalar][...], in: faces)
            asciiGlyphs[Int(scalar)] = UInt32(found.face) << 16 | UInt32(found.glyph)
        }
        self.asciiGlyphs = asciiGlyphs
        // Every face's space, as a grapheme that starts with another scalar may take any face.
        cutsAtSpaces = faces.allSatisfy { face in
            guard !face.font.hasColorBitmaps, let space = face.font.glyph(for: " ") else { return true }
            return !face.substitutions.ligatures(involve: space)
        }
        trimsPunctuation = faces.contains { $0.hanKerning.trims }
        self.size = size
    }

    /// The face for a grapheme whose scalars are `scalars`, and the glyph of its base: the first face
    /// covering the base (a grapheme asking for emoji presentation prefers a colour face), else
    /// the first face's `.notdef`.
    /// `face(for: [scalar])` for a scalar below 0x80.
    @inline(__always)
    func asciiFace(_ scalar: UInt32) -> (face: Int, glyph: UInt16) {
        let found = asciiGlyphs[Int(scalar)]
        return (Int(found >> 16), UInt16(truncatingIfNeeded: found))
    }

    @inline(__always)
    func face(for scalars: ArraySlice<UInt32>) -> (face: Int, glyph: UInt16) {
        if scalars.count == 1, let first = scalars.first, first < 0x80 {
            let found = asciiGlyphs[Int(first)]
            return (Int(found >> 16), UInt16(truncatingIfNeeded: found))
        }
        return Self.face(for: scalars, in: faces)
    }

    static func face(for scalars: ArraySlice<UInt32>, in faces: [Face]) -> (face: Int, glyph: UInt16) {
        guard let first = scalars.first else { return (0, 0) }
        // Only an explicit request for emoji presentation (VS16, a ZWJ sequence, a skin tone) passes
        // over a text font that covers the base: Chromium draws 😂 in DejaVu Sans from DejaVu.
        let wantsEmoji = scalars.contains(0xFE0F) || scalars.contains(0x200D)
            || (scalars.count > 1 && scalars.dropFirst().contains { UnicodeTables.info($0).isEmojiModifier })
        return face(base: first, wantsEmoji: wantsEmoji, in: faces)
    }

    /// `face(for:)` for `scalars` (a grapheme), read in place.
    func face(for scalars: ElementsView<UInt32>) -> (face: Int, glyph: UInt16) {
        let count = scalars.count
        var wantsEmoji = false
        for i in 0..<count {
            let scalar = scalars[i]
            if scalar == 0xFE0F || scalar == 0x200D || (i > 0 && UnicodeTables.info(scalar).isEmojiModifier) {
                wantsEmoji = true
                break
            }
        }
        return Self.face(base: scalars[0], wantsEmoji: wantsEmoji, in: faces)
    }

    /// The first face covering `base`, a colour face first when `wantsEmoji`, else the first
    /// face's `.notdef`.
    static func face(base first: UInt32, wantsEmoji: Bool, in faces: [Face]) -> (face: Int, glyph: UInt16) {
        guard let base = Unicode.Scalar(first) else { return (0, 0) }
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

extension FontChain {
    /// The advance of a space in the first face (16.16 px), 0 when it has none: what CSS
    /// `tab-size` counts in.
    var spaceAdvance1616: Int {
        guard let space = faces[0].font.glyph(for: " ") else { return 0 }
        return faces[0].advance1616(space)
    }
}

extension FontChain.Face {
    /// `font` at `size` px shaped for `script` and `language`: its kerning, substitutions,
    /// shaper and `halt` read from its tables, and its first advances and ASCII kerning laid flat.
    init(font: OpenTypeFont, size: Double, script: String, language: String?) throws(FontError) {
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
        let kerning = try font.kerning(script: script)
        // Advances of the first glyphs (where a font keeps its common letters), at most 4,096.
        let advances = (0..<min(font.glyphCount, 4096)).map { Int32(clamping: Self.advance1616(UInt16($0), font: font, scale: scale)) }
        var asciiRank: [UInt8] = [], asciiGlyph: [UInt16] = []
        for scalar in UInt32(0x20)...0x7E {
            guard let glyph = font.glyph(for: Unicode.Scalar(scalar)!), !asciiGlyph.contains(glyph) else { continue }
            if Int(glyph) >= asciiRank.count { asciiRank += repeatElement(255, count: Int(glyph) + 1 - asciiRank.count) }
            asciiRank[Int(glyph)] = UInt8(asciiGlyph.count)
            asciiGlyph.append(glyph)
        }
        var asciiKerning = [Int32](repeating: 0, count: 95 * 95)
        if !kerning.isEmpty {
            for (l, left) in asciiGlyph.enumerated() {
                for (r, right) in asciiGlyph.enumerated() {
                    asciiKerning[l * 95 + r] = Int32(clamping: scale.pixels1616(units: kerning.adjustment(left, right)))
                }
            }
        }
        self.init(font: font, kerning: kerning, substitutions: substitutions,
                  arabicShaper: try font.arabicShaper(language: language),
                  khmerShaper: try font.khmerShaper(language: language),
                  myanmarShaper: try font.myanmarShaper(language: language), scale: scale,
                  ascent64: roundedPixels(font.ascent), descent64: roundedPixels(font.descent),
                  lineGap64: roundedPixels(font.lineGap), hanKerning: hanKerning, advances: advances,
                  asciiRank: asciiRank, asciiKerning: asciiKerning)
    }
}
