import BubbleText
import Dispatch

/// Lays out a timeline as it streams in, a window at a time: `append` messages as they arrive,
/// then `flush` lays out (on all cores) every row that is decided so far and hands them back
/// in timeline order. Memory holds one window of messages, not the log.
///
/// A row is decided once the next message of its conversation has arrived, since that message
/// says whether the row's group ends (its footer and spacing). So each conversation's last message
/// is held back at a flush and comes out in a later one, or at the final flush. Nothing else is
/// looked ahead at: a row's layout never depends on messages more than one ahead, which is what
/// makes flushing at any moment, and splitting a stream by conversation, give the same rows.
/// For the same reason the number of other parties (names on or off) is counted as senders
/// appear, unless the options give it.
public struct StreamingLayout<Measurer: TextMeasurer> {
    /// The engine laying rows out.
    public let engine: LayoutEngine<Measurer>
    /// The container widths every row is laid out at.
    public let widths: [Int]
    /// Whether layouts go through the engine's cache and prepared-text store (see `init`).
    public let remembering: Bool
    private var decorator: TimelineDecorator
    /// The window: the messages held back at the last flush, then those appended since.
    private var window: [any MessageModel] = []
    /// Messages at the front of `window` already decorated (the held-back ones).
    private var decorated = 0
    /// Rows handed back so far.
    public private(set) var rowCount = 0

    /// A streaming layout at `widths` with `engine`, decorated with `options`. With `remembering`
    /// false the engine's layout cache and prepared-text store are neither read nor filled: right
    /// for a one-pass filter, where each message is laid out once (at every width, from one
    /// preparing of its text), and memory then holds the window and nothing that grows with the log.
    public init(engine: LayoutEngine<Measurer>, widths: [Int], options: DecorationOptions = DecorationOptions(),
                remembering: Bool = true) {
        self.engine = engine
        self.widths = widths
        self.remembering = remembering
        decorator = TimelineDecorator(options: options, registry: engine.registry, footerWidths: engine.footerWidths)
    }

    /// Messages appended since the last flush.
    public var waiting: Int { window.count - decorated }

    /// Takes the next message of the stream.
    public mutating func append(_ model: any MessageModel) { window.append(model) }

    /// Decorates the messages appended since the last flush and lays out every row now decided;
    /// `final` (at the end of the input) also lets out the held-back rows. Throws for a kind no
    /// cell is registered for.
    public mutating func flush(final: Bool = false) throws(LayoutError) -> BatchLayout {
        let window = try decorateWindow(final: final)
        return BatchLayout(rows: window.rows, widths: widths,
                           layouts: engine.layoutRows(window.rows, of: window.models, widths: widths, remembering: remembering),
                           models: window.models, firstRowNumber: window.firstRowNumber)
    }

    /// `flush(final:)`, with the layout done on other threads while the caller goes on: the
    /// decoration is done here (it is sequential, and the next window's depends on it), and the
    /// rows are laid out on all cores in the background; `PendingBatch.wait()` gives the batch
    /// `flush` would have. So a filter can write one window while the next is laid out, and its
    /// own serial work (decorating, formatting, writing) no longer leaves a core idle at each
    /// window's end. Windows started one after another may be laid out at the same time; the
    /// caller takes them in the order it started them.
    public mutating func startFlush(final: Bool = false) throws(LayoutError) -> PendingBatch {
        let window = try decorateWindow(final: final)
        let engine = self.engine, widths = self.widths, remembering = self.remembering
        return PendingBatch {
            BatchLayout(rows: window.rows, widths: widths,
                        layouts: engine.layoutRows(window.rows, of: window.models, widths: widths, remembering: remembering),
                        models: window.models, firstRowNumber: window.firstRowNumber)
        }
    }

    /// The flush's sequential part: decorates the messages appended since the last flush, counts
    /// the rows, and keeps the held-back messages as the next window. Returns the decided rows
    /// and the messages they index into.
    private mutating func decorateWindow(final: Bool) throws(LayoutError)
        -> (rows: [DecoratedRow], models: [any MessageModel], firstRowNumber: Int) {
        var rows: [DecoratedRow] = []
        rows.reserveCapacity(window.count - decorated + 1)
        for i in decorated..<window.count { try decorator.push(window[i], index: i, into: &rows) }
        if final { decorator.finish(into: &rows) }
        let models = window
        let firstRowNumber = rowCount
        rowCount += rows.count
        // The held-back messages lead the next window, renumbered in order.
        let pending = decorator.pendingIndices
        var next: [any MessageModel] = []
        next.reserveCapacity(max(pending.count, window.count))
        for index in pending { next.append(window[index]) }
        decorator.movePending { old in Self.position(of: old, in: pending) }
        window = next
        decorated = window.count
        return (rows, models, firstRowNumber)
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

/// A window being laid out in the background (`StreamingLayout.startFlush`). Its owner waits for
/// it, from one thread.
public final class PendingBatch: @unchecked Sendable {
    /// Signalled once, when `batch` is written.
    private let finished = DispatchSemaphore(value: 0)
    /// Written once by the layout task before `finished` is signalled, read only after it is.
    private var batch: BatchLayout?
    /// Whether the owner has waited already (read and written by the owner alone).
    private var received = false

    /// Starts `layOut` on a global queue (from where `layoutRows` spreads over all cores).
    init(_ layOut: @escaping @Sendable () -> BatchLayout) {
        DispatchQueue.global().async { [self] in
            batch = layOut()
            finished.signal()
        }
    }

    /// The laid-out window, waiting for it if it is not done yet.
    public func wait() -> BatchLayout {
        if !received {
            finished.wait()
            received = true
        }
        return batch.unsafelyUnwrapped
    }
}
