import BubbleSamples
import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubbleLayout

/// A cached layout is found only for the content it was made from, whatever ids and revisions the
/// messages carry (issue 10 §1).
@Suite struct ContentIdentityTests {
    let base = Date(timeIntervalSince1970: 1_714_557_600)

    let long = "this second message is much longer than the first one, so that it wraps onto several lines at any width under a hundred cells"

    @Test func twoMessagesWithOneIdInOneLogEachGetTheirOwnLayout() throws {
        let engine = LayoutEngine()
        let models: [any MessageModel] = [
            TextNote(id: "1", date: base, text: "hi"),
            TextNote(id: "1", senderName: "Bob", date: base.addingTimeInterval(3_600), text: long),
        ]
        let batch = try engine.layoutBatch(models, widths: [40, 80], options: options(parties: 2))
        for (r, row) in batch.rows.enumerated() where !row.isDateSeparator {
            let model = models[row.messageIndex] as! TextNote
            for (w, width) in batch.widths.enumerated() {
                let layout = batch.layout(row: r, widthIndex: w)
                #expect(layout == (try layoutAlone(model, width: width, decoration: row.decoration)))
                #expect(layout.textLines == lines(model.text, width: layout.wrapWidth))
            }
        }
        // Laid out again (all cached now), each still gets its own.
        #expect(try engine.layoutBatch(models, widths: [40, 80], options: options(parties: 2)).layouts == batch.layouts)
    }

    @Test func concatenatedExportsWhoseIdsRestartKeepEveryMessagesOwnHeight() throws {
        // Two exports of one chat whose ids both count from 1, read as one log (`cat a b`).
        let a: [TextNote] = (1...30).map { i in
            TextNote(id: "\(i)", senderName: i % 3 == 0 ? "Bob" : "Alice", date: base.addingTimeInterval(Double(i) * 60),
                     text: "first export, message \(i)")
        }
        let b: [TextNote] = (1...30).map { i in
            TextNote(id: "\(i)", senderName: i % 3 == 0 ? "Bob" : "Alice",
                     date: base.addingTimeInterval(86_400 + Double(i) * 60),
                     text: "second export, message \(i): " + String(repeating: "and it goes on ", count: i % 7))
        }
        let models: [any MessageModel] = a + b
        let engine = LayoutEngine()
        let batch = try engine.layoutBatch(models, widths: [36, 72], options: options(parties: 2))
        var checked = 0
        for (r, row) in batch.rows.enumerated() where !row.isDateSeparator {
            for (w, width) in batch.widths.enumerated() {
                let alone = try layoutAlone(models[row.messageIndex], width: width, decoration: row.decoration)
                #expect(batch.layout(row: r, widthIndex: w) == alone)
                checked += 1
            }
        }
        #expect(checked == 120)
    }

