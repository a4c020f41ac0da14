import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubbleLayout

@Suite struct LayoutPropertyTests {
    static let words = ["hi", "ok", "see you at 10", "a", "https://example.com/a/very/long/path?with=query",
                        "lorem ipsum dolor sit amet", "\n", "supercalifragilisticexpialidocious", "🙂", "日本語のテキスト"]

    func randomTimeline(_ rng: inout SeededGenerator, count: Int) -> [any MessageModel] {
        var models: [any MessageModel] = []
        var t = 1_714_557_600.0
        for i in 0..<count {
            t += Double(rng.next() % 3_000)
            let who = ["Alice", "Bob", "Me", "Dana"][Int(rng.next() % 4)]
            let out = who == "Me"
            let date = Date(timeIntervalSince1970: t)
            var text = ""
            for _ in 0..<Int(rng.next() % 30) { text += Self.words[Int(rng.next() % UInt64(Self.words.count))] + " " }
            switch rng.next() % 10 {
            case 0:
                models.append(Notice(id: "\(i)", date: date, notice: "\(who) " + text))
            case 1, 2:
                let known = rng.next() % 3 != 0
                models.append(Picture(id: "\(i)", senderName: who, direction: out ? .outgoing : .incoming, date: date,
                                      pixelWidth: known ? Int(rng.next() % 4000) : nil,
                                      pixelHeight: known ? Int(rng.next() % 4000) : nil,
                                      caption: rng.next() % 2 == 0 ? text : nil))
            default:
                models.append(TextNote(id: "\(i)", senderName: who, direction: out ? .outgoing : .incoming, date: date,
                                       status: out ? DeliveryStatus.allCases[Int(rng.next() % 5)] : nil,
                                       isEdited: rng.next() % 7 == 0,
                                       replyToID: rng.next() % 5 == 0 ? "\(max(0, i - 3))" : nil, text: text))
            }
        }
        return models
    }

    @Test func everyRowFitsItsContainerAndIsTheSumOfItsParts() throws {
        var rng = SeededGenerator(seed: 2024)
        let style = BubbleStyle()
        for round in 0..<6 {
            let engine = LayoutEngine()
            let models = randomTimeline(&rng, count: 150)
            let widths = (0..<5).map { _ in 1 + Int(rng.next() % 160) } + [round + 1]
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
