import Foundation

/// Decides the decorations that change row heights, from each message's neighbours: date
/// separators at each change of calendar day, groups (same sender and direction, same day, at
/// most `groupGap` apart, bubbles only), the name line (a group's first incoming bubble, in a
/// conversation with more than one other party: see `PartyWindow`), the footer, and the reply quote.
///
/// Streaming: `push` a message at a time; a message's row comes out when the next message arrives
/// (whether it closes a group depends on it) or at `finish`. While the conversation's names are
/// undecided (`PartyWindow`: until a second other party speaks or its first 32 messages are in),
/// its rows are held back too, so a row never depends on when it was asked for. Cheap and
/// sequential: batch layout runs it first, then lays rows out in parallel.
package struct Decorator: Sendable {
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
        /// Cells a forward's line on the quote row needs (with the separator when a reply's
        /// quote follows it); 0 for none.
        var quoteWidth: Int
        /// A forward's line and a reply's quote share the quote row.
        var quoteAddsReply: Bool
        var showsFooterAlways: Bool
        var footerWidth: Int
        /// The conversation's heading, its first row: no space above it (see `push`).
        var opensConversation = false
    }

    /// A row decided but for its name line, held while the names are undecided.
    private enum Held: Sendable {
        case separator(CalendarDay, isFirstRow: Bool, above: Int)
        case message(Facts, startsGroup: Bool, endsGroup: Bool)

        /// The input position of the message the row is or stands above.
        var index: Int {
            switch self {
            case .separator(_, _, let above): above
            case .message(let facts, _, _): facts.index
            }
        }
    }

    package let options: DecorationOptions
    let footerWidths: FooterText.Widths
    let registry: CellRegistry
    /// The registry's cell for each model type, found once per type.
    private var lookup: CellRegistry.Lookup
    private var clock: ZoneClock
    private var pending: Facts?
    private var pendingStartsGroup = true
    private var lastDay: CalendarDay?
    /// Rows made so far, held ones included.
    private var madeRows = 0
    private var parties = PartyWindow()
    /// Rows made while the names are undecided, in order.
    private var held: [Held] = []

    /// A decorator placing messages with `registry`'s cells, footers measured by `footerWidths`.
    package init(options: DecorationOptions, registry: CellRegistry, footerWidths: FooterText.Widths) {
        self.options = options
        self.registry = registry
        self.lookup = CellRegistry.Lookup(registry)
        self.footerWidths = footerWidths
        self.clock = ZoneClock(timeZone: options.timeZone, style: options.clock)
    }

    /// The number of other parties: given, or counted in the conversation's first messages
    /// (`PartyWindow`) seen so far.
    package var otherParties: Int { options.otherParties ?? parties.otherParties }

    /// Whether the name lines are known: given in the options, or decided by `PartyWindow`.
    private var namesDecided: Bool { options.otherParties != nil || parties.isDecided }

    /// Takes the next message (input position `index`) and returns the rows now decided.
    package mutating func push(_ model: any MessageModel, index: Int) throws(LayoutError) -> [DecoratedRow] {
        var rows: [DecoratedRow] = []
        try push(model, index: index, into: &rows)
        return rows
    }

    /// `push`, appending the rows now decided to `rows` (no array per message).
    mutating func push(_ model: any MessageModel, index: Int, into rows: inout [DecoratedRow]) throws(LayoutError) {
        let configuratorIndex = try lookup.index(for: model)
        let facts = Self.facts(of: model, index: index, configuratorIndex: configuratorIndex, registry: registry,
                               footerWidths: footerWidths, clock: &clock)
        if !namesDecided {
            parties.count(facts)
            if namesDecided { release(into: &rows) }
        }

        if madeRows == 0, pending == nil, model.isConversationHeading, !facts.drawsBubble {
            // A conversation read with others opens with its heading, then its first date. The
            // heading has no space above: a row depends on its own conversation alone, and at the
            // top of a transcript a blank line would open it.
            var heading = facts
            heading.opensConversation = true
            make(.message(heading, startsGroup: true, endsGroup: true), into: &rows)
            return
        }
        let continues = pending.map { Self.continuesGroup($0, facts, gap: options.groupGap) } ?? false
        if let pending { make(.message(pending, startsGroup: pendingStartsGroup, endsGroup: !continues), into: &rows) }
        if facts.day != lastDay {
            // A conversation's own top goes without the space above, whether it is the log's or one
            // of several (a row depends on its own conversation alone); after a heading it has it.
            let isTop = madeRows == 0
            make(.separator(facts.day, isFirstRow: isTop, above: index), into: &rows)
            lastDay = facts.day
        }
        pending = facts
        pendingStartsGroup = !continues
    }

    /// The rows still pending at the end of the input.
    package mutating func finish() -> [DecoratedRow] {
        var rows: [DecoratedRow] = []
        if let last = pending { make(.message(last, startsGroup: pendingStartsGroup, endsGroup: true), into: &rows) }
        pending = nil
        // The input ended before the window did: what it held decides.
        release(into: &rows)
        return rows
    }

    /// Appends the row `item` to `rows`, or holds it while the names are undecided.
    private mutating func make(_ item: Held, into rows: inout [DecoratedRow]) {
        madeRows += 1
        if namesDecided { rows.append(row(item)) } else { held.append(item) }
    }

    /// Appends the held rows to `rows`, decorated with the parties counted.
    private mutating func release(into rows: inout [DecoratedRow]) {
        for item in held { rows.append(row(item)) }
        held = []
    }

    private func row(_ item: Held) -> DecoratedRow {
        switch item {
        case let .separator(day, isFirstRow, above): .dateSeparator(day, isFirstRow: isFirstRow, above: above)
        case let .message(facts, startsGroup, endsGroup): decorate(facts, startsGroup: startsGroup, endsGroup: endsGroup)
        }
    }

    /// Decorates a whole log in one pass, as a stream of it would be. Messages of different
    /// conversations are decorated apart (see `TimelineDecorator`).
    package static func decorate(_ models: [any MessageModel], options: DecorationOptions, registry: CellRegistry,
                                footerWidths: FooterText.Widths) throws(LayoutError) -> [DecoratedRow] {
        var decorator = TimelineDecorator(options: options, registry: registry, footerWidths: footerWidths)
        var rows: [DecoratedRow] = []
        rows.reserveCapacity(models.count + models.count / 8 + 1)
        for (i, model) in models.enumerated() { try decorator.push(model, index: i, into: &rows) }
        decorator.finish(into: &rows)
        return rows
    }

    /// The input position of the first message held back (for its successor, or while the names
    /// are undecided), if any.
    var pendingIndex: Int? { held.first?.index ?? pending?.index }

    /// The input positions of the messages held back, in order.
    var pendingIndices: [Int] {
        var indices: [Int] = []
        for case .message(let facts, _, _) in held { indices.append(facts.index) }
        if let pending { indices.append(pending.index) }
        return indices
    }

    /// Moves the held-back messages to new input positions (a streaming window starts anew).
    mutating func movePending(_ newIndex: (Int) -> Int) {
        if let index = pending?.index { pending!.index = newIndex(index) }
        for i in held.indices {
            switch held[i] {
            case let .separator(day, isFirstRow, above): held[i] = .separator(day, isFirstRow: isFirstRow, above: newIndex(above))
            case .message(var facts, let startsGroup, let endsGroup):
                facts.index = newIndex(facts.index)
                held[i] = .message(facts, startsGroup: startsGroup, endsGroup: endsGroup)
            }
        }
    }

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
        guard facts.drawsBubble else { return RowDecoration(isFirstRow: facts.opensConversation, startsGroup: true, endsGroup: true) }
        let showsFooter = options.footerOnEveryMessage || endsGroup || facts.showsFooterAlways
        return RowDecoration(
            startsGroup: startsGroup, endsGroup: endsGroup,
            showsName: startsGroup && facts.direction == .incoming && otherParties > 1
                && facts.sender.map(PartyWindow.isName) == true,
            hasReplyQuote: facts.hasReply, showsFooter: showsFooter,
            footerWidth: showsFooter ? facts.footerWidth : 0, quoteWidth: facts.quoteWidth,
            quoteAddsReply: facts.quoteAddsReply)
    }

    /// The facts decoration needs about `model`, shown by `registry.configurators[configuratorIndex]`.
    static func facts(of model: any MessageModel, index: Int, configuratorIndex: Int, registry: CellRegistry,
                      footerWidths: FooterText.Widths, clock: inout ZoneClock) -> Facts {
        let drawsBubble = registry.configurators[configuratorIndex].drawsBubble
        let forwardedFrom = drawsBubble ? model.forwardedFrom : nil
        let addsReply = forwardedFrom != nil && model.replyToID != nil
        return Facts(index: index, configuratorIndex: configuratorIndex, sender: model.senderName,
                     direction: model.direction, time: model.date.timeIntervalSince1970,
                     day: clock.day(of: model.date), drawsBubble: drawsBubble,
                     hasReply: drawsBubble && (model.replyToID != nil || forwardedFrom != nil),
                     quoteWidth: forwardedFrom.map(addsReply ? footerWidths.forwardReplyPrefixWidth(from:)
                                                              : footerWidths.forwardQuoteWidth(from:)) ?? 0,
                     quoteAddsReply: addsReply,
                     showsFooterAlways: model.isEdited || model.status == .failed,
                     footerWidth: footerWidths.width(status: model.status, isEdited: model.isEdited, style: clock.style,
                                                     twoDigitHour: clock.hasTwoDigitHour(at: model.date)))
    }
}