    @Test func aReplaceWithAnUnchangedRevisionLaysOutTheNewText() throws {
        let conversation = Conversation(width: 60, options: options(parties: 2))
        try conversation.append(TextNote(id: "a", revision: 1, isEdited: true, text: "short"))
        try conversation.append(TextNote(id: "b", senderName: "Bob", date: base.addingTimeInterval(60), text: "next"))
        let before = conversation.height(ofMessage: 0)
        // A second edit that a log can only call revision 1 again.
        let edited = TextNote(id: "a", revision: 1, isEdited: true, text: long)
        try conversation.replace(edited)
        let row = conversation[message: 0]
        #expect(row.layout == (try layoutAlone(edited, width: 60, decoration: row.decoration)))
        #expect(row.layout.textLines == lines(long, width: row.layout.wrapWidth))
        #expect(conversation.height(ofMessage: 0) > before)
        // And back: the short text again, still its own layout (here a cached one is right).
        try conversation.replace(TextNote(id: "a", revision: 1, isEdited: true, text: "short"))
        #expect(conversation.height(ofMessage: 0) == before)
        conversation.resize(width: 30)
        #expect(conversation[message: 0].layout == (try layoutAlone(TextNote(id: "a", revision: 1, isEdited: true, text: "short"),
                                                           width: 30, decoration: conversation[message: 0].decoration)))
    }

    @Test func aStampNamesOneContentAndIsNeverHandedOutForAnother() {
        let cache = LayoutCache(maxEntries: 64, shardCount: 1)
        func content(_ text: String, revision: Int = 0, direction: MessageDirection = .incoming) -> LayoutContent {
            LayoutContent(cell: ObjectIdentifier(TextBubbleCell.self), direction: direction, revision: revision,
                          body: BubbleContent(text: text))
        }
        let first = cache.stamp(id: "1", content: content("hi"))
        #expect(cache.stamp(id: "1", content: content("hi")) == first)
        // A copy of the text built separately is the same content.
        #expect(cache.stamp(id: "1", content: content(String("xhi".dropFirst()))) == first)
        var seen: Set<ContentStamp> = [first]
        for other in [content("hi!"), content("hi", revision: 1), content("hi", direction: .outgoing),
                      LayoutContent(cell: ObjectIdentifier(SystemNoticeCell.self), direction: .incoming, revision: 0,
                                    body: BubbleContent(text: "hi"))] {
            #expect(seen.insert(cache.stamp(id: "1", content: other)).inserted)
        }
        // Coming back to a content the cache has replaced gives a new stamp, not an old one.
        #expect(seen.insert(cache.stamp(id: "1", content: content("hi"))).inserted)
        // More ids than the cache remembers: stamps of forgotten contents are new, never reused.
        for i in 0..<1_000 { #expect(seen.insert(cache.stamp(id: "x\(i)", content: content("\(i)"))).inserted) }
        #expect(cache.statistics.contents <= 64)
    }

    /// A content's image is kept in a box (so a content is four words), but it is a value: copies
    /// change apart, and equal images are equal whatever box holds them.
    @Test func aContentsImageIsAValue() {
        let image = ImageContent(name: "a.jpg", pixelWidth: 4, pixelHeight: 3)
        let a = BubbleContent(text: "c", image: image)
        var b = a
        #expect(b == a && b.hashValue == a.hashValue)
        b.image?.pixelWidth = 8
        #expect(a.image == image && b.image?.pixelWidth == 8 && b != a)
        #expect(BubbleContent(text: "c", image: image) == a && BubbleContent(text: "c", image: image).hashValue == a.hashValue)
        b.image = nil
        #expect(b == BubbleContent(text: "c") && b != a)
        #expect(MemoryLayout<BubbleContent>.size <= 32)
    }

    /// A picture's label is not held inline in a record: it is kept whole, and compared whole.
    @Test func contentsBeyondATextAreComparedWhole() {
        let cache = LayoutCache(shardCount: 1)
        func picture(_ name: String, _ width: Int?) -> LayoutContent {
            LayoutContent(cell: ObjectIdentifier(ImageBubbleCell.self), direction: .incoming, revision: 0,
                          body: BubbleContent(text: "caption", image: ImageContent(name: name, pixelWidth: width,
                                                                                  pixelHeight: 10)))
        }
        let first = cache.stamp(id: "p", content: picture("a.jpg", 10))
        #expect(cache.stamp(id: "p", content: picture("a.jpg", 10)) == first)
        let wider = cache.stamp(id: "p", content: picture("a.jpg", 20))
        #expect(wider != first)
        #expect(cache.stamp(id: "p", content: picture("b.jpg", 20)) != wider)
        // The same caption without the picture is another content.
        let text = LayoutContent(cell: ObjectIdentifier(ImageBubbleCell.self), direction: .incoming, revision: 0,
                                 body: BubbleContent(text: "caption"))
        let caption = cache.stamp(id: "p", content: text)
        #expect(cache.stamp(id: "p", content: text) == caption)
        #expect(cache.stamp(id: "p", content: picture("b.jpg", 20)) != caption)
    }

    /// `decorate` stamps each message row once; laying the rows out reads the stamp, not the content,
    /// and rows decorated again from the same messages find the same layouts.
    @Test func decoratedRowsCarryTheirContentsStamp() throws {
        let engine = LayoutEngine()
        let models: [any MessageModel] = [
            TextNote(id: "1", date: base, text: "hi"),
            TextNote(id: "1", senderName: "Bob", date: base.addingTimeInterval(60), text: long),
        ]
        let rows = try engine.decorate(models, options: options(parties: 2))
        let messages = rows.filter { !$0.isDateSeparator }
        #expect(messages.allSatisfy { $0.stamp != .unused })
        // One id, two texts: two stamps.
        #expect(Set(messages.map(\.stamp)).count == 2)
        for row in messages {
            let layout = engine.layout(row, in: models, width: 40)
            #expect(layout == (try layoutAlone(models[row.messageIndex], width: 40, decoration: row.decoration)))
        }
        // A row from a decorator alone (no stamp) is stamped when laid out, and gets the same layout.
        let plain = try Decorator.decorate(models, options: options(parties: 2), registry: engine.registry,
                                           footerWidths: engine.footerWidths)
        #expect(plain == rows)
        #expect(plain.allSatisfy { $0.stamp == .unused })
        for row in plain where !row.isDateSeparator {
            #expect(engine.layout(row, in: models, width: 40)
                    == (try layoutAlone(models[row.messageIndex], width: 40, decoration: row.decoration)))
        }
    }

    @Test func aDeletedMessagesStampIsForgotten() {
        let cache = LayoutCache(shardCount: 1)
        let content = LayoutContent(cell: ObjectIdentifier(TextBubbleCell.self), direction: .incoming, revision: 0,
                                    body: BubbleContent(text: "hello"))
        let stamp = cache.stamp(id: "gone", content: content)
        cache.removeAll(id: "gone")
        #expect(cache.stamp(id: "gone", content: content) != stamp)
    }

    /// Random messages that share a handful of ids and revisions, laid out by one engine again and
    /// again (batch at several widths, then in a conversation edited in place): every layout equals a
    /// fresh engine's layout of that message alone with the same decoration.
    @Test func layoutsNeverCrossBetweenMessagesSharingIdsAndRevisions() throws {
        var rng = SeededGenerator(seed: 1010)
        let words = ["ok", "see you at ten", "日本語のテキスト", "👋🏽", "a somewhat longer message that wraps", "\u{202A}+51 989 383 357\u{202C}"]
        func randomText() -> String {
            (0...Int(rng.next() % 6)).map { _ in words[Int(rng.next() % UInt64(words.count))] }.joined(separator: " ")
        }
        func randomModel(_ n: Int) -> any MessageModel {
            let id = "\(rng.next() % 5)"
            let revision = Int(rng.next() % 2)
            let who = ["Alice", "Bob", "Me"][Int(rng.next() % 3)]
            let direction: MessageDirection = who == "Me" ? .outgoing : .incoming
            let date = base.addingTimeInterval(Double(n) * 90)
            switch rng.next() % 6 {
            case 0: return Notice(id: id, date: date, notice: randomText())
            case 1:
                return Picture(id: id, senderName: who, direction: direction, date: date,
                               pixelWidth: rng.next() % 2 == 0 ? nil : 100 + Int(rng.next() % 2_000),
                               pixelHeight: 100 + Int(rng.next() % 2_000), caption: rng.next() % 2 == 0 ? randomText() : nil)
            default:
                return TextNote(id: id, revision: revision, senderName: who, direction: direction, date: date,
                                isEdited: revision > 0, text: randomText())
            }
        }
        let engine = LayoutEngine(cache: LayoutCache(maxEntries: 4_096, shardCount: 4))
        var mismatches = 0, checked = 0
        for round in 0..<12 {
            let models = (0..<40).map { randomModel(round * 40 + $0) }
            let widths = [24 + round, 61, 100 - round]
            let batch = try engine.layoutBatch(models, widths: widths, options: options(parties: 2))
            for (r, row) in batch.rows.enumerated() where !row.isDateSeparator {
                for (w, width) in widths.enumerated() {
                    let alone = try layoutAlone(models[row.messageIndex], width: width, decoration: row.decoration)
                    if batch.layout(row: r, widthIndex: w) != alone { mismatches += 1 }
                    checked += 1
                }
            }
        }
        // A conversation replacing one message again and again, revisions repeating.
        let conversation = Conversation(engine: engine, width: 50, options: options(parties: 2))
        try conversation.append(TextNote(id: "0", text: "start"))
        try conversation.append(TextNote(id: "tail", senderName: "Bob", date: base.addingTimeInterval(30), text: "tail"))
        for step in 0..<200 {
            let model = TextNote(id: "0", revision: Int(rng.next() % 2), senderName: "Alice", text: randomText())
            try conversation.replace(model)
            if step % 50 == 49 { conversation.resize(width: 30 + step / 10) }
            let row = conversation[message: 0]
            if row.layout != (try layoutAlone(model, width: conversation.width, decoration: row.decoration)) { mismatches += 1 }
            checked += 1
        }
        #expect(checked > 1_500)
        #expect(mismatches == 0)
        #expect(engine.cache.statistics.hits > 0)
    }
}

