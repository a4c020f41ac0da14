import BubbleSamples
import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubbleLayout

@Suite struct ConversationTests {
    let base = Date(timeIntervalSince1970: 1_714_557_600)  // 2024-05-01T10:00:00Z

    /// Heights, offsets, layouts and decorations of a from-scratch batch layout of `models`, one
    /// entry per message (a date separator folded into the message below it, as a conversation
    /// row holds it).
    struct Expected {
        var heights: [Int] = []
        var offsets: [Int] = []
        var layouts: [RowLayout] = []
        var separators: [RowLayout?] = []
        var decorations: [RowDecoration] = []
    }

    func batch(_ models: [any MessageModel], width: Int, options: DecorationOptions,
               registry: CellRegistry = .standard) throws -> Expected {
        let engine = LayoutEngine(registry: registry)
        let layout = try engine.layoutBatch(models, widths: [width], options: options)
        var expected = Expected()
        var offset = 0
        var pendingSeparator: RowLayout?
        for (r, row) in layout.rows.enumerated() {
            let l = layout.layout(row: r, widthIndex: 0)
            if row.isDateSeparator {
                pendingSeparator = l
                continue
            }
            expected.offsets.append(offset)
            expected.heights.append((pendingSeparator?.height ?? 0) + l.height)
            expected.layouts.append(l)
            expected.separators.append(pendingSeparator)
            expected.decorations.append(row.decoration)
            offset += (pendingSeparator?.height ?? 0) + l.height
            pendingSeparator = nil
        }
        return expected
    }

    func check<M>(_ conversation: Conversation<M>, against models: [any MessageModel], options: DecorationOptions,
                  registry: CellRegistry = .standard, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try batch(models, width: conversation.width, options: options, registry: registry)
        #expect(conversation.messageCount == models.count, sourceLocation: sourceLocation)
        #expect(conversation.models.map(\.id) == models.map(\.id), sourceLocation: sourceLocation)
        var mismatches = 0
        for i in 0..<models.count {
            let row = conversation[message: i]
            if conversation.height(ofMessage: i) != expected.heights[i] || conversation.offset(ofMessage: i) != expected.offsets[i]
                || row.layout != expected.layouts[i] || row.dateSeparator != expected.separators[i]
                || row.decoration != expected.decorations[i] { mismatches += 1 }
        }
        #expect(mismatches == 0, sourceLocation: sourceLocation)
        #expect(conversation.totalHeight == expected.heights.reduce(0, +), sourceLocation: sourceLocation)
    }

    /// A message of a random kind (the shared `TimelineGenerator`'s), `time` seconds from `base`.
    func randomMessage(_ id: Int, at time: Double, rng: inout SeededGenerator) -> any MessageModel {
        var generator = TimelineGenerator(random: rng)
        defer { rng = generator.random }
        return generator.message(id, date: base.addingTimeInterval(time))
    }

    /// Seconds to the next message: mostly inside the group gap, sometimes across it or a day.
    func gap(_ rng: inout SeededGenerator) -> Double {
        switch rng.next() % 10 {
        case 0: return 86_400
        case 1, 2: return 3_600
        default: return Double(30 + rng.next() % 200)
        }
    }

    func edited(_ model: any MessageModel, rng: inout SeededGenerator) -> any MessageModel {
        if var text = model as? TextNote {
            text.revision += 1
            text.isEdited = true
            text.text += rng.next() % 2 == 0 ? " (and more words to wrap onto another line)" : ""
            return text
        }
        return model
    }

    @Test(arguments: [nil, 3] as [Int?])
    func randomChangesMatchABatchLayoutOfTheFinalModels(parties: Int?) throws {
        var rng = SeededGenerator(seed: 2024)
        let options = options(parties: parties)
        let conversation = Conversation(width: 70, options: options)
        var models: [any MessageModel] = []
        var next = 0
        var first = 0.0, last = 0.0
        for step in 0..<400 {
            let roll = rng.next() % 100
            if roll < 40 || models.isEmpty {
                last += models.isEmpty ? 0 : gap(&rng)
                let model = randomMessage(next, at: last, rng: &rng)
                next += 1
                try conversation.append(model)
                models.append(model)
            } else if roll < 60 {
                first -= gap(&rng)
                let model = randomMessage(next, at: first, rng: &rng)
                next += 1
                try conversation.prepend(model)
                models.insert(model, at: 0)
            } else if roll < 80 {
                let i = Int(rng.next() % UInt64(models.count))
                let model = edited(models[i], rng: &rng)
                try conversation.replace(model)
                models[i] = model
            } else {
                let i = Int(rng.next() % UInt64(models.count))
                try conversation.remove(id: models[i].id)
                models.remove(at: i)
            }
            if step % 20 == 19 { try check(conversation, against: models, options: options) }
        }
        try check(conversation, against: models, options: options)
        conversation.resize(width: 33)
        try check(conversation, against: models, options: options)
    }

