import Testing
@testable import BubbleFonts

/// Re-layout walks break-opportunity segments (a word and its spaces at a time). Checked against
/// the plain grapheme-by-grapheme greedy it replaced, on randomised texts with fixed seeds.
@Suite struct SegmentLayoutTests {
    /// The reference: graphemes one at a time, the width tested at each break opportunity. Each
    /// line's end grapheme and its width in LayoutUnits (a split word's lines summed again from
    /// their start for each grapheme, as the measurer did before it summed them as it went).
    static func referenceLines(_ p: PixelPreparedText, width available: Int) -> [(end: Int, width: Int)] {
        let count = p.advances.count
        var ends: [(end: Int, width: Int)] = []
        var lineStart = 0
        while lineStart < count {
            var lineEnd = lineStart, lineWidth = 0, running = 0, visible = 0, g = lineStart
            while g < count {
                if g > lineStart { running += Int(p.kernAfter[g - 1]) }
                running += Int(p.advances[g])
                if !p.isSpace[g] { visible = running }
                if p.breakAfter[g] != 0 {
                    guard FontScale.layoutUnits(visible) <= available + 1 else { break }
                    lineEnd = g + 1
                    lineWidth = FontScale.layoutUnits(visible)
                    if p.breakAfter[g] == 2 { break }
                }
                g += 1
            }
            if lineEnd == lineStart {
                // Split the word at graphemes, as the measurer does (no trims in these texts).
                var wordEnd = lineStart
                while wordEnd < count && p.breakAfter[wordEnd] == 0 { wordEnd += 1 }
                wordEnd = min(count, wordEnd + 1)
                lineEnd = lineStart + 1
                func width(_ end: Int) -> Int {
                    var last = end, total = 0
                    while last > lineStart && p.isSpace[last - 1] { last -= 1 }
                    for k in lineStart..<last { total += Int(p.advances[k]) + (k + 1 < last ? Int(p.kernAfter[k]) : 0) }
                    return FontScale.layoutUnits(total)
                }
                while lineEnd < wordEnd && width(lineEnd + 1) <= available + 1 { lineEnd += 1 }
                lineWidth = width(lineEnd)
            }
            ends.append((lineEnd, lineWidth))
            lineStart = lineEnd
        }
        return ends.isEmpty ? [(0, 0)] : ends
    }

    @Test(arguments: [1, 2, 3])
    func segmentsBreakWhereGraphemesDo(seed: UInt64) throws {
        let chain = try FontChain(fonts: [FontFixtures.font("NotoSans-Subset.ttf"), FontFixtures.font("NotoColorEmoji-Subset.ttf")], size: 15)
        let measurer = PixelMeasurer(chain: chain)
        let words = ["a", "To", "AVATAR", "Wave,", "coffee", "10:30", "https://example.com/a-b/c?d=e", "—", "😂", "👍🏽", "  ", "\n",
                     "Привет", "καλημέρα", "supercalifragilisticexpialidocious", "-5", "x-ray", "?!", "(ok)", "\u{3000}"]
        // (No tabs: a text with a tab is laid out grapheme by grapheme, its tabs at their stops;
        // TabStopTests checks those.)
        var generator = SplitMix(seed: seed)
        var checked = 0
        for _ in 0..<200 {
            let count = 1 + Int(generator.next() % 30)
            let text = (0..<count).map { _ in words[Int(generator.next() % UInt64(words.count))] }
                .joined(separator: generator.next() % 3 == 0 ? "" : " ")
            let prepared = measurer.prepare(text)
            for width in [1, 64, 600, 1_500, 4_000, 9_000, 20_000, 100_000] {
                let reference = Self.referenceLines(prepared, width: width)
                let lines = measurer.layout(prepared, width: width).lines
                #expect(lines.count == reference.count, "\(text.debugDescription) at \(width)")
                // Each line ends where the reference's does (its end grapheme's UTF-8 start).
                let referenceEnds = reference.map { $0.end < prepared.starts.count ? Int(prepared.starts[$0.end]) : prepared.utf8Count }
                if lines.count == reference.count {
                    for (line, end) in zip(lines, referenceEnds) { #expect(line.utf8Range.upperBound <= end) }
                    #expect(lines.map(\.width) == reference.map(\.width), "\(text.debugDescription) at \(width)")
                    checked += 1
                }
            }
        }
        #expect(checked == 1_600)
    }
}
