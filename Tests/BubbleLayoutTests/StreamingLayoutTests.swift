import BubbleLayout
import BubbleSamples
import BubbleTestSupport
import BubbleText
import Foundation
import Testing

/// A text message in a named conversation (NameRuleTests use it too).
struct ChatNote: TextMessageModel {
    var note: TextNote
    var conversationID: String?
    var id: String { note.id }
    var senderName: String? { note.senderName }
    var direction: MessageDirection { note.direction }
    var date: Date { note.date }
    var status: DeliveryStatus? { note.status }
    var isEdited: Bool { note.isEdited }
    var replyToID: String? { note.replyToID }
    var text: String { note.text }
}

/// Streaming layout decides each row from its conversation's next message at most (and names
/// from its first 32), so where the stream is cut into windows never changes a row, and
/// conversations never touch each other.
@Suite struct StreamingLayoutTests {
    static let widths = [17, 40, 80]

    static func randomNotes(_ rng: inout SeededGenerator, count: Int, conversation: String?, idPrefix: String) -> [any MessageModel] {
        var time = 1_714_557_600.0
        let people = ["Ann", "Bo", "Cy", "Me"]
        let words = ["hi", "ok", "see you at the station", "こんにちは", "שלום", "a much longer message that wraps across lines"]
        return (0..<count).map { i in
            time += [5, 40, 300, 4_000, 90_000].randomElement(using: &rng)!
            let who = people.randomElement(using: &rng)!
            let text = (0..<Int.random(in: 1...4, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ")
            let note = TextNote(id: "\(idPrefix)\(i)", senderName: who, direction: who == "Me" ? .outgoing : .incoming,
                                date: Date(timeIntervalSince1970: time), isEdited: Int.random(in: 0..<20, using: &rng) == 0,
                                replyToID: Int.random(in: 0..<10, using: &rng) == 0 ? "\(idPrefix)0" : nil, text: text)
            return ChatNote(note: note, conversationID: conversation)
        }
    }

    /// Every row of `models`, streamed with a flush wherever `cut` says, as (conversation, id, layouts).
    static func stream(_ models: [any MessageModel], engine: LayoutEngine<CellMeasurer> = LayoutEngine(),
                       options: DecorationOptions, inInputOrder: Bool = false, cut: (Int) -> Bool) throws -> [String] {
        var layout = StreamingLayout(engine: engine, widths: widths, options: options, inInputOrder: inInputOrder)
        var rows: [String] = []
        func take(_ batch: BatchLayout) {
            #expect(batch.firstRowNumber == rows.count)
            for r in batch.rows.indices {
                let row = batch.rows[r]
                let layouts = widths.indices.map { "\(batch.layout(row: r, widthIndex: $0))" }
                rows.append("\(row.conversationID(in: batch.models) ?? "-") \(row.id(in: batch.models)) \(row.decoration.rawValue) \(layouts)")
            }
        }
        for (i, model) in models.enumerated() {
            layout.append(model)
            if cut(i) { take(try layout.flush()) }
        }
        take(try layout.flush(final: true))
        return rows
    }

    @Test(arguments: [nil, 3] as [Int?])
    func whereTheStreamIsCutNeverChangesARow(parties: Int?) throws {
        var rng = SeededGenerator(seed: 7)
        let models = Self.randomNotes(&rng, count: 600, conversation: nil, idPrefix: "m")
        var options = DecorationOptions(timeZone: TimeZone(identifier: "UTC")!)
        options.otherParties = parties
        let whole = try Self.stream(models, options: options) { _ in false }
        for seed in 1...4 as ClosedRange<UInt64> {
            var cuts = SeededGenerator(seed: seed)
            let cutEvery = [1, 2, 7, 64][Int(seed) - 1]
            let chunked = try Self.stream(models, options: options) { _ in Int.random(in: 0..<cutEvery, using: &cuts) == 0 }
            #expect(chunked == whole)
        }
        #expect(whole.count > models.count)
    }

    /// Given or counted, the parties come out as in a batch of the whole log (`PartyWindow`:
    /// counted in the first 32 messages), also when only one other party talks in the first
    /// `oneParty` messages and the second comes inside the window, at its edge or after it.
    @Test(arguments: [(3, 0), (nil, 0), (nil, 20), (nil, 31), (nil, 32), (nil, 60)] as [(Int?, Int)])
    func itMatchesBatchLayout(parties: Int?, oneParty: Int) throws {
        var rng = SeededGenerator(seed: 11)
        let models = Self.randomNotes(&rng, count: 400, conversation: nil, idPrefix: "m").enumerated().map { i, model -> any MessageModel in
            guard i < oneParty, model.direction == .incoming, let chat = model as? ChatNote else { return model }
            var note = chat
            note.note.senderName = "Ann"
            return note
        }
        var options = DecorationOptions(timeZone: TimeZone(identifier: "UTC")!)
        options.otherParties = parties
        let batch = try LayoutEngine().layoutBatch(models, widths: Self.widths, options: options)
        var layout = StreamingLayout(engine: LayoutEngine(), widths: Self.widths, options: options)
        var rows: [DecoratedRow] = [], layouts: [[RowLayout]] = []
        for model in models {
            layout.append(model)
            let b = try layout.flush()
            rows += b.rows
            layouts += b.rows.indices.map { r in Self.widths.indices.map { b.layout(row: r, widthIndex: $0) } }
        }
        let last = try layout.flush(final: true)
        rows += last.rows
        layouts += last.rows.indices.map { r in Self.widths.indices.map { last.layout(row: r, widthIndex: $0) } }
        #expect(rows.map(\.decoration) == batch.rows.map(\.decoration))
        #expect(rows.contains { $0.decoration.showsName } == (parties != nil || oneParty < PartyWindow.size))
        #expect(layouts == batch.rows.indices.map { r in Self.widths.indices.map { batch.layout(row: r, widthIndex: $0) } })
    }

    @Test func interleavedConversationsGetTheRowsEachGetsAloneInEitherOrder() throws {
        var rng = SeededGenerator(seed: 23)
        let conversations = ["a", "b", "c"].map { Self.randomNotes(&rng, count: 200, conversation: $0, idPrefix: $0) }
        // Interleave at random, each conversation staying in order.
        var mixed: [any MessageModel] = []
        var next = [0, 0, 0]
        while mixed.count < 600 {
            let c = Int.random(in: 0..<3, using: &rng)
            guard next[c] < 200 else { continue }
            mixed.append(conversations[c][next[c]])
            next[c] += 1
        }
        let options = DecorationOptions(timeZone: TimeZone(identifier: "UTC")!)
        var cuts = SeededGenerator(seed: 5)
        let together = try Self.stream(mixed, options: options) { _ in Int.random(in: 0..<9, using: &cuts) == 0 }
        let apart = try conversations.flatMap { try Self.stream($0, options: options) { _ in false } }
        #expect(together.sorted() == apart.sorted())
        // In input order, the same rows come out with every message's row where the message was,
        // each separator just above the message it belongs to, wherever the stream is cut.
        var orderedCuts = SeededGenerator(seed: 6)
        let ordered = try Self.stream(mixed, options: options, inInputOrder: true) { _ in Int.random(in: 0..<9, using: &orderedCuts) == 0 }
        #expect(ordered.sorted() == together.sorted())
        #expect(ordered.filter { !$0.contains(" date:") }.map { $0.split(separator: " ")[1] } == mixed.map { Substring($0.id) })
        for (i, row) in ordered.enumerated() where row.contains(" date:") {
            #expect(i + 1 < ordered.count && !ordered[i + 1].contains(" date:"))
            #expect(ordered[i + 1].split(separator: " ")[0] == row.split(separator: " ")[0])
        }
        #expect(try Self.stream(mixed, options: options, inInputOrder: true) { _ in false } == ordered)
        // Each conversation opens with its own date separator, as its first row, with the space
        // above it that parts it from another conversation's rows.
        for c in ["a", "b", "c"] {
            let first = try #require(together.first { $0.hasPrefix("\(c) ") })
            #expect(first.contains(" date:"))
        }
    }
}
