import Foundation

/// Decides the decorations that change row heights, from each message's neighbours: date
/// separators at each change of calendar day, groups (same sender and direction, same day, at
/// most `groupGap` apart, bubbles only), the name line (a group's first incoming bubble, when
/// there is more than one other party), the footer, and the reply quote.
///
/// Streaming: `push` a message at a time; a message's row comes out when the next message arrives
/// (whether it closes a group depends on it) or at `finish`. Cheap and sequential: batch layout
/// runs it first, then lays rows out in parallel.
public struct Decorator: Sendable {
    /// What decoration needs to know about a message.
    struct Facts: Sendable {
        var index: Int
        var configuratorIndex: Int
        var sender: String?
        var direction: MessageDirection
        var time: Double
        var day: CalendarDay
        var drawsBubble: Bool
        var hasReply: Bool
        var showsFooterAlways: Bool
        var footerWidth: Int
    }

    public let options: DecorationOptions
    let footerWidths: FooterText.Widths
    let registry: CellRegistry
    /// The registry's cell for each model type, found once per type.
    private var lookup: CellRegistry.Lookup
    private var clock: ZoneClock
    private var pending: Facts?
    private var pendingStartsGroup = true
    private var lastDay: CalendarDay?
    private var emittedRows = 0
    private var senders = SenderCount()

    /// A decorator placing messages with `registry`'s cells, footers measured by `footerWidths`.
    public init(options: DecorationOptions, registry: CellRegistry, footerWidths: FooterText.Widths) {
        self.options = options
        self.registry = registry
        self.lookup = CellRegistry.Lookup(registry)
        self.footerWidths = footerWidths
        self.clock = ZoneClock(timeZone: options.timeZone)
    }

    /// The number of other parties: given, or counted from the incoming senders seen so far.
    public var otherParties: Int { options.otherParties ?? senders.parties }

    /// Takes the next message (input position `index`) and returns the rows now decided.
    public mutating func push(_ model: any MessageModel, index: Int) throws(LayoutError) -> [DecoratedRow] {
        var rows: [DecoratedRow] = []
        try push(model, index: index, into: &rows)
        return rows
    }

    /// `push`, appending the rows now decided to `rows` (no array per message).
    mutating func push(_ model: any MessageModel, index: Int, into rows: inout [DecoratedRow]) throws(LayoutError) {
        let configuratorIndex = try lookup.index(for: model)
        let facts = Self.facts(of: model, index: index, configuratorIndex: configuratorIndex, registry: registry,
                               footerWidths: footerWidths, clock: &clock)
        if options.otherParties == nil { senders.count(facts) }

        let before = rows.count
        let continues = pending.map { Self.continuesGroup($0, facts, gap: options.groupGap) } ?? false
        if let pending { rows.append(decorate(pending, startsGroup: pendingStartsGroup, endsGroup: !continues)) }
        if facts.day != lastDay {
            // Only a log's own top goes without the space above. A message that names its
            // conversation may be one of several, whose rows stand above this one in a transcript:
            // its first separator keeps the space, whichever conversation comes first (so a row
            // still depends on its own conversation alone).
            let isTop = emittedRows == 0 && rows.count == before && model.conversationID == nil
            rows.append(.dateSeparator(facts.day, isFirstRow: isTop, above: index))
            lastDay = facts.day
        }
        emittedRows += rows.count - before
        pending = facts
        pendingStartsGroup = !continues
    }

    /// The rows still pending at the end of the input.
    public mutating func finish() -> [DecoratedRow] {
        guard let last = pending else { return [] }
        pending = nil
        emittedRows += 1
        return [decorate(last, startsGroup: pendingStartsGroup, endsGroup: true)]
    }

    /// Decorates a whole log: counts the other parties first (unless given), then one pass.
    /// Messages of different conversations are decorated apart (see `TimelineDecorator`).
    public static func decorate(_ models: [any MessageModel], options: DecorationOptions, registry: CellRegistry,
                                footerWidths: FooterText.Widths) throws(LayoutError) -> [DecoratedRow] {
        var decorator = TimelineDecorator(options: options, registry: registry, footerWidths: footerWidths)
        decorator.countSenders(in: models[...])
        var rows: [DecoratedRow] = []
        rows.reserveCapacity(models.count + models.count / 8 + 1)
        for (i, model) in models.enumerated() { try decorator.push(model, index: i, into: &rows) }
        decorator.finish(into: &rows)
        return rows
    }

    /// The input position of the message held back for its successor, if any.
    var pendingIndex: Int? { pending?.index }

    /// Moves the held-back message to input position `index` (a streaming window starts anew).
    mutating func movePending(to index: Int) { pending?.index = index }

    /// True when `next` joins the group `previous` is in. Logs are in send order, but their clocks
    /// are not always: a message stamped slightly before the one above it still continues the group.
    static func continuesGroup(_ previous: Facts, _ next: Facts, gap: Double) -> Bool {
        guard previous.drawsBubble, next.drawsBubble, previous.day == next.day,
              previous.direction == next.direction, previous.sender == next.sender else { return false }
        return abs(next.time - previous.time) <= gap
    }

    func decorate(_ facts: Facts, startsGroup: Bool, endsGroup: Bool) -> DecoratedRow {
        DecoratedRow(messageIndex: facts.index, configuratorIndex: facts.configuratorIndex, day: facts.day,
                     decoration: Self.decoration(of: facts, startsGroup: startsGroup, endsGroup: endsGroup,
                                                 options: options, otherParties: otherParties))
    }

    /// What a message with `facts` shows, given where it sits in its group.
    static func decoration(of facts: Facts, startsGroup: Bool, endsGroup: Bool, options: DecorationOptions,
                           otherParties: Int) -> RowDecoration {
        guard facts.drawsBubble else { return RowDecoration(startsGroup: true, endsGroup: true) }
        let showsFooter = options.footerOnEveryMessage || endsGroup || facts.showsFooterAlways
        return RowDecoration(
            startsGroup: startsGroup, endsGroup: endsGroup,
            showsName: startsGroup && facts.direction == .incoming && facts.sender != nil && otherParties > 1,
            hasReplyQuote: facts.hasReply, showsFooter: showsFooter,
            footerWidth: showsFooter ? facts.footerWidth : 0)
    }

    /// The facts decoration needs about `model`, shown by `registry.configurators[configuratorIndex]`.
    static func facts(of model: any MessageModel, index: Int, configuratorIndex: Int, registry: CellRegistry,
                      footerWidths: FooterText.Widths, clock: inout ZoneClock) -> Facts {
        let drawsBubble = registry.configurators[configuratorIndex].drawsBubble
        return Facts(index: index, configuratorIndex: configuratorIndex, sender: model.senderName,
                     direction: model.direction, time: model.date.timeIntervalSince1970,
                     day: clock.day(of: model.date), drawsBubble: drawsBubble,
                     hasReply: drawsBubble && model.replyToID != nil,
                     showsFooterAlways: model.isEdited || model.status == .failed,
                     footerWidth: footerWidths.width(status: model.status, isEdited: model.isEdited))
    }
}
