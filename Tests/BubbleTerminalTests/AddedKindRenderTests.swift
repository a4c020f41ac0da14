import BubbleLayout
import BubbleTestSupport
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
    static let kindName = "poll"

    static func content(of model: any PollMessageModel) -> BubbleContent {
        BubbleContent(text: "📊 " + model.question + "\n" + model.options.map { "○ " + $0 }.joined(separator: "\n"))
    }

    static func previewText(of model: any PollMessageModel) -> String { "📊 " + model.question }
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

    #if DEBUG
    /// What a row draws is what its cell measured; a layout that says otherwise (here, two text
    /// lines more than the content wraps to) stops a debug build instead of being padded over.
    @Test func aLayoutThatDisagreesWithItsContentStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            let engine = LayoutEngine()
            let models: [any MessageModel] = [TextNote(id: "1", text: "hi")]
            guard let rows = try? engine.decorate(models, options: DecorationOptions(timeZone: utc)),
                  let row = rows.first(where: { !$0.isDateSeparator }) else { return }
            var renderer = TranscriptRenderer(engine: engine, options: RenderOptions(width: 40, timeZone: utc))
            guard let good = try? renderer.layout(of: row, model: models[0]) else { return }
            let forged = RowLayout(kind: good.kind, alignment: good.alignment, compactLevel: good.compactLevel,
                                   parts: good.parts, footer: good.footer, spacingAbove: good.spacingAbove, x: good.x,
                                   bubbleWidth: good.bubbleWidth, wrapWidth: good.wrapWidth, textLines: good.textLines + 2)
            _ = renderer.lines(for: row, model: models[0], layout: forged)
        }
    }
    #endif

    /// The voice kind of the README's checklist: each row draws its layout's height, and the
    /// content line is the cell's label, whole when it fits.
    @Test(arguments: [8, 14, 24, 80])
    func theVoiceKindDrawsWhatItMeasured(_ width: Int) throws {
        var registry = CellRegistry.standard
        registry.register(VoiceBubbleCell.self)
        let engine = LayoutEngine(registry: registry)
        let models: [any MessageModel] = [VoiceNote(id: "v1", duration: 42), VoiceNote(id: "v2", duration: 185),
                                          TextNote(id: "t", replyToID: "v1", text: "nice")]
        let timeline = try render(models, width: width, engine: engine)
        for (layout, lines) in zip(timeline.layouts, timeline.lines) {
            #expect(lines.count == layout.height)
            for line in lines { #expect(CellWidth.of(stripSGR(line)) <= width) }
        }
        let label = VoiceBubbleCell.label(seconds: 42)
        let room = timeline.layouts[1].contentWidth(in: engine.style)
        #expect(CellWidth.of(label) > room || timeline.text.contains(label))
        #expect(timeline.layouts[1].kind.name == "voice")
    }
}
