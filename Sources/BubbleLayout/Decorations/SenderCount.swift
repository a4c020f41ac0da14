/// The other parties of a conversation: its distinct incoming bubble senders, counted with
/// multiplicity so that removing a message can take a sender away again. `PartyWindow`, the one
/// rule for names, counts with it.
struct SenderCount: Sendable {
    private var messages: [String: Int] = [:]

    /// Distinct senders counted.
    var parties: Int { messages.count }

    /// Counts (or, with `delta` -1, uncounts) `sender` (`""` for none). Returns true when that
    /// takes the count across one.
    @discardableResult
    mutating func count(sender: String?, by delta: Int) -> Bool {
        let before = messages.count
        let name = sender ?? ""
        if delta > 0 {
            messages[name, default: 0] += delta  // one hash of the name: counts stay positive
        } else {
            let n = messages[name, default: 0] + delta
            messages[name] = n > 0 ? n : nil
        }
        return (before > 1) != (messages.count > 1)
    }
}
