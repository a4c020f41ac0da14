import BubbleLayout
import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal

/// A poll: a kind that exists only in this test, added with one protocol, one cell and one
/// registration line, and drawn by the renderer through its cell's content.
protocol PollMessageModel: MessageModel {
    var question: String { get }
    var options: [String] { get }
}

struct Poll: PollMessageModel {
    var id: String
    var senderName: String? = "Carol"
    var direction = MessageDirection.incoming
    var date = Date(timeIntervalSince1970: 1_714_557_600)
    var question: String
    var options: [String]
}

final class PollBubbleCell: BubbleCell, ConfigurableCell {
    var text = ""

    static func label(of model: any PollMessageModel) -> String {
        "📊 " + model.question + "\n" + model.options.map { "○ " + $0 }.joined(separator: "\n")
    }

    func configure(with model: any PollMessageModel) { text = Self.label(of: model) }
    static func previewText(of model: any PollMessageModel) -> String { "📊 " + model.question }
    static func content(of model: any PollMessageModel) -> BubbleContent { BubbleContent(text: label(of: model)) }
    override class var rowKind: RowKind { RowKind(rawValue: 17) }
    override class var kindName: String { "poll" }

    override func measureContent<Sizing: TextSizing>(in frame: BubbleFrame, text sizing: Sizing) -> ContentSize {
        let metrics = sizing.metrics(of: text, part: 0, width: frame.maxContentWidth)
        return ContentSize(width: metrics.widestLine, textLines: metrics.lineCount, wrapWidth: frame.maxContentWidth)
    }
}

@Suite struct AddedKindRenderTests {
    @Test(arguments: [12, 30, 80])
    func aKindAddedByOneRegistrationDrawsItsCellsContentAtItsHeight(_ width: Int) throws {
        var registry = CellRegistry.standard
        registry.register(PollBubbleCell.self)
        let engine = LayoutEngine(registry: registry)
        let models: [any MessageModel] = [Poll(id: "p1", question: "Lunch?", options: ["Pizza", "Ramen 🍜"])]
        let rows = try engine.decorate(models, options: DecorationOptions(timeZone: TimeZone(identifier: "UTC")!))
        var renderer = TranscriptRenderer(engine: engine, options: RenderOptions(width: width, timeZone: TimeZone(identifier: "UTC")!))
        let drawn = renderer.render(models, rows: rows)
        for (row, lines) in zip(rows, drawn) {
            #expect(lines.count == (try renderer.layout(of: row, model: row.isDateSeparator ? nil : models[row.messageIndex])).height)
            for line in lines { #expect(CellWidth.of(line) <= width) }
        }
        let text = drawn.joined().joined(separator: "\n")
        #expect(text.contains("○ Pizza"))
        #expect(width < 20 || text.contains("📊 Lunch?"))
    }
}
