import BubbleLayout
import BubbleText
import BubbleTestSupport
import Foundation
import Testing
@testable import BubbleTerminal

/// `RenderOptions.keepsPreparedTexts`: a one-pass transcript (laid out without remembering, as
/// `bubbles render` does) keeps nothing per message in the engine's prepared-text store, so its
/// memory does not grow with the messages drawn; the lines are the same either way.
@Suite struct PreparedTextKeepingTests {
    func draw(_ models: [any MessageModel], keeps: Bool) throws -> (lines: [[String]], kept: Int, bytes: Int) {
        let engine = LayoutEngine()
        let rows = try engine.decorate(models, options: DecorationOptions(timeZone: utc))
        var options = RenderOptions(width: 40, timeZone: utc)
        options.keepsPreparedTexts = keeps
        var renderer = TranscriptRenderer(engine: engine, options: options)
        let layouts = engine.layoutRows(rows, of: models, widths: [40], remembering: false)
        let lines = zip(rows, layouts).map { row, layout in
            renderer.lines(for: row, model: row.isDateSeparator ? nil : models[row.messageIndex], layout: layout)
        }
        return (lines, engine.texts.count, engine.texts.bytes)
    }

    @Test func aOnePassTranscriptKeepsNoPreparedText() throws {
        let models: [any MessageModel] = (0..<500).map { n in
            TextNote(id: "m\(n)", text: n % 3 == 0 ? "x" : "message \(n) with a few words to wrap at forty cells wide")
        }
        let kept = try draw(models, keeps: true)
        let dropped = try draw(models, keeps: false)
        #expect(dropped.lines == kept.lines)
        // Kept: one entry a message drawn; not kept: none at all.
        #expect(kept.kept == 500 && kept.bytes > 0)
        #expect(dropped.kept == 0 && dropped.bytes == 0)
    }
}
