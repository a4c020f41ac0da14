import Testing
@testable import BubbleFonts

/// Font units become pixels as FreeType scales them, and run widths round up to 1/64 px.
@Suite struct FontScaleTests {
    @Test func atOnePixelPerUnitAdvancesAreExact() {
        let scale = FontScale(size: 1000, unitsPerEm: 1000)
        #expect(scale.factor == 64 << 16)  // 64 (26.6 per unit) in 16.16
        #expect(scale.pixels1616(units: 572) == 572 << 16)
    }

    @Test func theScaleIsFreeTypesDivFix() {
        // 16 px in a 2048-unit font: 1024/2048 in 16.16 is 0x8000.
        #expect(FontScale(size: 16, unitsPerEm: 2048).factor == 0x8000)
        // 17.5 px in 1000 units: (1120 << 16 + 500) / 1000, rounded half up.
        #expect(FontScale(size: 17.5, unitsPerEm: 1000).factor == (1120 << 16 + 500) / 1000)
        #expect(FontScale.divFix(-3, 2) == -FontScale.divFix(3, 2))
    }

    @Test func noto16pxAdvancesAreSubpixel() {
        // Noto Sans 'a' is 561 units of 1000: 8.976 px at 16 px, kept at 16.16 precision.
        let scale = FontScale(size: 16, unitsPerEm: 1000)
        let advance = scale.pixels1616(units: 561)
        #expect(abs(Double(advance) / 65536 - 8.976) < 1e-4)
        #expect(scale.pixels1616(units: -561) == -advance)
    }

    @Test func runWidthsRoundUpToLayoutUnits() {
        #expect(FontScale.layoutUnits(0) == 0)
        #expect(FontScale.layoutUnits(1) == 1)
        #expect(FontScale.layoutUnits(1024) == 1)
        #expect(FontScale.layoutUnits(1025) == 2)
        #expect(FontScale.layoutUnits(10 << 16) == 640)
    }

    @Test func bitmapAdvancesScaleFromTheStrike() {
        // Noto Color Emoji: 136 px at 109 ppem; at 16 px that is 136 × 16 / 109 px.
        let scale = FontScale(size: 16, unitsPerEm: 2048)
        let advance = scale.pixels1616(bitmapPixels: 136, ppem: 109)
        #expect(abs(Double(advance) / 65536 - 136.0 * 16 / 109) < 1.0 / 65536)
    }
}
