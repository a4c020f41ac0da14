/// Colour-bitmap glyph advances from `CBLC`/`CBDT` (Noto Color Emoji): bitmap-only fonts have no
/// outline advances that renderers use; the advance is the bitmap strike's, scaled from the
/// strike's ppem to the text size.
struct ColorBitmaps: Sendable {
    /// The strike's pixels per em (109 in Noto Color Emoji).
    let ppem: Int
    /// Each glyph's advance in strike pixels (0: no bitmap).
    private let advances: [UInt8]

    /// Reads the largest strike's advances.
    init(cblc: FontBytes, cbdt: FontBytes, glyphCount: Int) throws(FontError) {
        let sizeCount = Int(try cblc.u32(4))
        try cblc.check(8, 48 * sizeCount)
        var best: Int?
        var bestPPEM = 0
        for s in 0..<sizeCount {
            let ppem = Int(try cblc.u8(8 + 48 * s + 45))
            if ppem > bestPPEM { (best, bestPPEM) = (s, ppem) }
        }
        guard let best else { throw cblc.error(4, "no bitmap strikes") }
        let size = 8 + 48 * best
        let arrayOffset = Int(try cblc.u32(size))
        let subtableCount = Int(try cblc.u32(size + 8))
        let array = try cblc.from(arrayOffset)
        try array.check(0, 8 * subtableCount)
        var advances = [UInt8](repeating: 0, count: glyphCount)
        var visited = 0
        for i in 0..<subtableCount {
            let first = Int(try array.u16(8 * i)), last = Int(try array.u16(8 * i + 2))
            guard first <= last, last < glyphCount else { throw array.error(8 * i, "glyph range \(first)…\(last) is outside the font") }
            let header = try array.from(Int(try array.u32(8 * i + 4)))
            let indexFormat = try header.u16(0), imageFormat = try header.u16(2)
            let imageData = Int(try header.u32(4))
            visited += last - first + 1
            guard visited <= 4 * glyphCount + 4 else { throw array.error(8 * i, "index subtables list glyphs many times over") }
            // The image offset of each glyph, or the advance when the index subtable holds the metrics.
            func imageAdvance(_ offset: Int) throws(FontError) -> UInt8 {
                switch imageFormat {
                case 17: return try cbdt.u8(imageData + offset + 4)  // smallGlyphMetrics.advance
                case 18: return try cbdt.u8(imageData + offset + 4)  // bigGlyphMetrics.horiAdvance
                default: throw header.error(2, "image format \(imageFormat) is not 17 or 18")
                }
            }
            switch indexFormat {
            case 1, 3:
                let step = indexFormat == 1 ? 4 : 2
                for g in first...last {
                    let at = 8 + step * (g - first)
                    let offset = Int(indexFormat == 1 ? try header.u32(at) : UInt32(try header.u16(at)))
                    let next = Int(indexFormat == 1 ? try header.u32(at + step) : UInt32(try header.u16(at + step)))
                    if next > offset { advances[g] = try imageAdvance(offset) }
                }
            case 2:
                // Constant metrics for the range: bigGlyphMetrics after imageSize.
                let advance = try header.u8(12 + 4)
                for g in first...last { advances[g] = advance }
            case 4:
                let count = Int(try header.u32(8))
                try header.check(12, 4 * (count + 1))
                for r in 0..<count {
                    let glyph = Int(try header.u16(12 + 4 * r))
                    guard glyph < glyphCount else { continue }
                    advances[glyph] = try imageAdvance(Int(try header.u16(14 + 4 * r)))
                }
            case 5:
                let advance = try header.u8(12 + 4)
                let count = Int(try header.u32(20))
                try header.check(24, 2 * count)
                for r in 0..<count {
                    let glyph = Int(try header.u16(24 + 2 * r))
                    if glyph < glyphCount { advances[glyph] = advance }
                }
            default:
                throw header.error(0, "index format \(indexFormat) is not 1…5")
            }
        }
        ppem = bestPPEM
        self.advances = advances
    }

    /// The advance of `glyph` in strike pixels, nil when it has no bitmap.
    func advance(_ glyph: UInt16) -> Int? {
        let g = Int(glyph)
        guard g < advances.count, advances[g] != 0 else { return nil }
        return Int(advances[g])
    }
}
