import BubbleSamples
import BubbleTestSupport
import Foundation
import Testing
@testable import BubbleFonts
@testable import BubbleLayout

/// A conversation's rows in pixels (LayoutUnits) are the batch layout's rows with the pixel
/// heights `heights --font` prints: each row's frame, the row ↔ message mapping and the row at
/// an offset kept right under random appends, prepends, edits, removals and resizes, checked
/// after every change against a batch layout of the messages from scratch and a linear scan.
@Suite struct PixelConversationRowsTests {
    static let options = DecorationOptions(timeZone: TimeZone(identifier: "UTC")!)

    /// Rows of `models` at `width` px recomputed from scratch: the batch's rows, their heights
    /// from `PixelHeights` (what `heights --font` prints), their bubbles' edges in LayoutUnits from
    /// the row's alignment (a bubble widened to the style's least width grows away from its edge).
    static func naiveRows(_ models: [any MessageModel], width: Int, measurer: PixelLayoutMeasurer,
                          style: PixelStyle) throws -> [NaiveRow] {
        let engine = LayoutEngine(measurer: measurer, style: style.bubbleStyle)
        let batch = try engine.layoutBatch(models, widths: [width], options: options)
        var heights = PixelHeights(engine: engine, style: style)
        return batch.rows.indices.map { r in
            let layout = batch.layout(row: r, widthIndex: 0)
            let pixels = heights.row(r, of: batch, widthIndex: 0)
            let left = layout.alignment == .right ? layout.x + layout.bubbleWidth - pixels.bubbleWidth : layout.x
            return NaiveRow(messageIndex: batch.rows[r].modelIndex, height: pixels.height64, left: left * 64,
                            right: (left + pixels.bubbleWidth) * 64, alignment: layout.alignment)
        }
    }

    @Test(arguments: [(1, LineHeight.normal), (2, .factor(1.4)), (3, .normal)] as [(UInt64, LineHeight)])
    func framesFollowRandomEditsInPoints(seed: UInt64, lineHeight: LineHeight) throws {
        let measurer = try PixelLayoutTests.measurer(lineHeight: lineHeight)
        var style = PixelStyle()
        if seed == 3 {
            style.horizontalPadding = 6
            style.minimumWidth = 120
            style.maxWidthFraction = 0.6
            style.groupSpacing = 20
        }
        let conversation = Conversation(measurer: measurer, style: style, width: 375, options: Self.options)
        var edits = ConversationEdits(random: SeededGenerator(seed: seed))
        for step in 0..<100 {
            try edits.step(conversation, widths: [240, 320, 375, 667, 1024])
            let naive = try Self.naiveRows(edits.models, width: conversation.width, measurer: measurer, style: style)
            let problems = edits.check(conversation, against: naive)
            #expect(problems.isEmpty, "seed \(seed), step \(step): \(problems.prefix(5))")
            if !problems.isEmpty { break }
        }
    }

    /// Incoming bubbles start at the left edge, outgoing ones end at the right, date separators
    /// are centred: in LayoutUnits, at each width.
    @Test func bubblesSitAtTheirEdges() throws {
        let measurer = try PixelLayoutTests.measurer(lineHeight: .normal)
        let conversation = Conversation(measurer: measurer, width: 375, options: Self.options)
        let base = Date(timeIntervalSince1970: 1_714_557_600)
        try conversation.append(TextNote(id: "a", direction: .incoming, date: base, text: "Hi"))
        try conversation.append(TextNote(id: "b", senderName: nil, direction: .outgoing, date: base + 60, text: "Hello there"))
        for width in [375, 500] {
            conversation.resize(width: width)
            let date = conversation.frame(ofRow: 0), incoming = conversation.frame(ofRow: 1), outgoing = conversation.frame(ofRow: 2)
            #expect(incoming.x == 0 && incoming.width >= PixelStyle().minimumWidth * 64)
            #expect(outgoing.x + outgoing.width == width * 64)
            #expect(abs(2 * date.x + date.width - width * 64) <= 64)
        }
    }
}
