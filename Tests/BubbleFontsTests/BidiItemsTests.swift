import Testing
@testable import BubbleFonts

/// Bidi items (`BidiItems`): where Chromium cuts a text into runs of one level, each rounded up.
@Suite struct BidiItemsTests {
    static func measurer() throws -> PixelMeasurer {
        PixelMeasurer(chain: try FontChain(fonts: [try FontFixtures.font("NotoSansHebrew-Subset.ttf")], size: 17.5, script: "hebr"))
    }

    @Test func leftToRightTextIsOneItem() throws {
        let m = try Self.measurer()
        #expect(BidiItems("Hello, world?", prepared: m.prepare("Hello, world?")) == nil)
        #expect(m.width(of: "Hello, world?") == m.prepare("Hello, world?").naturalWidth)
    }

    @Test func trailingNeutralEndsTheRightToLeftItem() throws {
        let m = try Self.measurer()
        let text = "שלום לכולם?"
        let items = try #require(BidiItems(text, prepared: m.prepare(text)))
        // The question mark takes the block's left-to-right level: an item of its own.
        #expect(items.endsAfter == [false, false, false, false, false, false, false, false, false, true, false])
        let prepared = m.prepare(text)
        let hebrew = prepared.advances.dropLast().reduce(0) { $0 + Int($1) } + prepared.kernAfter.dropLast(2).reduce(0) { $0 + Int($1) }
        let mark = Int(prepared.advances.last!)
        #expect(m.width(of: text) == FontScale.layoutUnits(hebrew) + FontScale.layoutUnits(mark))
    }

    @Test func eachHardLineIsMeasuredApart() throws {
        let m = try Self.measurer()
        #expect(m.width(of: "שלום?\nשלום לכולם?") == m.width(of: "שלום לכולם?"))
    }
}
