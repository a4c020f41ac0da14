import BubbleLayout
import BubbleSamples
import Testing

/// The viewer's sections of a log: each conversation's positions in input order, sections in
/// order of first appearance, and each one's own count of other parties.
@Suite struct ConversationSectionsTests {
    /// Random conversations and senders, checked against a plain grouping of the same input.
    @Test(arguments: [1, 2, 5])
    func positionsAreEachConversationsInInputOrder(conversations: Int) {
        var generator = SeededGenerator(seed: UInt64(conversations))
        let sections = ConversationSections()
        var expected: [String?: [Int]] = [:]
        var order: [String?] = []
        for position in 0..<500 {
            let pick = Int.random(in: 0...conversations, using: &generator)
            let id: String? = pick == conversations ? nil : "c\(pick)"
            if expected[id] == nil { order.append(id) }
            expected[id, default: []].append(position)
            let section = sections.append(conversationID: id, incomingBubbleSender: "p\(Int.random(in: 0..<3, using: &generator))")
            #expect(sections.ids[section] == id)
        }
        #expect(sections.ids == order)
        #expect(sections.total == 500)
        for (section, id) in sections.ids.enumerated() {
            let positions = expected[id]!
            #expect(sections.count(ofSection: section) == positions.count)
            #expect((0..<positions.count).map { sections.position($0, inSection: section) } == positions)
            for (index, position) in positions.enumerated() {
                #expect(sections.index(ofPosition: position, inSection: section) == index)
                #expect(sections.locate(position: position)! == (section, index))
            }
        }
        #expect(sections.locate(position: 500) == nil)
        #expect(sections.listBytes == 0 || sections.count > 1, "one conversation keeps no lists")
    }

    /// Names are decided per conversation: a one-to-one chat beside a group chat names no one.
    @Test func partiesAreCountedPerConversation() {
        let sections = ConversationSections()
        for round in 0..<40 {
            sections.append(conversationID: "group", incomingBubbleSender: ["Ann", "Bo", "Cy"][round % 3])
            sections.append(conversationID: "one", incomingBubbleSender: "Mum")
        }
        #expect(sections.parties.map(\.otherParties) == [3, 1])
        // A head that decided "group" and not "solo" lends only what it decided.
        let head = ConversationSections()
        head.append(conversationID: "group", incomingBubbleSender: "Ann")
        head.append(conversationID: "group", incomingBubbleSender: "Zed")
        head.append(conversationID: "solo", incomingBubbleSender: "Kim")
        let tail = ConversationSections()
        tail.append(conversationID: "solo", incomingBubbleSender: "Kim")
        tail.append(conversationID: "group", incomingBubbleSender: "Ann")
        tail.append(conversationID: "new", incomingBubbleSender: "Lee")
        #expect(!tail.decidedIn(head), "solo is in the head, undecided")
        tail.takeParties(from: head)
        #expect(tail.parties.map(\.otherParties) == [1, 2, 1])
        sections.removeAll()
        #expect(sections.count == 0 && sections.total == 0 && sections.count(ofSection: 0) == 0)
    }
}
