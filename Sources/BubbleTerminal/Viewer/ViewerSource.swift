import BubbleLayout

/// The messages a viewer shows, by position (0 is the oldest). A source hands out only the
/// messages asked for, so it need not hold them all: the viewer lays out a window of a few pages
/// around the screen and asks again as it moves. Positions only grow at the end (`--follow`).
package protocol ViewerSource: AnyObject {
    /// Messages in the source now.
    var count: Int { get }
    /// The messages at `range` (within `0..<count`), in order.
    func messages(in range: Range<Int>) -> [any MessageModel]
    /// The position of the message `id`, or nil.
    func position(ofID id: String) -> Int?
    /// Distinct incoming bubble senders among the source's first `PartyWindow.size` messages
    /// (names are shown when there is more than one), as every command counts them.
    var otherParties: Int { get }
    /// The first position from `start` (inclusive) towards the end (or, backwards, towards 0)
    /// whose message `matches` accepts; nil when none does. `query` may let a source skip
    /// messages that cannot match without decoding them.
    func find(from start: Int, forward: Bool, query: SearchMatcher, matches: (any MessageModel) -> Bool) -> Int?
    /// The source's conversations (its messages' `conversationID`), each shown as a section of
    /// its own; nil: one conversation, shown as the source gives it.
    var sections: ConversationSections? { get }
}

extension ViewerSource {
    package var sections: ConversationSections? { nil }

    /// Decodes a block at a time and asks `matches` about each message.
    public func find(from start: Int, forward: Bool, query: SearchMatcher, matches: (any MessageModel) -> Bool) -> Int? {
        let block = 4096
        if forward {
            var low = max(0, start)
            while low < count {
                let high = min(count, low + block)
                for (offset, model) in messages(in: low..<high).enumerated() where matches(model) { return low + offset }
                low = high
            }
        } else {
            var high = min(count, start + 1)
            while high > 0 {
                let low = max(0, high - block)
                for (offset, model) in messages(in: low..<high).enumerated().reversed() where matches(model) { return low + offset }
                high = low
            }
        }
        return nil
    }
}

/// A source holding its messages in memory (standard input, exports read as a whole, tests).
public final class ViewerMessages: ViewerSource {
    public private(set) var models: [any MessageModel] = []
    private var positions: [String: Int] = [:]
    private var parties = PartyWindow()
    private let registry: CellRegistry
    package let sections: ConversationSections? = ConversationSections()

    /// `models` in order; those a conversation would refuse are left out, listed in `refused`.
    public init(_ models: [any MessageModel] = [], registry: CellRegistry = .standard) {
        self.registry = registry
        refused = append(models)
    }

    /// The messages `init` left out, with why.
    public private(set) var refused: [(id: String, error: ConversationError)] = []

    /// Adds `added` after the last; returns those left out, with why: a repeated id, or a kind
    /// with no cell (as `Conversation.append` would refuse them).
    @discardableResult
    public func append(_ added: [any MessageModel]) -> [(id: String, error: ConversationError)] {
        var left: [(id: String, error: ConversationError)] = []
        for model in added {
            if positions[model.id] != nil {
                left.append((model.id, .duplicateID(model.id)))
                continue
            }
            do { _ = try registry.index(for: model) } catch {
                left.append((model.id, .layout(error)))
                continue
            }
            positions[model.id] = models.count
            models.append(model)
            let sender = Self.incomingBubbleSender(model, registry: registry)
            parties.count(incomingBubbleSender: sender)
            sections?.append(conversationID: model.conversationID, incomingBubbleSender: sender)
        }
        return left
    }

    /// The name counted as another party for `model`, or nil when it is not an incoming bubble
    /// (the rule `Conversation` counts by).
    public static func incomingBubbleSender(_ model: any MessageModel, registry: CellRegistry) -> String? {
        guard model.direction == .incoming, let index = try? registry.index(for: model),
              registry.configurators[index].drawsBubble else { return nil }
        return model.senderName ?? ""
    }

