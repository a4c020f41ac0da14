/// Decorates a stream that may carry several conversations (`MessageModel.conversationID`): one
/// `Decorator` per conversation, so messages of different conversations never group, never share
/// a date separator and count their other parties apart. The stream may interleave conversations
/// as long as each one's messages come in order.
///
/// Each conversation holds back its last message until its next message arrives (or `finish`),
/// and its first rows until its names are decided (`PartyWindow`): a row never waits for anything
/// later than the next message of its own conversation, or its first 32.
struct TimelineDecorator: Sendable {
    let options: DecorationOptions
    let registry: CellRegistry
    let footerWidths: FooterText.Widths
    private var decorators: [ConversationKey: Decorator] = [:]
    /// The conversation of the last message, kept out of `decorators`: a stream of one
    /// conversation (or long runs of one) then costs no hashing per message.
    private var current: (key: ConversationKey, decorator: Decorator)?
    init(options: DecorationOptions, registry: CellRegistry, footerWidths: FooterText.Widths) {
        self.options = options
        self.registry = registry
        self.footerWidths = footerWidths
    }

    /// Takes the next message (input position `index`) and appends the rows now decided.
    mutating func push(_ model: any MessageModel, index: Int, into rows: inout [DecoratedRow]) throws(LayoutError) {
        let key = ConversationKey(model.conversationID)
        if current?.key != key { switchTo(key) }
        try current!.decorator.push(model, index: index, into: &rows)
    }

    /// Makes `key`'s decorator the current one, putting the previous one back.
    private mutating func switchTo(_ key: ConversationKey) {
        if let current { decorators[current.key] = current.decorator }
        if let decorator = decorators.removeValue(forKey: key) {
            current = (key, decorator)
            return
        }
        current = (key, Decorator(options: options, registry: registry, footerWidths: footerWidths))
    }

    /// Every conversation's decorator, the current one included.
    private mutating func gather() {
        if let current { decorators[current.key] = current.decorator }
        current = nil
    }

    /// Appends every conversation's held-back row, in input order.
    mutating func finish(into rows: inout [DecoratedRow]) {
        gather()
        let keys = decorators.compactMap { key, d in d.pendingIndex.map { (key, $0) } }.sorted { $0.1 < $1.1 }
        for (key, _) in keys { rows += decorators[key]!.finish() }
    }

    /// The input positions of the held-back messages, in input order.
    var pendingIndices: [Int] {
        (decorators.values.flatMap(\.pendingIndices) + (current?.decorator.pendingIndices).orEmpty).sorted()
    }

    /// Renumbers the held-back messages through `newIndex` (a streaming window starts anew).
    mutating func movePending(_ newIndex: (Int) -> Int) {
        current?.decorator.movePending(newIndex)
        for key in Array(decorators.keys) { decorators[key]!.movePending(newIndex) }
    }
}

extension Optional where Wrapped == [Int] {
    fileprivate var orEmpty: [Int] { self ?? [] }
}

/// A conversation id as a dictionary key; nil (no conversation given) is one conversation.
struct ConversationKey: Hashable, Sendable {
    let id: String?
    init(_ id: String?) { self.id = id }
}