    /// Alice ×3, Bob ×2, me ×1, repeated, one minute apart, on one day.
    func groups(_ count: Int) -> [TextNote] {
        (0..<count).map { i in
            let cycle = i % 6
            let who = cycle < 3 ? "Alice" : cycle < 5 ? "Bob" : "Me"
            return TextNote(id: "m\(i)", senderName: who, direction: who == "Me" ? .outgoing : .incoming,
                            date: base.addingTimeInterval(Double(i) * minute), text: "message \(i)")
        }
    }

    @Test func eachChangeLaysOutOnlyTheRowsItAffects() throws {
        let options = options(parties: 2)
        let conversation = Conversation(width: 80, options: options)
        var models: [any MessageModel] = groups(12)
        try conversation.append(contentsOf: models)

        // An edit inside a group: only the edited row.
        var m7 = models[7] as! TextNote
        m7.revision += 1
        m7.isEdited = true  // a wider footer is the row's own decoration
        m7.text = "message 7, now much longer than before so that it wraps onto more lines than it did"
        try conversation.replace(m7)
        models[7] = m7
        #expect(conversation.lastLaidOut == ["m7"])

        // Deleting a group's middle row: nobody's decoration changes.
        try conversation.remove(id: "m1")
        models.remove(at: 1)
        #expect(conversation.lastLaidOut == [])

        // Deleting a group's last row: the row before it now closes the group (tail).
        try conversation.remove(id: "m4")
        models.removeAll { $0.id == "m4" }
        #expect(conversation.lastLaidOut == ["m3"])

        // Deleting a group's first row: the next row now opens it (name line).
        try conversation.remove(id: "m6")
        models.removeAll { $0.id == "m6" }
        #expect(conversation.lastLaidOut == ["m7"])

        // Appending to the last group: the new row, and the old last row loses its tail.
        let m12 = TextNote(id: "m12", senderName: "Me", direction: .outgoing, date: base.addingTimeInterval(11.5 * minute),
                           text: "more")
        try conversation.append(m12)
        models.append(m12)
        #expect(conversation.lastLaidOut == ["m12", "m11"])

        // Appending a new group (another sender): only the new row.
        let m13 = TextNote(id: "m13", senderName: "Bob", date: base.addingTimeInterval(12 * minute), text: "hi")
        try conversation.append(m13)
        models.append(m13)
        #expect(conversation.lastLaidOut == ["m13"])

        // Prepending on an earlier day: the new row; the old first row keeps its decoration, and
        // its date separator is no longer the first row (arithmetic, no message layout).
        let separatorBefore = conversation[message: 0].dateSeparator
        let m0 = TextNote(id: "early", senderName: "Bob", date: base.addingTimeInterval(-86_400), text: "yesterday")
        try conversation.prepend(m0)
        models.insert(m0, at: 0)
        #expect(conversation.lastLaidOut == ["early"])
        #expect(conversation[message: 1].dateSeparator != separatorBefore)
        #expect(conversation[message: 1].dateSeparator?.spacingAbove == BubbleStyle().groupSpacing)

        // Prepending the same sender within the gap on the same day: the old first row no longer
        // opens the group (it loses the name line and its separator).
        let m00 = TextNote(id: "earlier", senderName: "Bob", date: base.addingTimeInterval(-86_400 - minute), text: "x")
        try conversation.prepend(m00)
        models.insert(m00, at: 0)
        #expect(conversation.lastLaidOut == ["earlier", "early"])
        #expect(conversation[message: 1].dateSeparator == nil)

        try check(conversation, against: models, options: options)
    }