    public var count: Int { models.count }
    public var otherParties: Int { parties.otherParties }
    public func messages(in range: Range<Int>) -> [any MessageModel] { Array(models[range]) }
    public func position(ofID id: String) -> Int? { positions[id] }
}

/// One section (conversation) of a source, as a source of its own: its messages by their index
/// in the section, its names decided from its own first messages. Reads through to `base`, so
/// it grows as the base does (`--follow`). A section that begins with the conversation's heading
/// (the system row naming it, as a read of several conversations starts each with) leaves it
/// out: the viewer's header line names the conversation with its text instead, once.
final class SectionSource: ViewerSource {
    let base: ViewerSource
    let sections: ConversationSections?
    let section: Int
    private let list: ConversationSections
    /// Whether the section's first message was looked at (it may have none yet).
    private var headingChecked = false
    /// The heading's text when the section begins with one.
    private(set) var headingText: String?

    init(base: ViewerSource, sections: ConversationSections, section: Int) {
        self.base = base
        self.sections = sections
        list = sections
        self.section = section
    }

    /// 1 when the section's first message is its heading, else 0.
    private var skip: Int {
        if !headingChecked && list.count(ofSection: section) > 0 {
            headingChecked = true
            let first = list.position(0, inSection: section)
            if let model = base.messages(in: first..<(first + 1)).first as? any SystemMessageModel, Self.isHeading(model) {
                headingText = model.notice
            }
        }
        return headingText == nil ? 0 : 1
    }

    /// Whether `model`, first in its conversation, is the heading a reader puts before each of
    /// several conversations (`ExportItems`, Slack's channels: id `<prefix>conversation`).
    static func isHeading(_ model: any SystemMessageModel) -> Bool {
        model.senderName == nil && (model.id == "conversation" || model.id.hasSuffix("/conversation"))
    }

    var count: Int { max(0, list.count(ofSection: section) - skip) }
    var otherParties: Int { section < list.count ? list.parties[section].otherParties : 0 }

    /// The base position of the section's message `index`.
    func basePosition(_ index: Int) -> Int { list.position(index + skip, inSection: section) }

    /// The index in this source of the section's `index`-th message as `ConversationSections`
    /// counts it (the heading, when left out, is at 0 there).
    func index(ofListIndex index: Int) -> Int { max(0, index - skip) }

    /// Reads each run of consecutive base positions at once; stops at a run the base gives short
    /// (its file changed under the viewer), so no message is shown at another's index.
    func messages(in range: Range<Int>) -> [any MessageModel] {
        var models: [any MessageModel] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let first = basePosition(index)
            var end = index + 1
            while end < range.upperBound && basePosition(end) == first + (end - index) { end += 1 }
            let run = base.messages(in: first..<(first + end - index))
            models += run.prefix(end - index)
            if run.count < end - index { break }
            index = end
        }
        return models
    }

    func position(ofID id: String) -> Int? {
        guard let listIndex = base.position(ofID: id).flatMap({ list.index(ofPosition: $0, inSection: section) }) else { return nil }
        let index = listIndex - skip
        return index >= 0 ? index : nil
    }

    /// The base's search from the message's base position, taking only this section's messages
    /// (a section's base positions ascend, so the first found is the nearest in the section).
    func find(from start: Int, forward: Bool, query: SearchMatcher, matches: (any MessageModel) -> Bool) -> Int? {
        guard start >= 0 && start < count else { return nil }
        let one = list.count == 1
        let heading = skip == 1 ? list.position(0, inSection: section) : -1
        let found = base.find(from: basePosition(start), forward: forward, query: query) { model in
            matches(model) && (one || list.section(ofConversation: model.conversationID) == section)
        }
        guard let found, found != heading, let listIndex = list.index(ofPosition: found, inSection: section) else { return nil }
        return listIndex - skip >= 0 ? listIndex - skip : nil
    }
}
