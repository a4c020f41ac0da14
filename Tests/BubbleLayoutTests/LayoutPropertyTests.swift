import BubbleSamples
import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubbleLayout

@Suite struct LayoutPropertyTests {
    @Test func everyRowFitsItsContainerAndIsTheSumOfItsParts() throws {
        var generator = TimelineGenerator(random: SeededGenerator(seed: 2024))
        let style = BubbleStyle()
        for round in 0..<6 {
            let engine = LayoutEngine()
            let models = generator.timeline(count: 150)
            let widths = (0..<5).map { _ in generator.int(1...160) } + [round + 1]
            let batch = try engine.layoutBatch(models, widths: widths, options: options())
            var failures: [String] = []
            for (w, width) in widths.enumerated() {
                for (r, row) in batch.rows.enumerated() {
                    let layout = batch.layout(row: r, widthIndex: w)
                    let where_ = "width \(width) row \(r)"
                    if layout.bubbleWidth > width || layout.bubbleWidth < 1 {
                        failures.append("\(where_): bubble width \(layout.bubbleWidth) does not fit")
                    }
                    // x follows from the alignment: incoming hugs the left, outgoing the right, the rest centres.
                    let expectedX = switch layout.alignment {
                    case .left: 0
                    case .right: width - layout.bubbleWidth
                    case .center: (width - layout.bubbleWidth) / 2
                    }
                    if layout.x != expectedX {
                        failures.append("\(where_): bubble at \(layout.x), its \(layout.alignment) alignment puts it at \(expectedX)")
                    }
                    if layout.contentWidth(in: style) > layout.wrapWidth && layout.imageColumns == 0 && !row.isDateSeparator {
                        failures.append("\(where_): content wider than the wrap width")
                    }
                    let parts = layout.spacingAbove + (layout.parts.contains(.nameLine) ? 1 : 0)
                        + (layout.parts.contains(.topBorder) ? 1 : 0) + (layout.parts.contains(.replyQuote) ? 1 : 0)
                        + layout.imageRows + layout.textLines + (layout.parts.contains(.bottomBorder) ? 1 : 0)
                        + (layout.footer == .ownLine ? 1 : 0)
                    if layout.height != parts { failures.append("\(where_): height \(layout.height) ≠ parts \(parts)") }
                    if row.isDateSeparator { continue }
                    let model = models[row.messageIndex]
                    let text = (model as? TextNote)?.text ?? (model as? Notice)?.notice ?? (model as? Picture)?.caption
                    let expectedLines = text.map { $0.isEmpty && model is Picture ? 0 : lines($0, width: layout.wrapWidth) } ?? 0
                    if layout.textLines != expectedLines {
                        failures.append("\(where_): \(layout.textLines) text lines, engine says \(expectedLines)")
                    }
                    if layout.imageColumns > layout.contentWidth(in: style) {
                        failures.append("\(where_): image box wider than the bubble's content")
                    }
                    let alignment: RowAlignment = model is Notice ? .center : model.direction == .outgoing ? .right : .left
                    if layout.alignment != alignment { failures.append("\(where_): aligned \(layout.alignment)") }
                    if alignment == .right && layout.x + layout.bubbleWidth != width { failures.append("\(where_): not flush right") }
                    if alignment == .left && layout.x != 0 { failures.append("\(where_): not flush left") }
                }
            }
            #expect(failures.isEmpty, "\(failures.prefix(5))")
        }
    }
}
