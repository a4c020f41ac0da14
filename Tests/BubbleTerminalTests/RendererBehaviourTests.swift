import BubbleTestSupport
import BubbleLayout
import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal

@Suite struct RendererBehaviourTests {
    @Test func outgoingBubblesEndAtTheRightEdgeAndIncomingStartAtTheLeft() throws {
        let models: [any MessageModel] = [
            TextNote(id: "1", text: "hello"),
            TextNote(id: "2", senderName: "Me", direction: .outgoing, date: may1.addingTimeInterval(60),
                        text: "hi"),
        ]
        let out = try render(models, width: 50)
        let incoming = out.lines[1].filter { !$0.isEmpty }
        let outgoing = out.lines[2].filter { !$0.isEmpty }
        #expect(incoming.allSatisfy { $0.hasPrefix("╭") || $0.hasPrefix("│") || $0.hasPrefix("└") })
        #expect(outgoing.allSatisfy { CellWidth.of($0) == 50 })
    }

    @Test func footerTimesAreShownInTheChosenZone() throws {
        let engine = LayoutEngine()
        let models: [any MessageModel] = [TextNote(id: "1", status: .sent, text: "hi")]
        let rows = try engine.decorate(models, options: DecorationOptions(timeZone: utc))
        var renderer = TranscriptRenderer(
            engine: engine, options: RenderOptions(width: 40, timeZone: TimeZone(identifier: "Asia/Tokyo")!))
        let lines = try renderer.lines(for: rows[1], model: models[0])
        #expect(lines.last?.contains("19:00 ✓") == true)
    }

    @Test func repliesQuoteTheMessageOrSayItIsUnknown() throws {
        let models: [any MessageModel] = [
            TextNote(id: "1", senderName: "Alice", text: "first line\nsecond line"),
            TextNote(id: "2", senderName: "Bob", date: may1.addingTimeInterval(60), replyToID: "1",
                        text: "yes, a reply wide enough for the whole quote"),
            TextNote(id: "3", senderName: "Bob", date: may1.addingTimeInterval(120), replyToID: "zz",
                        text: "and a reply to a message nobody has seen"),
        ]
        let text = try render(models, width: 80).text
        // The quote is the first line only, and cut with an ellipsis where the bubble ends.
        #expect(text.contains("│ ↩ Alice: first line                          │"))
        #expect(text.contains("│ ↩ reply to a message                     │"))
        let narrow = try render(models, width: 30).text
        #expect(narrow.contains("│ ↩ Alice: first line  │"))
        #expect(narrow.contains("│ ↩ reply to a mess… │"))

        let engine = LayoutEngine()
        let rows = try engine.decorate(models, options: DecorationOptions(timeZone: utc))
        var renderer = TranscriptRenderer(engine: engine, options: RenderOptions(width: 80, timeZone: utc),
                                          replyPreview: { $0 == "zz" ? "Zed: from the archive" : nil })
        let drawn = renderer.render(models, rows: rows).flatMap { $0 }.joined(separator: "\n")
        #expect(drawn.contains("↩ Zed: from the archive"))
    }

    @Test func namesTakeTheSendersColourAndReadMarksAreColoured() throws {
        let models: [any MessageModel] = [
            TextNote(id: "1", senderName: "Alice", text: "hi"),
            TextNote(id: "2", senderName: "Bob", date: may1.addingTimeInterval(60), text: "yo"),
            TextNote(id: "3", senderName: "Me", direction: .outgoing, date: may1.addingTimeInterval(90),
                        status: .read, text: "ok"),
        ]
        let text = try render(models, width: 60, color: .trueColor).text
        let alice = SenderPalette().color(for: "Alice")
        #expect(text.contains("\u{1B}[38;2;\(alice.red);\(alice.green);\(alice.blue)mAlice\u{1B}[0m"))
        let read = TranscriptRenderer.readColor
        #expect(text.contains("\u{1B}[38;2;\(read.red);\(read.green);\(read.blue)m✓✓\u{1B}[0m"))
    }

    @Test func tailsCloseGroupsOnly() throws {
        let models: [any MessageModel] = [
            TextNote(id: "1", text: "one"),
            TextNote(id: "2", date: may1.addingTimeInterval(30), text: "two"),
        ]
        let out = try render(models, width: 40)
        #expect(out.lines[1].last?.hasPrefix("╰") == true)
        #expect(out.lines[2].last?.hasPrefix("└") == true)
    }

    @Test func imagesWithoutASizeShowOnlyTheirName() throws {
        let out = try render([Picture(id: "1", imageName: "scan.tiff")], width: 60).text
        #expect(out.contains("[image] scan.tiff"))
        #expect(!out.contains("×"))
    }
}
