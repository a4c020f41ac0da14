import BubbleLayout
import BubbleLogs
import BubbleText
import Foundation

/// Runs a log through `StreamingLayout` as a filter: a reader thread reads and decodes while this
/// one lays out and writes, and each window is handed on as soon as it is laid out. A window is
/// whatever has arrived (at most `chunkSize` messages), so from a slow pipe rows come out as their
/// messages come in, each held back only until the next message of its conversation arrives.
/// Memory holds about two windows of messages, not the log.
struct TimelineStream<Measurer: TextMeasurer> {
    let engine: LayoutEngine<Measurer>
    let widths: [Int]
    var decorationOptions: DecorationOptions
    /// Messages laid out together at most; large enough to keep every core busy.
    var chunkSize = 8192
    /// Whether layouts go through the engine's cache and text store (`StreamingLayout.remembering`).
    var remembering = true
    /// Whether rows come out in input order across conversations too (`StreamingLayout.inInputOrder`):
    /// what a transcript needs; `heights` keeps each conversation's order only, so memory stays bounded.
    var inInputOrder = false
    /// Whether each window keeps its rows' prepared texts and lines (`StreamingLayout.keepingTexts`),
    /// for a writer that draws them; only without `remembering`.
    var keepingTexts = false

    /// Streams `reader` through layout, handing each laid-out window to `consume` in input order.
    /// `idle` runs whenever no input is waiting (flush output there, so a reader downstream sees
    /// the rows so far). Returns the reader's counts; diagnostics go to `errors` as they come.
    func run(_ reader: LogReader, errors: TextSink, progress: ((Int) -> Void)? = nil, idle: () throws -> Void = {},
             consume: (BatchLayout) throws -> Void) throws -> LogCounts {
        try run(reader, errors: errors, progress: progress, idle: idle, finishing: nil as (@Sendable (LaidOutRows) -> Void)?) { chunk, _ in
            try consume(chunk)
        }
    }

    /// `run`, each layout task of a window handing its rows to `finishing` on its own thread as
    /// soon as they are laid out (formatting them, say, so that runs on all cores beside layout
    /// rather than on this thread after it); `consume` gets the window and the tasks' parts in row
    /// order. A window's records are freed on the reading thread, which has time to spare when this
    /// one has not.
    func run<Part: Sendable>(_ reader: LogReader, errors: TextSink, progress: ((Int) -> Void)? = nil,
                             idle: () throws -> Void = {}, finishing: (@Sendable (LaidOutRows) -> Part)?,
                             consume: (BatchLayout, [Part]) throws -> Void) throws -> LogCounts {
        var layout = StreamingLayout(engine: engine, widths: widths, options: decorationOptions, remembering: remembering,
                                     inInputOrder: inInputOrder, keepingTexts: keepingTexts)
        let feed = EntryFeed(reader: reader, capacity: 2 * chunkSize)
        var messagesSeen = 0
        var repeatedIDs = RepeatedIDReport()
        var diagnostics = DiagnosticList()
        var ended = false
        do {
            while !ended {
                let taken = try feed.take(max: chunkSize, beforeWaiting: {
                    try errors.flush()
                    try idle()
                })
                ended = taken.ended
                for entry in taken.entries {
                    // Consumed, not copied: each copy of an entry retains and releases its record.
                    switch consume entry {
                    case .message(let model, let position):
                        try repeatedIDs.note(model, at: position, errors: errors)
                        layout.append(model)
                        messagesSeen += 1
                        diagnostics.noteRecord()
                    case .diagnostic(let diagnostic):
                        try diagnostics.report(diagnostic, to: errors)
                    }
                }
                if layout.waiting > 0 || ended {
                    if let finishing {
                        let (chunk, parts) = try layout.flush(final: ended, finishing: finishing)
                        try consume(chunk, parts)
                        feed.free(chunk)
                    } else {
                        let chunk = try layout.flush(final: ended)
                        try consume(chunk, [])
                        feed.free(chunk)
                    }
                    progress?(messagesSeen)
                }
            }
        } catch {
            feed.stop()
            throw error
        }
        try repeatedIDs.finish(errors: errors)
        try diagnostics.finish(errors: errors)
        return reader.counts
    }
}

/// What the reading thread hands over: a log entry with its record already made the layout's
/// model (the box that takes is made there, not on the thread that lays out).
enum FeedEntry: Sendable {
    case message(any MessageModel, LogPosition)
    case diagnostic(LogDiagnostic)
}

