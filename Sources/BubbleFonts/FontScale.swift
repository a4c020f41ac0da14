/// Font units to pixels the way FreeType scales them for Chromium on Linux: a 16.16 scale factor
/// from the size in 26.6 (`FT_DivFix(size × 64, unitsPerEm)`), advances kept at 16.16 precision
/// (subpixel positioning, no hinting), and runs rounded up to Chromium's LayoutUnit (1/64 px).
package struct FontScale: Sendable, Hashable {
    /// The 16.16 factor that turns font units into 26.6 pixels.
    package let factor: Int
    package let unitsPerEm: Int
    /// The size in 26.6 pixels.
    package let size64: Int

    /// The scale for `size` px (fractional sizes allowed) in a font of `unitsPerEm`.
    package init(size: Double, unitsPerEm: Int) {
        precondition(unitsPerEm > 0, "unitsPerEm is checked when the font is read")
        size64 = Int((size * 64).rounded())
        self.unitsPerEm = unitsPerEm
        factor = FontScale.divFix(size64, unitsPerEm)
    }

    /// `FT_DivFix`: `a / b` in 16.16, rounded half away from zero.
    static func divFix(_ a: Int, _ b: Int) -> Int {
        let negative = (a < 0) != (b < 0)
        let (ua, ub) = (abs(a), abs(b))
        let q = ub == 0 ? 0x7FFF_FFFF : ((ua << 16) + (ub >> 1)) / ub
        return negative ? -q : q
    }

    /// `units` font units in 16.16 pixels: `round(units × factor / 64)`.
    @inline(__always)
    package func pixels1616(units: Int) -> Int {
        let product = units * factor
        return product >= 0 ? (product + 32) >> 6 : -((-product + 32) >> 6)
    }

    /// A bitmap advance (`pixels` at a strike of `ppem`) at this size, in 16.16 pixels.
    package func pixels1616(bitmapPixels pixels: Int, ppem: Int) -> Int {
        // size64 / 64 px per em over ppem: pixels × size / ppem, in 16.16.
        (pixels * size64 * 1024 + ppem / 2) / ppem
    }

    /// A run's 16.16 width in LayoutUnits (1/64 px), rounded up as Chromium rounds run widths.
    @inline(__always)
    package static func layoutUnits(_ width1616: Int) -> Int {
        width1616 >= 0 ? (width1616 + 1023) >> 10 : -((-width1616) >> 10)
    }
}
