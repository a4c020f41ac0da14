import BubbleLayout
import BubbleLogs
import BubbleText
import Foundation

/// A window of the timeline, laid out (see `StreamingLayout`).
typealias LaidOutChunk = BatchLayout

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

    /// Streams `reader` through layout, handing each laid-out window to `consume` in input order.
    /// `idle` runs whenever no input is waiting (flush output there, so a reader downstream sees
    /// the rows so far). Returns the reader's counts; diagnostics go to `errors` as they come.
    func run(_ reader: LogReader, errors: TextSink, progress: ((Int) -> Void)? = nil, idle: () throws -> Void = {},
             consume: (LaidOutChunk) throws -> Void) throws -> LogCounts {
        var layout = StreamingLayout(engine: engine, widths: widths, options: decorationOptions, remembering: remembering)
        let feed = EntryFeed(reader: reader, capacity: 2 * chunkSize)
        var messagesSeen = 0
        var repeatedIDs = RepeatedIDReport()
        var ended = false
        do {
            while !ended {
                let taken = try feed.take(max: chunkSize, beforeWaiting: {
                    try errors.flush()
                    try idle()
                })
                ended = taken.ended
                for entry in taken.entries {
                    switch entry {
                    case .message(let record, let position):
                        try repeatedIDs.note(record, at: position, errors: errors)
                        layout.append(record)
                        messagesSeen += 1
                    case .diagnostic(let diagnostic):
                        try errors.write("\(diagnostic)\n")
                    }
                }
                if layout.waiting > 0 || ended {
                    try consume(layout.flush(final: ended))
                    progress?(messagesSeen)
                }
            }
        } catch {
            feed.stop()
            throw error
        }
        try repeatedIDs.finish(errors: errors)
        return reader.counts
    }
}

/// Reads a `LogReader` on a thread of its own into a bounded queue, so reading and decoding run
/// beside layout. `take` hands over everything read so far.
final class EntryFeed: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [LogEntry] = []
    private var ended = false
    private var stopped = false
    private var consumerWaiting = false
    private var producerWaiting = false
    private let capacity: Int

    init(reader: LogReader, capacity: Int) {
        self.capacity = capacity
        queue.reserveCapacity(capacity)
        let box = ReaderBox(reader: reader)
        let thread = Thread { [self] in produce(box.reader) }
        thread.start()
    }

    private func produce(_ reader: LogReader) {
        for entry in reader {
            condition.lock()
            while queue.count >= capacity && !stopped {
                producerWaiting = true
                condition.wait()
            }
            producerWaiting = false
            if stopped {
                condition.unlock()
                return
            }
            queue.append(entry)
            if consumerWaiting { condition.signal() }
            condition.unlock()
        }
        condition.lock()
        ended = true
        condition.signal()
        condition.unlock()
    }

    /// Everything read so far (at most `max` entries), waiting for at least one entry or the end;
    /// `beforeWaiting` runs first when there is nothing yet. `ended` is true once the reader is
    /// done and everything it read has been taken: its counts are final then.
    func take(max: Int, beforeWaiting: () throws -> Void) throws -> (entries: ArraySlice<LogEntry>, ended: Bool) {
        condition.lock()
        if queue.isEmpty && !ended {
            condition.unlock()
            try beforeWaiting()
            condition.lock()
            while queue.isEmpty && !ended {
                consumerWaiting = true
                condition.wait()
            }
            consumerWaiting = false
        }
        let entries: ArraySlice<LogEntry>
        if queue.count <= max {
            entries = queue[...]
            queue = []
            queue.reserveCapacity(capacity)
        } else {
            entries = queue[..<max]
            queue = Array(queue[max...])
        }
        let done = ended && queue.isEmpty
        if producerWaiting { condition.signal() }
        condition.unlock()
        return (entries, done)
    }

    /// Tells the reader thread to stop at its next entry (the output has gone away).
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }
}

/// Hands the reader to its thread; only that thread uses it until the feed has ended.
private struct ReaderBox: @unchecked Sendable {
    let reader: LogReader
}
