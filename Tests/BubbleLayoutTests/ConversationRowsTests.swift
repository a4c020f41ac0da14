import BubbleSamples
import BubbleTestSupport
import Foundation
import Testing
@testable import BubbleLayout

/// A conversation's rows in terminal cells are the batch layout's rows: date separators and
/// messages, one timeline, with each row's frame, the row ↔ message mapping and the row at an
/// offset kept right under random appends, prepends, edits, removals and resizes (checked after
/// every change against a batch layout of the messages from scratch and a linear scan).
@Suite struct ConversationRowsTests {
    static let options = DecorationOptions(timeZone: TimeZone(identifier: "UTC")!)

    @Test(arguments: [1, 2, 3] as [UInt64])
    func framesFollowRandomEditsInCells(seed: UInt64) throws {
        let widths = [24, 40, 57, 80, 120]
        let conversation = Conversation(width: 40, options: Self.options)
        var edits = ConversationEdits(random: SeededGenerator(seed: seed))
        for step in 0..<150 {
            try edits.step(conversation, widths: widths)
            let batch = try LayoutEngine().layoutBatch(edits.models, widths: [conversation.width], options: Self.options)
            let problems = edits.check(conversation, against: batch.naiveRowsInCells)
            #expect(problems.isEmpty, "seed \(seed), step \(step): \(problems.prefix(5))")
            if !problems.isEmpty { break }
        }
    }

    /// The row model by hand: two days, a separator above each day's first message.
    @Test func separatorsAreRowsOfTheirOwn() throws {
        let conversation = Conversation(width: 40, options: Self.options)
        let day = 86_400.0
        let base = Date(timeIntervalSince1970: 1_714_557_600)
        try conversation.append(TextNote(id: "a", direction: .incoming, date: base, text: "one"))
        try conversation.append(TextNote(id: "b", direction: .outgoing, date: base + 60, text: "two"))
        try conversation.append(TextNote(id: "c", direction: .incoming, date: base + day, text: "three"))
        #expect(conversation.rowCount == 5 && conversation.messageCount == 3)
        #expect((0..<5).map { conversation.messageIndex(ofRow: $0) } == [nil, 0, 1, nil, 2])
        try conversation.remove(id: "c")
        #expect(conversation.rowCount == 3)
        try conversation.prepend(TextNote(id: "z", direction: .incoming, date: base - day, text: "zero"))
        #expect((0..<conversation.rowCount).map { conversation.messageIndex(ofRow: $0) } == [nil, 0, nil, 1, 2])
        #expect(conversation.row(withID: "b") == 4 && conversation.row(withID: "c") == nil)
        // The batch agrees row for row.
        let batch = try LayoutEngine().layoutBatch(conversation.models, widths: [40], options: Self.options)
        #expect(batch.rows.map(\.modelIndex) == (0..<conversation.rowCount).map { conversation.messageIndex(ofRow: $0) })
    }
}