extension ContentIdentityTests {
    /// The content record is per message, bounded, and small: what README states.
    @Test func theContentRecordIsSmallAndBounded() {
        let cache = LayoutCache(shardCount: 1)
        for i in 0..<100_000 {
            _ = cache.stamp(id: "\(i)", content: LayoutContent(cell: ObjectIdentifier(TextBubbleCell.self),
                                                                direction: .incoming, revision: 0,
                                                                body: BubbleContent(text: "text \(i)")))
        }
        let stats = cache.statistics
        let perMessage = Double(stats.contentBytes) / Double(stats.contents)
        print("content record: \(MemoryLayout<ContentStampTable.Record>.stride) bytes + index; \(perMessage) bytes a message at \(stats.contents) messages")
        #expect(stats.contents == 100_000)
        #expect(MemoryLayout<ContentStampTable.Record>.stride <= 64)
        #expect(perMessage <= 84)  // 76 when written: array growth and the index
        // Bounded: a cache of 1,000 entries remembers at most 1,000 contents.
        let small = LayoutCache(maxEntries: 1_000, shardCount: 1)
        for i in 0..<5_000 {
            _ = small.stamp(id: "\(i)", content: LayoutContent(cell: ObjectIdentifier(TextBubbleCell.self),
                                                                direction: .incoming, revision: 0, body: BubbleContent(text: nil)))
        }
        #expect(small.statistics.contents <= 1_000)
    }
}
