/// `head`: the design grid.
struct HeadTable: Sendable, Equatable {
    /// Font units per em (16…16384).
    let unitsPerEm: Int

    init(_ table: FontBytes) throws(FontError) {
        guard try table.u32(12) == 0x5F0F_3CF5 else { throw table.error(12, "bad magic number") }
        unitsPerEm = Int(try table.u16(18))
        guard (16...16384).contains(unitsPerEm) else { throw table.error(18, "unitsPerEm \(unitsPerEm) is outside 16…16384") }
    }
}

/// `hhea`: horizontal line metrics and how many advances `hmtx` holds.
struct HheaTable: Sendable, Equatable {
    let ascender: Int
    let descender: Int
    let lineGap: Int
    let numberOfHMetrics: Int

    init(_ table: FontBytes) throws(FontError) {
        ascender = Int(try table.i16(4))
        descender = Int(try table.i16(6))
        lineGap = Int(try table.i16(8))
        numberOfHMetrics = Int(try table.u16(34))
        guard numberOfHMetrics > 0 else { throw table.error(34, "numberOfHMetrics is 0") }
    }
}

/// `OS/2`: the typographic line metrics, used instead of `hhea`'s when USE_TYPO_METRICS is set.
struct OS2Table: Sendable, Equatable {
    let typoAscender: Int
    let typoDescender: Int
    let typoLineGap: Int
    let winAscent: Int
    let winDescent: Int
    /// fsSelection bit 7.
    let useTypoMetrics: Bool

    init(_ table: FontBytes) throws(FontError) {
        let fsSelection = try table.u16(62)
        useTypoMetrics = fsSelection & (1 << 7) != 0
        typoAscender = Int(try table.i16(68))
        typoDescender = Int(try table.i16(70))
        typoLineGap = Int(try table.i16(72))
        winAscent = Int(try table.u16(74))
        winDescent = Int(try table.u16(76))
    }
}

/// `hmtx`: each glyph's advance width in font units. Glyphs past `numberOfHMetrics` share the last
/// advance (monospaced tails).
struct HmtxTable: Sendable {
    private let advances: [UInt16]
    let glyphCount: Int

    init(_ table: FontBytes, metricsCount: Int, glyphCount: Int) throws(FontError) {
        guard metricsCount <= glyphCount else {
            throw table.error(0, "hhea lists \(metricsCount) advances for \(glyphCount) glyphs")
        }
        try table.check(0, 4 * metricsCount)
        var advances: [UInt16] = []
        advances.reserveCapacity(metricsCount)
        for i in 0..<metricsCount { advances.append(try table.u16(4 * i)) }
        self.advances = advances
        self.glyphCount = glyphCount
    }

    /// The advance of `glyph` in font units (0 for a glyph the font does not have).
    func advance(_ glyph: UInt16) -> Int {
        let g = Int(glyph)
        guard g < glyphCount else { return 0 }
        return Int(g < advances.count ? advances[g] : advances[advances.count - 1])
    }
}

/// `maxp`: the number of glyphs, which bounds every glyph id read elsewhere.
func glyphCount(maxp: FontBytes) throws(FontError) -> Int {
    let count = Int(try maxp.u16(4))
    guard count > 0 else { throw maxp.error(4, "the font has no glyphs") }
    return count
}
