import BubbleLayout
import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal

@Suite struct RowDrawingTests {
    static let utc = TimeZone(identifier: "UTC")!

    static var registry: CellRegistry {
        var registry = CellRegistry.standard
        registry.register(LocationBubbleCell.self)
        return registry
    }

    static var models: [any MessageModel] {
        [TextNote(id: "t1", text: "where are you?"),
         Location(id: "m1", place: "Brandenburger Tor, Pariser Platz"),
         TextNote(id: "t2", direction: .outgoing, replyToID: "m1", text: "on my way"),
         Picture(id: "p1", pixelWidth: 640, pixelHeight: 480, caption: "the gate"),
         Picture(id: "p2", pixelWidth: nil, pixelHeight: nil, caption: nil),
         Notice(id: "n1", notice: "Dana shared a location")]
    }

    /// The renderer draws the map box its cell describes, framed with the cell's icon and title,
    /// in the rows its cell measured, in either glyph set: the renderer knows nothing of maps.
    @Test(arguments: [14, 30, 80], [false, true])
    func aKindsOwnBoxIsDrawnAsItsCellDescribesIt(width: Int, ascii: Bool) throws {
        let engine = LayoutEngine(registry: Self.registry)
        let models = Self.models
        let rows = try engine.decorate(models, options: DecorationOptions(timeZone: Self.utc))
        var options = RenderOptions(width: width, asciiBorders: ascii, timeZone: Self.utc)
        options.colorDepth = .none
        var renderer = TranscriptRenderer(engine: engine, options: options)
        let drawn = renderer.render(models, rows: rows)
        let mapRow = try #require(rows.firstIndex { !$0.isDateSeparator && models[$0.messageIndex] is Location })
        let layout = try renderer.layout(of: rows[mapRow], model: models[rows[mapRow].messageIndex])
        let lines = drawn[mapRow]
        #expect(lines.count == layout.height)
        for line in lines { #expect(CellWidth.of(line) <= width) }
        let text = lines.joined(separator: "\n")
        // The box's frame, and its title when there is room for one (14 cells leave 10 for the map).
        #expect(text.contains(ascii ? "+" : "╭"))
        #expect(text.contains(ascii ? "[map] map" : "📍 map") || layout.imageColumns < 12)
        #expect(text.contains("Bran"))
        // The reply to it quotes what its cell previews (the place).
        #expect(drawn.joined().joined(separator: "\n").contains("Dana: B") || width < 20)
    }

    /// A row drawn from its record is the row drawn from the engine's layout, and the record
    /// carries the chrome's texts and the box its cell gives.
    @Test(arguments: [20, 60])
    func aRowIsDrawnFromItsRecordAlone(width: Int) throws {
        let engine = LayoutEngine(registry: Self.registry)
        let models = Self.models
        let rows = try engine.decorate(models, options: DecorationOptions(timeZone: Self.utc))
        let options = RenderOptions(width: width, timeZone: Self.utc)
        var fromRows = TranscriptRenderer(engine: engine, options: options)
        var fromRecords = TranscriptRenderer(engine: engine, options: options)
        for row in rows {
            let model = row.isDateSeparator ? nil : models[row.messageIndex]
            let layout = try fromRows.layout(of: row, model: model)
            let drawing = engine.drawing(of: row, model: model, layout: layout, keepingTexts: false)
            #expect(fromRecords.lines(for: drawing) == fromRows.lines(for: row, model: model, layout: layout))
            #expect(drawing.layout == layout)
            guard let model else {
                #expect(drawing.message == nil && drawing.dayLabel == row.day.label)
                continue
            }
            let message = try #require(drawing.message)
            #expect(message.id == model.id && message.senderName == model.senderName && message.replyToID == model.replyToID)
            #expect(message.footerWidth == row.decoration.footerWidth)
            #expect((drawing.text != nil) == (layout.textLines > 0))
            switch model {
            case let picture as Picture:
                #expect(drawing.box == ContentBox(picture: ImageContent(name: picture.imageName, pixelWidth: picture.pixelWidth,
                                                                        pixelHeight: picture.pixelHeight)))
                #expect((drawing.boxLabel != nil) == (picture.pixelWidth == nil))
            case is Location: #expect(drawing.box?.title == "map")
            default: #expect(drawing.box == nil && drawing.boxLabel == nil)
            }
        }
    }

    /// A tall row drawn in part from its record alone is the slice of the row drawn whole, and
    /// what is kept between parts follows the record's message and revision: two revisions of a
    /// message drawn in turn, each with its links' ids, never mix.
    @Test func aTallRowIsDrawnInPartFromItsRecordAlone() throws {
        let engine = LayoutEngine(registry: Self.registry)
        var options = RenderOptions(width: 40, colorDepth: .trueColor, timeZone: Self.utc)
        options.hyperlinks = true
        var records: [RowDrawing<PreparedText>] = []
        var whole: [[String]] = []
        for revision in 0..<2 {
            let words = (0..<400).map { $0 % 37 == 5 ? "https://example.com/r\(revision)/\($0)" : "word\($0 * (revision + 1))" }
            let model: any MessageModel = TextNote(id: "tall", revision: revision, text: words.joined(separator: " "))
            let rows = try engine.decorate([model], options: DecorationOptions(timeZone: Self.utc))
            let row = try #require(rows.first { !$0.isDateSeparator })
            var renderer = TranscriptRenderer(engine: engine, options: options)
            let layout = try renderer.layout(of: row, model: model)
            let drawing = engine.drawing(of: row, model: model, layout: layout, keepingTexts: false)
            #expect(drawing.message?.revision == revision)
            records.append(drawing)
            whole.append(renderer.lines(for: drawing))
            #expect(whole[revision].count == layout.height && layout.height > 40)
        }
        #expect(whole[0] != whole[1])
        var renderer = TranscriptRenderer(engine: engine, options: options)
        for low in stride(from: 0, to: whole[0].count + 5, by: 7) {
            for revision in [0, 1, 1, 0] {
                let high = low + 9
                let all = whole[revision]
                #expect(renderer.lines(for: records[revision], only: low..<high) == Array(all[min(low, all.count)..<min(high, all.count)]),
                        "revision \(revision), lines \(low)..<\(high)")
            }
        }
    }
}
