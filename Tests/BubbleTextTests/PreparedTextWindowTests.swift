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
            let index = prepared.wrapIndex(width: width, spacing: Int.random(in: 1...30, using: &random))
            #expect(index.lineCount == whole.count)
            for _ in 0..<8 {
                let low = Int.random(in: 0...(whole.count + 2), using: &random)
                let high = low + Int.random(in: 0...40, using: &random)
                let expected = Array(whole[min(low, whole.count)..<min(high, whole.count)])
                #expect(prepared.lines(width: width, in: low..<high) == expected, "round \(round), width \(width), \(low)..<\(high)")
                #expect(prepared.lines(width: width, in: low..<high, index: index) == expected,
                        "with resume points: round \(round), width \(width), \(low)..<\(high)")
            }
            // The walk from every resume point gives the whole layout's lines from there.
            for point in index.points {
                var sink = LineWindowSink(window: point.line..<(point.line + 6), firstIndex: point.line)
                prepared.layOut(width: width, from: point, into: &sink)
                #expect(sink.lines == Array(whole[point.line..<min(whole.count, point.line + 6)]), "round \(round), from line \(point.line)")
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

    /// Resume points come every `spacing` lines or so, in a text of words and in one of a single
    /// long word (which can be resumed only at its start), and an index made at another width is
    /// not used.
    @Test func resumePointsAreSpacedAndBelongToTheirWidth() {
        let words = PreparedText(String(repeating: "word ", count: 20_000))
        let index = words.wrapIndex(width: 20, spacing: 100)
        #expect(index.lineCount == words.measure(width: 20).lineCount)
        #expect(index.points.count >= index.lineCount / 100 - 1 && index.points.count <= index.lineCount / 100 + 1, "\(index.points.count)")
        #expect(zip(index.points, index.points.dropFirst()).allSatisfy { $1.line - $0.line >= 100 })
        #expect(words.lines(width: 30, in: 500..<510, index: index) == Array(words.layout(width: 30).lines[500..<510]))
        let word = PreparedText(String(repeating: "a", count: 100_000))
        let single = word.wrapIndex(width: 10, spacing: 100)
        #expect(single.lineCount == 10_000 && single.points.count == 1)
        #expect(word.lines(width: 10, in: 9_990..<10_000, index: single) == Array(word.layout(width: 10).lines[9_990..<10_000]))
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
