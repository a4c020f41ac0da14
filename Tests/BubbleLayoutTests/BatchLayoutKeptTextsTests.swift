import BubbleLayout
import BubbleSamples
import BubbleTestSupport
import BubbleText
import Foundation
import Testing

/// A layout that keeps its texts (`StreamingLayout.keepingTexts`) lays every row out as one that
/// does not, and hands on each text prepared and broken into exactly the lines its measurer makes
/// at the row's wrap width, so a writer need not prepare or break it again.
@Suite struct BatchLayoutKeptTextsTests {
    static let widths = [17, 40, 80]

    /// Every row's layouts at each width, and the kept texts, streamed with a flush wherever `cut` says.
    static func stream(_ models: [any MessageModel], keeping: Bool, cut: (Int) -> Bool) throws
        -> (layouts: [[RowLayout]], kept: [[KeptTexts<PreparedText>?]], texts: [String?]) {
        let engine = LayoutEngine()
        var layout = StreamingLayout(engine: engine, widths: widths, options: DecorationOptions(timeZone: TimeZone(identifier: "UTC")!),
                                     remembering: false, keepingTexts: keeping)
        var layouts: [[RowLayout]] = [], kept: [[KeptTexts<PreparedText>?]] = [], texts: [String?] = []
        func take(_ batch: BatchLayout) {
            for r in batch.rows.indices {
                layouts.append(widths.indices.map { batch.layout(row: r, widthIndex: $0) })
                kept.append(widths.indices.map { batch.keptTexts(row: r, widthIndex: $0, as: PreparedText.self) })
                texts.append(batch.rows[r].modelIndex.map { (batch.models[$0] as! ChatNote).text })
            }
        }
        for (i, model) in models.enumerated() {
            layout.append(model)
            if cut(i) { take(try layout.flush()) }
        }
        take(try layout.flush(final: true))
        return (layouts, kept, texts)
    }

    @Test func keptTextsAreTheMeasurersLinesAtTheWrapWidth() throws {
        var rng = SeededGenerator(seed: 11)
        let models = StreamingLayoutTests.randomNotes(&rng, count: 500, conversation: nil, idPrefix: "k")
        var cuts = SeededGenerator(seed: 3)
        let plain = try Self.stream(models, keeping: false) { _ in Int.random(in: 0..<50, using: &cuts) == 0 }
        let keeping = try Self.stream(models, keeping: true) { _ in Int.random(in: 0..<50, using: &cuts) == 0 }
        #expect(keeping.layouts == plain.layouts, "keeping the texts changes no layout")
        #expect(plain.kept.allSatisfy { $0.allSatisfy { $0 == nil } }, "a layout that does not keep its texts hands none on")
        let measurer = LayoutEngine().texts.measurer
        var checked = 0
        for (row, text) in keeping.texts.enumerated() {
            for w in Self.widths.indices {
                let layout = keeping.layouts[row][w]
                let kept = try #require(keeping.kept[row][w])
                guard let text, layout.textLines > 0 else {
                    #expect(kept.text == nil || text == nil)
                    continue
                }
                let keptText = try #require(kept.text, "row \(row) at \(Self.widths[w])")
                #expect(keptText.width == layout.wrapWidth)
                #expect(keptText.lines == measurer.layout(measurer.prepare(text), width: layout.wrapWidth))
                #expect(keptText.lines.lineCount == layout.textLines)
                #expect(kept.label == nil, "a text message has no image label")
                checked += 1
            }
        }
        #expect(checked > 1000)
    }
}
