/// The one rule for whether a conversation shows its senders' names, used by every command, the
/// batch and streaming layouts, `Conversation` and the viewer's sources.
///
/// Chat apps name every incoming group of a group chat, its first one included, and none in a
/// one-to-one chat. A log seldom says which it is, so the conversation's first `size` messages
/// decide: it is a group chat when they hold two or more other parties (distinct names of the
/// senders of incoming bubbles), and then every group of incoming bubbles is named; otherwise
/// none is, however many senders come later. A sender without a name (none, empty or blanks)
/// is no party and gets no name line: there is nothing to show on it. Looking at a fixed number of messages from the start, not at the whole log, is what
/// lets a stream decide as early as a reader of the whole file and the same way: it holds a
/// conversation's rows back until a second other party speaks or `size` messages have come
/// (or the input ends), never longer.
package struct PartyWindow: Sendable {
    /// Messages of a conversation (of any kind) that decide whether it shows names.
    package static let size = 32

    private var senders = SenderCount()
    /// Messages counted so far (at most `size`).
    package private(set) var messagesCounted = 0

    package init() {}

    /// Distinct other parties among the messages counted.
    package var otherParties: Int { senders.parties }

    /// True once more messages cannot change `otherParties > 1`: two parties were found, or
    /// `size` messages were counted.
    package var isDecided: Bool { senders.parties > 1 || messagesCounted >= Self.size }

    /// Counts the conversation's next message, whose sender is `incomingBubbleSender` when it is
    /// an incoming bubble and nil otherwise. Messages after the first `size` are not counted.
    package mutating func count(incomingBubbleSender sender: String?) {
        guard messagesCounted < Self.size else { return }
        messagesCounted += 1
        if let sender, Self.isName(sender) { senders.count(sender: sender, by: 1) }
    }

    /// Counts the message with `facts`.
    mutating func count(_ facts: Decorator.Facts) {
        count(incomingBubbleSender: facts.drawsBubble && facts.direction == .incoming ? facts.sender : nil)
    }

    /// Whether `sender` is a name a name line can show: not empty, not only spaces and tabs.
    package static func isName(_ sender: String) -> Bool {
        sender.utf8.contains { $0 != 0x20 && $0 != 0x09 }
    }
}