    @Test func namesAppearEverywhereWhenASecondOtherPartyJoins() throws {
        let options = options()  // parties counted
        let conversation = Conversation(width: 80, options: options)
        var models: [any MessageModel] = (0..<6).map { i in
            TextNote(id: "a\(i)", senderName: "Alice", date: base.addingTimeInterval(Double(i) * 10 * minute), text: "hi")
        }
        try conversation.append(contentsOf: models)
        #expect((0..<6).allSatisfy { !conversation[message: $0].decoration.showsName })
        let bob = TextNote(id: "b", senderName: "Bob", date: base.addingTimeInterval(70 * minute), text: "me too")
        try conversation.append(bob)
        models.append(bob)
        // Each of Alice's rows opens a group (10 minutes apart), so all gain the name line.
        #expect(Set(conversation.lastLaidOut) == Set(models.map(\.id)))
        try check(conversation, against: models, options: options)
        try conversation.remove(id: "b")
        models.removeLast()
        #expect(Set(conversation.lastLaidOut) == Set(models.map(\.id)))
        try check(conversation, against: models, options: options)
    }

    @Test func resizingDoesNoUnicodeWork() throws {
        let measurer = CountingMeasurer()
        let engine = LayoutEngine(measurer: measurer)
        let options = options(parties: 3)
        let conversation = Conversation(engine: engine, width: 80, options: options)
        var rng = SeededGenerator(seed: 77)
        var models: [any MessageModel] = []
        var time = 0.0
        for i in 0..<300 {
            time += gap(&rng)
            models.append(randomMessage(i, at: time, rng: &rng))
        }
        try conversation.append(contentsOf: models)
        let work = measurer.unicodeWork
        let computed = conversation.layoutsComputed
        for width in [20, 45, 120, 7, 80] {
            conversation.resize(width: width)
            try check(conversation, against: models, options: options)
        }
        #expect(measurer.unicodeWork == work)
        // Four new widths miss; back at 80 every layout is a hit.
        #expect(conversation.layoutsComputed - computed == 4 * models.count)
        // Besides the messages' texts, each day's label was prepared once, when its day came.
        let days = (0..<conversation.messageCount).filter { conversation[message: $0].dateSeparator != nil }.count
        #expect(engine.texts.preparations + days == measurer.count)
    }

    @Test func aLargeConversationResizesOnAllCoresToTheBatchResult() throws {
        let options = options(parties: 3)
        let conversation = Conversation(width: 60, options: options)
        var generator = TimelineGenerator(random: SeededGenerator(seed: 5))
        let models = generator.timeline(count: 3 * Conversation<CellMeasurer>.rowsPerWorker)
        try conversation.append(contentsOf: models)
        conversation.resize(width: 91)
        try check(conversation, against: models, options: options)
    }

    @Test func viewportQueriesAgreeWithTheHeights() throws {
        let conversation = Conversation(width: 50, options: options(parties: 2))
        try conversation.append(contentsOf: groups(40) as [any MessageModel])
        var top = 0
        var rowTops: [Int] = []
        for i in 0..<conversation.messageCount {
            rowTops.append(top)
            top += conversation.height(ofMessage: i)
        }
        #expect(top == conversation.totalHeight)
        for y in stride(from: -3, to: top + 3, by: 1) {
            let naive = rowTops.lastIndex { $0 <= y }.flatMap { y < top ? $0 : nil }
            #expect(conversation.message(atOffset: y) == (y < 0 ? nil : naive))
        }
        for y in stride(from: 0, to: top, by: 7) {
            let range = conversation.messages(inViewportAt: y, height: 24)
            let naive = (0..<conversation.messageCount).filter { i in
                rowTops[i] < y + 24 && rowTops[i] + conversation.height(ofMessage: i) > y
            }
            #expect(Array(range) == naive)
        }
        #expect(conversation.index(ofID: "m17") == 17)
        try conversation.remove(id: "m3")
        #expect(conversation.index(ofID: "m17") == 16 && conversation.index(ofID: "m3") == nil)
    }

    @Test func badChangesAreRefusedWithAClearError() throws {
        let conversation = Conversation(width: 80)
        try conversation.append(TextNote(id: "a", text: "hi"))
        #expect(throws: ConversationError.duplicateID("a")) { try conversation.append(TextNote(id: "a", text: "again")) }
        #expect(throws: ConversationError.duplicateID("a")) { try conversation.prepend(TextNote(id: "a", text: "again")) }
        #expect(throws: ConversationError.unknownID("zz")) { try conversation.remove(id: "zz") }
        #expect(throws: ConversationError.unknownID("zz")) { try conversation.replace(TextNote(id: "zz", text: "?")) }
        #expect(throws: ConversationError.layout(.unregisteredKind(modelType: "VoiceNote", id: "v"))) {
            try conversation.append(VoiceNote(id: "v", duration: 3))
        }
        #expect(conversation.messageCount == 1)
        #expect(ConversationError.unknownID("zz").description.contains("\"zz\""))
    }
}
