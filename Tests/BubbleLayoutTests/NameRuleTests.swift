import BubbleSamples
import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubbleLayout

/// The name line follows one rule everywhere (`PartyWindow`): a conversation whose first 32
/// messages hold two or more other parties names every incoming group, its first included; any
/// other names none. Batch, streaming over any windows, and a live `Conversation` agree.
@Suite struct NameRuleTests {
    let engine = LayoutEngine()
    let base = Date(timeIntervalSince1970: 1_714_557_600)  // 2024-05-01T10:00:00Z

    /// Messages a minute apart from `senders` in order ("Me" is outgoing).
    func log(_ senders: [String?], conversation: String? = nil, idPrefix: String = "m") -> [any MessageModel] {
        senders.enumerated().map { i, who in
            let note = TextNote(id: "\(idPrefix)\(i)", senderName: who, direction: who == "Me" ? .outgoing : .incoming,
                                date: base.addingTimeInterval(Double(i) * minute), text: "message \(i)")
            return conversation.map { ChatNote(note: note, conversationID: $0) } ?? note
        }
    }

    /// A row as models-independent facts: its message's id, its conversation, its decoration.
    struct Row: Equatable {
        var id: String
        var conversation: String?
        var isDateSeparator: Bool
        var decoration: RowDecoration
    }

    func rows(_ decorated: [DecoratedRow], of models: [any MessageModel]) -> [Row] {
        decorated.map { Row(id: models[$0.anchorIndex].id, conversation: models[$0.anchorIndex].conversationID,
                            isDateSeparator: $0.isDateSeparator, decoration: $0.decoration) }
    }

    func names(_ rows: [DecoratedRow]) -> [Bool] { rows.filter { !$0.isDateSeparator }.map(\.decoration.showsName) }
    func names(_ rows: [Row]) -> [Bool] { rows.filter { !$0.isDateSeparator }.map(\.decoration.showsName) }

    /// Rows of `models` streamed with a flush after every message where `cut` says so.
    func streamed(_ models: [any MessageModel], options: DecorationOptions, cut: (Int) -> Bool) throws -> [Row] {
        var layout = StreamingLayout(engine: engine, widths: [30], options: options)
        var out: [Row] = []
        for (i, model) in models.enumerated() {
            layout.append(model)
            if cut(i) {
                let batch = try layout.flush()
                out += rows(batch.rows, of: batch.models)
            }
        }
        let last = try layout.flush(final: true)
        return out + rows(last.rows, of: last.models)
    }

    @Test func theFirstGroupOfAMultiPartyLogIsNamed() throws {
        let models = log(["Ana", "Ana", "Ben", "Cy", "Ana"])
        #expect(names(try engine.decorate(models, options: options())) == [true, false, true, true, true])
        #expect(names(try streamed(models, options: options()) { _ in true }) == [true, false, true, true, true])
    }

    @Test func aOneToOneLogNamesNobody() throws {
        let models = log(["Ana", "Me", "Ana", "Ana", "Me", "Me", "Ana"] + Array(repeating: "Ana", count: 40))
        #expect(names(try engine.decorate(models, options: options())).allSatisfy { !$0 })
        #expect(names(try streamed(models, options: options()) { _ in true }).allSatisfy { !$0 })
    }

    /// The first 32 messages decide: a second party as the 32nd names every group, as the 33rd
    /// names none (a stream has let the first rows out by then).
    @Test func aSecondPartyDecidesOnlyWithinTheFirst32Messages() throws {
        let within = log(Array(repeating: "Ana", count: PartyWindow.size - 1) + ["Ben", "Ana"])
        #expect(names(try engine.decorate(within, options: options())) == [true] + Array(repeating: false, count: 30) + [true, true])
        let after = log(Array(repeating: "Ana", count: PartyWindow.size) + ["Ben", "Ana"])
        #expect(names(try engine.decorate(after, options: options())).allSatisfy { !$0 })
    }

