import Testing
@testable import BubbleFonts

/// Tabs in pixels advance to the next stop of `tab-size: 8` spaces of the first font, counted from
/// the line's start (Chromium's sweep checks the figures; these check the rule's shape).
@Suite struct TabStopTests {
    static func measurer(size: Double = 16) throws -> PixelMeasurer {
        let chain = try FontChain(fonts: [FontFixtures.font("NotoSans-Subset.ttf"), FontFixtures.font("NotoColorEmoji-Subset.ttf")],
                                  size: size)
        return PixelMeasurer(chain: chain)
    }

    @Test func aTabAdvancesToTheNextStop() throws {
        let m = try Self.measurer()
        let space = m.chain.spaceAdvance1616
        let stop = PixelPreparedText.tabAdvance(at: 0, space1616: space)
        #expect(stop == FontScale.layoutUnits(8 * space))
        // Text shorter than a stop does not move what follows the tab.
        #expect(m.width(of: "\tx") == stop + m.width(of: "x"))
        #expect(m.width(of: "ab\tx") == stop + m.width(of: "x"))
        #expect(m.width(of: "a\tbb\tx") == 2 * stop + m.width(of: "x"))
        // Text past a stop moves the tab to the next one.
        let long = "abcdefghijkl"
        #expect(m.width(of: long) > stop)
        #expect(m.width(of: long + "\tx") == PixelPreparedText.tabAdvance(at: m.width(of: long), space1616: space)
                + m.width(of: long) + m.width(of: "x"))
        // Each hard line starts its own stops.
        #expect(m.width(of: "abcdefghijkl\nab\tx") == max(m.width(of: "abcdefghijkl"), stop + m.width(of: "x")))
    }

    @Test func lessThanHalfASpaceToTheStopSkipsToTheNextOne() {
        let space = 300_000  // 16.16 px: about 4.58 px
        let interval = Double(space) / 65536 * 8
        let justBefore = Int(((interval - Double(space) / 65536 / 4) * 64).rounded(.down))
        #expect(PixelPreparedText.tabAdvance(at: justBefore, space1616: space) > Int(interval * 64))
        #expect(PixelPreparedText.tabAdvance(at: 0, space1616: space) == Int((interval * 64).rounded(.up)))
        #expect(PixelPreparedText.tabAdvance(at: 0, space1616: 0) == 0)
    }

    @Test func tabsHangAtALinesEndAndBreakAfter() throws {
        let m = try Self.measurer()
        let prepared = m.prepare("word\tword")
        let one = m.width(of: "word")
        // Wide enough for the first word only: the tab hangs, the second word wraps.
        #expect(m.layout(prepared, width: one).lineCount == 2)
        #expect(m.layout(prepared, width: one).lines[0].width == one)
        #expect(m.layout(prepared, width: m.width(of: "word\tword")).lineCount == 1)
        // The tab on a new line is measured from that line's start.
        let wrapped = m.prepare("abcdefghijkl abcdefghijkl\tx")
        let lines = m.layout(wrapped, width: m.width(of: "abcdefghijkl abcdefghijk"))
        #expect(lines.lineCount == 2)
        #expect(lines.lines[1].width == m.width(of: "abcdefghijkl\tx"))
    }

    @Test func textsWithTabsMatchTheUncachedPreparation() throws {
        let m = try Self.measurer(size: 15)
        for text in ["a\tb", "Name:\tAlice\nCity:\tParis", "\t\tx", "tab at end\t", "x \t y", "ok\t👍\tdone"] {
            let cached = m.prepare(text), direct = PixelPreparedText(text, chain: m.chain)
            #expect(cached.advances == direct.advances && cached.breakAfter == direct.breakAfter, "\(text)")
            for width in stride(from: 20 * 64, through: 300 * 64, by: 37 * 64) {
                #expect(m.layout(cached, width: width) == m.layout(direct, width: width), "\(text) at \(width)")
            }
        }
    }
}
