import BubbleLayout
import BubbleSamples
import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal

/// `TranscriptRenderer.lines(for:…only:)`: a row drawn in part (the viewer's page of a message
/// taller than the screen) gives exactly the lines of the whole row drawn, at any window, on
/// random tall texts (long words, web addresses, styled spans, tabs, breaks) and widths, in
/// bubbles and notices, with colour and links on and off.
@Suite struct TranscriptRendererWindowTests {
    struct Styled: TextMessageModel {
        var id: String
        var senderName: String? { "Ann" }
        var direction: MessageDirection
        var date: Date { may1 }
        var text: String
        var textSpans: [TextSpan]
    }

    static let pieces = ["hello", "world", "chat", "https://example.com/a/b?c=d", "www.example.org/path", "naïve", "e\u{301}",
                         "漢字かな", "Привет", "—", "…", "\t", "1,234.56", "https://x.test/" + String(repeating: "long", count: 30)]

    static func text(_ random: inout SeededGenerator) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 20...400, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: text += String(repeating: "abcdefghij", count: Int.random(in: 1...30, using: &random))
            case 1: text += "\n"
            default: text += pieces.randomElement(using: &random)!
            }
            text += Int.random(in: 0..<8, using: &random) == 0 ? "\n" : " "
        }
        return text
    }

    static func spans(of text: String, _ random: inout SeededGenerator) -> [TextSpan] {
        let count = text.utf8.count
        guard count > 2 else { return [] }
        var spans: [TextSpan] = []
        var start = 0
        let styles: [TextSpanStyle] = [.bold, .italic, .code, .underline]
        while start < count - 1 && spans.count < 40 {
            start += Int.random(in: 1...max(1, count / 20), using: &random)
            let end = min(count, start + Int.random(in: 1...200, using: &random))
            if start < end { spans.append(TextSpan(start: start, end: end, style: styles.randomElement(using: &random)!)) }
            start = end
        }
        return spans
    }

    @Test func everyWindowOfARowIsTheSliceOfTheWholeRow() throws {
        var random = SeededGenerator(seed: 0x7A11_0637)
        for round in 0..<60 {
            let text = Self.text(&random)
            let width = Int.random(in: 8...90, using: &random)
            let models: [any MessageModel] = round % 5 == 4
                ? [Notice(id: "n", notice: text)]
                : [Styled(id: "m", direction: round % 2 == 0 ? .incoming : .outgoing, text: text, textSpans: Self.spans(of: text, &random))]
            let engine = LayoutEngine()
            let rows = try engine.decorate(models, options: DecorationOptions(timeZone: utc))
            var options = RenderOptions(width: width, colorDepth: round % 3 == 0 ? .none : .trueColor, timeZone: utc)
            options.hyperlinks = round % 3 != 1
            options.bidi = round % 4 == 0 ? .logical : .visual
            for row in rows where !row.isDateSeparator {
                let layout = engine.layout(row, in: models, width: width)
                var whole = TranscriptRenderer(engine: engine, options: options)
                let all = whole.lines(for: row, model: models[row.messageIndex], layout: layout)
                #expect(all.count == layout.height)
                var renderer = TranscriptRenderer(engine: engine, options: options)
                for _ in 0..<10 {
                    let low = Int.random(in: 0...(layout.height + 3), using: &random)
                    let high = low + Int.random(in: 0...30, using: &random)
                    let part = renderer.lines(for: row, model: models[row.messageIndex], layout: layout, only: low..<high)
                    let expected = Array(all[min(low, all.count)..<min(high, all.count)])
                    #expect(part == expected, "round \(round), width \(width), lines \(low)..<\(high) of \(all.count)")
                }
                #expect(renderer.lines(for: row, model: models[row.messageIndex], layout: layout, only: 0..<layout.height) == all)
            }
        }
    }
}
