import BubbleLayout
import BubbleSamples
import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal

/// A text message whose text is the app's note in the sender's place.
private struct StyledNote: TextMessageModel {
    var id: String
    var senderName: String? = "Theo"
    var direction: MessageDirection = .incoming
    var date: Date = may1
    var text: String
    var textStyle: MessageTextStyle
}

/// A notice in a person's bubble ("This message was deleted") is drawn dim and italic with colour
/// on and plainly with colour off, and the style never changes what is laid out or drawn around it.
@Suite struct NoticeStyleRenderTests {
    @Test func aNoticeIsDimItalicWithColourAndPlainWithout() throws {
        let notice = [StyledNote(id: "1", text: "This message was deleted.", textStyle: .notice)]
        let colour = try render(notice, width: 50, color: .palette256).text
        #expect(colour.contains("\u{1B}[2;3mThis message was deleted.\u{1B}[0m"))
        let plain = try render(notice, width: 50, parties: 2).text
        #expect(plain.contains("│ This message was deleted. │"))
        #expect(!plain.contains("\u{1B}"))
        // The sender's name is still drawn above it.
        #expect(plain.split(separator: "\n").contains("Theo"))
    }

    @Test func theStyleChangesNoGeometryOverRandomTexts() throws {
        var random = SeededGenerator(seed: 0x0DE1_E7ED)
        let words = ["deleted", "Missed", "voice", "call,", "Tap", "to", "call", "back", "😀", "日本語", "مرحبا", "a"]
        for trial in 0..<60 {
            let count = Int(random.next() % 14) + 1
            let text = (0..<count).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
            let width = Int(random.next() % 70) + 12
            let notice = try render([StyledNote(id: "n", text: text, textStyle: .notice)], width: width, color: .trueColor)
            let body = try render([StyledNote(id: "n", text: text, textStyle: .body)], width: width, color: .trueColor)
            #expect(notice.layouts == body.layouts, "trial \(trial)")
            #expect(notice.lines.map { $0.map(stripSGR) } == body.lines.map { $0.map(stripSGR) }, "trial \(trial)")
            for line in notice.lines.joined() { #expect(CellWidth.of(stripSGR(line)) <= width, "trial \(trial)") }
            let plainNotice = try render([StyledNote(id: "n", text: text, textStyle: .notice)], width: width)
            let plainBody = try render([StyledNote(id: "n", text: text, textStyle: .body)], width: width)
            #expect(plainNotice.lines == plainBody.lines, "trial \(trial)")
        }
    }
}