    /// A record with no sender, or an empty one, is no party and has no name line, whatever the
    /// others are: nothing is drawn for a name that is not there.
    @Test func aSenderWithoutANameIsNoPartyAndGetsNoNameLine() throws {
        let models = log(["Ana", "", "Ben", nil, "  "])
        #expect(names(try engine.decorate(models, options: options())) == [true, false, true, false, false])
        let oneParty = log(["Ana", "", nil, "Ana"])
        #expect(names(try engine.decorate(oneParty, options: options())).allSatisfy { !$0 })
        let batch = try engine.layoutBatch(models, widths: [40], options: options())
        let rows = (0..<batch.rows.count).map { batch.layout(row: $0, widthIndex: 0) }
        #expect(rows.map { $0.parts.contains(.nameLine) } == [false, true, false, true, false, false])
    }

    /// Streaming over windows of any size gives what reading the whole log gives, wherever the
    /// second party comes (first message, inside the window, at its edge, after it, never), in
    /// one conversation or several interleaved.
    @Test(arguments: [1, 2, 5, 31, 32, 33, 100, -1])
    func streamingOverSmallWindowsGivesWhatReadingWholeGives(secondPartyAt: Int) throws {
        var rng = SeededGenerator(seed: UInt64(secondPartyAt + 2))
        let senders: [String?] = (0..<150).map { i in
            if i == secondPartyAt { return "Ben" }
            if i > secondPartyAt && secondPartyAt >= 0 { return ["Ana", "Ben", "Me", nil].randomElement(using: &rng)! }
            return ["Ana", "Me"].randomElement(using: &rng)!
        }
        var models = log(senders, conversation: "a", idPrefix: "a")
        // A second conversation, one-to-one, interleaved at random.
        let other = log((0..<60).map { _ in ["Zed", "Me"].randomElement(using: &rng)! }, conversation: "b", idPrefix: "b")
        for (k, model) in other.enumerated() { models.insert(model, at: min(models.count, 2 * k + Int(rng.next() % 3))) }
        let whole = rows(try engine.decorate(models, options: options()), of: models)
        for cutEvery in [1, 2, 3, 7, 40] {
            var cuts = SeededGenerator(seed: UInt64(cutEvery))
            let streamed = try streamed(models, options: options()) { _ in Int.random(in: 0..<cutEvery, using: &cuts) == 0 }
            #expect(streamed.count == whole.count)
            // Rows of different conversations may come out in another order; a conversation's may not.
            for c in ["a", "b"] {
                #expect(streamed.filter { $0.conversation == c } == whole.filter { $0.conversation == c },
                        "conversation \(c), a flush every \(cutEvery) messages or so")
            }
        }
        #expect(names(whole.filter { $0.conversation == "a" }).contains(true) == (secondPartyAt >= 0 && secondPartyAt < PartyWindow.size))
        #expect(!names(whole.filter { $0.conversation == "b" }).contains(true))
    }

    /// A live conversation names as the batch does, however it was built: appended one by one,
    /// prepended (older history), or after removing the message that made it a group.
    @Test func aConversationNamesAsTheBatchDoes() throws {
        for at in [0, 3, 31, 32, 40] {
            let models = log(Array(repeating: "Ana", count: at) + ["Ben"] + Array(repeating: "Ana", count: 45 - at))
            let expected = names(try engine.decorate(models, options: options()))
            let appended = Conversation(width: 40, options: options())
            try appended.append(contentsOf: models)
            #expect((0..<models.count).map { appended[message: $0].decoration.showsName } == expected, "Ben at \(at), appended")
            let prepended = Conversation(width: 40, options: options())
            for model in models.reversed() { try prepended.prepend(model) }
            #expect((0..<models.count).map { prepended[message: $0].decoration.showsName } == expected, "Ben at \(at), prepended")
            try appended.remove(id: "m\(at)")
            var rest = models
            rest.remove(at: at)
            #expect((0..<rest.count).map { appended[message: $0].decoration.showsName } == names(try engine.decorate(rest, options: options())))
            #expect(!(0..<rest.count).contains { appended[message: $0].decoration.showsName })
        }
    }
}
