/// The conversations of a log that may hold several (`MessageModel.conversationID`), as a viewer
/// shows them: each conversation a section of its own, sections in the order each conversation
/// first appears, each section's messages in input order, and each section's names decided from
/// its own first messages (`PartyWindow`), as `render` and `heights` decide them.
///
/// Messages are added in input order and numbered from 0 (their positions in the log). A log of
/// one conversation keeps no position lists (its positions are its indices); a list per section
/// is made when a second conversation appears (4 bytes a message).
package final class ConversationSections {
    /// Each section's conversation, in order of first appearance (nil: records that name none).
    package private(set) var ids: [String?] = []
    /// Each section's count of other parties among its first messages.
    package private(set) var parties: [PartyWindow] = []
    /// Messages added, in all sections.
    package private(set) var total = 0
    private var sectionOfID: [String: Int] = [:]
    private var sectionOfNone: Int?
    /// Each section's positions, ascending; empty while there is one section.
    private var lists: [[Int32]] = []
    /// The section the last message went to (a run of one conversation costs no hashing).
    private var last: (id: String?, section: Int)?

    package init() {}

    /// Sections so far.
    package var count: Int { ids.count }

    /// Bytes the position lists hold (none for a log of one conversation).
    package var listBytes: Int { lists.reduce(0) { $0 + $1.capacity * 4 } }

    /// Adds the log's next message (position `total`), of conversation `conversationID`, whose
    /// sender is `incomingBubbleSender` when it is an incoming bubble (nil otherwise); returns
    /// its section.
    @discardableResult
    package func append(conversationID: String?, incomingBubbleSender: String?) -> Int {
        let section: Int
        if let last, last.id == conversationID {
            section = last.section
        } else if let known = self.section(ofConversation: conversationID) {
            section = known
        } else {
            section = ids.count
            if section == 1 { lists = [(0..<Int32(total)).map { $0 }] }
            ids.append(conversationID)
            parties.append(PartyWindow())
            if let conversationID { sectionOfID[conversationID] = section } else { sectionOfNone = section }
            if section > 0 { lists.append([]) }
        }
        last = (conversationID, section)
        if !lists.isEmpty { lists[section].append(Int32(total)) }
        parties[section].count(incomingBubbleSender: incomingBubbleSender)
        total += 1
        return section
    }

    /// Forgets every message (the log is read again from its start).
    package func removeAll() {
        ids = []
        parties = []
        total = 0
        sectionOfID = [:]
        sectionOfNone = nil
        lists = []
        last = nil
    }

    /// The section of conversation `id`, nil when none of its messages was added.
    package func section(ofConversation id: String?) -> Int? {
        if let id { return sectionOfID[id] }
        return sectionOfNone
    }

    /// Messages in section `section` (0 for a section that does not exist).
    package func count(ofSection section: Int) -> Int {
        guard section >= 0 && section < ids.count else { return 0 }
        return lists.isEmpty ? total : lists[section].count
    }

    /// The log position of section `section`'s message `index`.
    package func position(_ index: Int, inSection section: Int) -> Int {
        lists.isEmpty ? index : Int(lists[section][index])
    }

    /// The index within section `section` of the message at log position `position`, nil when
    /// that message is in another section.
    package func index(ofPosition position: Int, inSection section: Int) -> Int? {
        guard section >= 0 && section < ids.count, position >= 0 && position < total else { return nil }
        if lists.isEmpty { return position }
        let list = lists[section]
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if Int(list[middle]) < position { low = middle + 1 } else { high = middle }
        }
        return low < list.count && Int(list[low]) == position ? low : nil
    }

    /// The section and index of the message at log position `position`, nil past the end.
    package func locate(position: Int) -> (section: Int, index: Int)? {
        for section in 0..<ids.count {
            if let index = index(ofPosition: position, inSection: section) { return (section, index) }
        }
        return nil
    }

    /// Takes the party counts of `other` (the same log's head, read apart) for each section
    /// whose conversation `other` has decided; the others keep their own.
    package func takeParties(from other: ConversationSections) {
        for (section, id) in ids.enumerated() {
            if let theirs = other.section(ofConversation: id), other.parties[theirs].isDecided {
                parties[section] = other.parties[theirs]
            }
        }
    }

    /// Whether `other` has decided the names of every conversation of this log that it holds.
    package func decidedIn(_ other: ConversationSections) -> Bool {
        ids.allSatisfy { id in other.section(ofConversation: id).map { other.parties[$0].isDecided } ?? true }
    }
}
