import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubbleLayout

/// A date separator drawn with a line of space below the label: a subclass replacing the
/// registry's date cell changes every separator row, on every path.
final class TallDateCell: DateSeparatorCell {
    override class func layout(kind: RowKind, content: BubbleContent, direction: MessageDirection,
                               decoration: RowDecoration, containerWidth: Int, style: BubbleStyle,
                               text: MeasureText) -> RowLayout {
        let row = super.layout(kind: kind, content: content, direction: direction, decoration: decoration,
                               containerWidth: containerWidth, style: style, text: text)
        return RowLayout(kind: row.kind, alignment: row.alignment, compactLevel: row.compactLevel, parts: row.parts,
                         footer: row.footer, spacingAbove: row.spacingAbove, x: row.x, bubbleWidth: row.bubbleWidth,
                         wrapWidth: row.wrapWidth, textLines: row.textLines + 1)
    }
}

@Suite struct BubbleCellTests {
    static let widths = [6, 14, 30, 80]

    static var models: [any MessageModel] {
        [TextNote(id: "t1", text: "where are you?"),
         Location(id: "l1", place: "Brandenburger Tor, Pariser Platz, Berlin"),
         Picture(id: "p1", pixelWidth: 640, pixelHeight: 480, caption: "the gate"),
         Notice(id: "n1", date: may1.addingTimeInterval(2 * 86_400), notice: "Dana shared a location"),
         Location(id: "l2", direction: .outgoing, date: may1.addingTimeInterval(2 * 86_400 + 60), place: "home")]
    }

    static func registry(tallDates: Bool = false) -> CellRegistry {
        var registry = CellRegistry.standard
        registry.register(LocationBubbleCell.self)
        if tallDates { registry.dateSeparatorCell = TallDateCell.self }
        return registry
    }

    /// Every path (one message, a decorated row, a batch through the cache, a one-pass stream,
    /// a conversation) runs the cell's override and so gives one layout.
    @Test(arguments: [false, true])
    func everyPathRunsTheKindsOverride(tallDates: Bool) throws {
        let models = Self.models
        let registry = Self.registry(tallDates: tallDates)
        let batch = try LayoutEngine(registry: registry).layoutBatch(models, widths: Self.widths, options: options())
        var stream = StreamingLayout(engine: LayoutEngine(registry: registry), widths: Self.widths, options: options())
        for model in models { stream.append(model) }
        let streamed = try stream.flush(final: true)
        #expect(streamed.layouts == batch.layouts)
        for (w, width) in Self.widths.enumerated() {
            let conversation = Conversation(width: width, registry: registry, options: options())
            try conversation.append(contentsOf: models)
            let single = LayoutEngine(registry: registry)
            var messageRow = 0
            for (r, row) in batch.rows.enumerated() {
                let layout = batch.layout(row: r, widthIndex: w)
                #expect(single.layout(row, in: models, width: width) == layout)
                guard let m = row.modelIndex else {
                    #expect(layout.kind == .date && layout.textLines == (tallDates ? 2 : 1))
                    #expect(conversation[message: messageRow].dateSeparator == layout)
                    continue
                }
                #expect(try single.layout(models[m], decoration: row.decoration, width: width) == layout)
                #expect(conversation[message: messageRow].layout == layout)
                messageRow += 1
                if models[m] is Location {
                    #expect(layout.kind.name == "location")
                    #expect(layout.imageColumns == min(LocationBubbleCell.widestMap, layout.wrapWidth))
                    #expect(layout.imageRows == max(1, layout.imageColumns / 2))
                    #expect(layout.height == layout.spacingAbove + layout.chromeRows + layout.imageRows + layout.textLines)
                }
            }
            #expect(messageRow == models.count)
        }
    }

    /// A cell's layout is a function of its input: the same content laid out again, in any
    /// order among other kinds, gives the same layout (no state is left in a cell).
    @Test func aCellKeepsNoStateBetweenRows() throws {
        let engine = LayoutEngine(registry: Self.registry())
        let models = Self.models
        let first = try models.map { try engine.layout($0, decoration: RowDecoration(), width: 30) }
        let fresh = LayoutEngine(registry: Self.registry())
        let again = try models.reversed().map { try fresh.layout($0, decoration: RowDecoration(), width: 30) }
        #expect(first == again.reversed())
    }

    /// The standard cells override what differs for their kind, and only that.
    @Test func theStandardKindsOverrideWhatDiffers() {
        let style = BubbleStyle()
        let frame = BubbleFrame(containerWidth: 40, style: style, drawsBubble: true)
        let measure: MeasureText = { text, _, width in PreparedText(text).measure(width: width) }
        let picture = BubbleContent(text: "caption", image: ImageContent(name: "a.png", pixelWidth: 400, pixelHeight: 300))
        let asText = TextBubbleCell.contentSize(of: picture, in: frame, text: measure)
        let asImage = ImageBubbleCell.contentSize(of: picture, in: frame, text: measure)
        #expect(asText.imageRows == 0 && asText.textLines == 1)
        #expect(asImage.imageRows > 0 && asImage.textLines == 1 && asImage.width >= asImage.imageColumns)
        #expect(TextBubbleCell.drawsBubble && ImageBubbleCell.drawsBubble)
        #expect(!SystemNoticeCell.drawsBubble && !DateSeparatorCell.drawsBubble)
        let notice = SystemNoticeCell.layout(kind: .system, content: BubbleContent(text: "pinned"), direction: .outgoing,
                                             decoration: RowDecoration(), containerWidth: 40, style: style, text: measure)
        #expect(notice.alignment == .center && notice.parts.contains(.rules) && notice.footer == .none)
    }
}
