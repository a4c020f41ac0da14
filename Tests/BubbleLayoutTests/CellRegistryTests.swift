import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubbleLayout

@Suite struct CellRegistryTests {
    @Test func aKindAddedByOneRegistrationLineLaysOutWhatItShows() throws {
        var registry = CellRegistry.standard
        registry.register(VoiceBubbleCell.self)
        let engine = LayoutEngine(registry: registry)
        let note = VoiceNote(id: "v1", duration: 42)
        let shown = try registry.configurator(for: note).content(note)
        #expect(shown.text == VoiceBubbleCell.label(seconds: 42) && shown.image == nil)
        for width in [6, 12, 19, 30, 80] {
            let layout = try layoutAlone(note, width: width, engine: engine)
            // What is measured is the content the renderer draws: its lines at the layout's wrap
            // width, and the bubble as wide as its widest line (within the frame) plus chrome.
            #expect(layout.textLines == lines(shown.text!, width: layout.wrapWidth))
            #expect(layout.contentWidth(in: engine.style)
                    == min(max(1, widest(shown.text!, width: layout.wrapWidth)), layout.wrapWidth))
            #expect(layout.height == layout.spacingAbove + layout.chromeRows + layout.textLines)
        }
        let layout = try layoutAlone(note, width: 80, engine: engine)
        #expect(layout.kind == RowKind(named: "voice") && layout.kind.name == "voice")
        #expect(registry.name(of: layout.kind) == "voice")
        #expect(try registry.configurator(for: note).previewText(note) == "voice message")
    }

    @Test func aKindIsNamedOnceAndEveryOtherIdentityIsDerived() throws {
        #expect(RowKind.text.name == "text" && RowKind.image.name == "image")
        #expect(RowKind.system.name == "system" && RowKind.date.name == "date")
        #expect(RowKind(named: "voice") == RowKind(named: "voice") && RowKind(named: "voice") != .text)
        #expect(CellRegistry.standard.configurators.map(\.kind) == [.text, .image, .system])
        #expect(CellRegistry.standard.configurators.map(\.kindName) == ["text", "image", "system"])
        #expect(RowKind(named: TextBubbleCell.kindName) == .text && RowKind(named: VoiceBubbleCell.kindName).name == "voice")
        // A cell made outside any registry still lays out rows of its own kind.
        #expect(try layoutAlone(Picture(id: "p"), width: 40).kind == .image)
        // Registering a kind's name again replaces its cell, in place.
        var registry = CellRegistry.standard
        registry.register(RenamedTextCell.self)
        #expect(registry.configurators.count == 3)
        #expect(ObjectIdentifier(registry.configurators[0].cellType) == ObjectIdentifier(RenamedTextCell.self))
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

/// A subclass of the text cell: the same kind ("text"), so registering it replaces the text cell.
final class RenamedTextCell: TextBubbleCell {}

/// The batch path reads a message's content through its cell's `contentReader`, found once per
/// model type, instead of casting every message: it must read what `content(of:)` reads.
@Suite struct TypedBinderTests {
    static let models: [any MessageModel] = [
        TextNote(id: "t1", text: "hello there"), TextNote(id: "t2", direction: .outgoing, text: ""),
        Picture(id: "p1", pixelWidth: 640, pixelHeight: 480, imageName: "a.jpg", caption: "the sea"),
        Picture(id: "p2", pixelWidth: nil, pixelHeight: nil, imageName: "b.png", caption: ""),
        Notice(id: "n1", notice: "Alice joined"), VoiceNote(id: "v1", duration: 42),
    ]

    @Test func eachMessageBindsTheContentItsCellShowsByEitherPath() throws {
        var registry = CellRegistry.standard
        registry.register(VoiceBubbleCell.self)
        // One set of cells for every message, in an order that switches type and kind often.
        var readers = ContentReaders()
        for _ in 0..<2 {
            for model in Self.models + Self.models.reversed() {
                for (index, configurator) in registry.configurators.enumerated() {
                    let fast = readers.content(of: model, configurator: index, registry: registry)
                    let slow = configurator.rowContent(of: model)
                    #expect(fast?.content == slow?.content && fast?.direction == slow?.direction,
                            "configurator \(index) given \(type(of: model))")
                    #expect((fast != nil) == configurator.accepts(model))
                }
            }
        }
    }

    @Test func aReaderReadsOnlyTheTypeItWasMadeFor() {
        func read(_ reader: ContentReader?, _ model: some MessageModel) -> BubbleContent? { reader?.read(model) }
        let text = TextNote(id: "t", text: "hi"), picture = Picture(id: "p", pixelWidth: 4, pixelHeight: 3, imageName: "a.png", caption: "c")
        let textReader = TextBubbleCell.contentReader(for: TextNote.self)
        #expect(read(textReader, text) == TextBubbleCell.content(of: text))
        #expect(read(textReader, picture) == nil)
        #expect(read(ImageBubbleCell.contentReader(for: Picture.self), picture) == ImageBubbleCell.content(of: picture))
        #expect(read(SystemNoticeCell.contentReader(for: Notice.self), Notice(id: "n", notice: "x")) == BubbleContent(text: "x"))
    }

    @Test func onlyCellsWithAReaderSkipTheCast() {
        #expect(TextBubbleCell.contentReader(for: TextNote.self) != nil)
        #expect(ImageBubbleCell.contentReader(for: Picture.self) != nil)
        #expect(SystemNoticeCell.contentReader(for: Notice.self) != nil)
        #expect(TextBubbleCell.contentReader(for: Picture.self) == nil)
        #expect(VoiceBubbleCell.contentReader(for: VoiceNote.self) == nil)
    }
}
