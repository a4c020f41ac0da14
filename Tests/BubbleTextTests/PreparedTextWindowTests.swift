import BubbleSamples
import Testing
@testable import BubbleText

/// `PreparedText.lines(width:in:)`: any window of a text's lines is exactly that slice of the
/// whole layout, on random texts and widths.
@Suite struct PreparedTextWindowTests {
    /// A tall text: random sampler pieces, long words (force-broken), ideograph runs and tabs,
    /// repeated until it wraps to many lines.
    static func tallText(_ random: inout SeededGenerator) -> String {
        var text = ""
        let pieces = Int.random(in: 5...60, using: &random)
        for _ in 0..<pieces {
            switch Int.random(in: 0..<6, using: &random) {
            case 0: text += String(repeating: "abcdefg", count: Int.random(in: 1...40, using: &random))
            case 1: text += String(repeating: "漢字", count: Int.random(in: 1...30, using: &random))
            case 2: text += String(repeating: "e\u{301}", count: Int.random(in: 1...50, using: &random))
            case 3: text += "\t"
            default: text += TextSampler.shared.text(&random)
            }
            text += Int.random(in: 0..<4, using: &random) == 0 ? "\n" : " "
        }
        return text
    }

    @Test func everyWindowIsTheSliceOfTheWholeLayout() {
        var random = SeededGenerator(seed: 0x5EED_0637)
        for round in 0..<300 {
            let text = Self.tallText(&random)
            let prepared = PreparedText(text, options: TextOptions(ambiguousWidth: round % 7 == 0 ? 2 : 1, tabStop: 4 + round % 5))
            let width = Int.random(in: 1...60, using: &random)
            let whole = prepared.layout(width: width).lines
            #expect(prepared.measure(width: width).lineCount == whole.count)
            for _ in 0..<8 {
                let low = Int.random(in: 0...(whole.count + 2), using: &random)
                let high = low + Int.random(in: 0...40, using: &random)
                let expected = Array(whole[min(low, whole.count)..<min(high, whole.count)])
                #expect(prepared.lines(width: width, in: low..<high) == expected, "round \(round), width \(width), \(low)..<\(high)")
            }
            // The whole range, the first line and the last.
            #expect(prepared.lines(width: width, in: 0..<whole.count) == whole)
            #expect(prepared.lines(width: width, in: 0..<1) == Array(whole.prefix(1)))
            #expect(prepared.lines(width: width, in: (whole.count - 1)..<whole.count) == Array(whole.suffix(1)))
        }
    }

    @Test func oneLineAndEmptyTexts() {
        let short = PreparedText("hello")
        #expect(short.lines(width: 20, in: 0..<5) == short.layout(width: 20).lines)
        #expect(short.lines(width: 20, in: 1..<5).isEmpty)
        let empty = PreparedText("")
        #expect(empty.lines(width: 20, in: 0..<3) == [TextLine(utf8Range: 0..<0, width: 0)])
        #expect(short.lines(width: 20, in: 0..<0).isEmpty)
    }

    /// A window near the start of a very tall text costs what it holds: the walk stops after it
    /// (the sink saw no line past the window's end plus what the segment it ended in gives).
    @Test func theWalkStopsAfterTheWindow() {
        let text = String(repeating: "word ", count: 200_000)
        let prepared = PreparedText(text)
        var sink = LineWindowSink(window: 10..<20)
        prepared.layOut(width: 20, into: &sink)
        #expect(sink.lines == Array(prepared.layout(width: 20).lines[10..<20]))
        #expect(sink.index <= 21, "stopped at the window's end, not after \(sink.index) lines")
    }
}
