import BubbleText

/// Lays out a timeline as it streams in, a window at a time: `append` messages as they arrive,
/// then `flush` lays out (on all cores) every row that is decided so far and hands them back
/// in timeline order. Memory holds one window of messages, not the log.
///
/// A row is decided once the next message of its conversation has arrived, since that message
/// says whether the row's group ends (its footer and spacing). So each conversation's last message
/// is held back at a flush and comes out in a later one, or at the final flush. The one other
/// look ahead is whether a conversation shows names (`PartyWindow`): its rows are held back until a
/// second other party speaks or its first 32 messages are in. Nothing else is looked at, which
/// is what makes flushing at any moment, reading the whole log at once, and splitting a stream by
/// conversation give the same rows.
///
/// Rows come out in each conversation's input order; rows of different conversations may come out
/// of input order (a conversation's last message waits for its next one, or the end, while
/// others go on). With `inInputOrder` they come out in input order across conversations too, as a
/// transcript is read: a row then also waits for every earlier message's row, so the window holds
/// the messages from the earliest undecided one on (the whole tail of a log whose first
/// conversation ends early, at worst).
package struct StreamingLayout<Measurer: TextMeasurer> {
    /// The engine laying rows out.
    package let engine: LayoutEngine<Measurer>
    /// The container widths every row is laid out at.
    package let widths: [Int]
    /// Whether layouts go through the engine's cache and prepared-text store (see `init`).
    package let remembering: Bool
    /// Whether each batch keeps its rows' texts as they were prepared and broken into lines
    /// (`BatchLayout.keptTexts`), for a caller that draws the rows; only without `remembering`.
    package let keepingTexts: Bool
    private var decorator: TimelineDecorator
    /// The window: the messages held back at the last flush, then those appended since.
    private var window: [any MessageModel] = []
    /// Messages at the front of `window` already decorated (the held-back ones).
    private var decorated = 0
    /// Rows handed back so far.
    package private(set) var rowCount = 0
    /// Whether rows are handed back in input order across conversations (see the type's comment).
    package let inInputOrder: Bool
    /// With `inInputOrder`: rows decided but waiting for an earlier message's row.
    private var waitingRows: [DecoratedRow] = []

    /// A streaming layout at `widths` with `engine`, decorated with `options`. With `remembering`
    /// false the engine's layout cache and prepared-text store are neither read nor filled: right
    /// for a one-pass filter, where each message is laid out once (at every width, from one
    /// preparing of its text), and memory then holds the window and nothing that grows with the log.
    package init(engine: LayoutEngine<Measurer>, widths: [Int], options: DecorationOptions = DecorationOptions(),
                remembering: Bool = true, inInputOrder: Bool = false, keepingTexts: Bool = false) {
        precondition(!(remembering && keepingTexts), "StreamingLayout: texts are kept only by a layout without cache and store")
        self.engine = engine
        self.widths = widths
        self.remembering = remembering
        self.keepingTexts = keepingTexts
        self.inInputOrder = inInputOrder
        decorator = TimelineDecorator(options: options, registry: engine.registry, footerWidths: engine.footerWidths)
    }

    /// Messages appended since the last flush.
    package var waiting: Int { window.count - decorated }

    /// Takes the next message of the stream.
    package mutating func append(_ model: any MessageModel) { window.append(model) }

    /// Decorates the messages appended since the last flush and lays out every row now decided;
    /// `final` (at the end of the input) also lets out the held-back rows. Throws for a kind no
    /// cell is registered for.
    package mutating func flush(final: Bool = false) throws(LayoutError) -> BatchLayout {
        let rows = try decorate(final: final)
        let batch: BatchLayout
        if keepingTexts {
            let (layouts, kept) = engine.layoutRowsKeepingTexts(rows, of: window, widths: widths)
            batch = BatchLayout(rows: rows, widths: widths, layouts: layouts, models: window, firstRowNumber: rowCount, keptTexts: kept)
        } else {
            batch = BatchLayout(rows: rows, widths: widths, layouts: engine.layoutRows(rows, of: window, widths: widths, remembering: remembering),
                                models: window, firstRowNumber: rowCount)
        }
        advance(past: rows.count)
        return batch
    }

    /// `flush`, each task of the layout then handing its rows to `finishing` on its own thread as
    /// soon as they are laid out (see `LaidOutRows`): what is done with the rows runs on all cores
    /// beside layout. Returns the window and each task's part, in row order.
    package mutating func flush<Part: Sendable>(final: Bool = false, finishing: @Sendable (LaidOutRows) -> Part)
        throws(LayoutError) -> (batch: BatchLayout, parts: [Part]) {
        let rows = try decorate(final: final)
        let (layouts, parts) = engine.layoutRows(rows, of: window, widths: widths, remembering: remembering,
                                                 firstRowNumber: rowCount, finishing: finishing)
        let batch = BatchLayout(rows: rows, widths: widths, layouts: layouts, models: window, firstRowNumber: rowCount)
        advance(past: rows.count)
        return (batch, parts)
    }

    /// The rows of the messages appended since the last flush (and, when `final`, the held-back ones).
    private mutating func decorate(final: Bool) throws(LayoutError) -> [DecoratedRow] {
        var rows: [DecoratedRow] = []
        rows.reserveCapacity(window.count - decorated + 1)
        for i in decorated..<window.count { try decorator.push(window[i], index: i, into: &rows) }
        if final { decorator.finish(into: &rows) }
        guard inInputOrder else { return rows }
        // Only rows above the earliest held-back message are in input order yet; a separator
        // comes before the message it stands above.
        let limit = decorator.pendingIndices.first ?? Int.max
        var ready: [DecoratedRow] = []
        var later: [DecoratedRow] = []
        for row in waitingRows + rows {
            if row.anchorIndex < limit { ready.append(row) } else { later.append(row) }
        }
        waitingRows = later
        ready.sort { ($0.anchorIndex, $0.isDateSeparator ? 0 : 1) < ($1.anchorIndex, $1.isDateSeparator ? 0 : 1) }
        return ready
    }

    /// Counts `laidOut` rows as handed back and starts the next window with the held-back messages.
    private mutating func advance(past laidOut: Int) {
        rowCount += laidOut
        if inInputOrder {
            // The next window starts at the earliest held-back message: the rows waiting refer to
            // it and those after it.
            let start = decorator.pendingIndices.first ?? window.count
            window.removeFirst(start)
            decorated = window.count
            decorator.movePending { $0 - start }
            waitingRows = waitingRows.map { $0.moved(by: -start) }
            return
        }
        // The held-back messages lead the next window, renumbered in order.
        let pending = decorator.pendingIndices
        var next: [any MessageModel] = []
        next.reserveCapacity(max(pending.count, window.count))
        for index in pending { next.append(window[index]) }
        decorator.movePending { old in Self.position(of: old, in: pending) }
        window = next
        decorated = window.count
    }

    /// The position of `value` in the sorted `array`, which holds it.
    private static func position(of value: Int, in array: [Int]) -> Int {
        var low = 0, high = array.count - 1
        while low < high {
            let mid = (low + high) / 2
            if array[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