/// Reads a `LogReader` on a thread of its own into a bounded queue, so reading and decoding run
/// beside layout. `take` hands over everything read so far. The same thread frees what `free` is
/// given (a laid-out window's records and rows), so that work leaves the thread that lays out.
///
/// Its state is read and written only with `condition` locked, so no two accesses overlap: it is
/// kept in a `ConfinedStorage`, without run-time exclusivity checks (two an entry otherwise).
final class EntryFeed: @unchecked Sendable {
    private let condition = NSCondition()
    private let state = ConfinedStorage(State())

    private struct State {
        var queue: [FeedEntry] = []
        var ended = false
        var stopped = false
        var consumerWaiting = false
        var producerWaiting = false
        /// What the reading thread is to free, oldest first.
        var garbage: [BatchLayout] = []
    }
    private let capacity: Int

    init(reader: LogReader, capacity: Int) {
        self.capacity = capacity
        state.value.queue.reserveCapacity(capacity)
        let box = ReaderBox(reader: reader)
        let thread = Thread { [self] in produce(box.reader) }
        thread.start()
    }

    private func produce(_ reader: LogReader) {
        for entry in reader {
            // Made the layout's model here: the new box and the copy into it cost this thread, not the consumer.
            let item: FeedEntry
            switch consume entry {
            case .message(let record, let position): item = .message(record, position)
            case .diagnostic(let diagnostic): item = .diagnostic(diagnostic)
            }
            condition.lock()
            while true {
                if state.value.stopped {
                    condition.unlock()
                    return
                }
                if let freeing = takeGarbage() {
                    // Freed outside the lock, so the consumer is not held up meanwhile.
                    condition.unlock()
                    drop(freeing)
                    condition.lock()
                    continue
                }
                if state.value.queue.count < capacity { break }
                state.value.producerWaiting = true
                condition.wait()
                state.value.producerWaiting = false
            }
            state.value.queue.append(consume item)
            if state.value.consumerWaiting { condition.signal() }
            condition.unlock()
        }
        condition.lock()
        state.value.ended = true
        condition.signal()
        // What is given after the end is freed by the thread that gives it (see `free`).
        let freeing = takeGarbage()
        condition.unlock()
        drop(freeing)
    }

    /// The garbage given so far, taken out of the feed (with `condition` locked).
    private func takeGarbage() -> [BatchLayout]? {
        guard !state.value.garbage.isEmpty else { return nil }
        let freeing = state.value.garbage
        state.value.garbage = []
        return freeing
    }

    /// Frees `items` here, outside the lock.
    private func drop(_ items: consuming [BatchLayout]?) {
        _ = consume items
    }

    /// Hands `window` to the reading thread to free, or frees it here once that thread is done.
    func free(_ window: consuming BatchLayout) {
        condition.lock()
        guard !state.value.ended && !state.value.stopped else {
            condition.unlock()
            return
        }
        state.value.garbage.append(window)
        if state.value.producerWaiting { condition.signal() }
        condition.unlock()
    }

    /// Everything read so far (at most `max` entries), waiting for at least one entry or the end;
    /// `beforeWaiting` runs first when there is nothing yet. `ended` is true once the reader is
    /// done and everything it read has been taken: its counts are final then.
    func take(max: Int, beforeWaiting: () throws -> Void) throws -> (entries: ArraySlice<FeedEntry>, ended: Bool) {
        condition.lock()
        if state.value.queue.isEmpty && !state.value.ended {
            condition.unlock()
            try beforeWaiting()
            condition.lock()
            while state.value.queue.isEmpty && !state.value.ended {
                state.value.consumerWaiting = true
                condition.wait()
            }
            state.value.consumerWaiting = false
        }
        let entries: ArraySlice<FeedEntry>
        if state.value.queue.count <= max {
            entries = state.value.queue[...]
            state.value.queue = []
            state.value.queue.reserveCapacity(capacity)
        } else {
            entries = state.value.queue[..<max]
            state.value.queue = Array(state.value.queue[max...])
        }
        let done = state.value.ended && state.value.queue.isEmpty
        if state.value.producerWaiting { condition.signal() }
        condition.unlock()
        return (entries, done)
    }

    /// Tells the reader thread to stop at its next entry (the output has gone away).
    func stop() {
        condition.lock()
        state.value.stopped = true
        condition.signal()
        condition.unlock()
    }
}

/// Hands a reader to another thread; only that thread uses it from then on (until it hands it back).
struct ReaderBox: @unchecked Sendable {
    let reader: LogReader
}
