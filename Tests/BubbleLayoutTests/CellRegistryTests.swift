import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubbleLayout

// A kind that exists only here: one model protocol, one cell subclass, one registration line.
protocol VoiceMessageModel: MessageModel {
    var duration: Double { get }
}

final class VoiceBubbleCell: BubbleCell, ConfigurableCell {
    var seconds = 0

    func configure(with model: any VoiceMessageModel) { seconds = Int(model.duration.rounded()) }
    static func previewText(of model: any VoiceMessageModel) -> String { "voice message" }
    override class var rowKind: RowKind { RowKind(rawValue: 16) }
    override class var kindName: String { "voice" }

    /// `▶ ` + a waveform of one cell per 5 seconds (2 to 20) + ` m:ss`: one line.
    override func measureContent<Sizing: TextSizing>(in frame: BubbleFrame, text: Sizing) -> ContentSize {
        let wave = min(20, max(2, seconds / 5))
        let clock = "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
        let width = min(frame.maxContentWidth, 2 + wave + 1 + clock.count)
        return ContentSize(width: width, textLines: 1, wrapWidth: frame.maxContentWidth)
    }
}

struct VoiceNote: VoiceMessageModel {
    var id: String
    var senderName: String? = "Carol"
    var direction = MessageDirection.incoming
    var date = Date(timeIntervalSince1970: 1_714_557_600)
    var duration: Double
}

@Suite struct CellRegistryTests {
    @Test func aKindAddedByOneRegistrationLineLaysOut() throws {
        var registry = CellRegistry.standard
        registry.register(VoiceBubbleCell.self)
        let engine = LayoutEngine(registry: registry)
        let layout = try layoutAlone(VoiceNote(id: "v1", duration: 42), width: 80, engine: engine)
        #expect(layout.kind == RowKind(rawValue: 16))
        #expect(layout.kind.name == "kind16")
        #expect(registry.name(of: layout.kind) == "voice")
        #expect(registry.name(of: .text) == "text" && registry.name(of: .image) == "image")
        #expect(registry.name(of: .system) == "system" && registry.name(of: .date) == "date")
        #expect(CellRegistry.standard.name(of: layout.kind) == "kind16")
        // "▶ " + 8 wave cells + " 0:42" = 15 content cells, plus border and padding.
        #expect(layout.bubbleWidth == max(15 + 4, 5 + 4))
        #expect(layout.height == 1 + 2 + 1)  // group spacing, two border rows, one content line
        #expect(try registry.configurator(for: VoiceNote(id: "v", duration: 1)).reuseIdentifier == "VoiceBubbleCell")
    }

    @Test func anUnregisteredKindThrowsAClearError() {
        let engine = LayoutEngine()
        #expect(throws: LayoutError.unregisteredKind(modelType: "VoiceNote", id: "v9")) {
            try layoutAlone(VoiceNote(id: "v9", duration: 3), width: 80, engine: engine)
        }
        #expect(throws: LayoutError.self) {
            try engine.layoutBatch([TextNote(id: "1", text: "hi"), VoiceNote(id: "v9", duration: 3)], widths: [80])
        }
        let message = LayoutError.unregisteredKind(modelType: "VoiceNote", id: "v9").description
        #expect(message.contains("\"v9\"") && message.contains("VoiceNote"))
    }

    @Test func reuseIdentifiersAreClassNames() {
        #expect(TextBubbleCell.reuseIdentifier == "TextBubbleCell")
        #expect(ImageBubbleCell.reuseIdentifier == "ImageBubbleCell")
        #expect(SystemNoticeCell.reuseIdentifier == "SystemNoticeCell")
        #expect(CellRegistry.standard.configurators.map(\.reuseIdentifier)
            == ["TextBubbleCell", "ImageBubbleCell", "SystemNoticeCell"])
    }

    @Test func cellsAreReusedFromThePoolNotMadePerMessage() throws {
        let engine = LayoutEngine()
        let pool = CellPool()
        for i in 0..<500 {
            let model: any MessageModel
            switch i % 3 {
            case 0: model = TextNote(id: "t\(i)", text: "message \(i)")
            case 1: model = Picture(id: "p\(i)", pixelWidth: i, pixelHeight: 100)
            default: model = Notice(id: "n\(i)", notice: "pin \(i)")
            }
            _ = try engine.layout(model, decoration: RowDecoration(), width: 60, pool: pool)
        }
        #expect(pool.cellsCreated == 3)
    }

    @Test func aRecycledCellForgetsItsMessage() {
        let cell = ImageBubbleCell()
        let configurator = CellConfigurator<ImageBubbleCell>()
        #expect(configurator.configure(cell, with: Picture(id: "p", pixelWidth: 10, pixelHeight: 5, caption: "c")))
        #expect(cell.caption == "c")
        cell.prepareForReuse()
        #expect(cell.caption == nil && cell.pixelWidth == nil)
        #expect(!configurator.configure(cell, with: TextNote(id: "t", text: "not an image")))
    }

    @Test func replyPreviewsComeFromTheRegisteredCell() {
        var previews = ReplyPreviews(capacity: 2)
        previews.record(TextNote(id: "1", text: "first line\nsecond"), registry: .standard)
        previews.record(Picture(id: "2", imageName: "cat.png"), registry: .standard)
        #expect(previews.quote(for: "1") == "↩ Alice: first line")
        #expect(previews.quote(for: "2") == "↩ Bob: [image] cat.png")
        previews.record(Notice(id: "3", notice: "Alice pinned"), registry: .standard)
        #expect(previews.quote(for: "1") == ReplyPreviews.unknownQuote)
        #expect(previews.quote(for: "3") == "↩ Alice pinned")
    }
}
