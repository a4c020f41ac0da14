import BubbleSamples
import Testing
@testable import BubbleText

/// `PreparedText.line(atUTF8Offset:width:index:)`: the first line of the whole layout that ends
/// after an offset, with or without resume points, on random tall texts and widths.
@Suite struct PreparedTextLineAtOffsetTests {
    @Test func everyOffsetFindsTheFirstLineEndingAfterIt() {
        var random = SeededGenerator(seed: 0x0FF5_E737)
        for round in 0..<120 {
            let text = PreparedTextWindowTests.tallText(&random)
            let prepared = PreparedText(text, options: TextOptions(tabStop: 4 + round % 5))
            let width = Int.random(in: 1...60, using: &random)
            let whole = prepared.layout(width: width).lines
            let index = prepared.wrapIndex(width: width, spacing: Int.random(in: 1...30, using: &random))
            let count = text.utf8.count
            let offsets = Set((0..<40).map { _ in Int.random(in: 0...(count + 1), using: &random) } + [0, count - 1, count])
            for offset in offsets.sorted() {
                let line = whole.firstIndex { $0.utf8Range.upperBound > offset }
                let expected = line.map { ($0, whole[$0].utf8Range) }
                let plain = prepared.line(atUTF8Offset: offset, width: width)
                let indexed = prepared.line(atUTF8Offset: offset, width: width, index: index)
                #expect(plain?.line == expected?.0 && plain?.utf8Range == expected?.1, "round \(round), width \(width), offset \(offset)")
                #expect(indexed?.line == expected?.0 && indexed?.utf8Range == expected?.1,
                        "with resume points: round \(round), width \(width), offset \(offset)")
            }
        }
        let short = PreparedText("hello")
        #expect(short.line(atUTF8Offset: 3, width: 20)?.line == 0)
        #expect(short.line(atUTF8Offset: 5, width: 20) == nil)
    }
}
