import BubbleFonts
import BubbleLayout
import Foundation
import Testing

// The getting-started article's example, compiled against the public API alone (no
// `@testable`): an app's own message type, a conversation in points over a font and one in
// terminal cells, their heights, a rotation to a new width, and one message edited.

struct ChatText: TextMessageModel {
    let id: String
    let senderName: String?
    let direction: MessageDirection
    let date: Date
    let text: String
}

@Suite struct GettingStartedTests {
    static let fontPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Corpora/fonts/NotoSans-Subset.ttf").standardizedFileURL.path
    static let options = DecorationOptions(timeZone: TimeZone(identifier: "UTC")!)

    static var messages: [ChatText] {
        let start = Date(timeIntervalSince1970: 1_714_557_600)
        return [
            ChatText(id: "1", senderName: "Alice", direction: .incoming, date: start, text: "Are we still on for lunch?"),
            ChatText(id: "2", senderName: nil, direction: .outgoing, date: start + 60, text: "Yes! 12:30 at the usual place."),
            ChatText(id: "3", senderName: "Alice", direction: .incoming, date: start + 90_000,
                     text: "Running ten minutes late, order me the soup please, and a coffee for after."),
        ]
    }

    @Test func heightsInPoints() throws {
        let font = try OpenTypeFont(contentsOf: Self.fontPath)
        let measurer = PixelLayoutMeasurer(PixelMeasurer(chain: try FontChain(fonts: [font], size: 16)))
        let conversation = Conversation(measurer: measurer, width: 375, options: Self.options)
        try conversation.append(contentsOf: Self.messages)
        let points = (0..<conversation.count).map { Double(conversation.height(ofRow: $0)) / 64 }
        conversation.resize(width: 667)  // the phone turned
        let rotated = (0..<conversation.count).map { Double(conversation.height(ofRow: $0)) / 64 }
        try conversation.replace(ChatText(id: "2", senderName: nil, direction: .outgoing, date: Self.messages[1].date,
                                          text: "Yes! 12:30 at the usual place, by the window if we can, I'll book it."))

        #expect(points.count == 3 && points.allSatisfy { $0 > 0 })
        #expect(rotated[2] < points[2])  // the long message wraps to fewer lines when wider
        #expect(conversation.textLines(ofRow: 1).count > 1)  // the edit wraps
        // The conversation's heights are the batch's (what `heights --font` prints), row for row.
        var edited = Self.messages
        edited[1] = ChatText(id: "2", senderName: nil, direction: .outgoing, date: edited[1].date,
                             text: "Yes! 12:30 at the usual place, by the window if we can, I'll book it.")
        #expect(try Self.batchHeights(edited, measurer: measurer, width: 667) == conversation.totalHeight)
        conversation.resize(width: 375)
        #expect(try Self.batchHeights(edited, measurer: measurer, width: 375) == conversation.totalHeight)
        #expect(conversation.row(atOffset: conversation.offset(ofRow: 2)) == 2)
    }

    @Test func heightsInCells() throws {
        let conversation = Conversation(width: 40, options: Self.options)
        try conversation.append(contentsOf: Self.messages)
        let rows = (0..<conversation.count).map { conversation.height(ofRow: $0) }
        conversation.resize(width: 100)
        try conversation.replace(ChatText(id: "3", senderName: "Alice", direction: .incoming, date: Self.messages[2].date,
                                          text: "Here now."))

        #expect(rows.count == 3 && rows.allSatisfy { $0 > 0 })
        #expect(conversation.height(ofRow: 2) < rows[2])
        let batch = try LayoutEngine().layoutBatch(Array(Self.messages.prefix(2)) + [ChatText(
            id: "3", senderName: "Alice", direction: .incoming, date: Self.messages[2].date, text: "Here now.")],
            widths: [100], options: Self.options)
        #expect(batch.totalHeight(widthIndex: 0) == conversation.totalHeight)
    }

    /// The sum of the batch's rows in pixels at `width`, date separators included, in 1/64 px.
    static func batchHeights(_ messages: [ChatText], measurer: PixelLayoutMeasurer, width: Int) throws -> Int {
        let style = PixelStyle()
        let engine = LayoutEngine(measurer: measurer, style: style.bubbleStyle)
        let batch = try engine.layoutBatch(messages, widths: [width], options: options)
        var heights = PixelHeights(engine: engine, style: style)
        return (0..<batch.rowCount).reduce(0) { $0 + heights.row($1, of: batch, widthIndex: 0).height64 }
    }
}
