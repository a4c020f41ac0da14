import BubbleFonts
import BubbleLayout
import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing
@testable import BubblePictures

/// `PictureRowMaker`: each row's lines are the measurer's own lines of its text at the wrap width,
/// their heights add up to the row's text height, and making rows keeps no text in the engine's
/// store (a document's memory is bounded by a row, not by its length).
@Suite struct PictureRowTests {
    static let measurer: PixelLayoutMeasurer = {
        let fonts = ["NotoSans-Subset.ttf", "NotoSansHebrew-Subset.ttf", "NotoSansArabic-Subset.ttf", "NotoSansCJK-Subset.ttc",
                     "NotoColorEmoji-Subset.ttf"].map { name in
            try! OpenTypeFont(bytes: [UInt8](try! Data(contentsOf: URL(fileURLWithPath: corpus("fonts/" + name)))))
        }
        return PixelLayoutMeasurer(PixelMeasurer(chain: try! FontChain(fonts: fonts, size: 16), lineHeight: .normal))
    }()

    @Test(arguments: [180, 375])
    func rowsAreTheMeasurersLinesAndKeepNoText(width: Int) throws {
        let utc = TimeZone(identifier: "UTC")!
        let reader = try LogSource.open(path: corpus("logs/sample.jsonl"), options: LogReadOptions(timeZone: utc))
        let models: [any MessageModel] = reader.compactMap { $0.record }
        let style = PixelStyle()
        let engine = LayoutEngine(measurer: Self.measurer, style: style.bubbleStyle)
        let batch = try engine.layoutBatch(models, widths: [width], options: DecorationOptions(timeZone: utc))
        let before = engine.texts.count
        var maker = PictureRowMaker(engine: engine, style: style, timeZone: utc)
        var texts = 0
        for r in batch.rows.indices {
            let row = maker.row(r, of: batch)
            guard let text = row.text, row.kind != .date else { continue }
            texts += 1
            let prepared = Self.measurer.prepare(text)
            let expected = Self.measurer.layout(prepared, width: row.pixels.layout.wrapWidth)
            #expect(row.lines.count == min(expected.lines.count, row.pixels.layout.textLines), "\(row.id)")
            for (line, want) in zip(row.lines, expected.lines) { #expect(line.width == want.width, "\(row.id)") }
            let heights = Self.measurer.pixels.lineHeights64(of: prepared, width: row.pixels.layout.wrapWidth * 64)
            #expect(row.lines.map(\.height64) == Array(heights.prefix(row.lines.count)), "\(row.id)")
        }
        #expect(texts > 20)
        #expect(engine.texts.count == before, "the rows' texts are not kept in the engine's store")
    }
}
