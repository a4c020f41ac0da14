import BubbleFonts
import BubbleLayout
import Foundation
import Testing

// The getting-started article's example, compiled against the public API alone (no
// `@testable`): an app's own message type, a style of its own, a conversation in points over a
// font and one in terminal cells, their rows (date separators and messages) with their heights
// and frames, a rotation to a new width, and one message edited.

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

    /// A rectangle in points from a frame in LayoutUnits, as an app hands it to its views.
    struct Rect: Equatable { var x, y, width, height: Double }
    static func points(_ frame: RowFrame) -> Rect {
        Rect(x: Double(frame.x) / 64, y: Double(frame.y) / 64, width: Double(frame.width) / 64, height: Double(frame.height) / 64)
    }

    @Test func rowsInPoints() throws {
        let font = try OpenTypeFont(contentsOf: Self.fontPath)
        let measurer = PixelLayoutMeasurer(PixelMeasurer(chain: try FontChain(fonts: [font], size: 16)))
        var style = PixelStyle()
        style.horizontalPadding = 10
        style.maxWidthFraction = 0.8
        let conversation = Conversation(measurer: measurer, style: style, width: 375, options: Self.options)
        try conversation.append(contentsOf: Self.messages)
        let frames = (0..<conversation.rowCount).map { Self.points(conversation.frame(ofRow: $0)) }
        conversation.resize(width: 667)  // the phone turned
        let rotated = (0..<conversation.rowCount).map { Self.points(conversation.frame(ofRow: $0)) }
        try conversation.replace(ChatText(id: "2", senderName: nil, direction: .outgoing, date: Self.messages[1].date,
                                          text: "Yes! 12:30 at the usual place, by the window if we can, I'll book it."))

        // Two days: a date separator above each day's first message.
        #expect(conversation.rowCount == 5 && conversation.messageCount == 3)
        #expect((0..<5).map { conversation.messageIndex(ofRow: $0) } == [nil, 0, 1, nil, 2])
        #expect((0..<3).map { conversation.row(ofMessage: $0) } == [1, 2, 4])
        #expect(conversation.row(withID: "3") == 4)
        // Rows stack without gaps; incoming bubbles at the left, outgoing at the right, dates centred.
        for (row, frame) in frames.enumerated() {
            #expect(frame.height > 0)
            #expect(frame.y == frames[..<row].reduce(0) { $0 + $1.height })
        }
        #expect(frames[1].x == 0 && frames[4].x == 0)
        #expect(frames[2].x + frames[2].width == 375)
        #expect(abs((375 - frames[0].width) / 2 - frames[0].x) <= 1)
        #expect(frames[4].width <= 0.8 * 375)
        #expect(rotated[4].height < frames[4].height)  // the long message wraps to fewer lines when wider
        #expect(rotated[2].x + rotated[2].width == 667)
        conversation.resize(width: 375)
        #expect(conversation.textLines(ofRow: 2).count > 1)  // the edit wraps at 375
        #expect(conversation.height(ofRow: 2) > conversation.height(ofRow: 1))
        #expect(conversation.textLines(ofRow: 0).isEmpty)  // a date separator
        // Scrolling: the row at an offset.
        let top = conversation.frame(ofRow: 4).y
        #expect(conversation.row(atOffset: top) == 4 && conversation.row(atOffset: top - 1) == 3)
        #expect(conversation.totalHeight == top + conversation.height(ofRow: 4))

        // The style is the one laid out: 2 px less padding each side than the default.
        let plain = Conversation(measurer: measurer, width: 375, options: Self.options)
        try plain.append(contentsOf: Self.messages)
        #expect(Self.points(plain.frame(ofRow: 1)).width - frames[1].width == 4)
    }

    @Test func rowsInCells() throws {
        var style = BubbleStyle()
        style.horizontalPadding = 2
        let conversation = Conversation(width: 40, style: style, options: Self.options)
        try conversation.append(contentsOf: Self.messages)
        let rows = (0..<conversation.rowCount).map { conversation.height(ofRow: $0) }
        let outgoing = conversation.frame(ofRow: 2)
        conversation.resize(width: 100)
        try conversation.replace(ChatText(id: "3", senderName: "Alice", direction: .incoming, date: Self.messages[2].date,
                                          text: "Here now."))

        #expect(rows.count == 5 && rows.allSatisfy { $0 > 0 })
        #expect(outgoing.x + outgoing.width == 40)
        #expect(conversation.height(ofRow: 4) < rows[4])
        #expect(conversation.frame(ofRow: 2).x + conversation.frame(ofRow: 2).width == 100)
        #expect(conversation.totalHeight == (0..<5).reduce(0) { $0 + conversation.height(ofRow: $1) })
        let plain = Conversation(width: 40, options: Self.options)
        try plain.append(contentsOf: Self.messages)
        #expect(outgoing.width - plain.frame(ofRow: 2).width == 2)
    }
}
