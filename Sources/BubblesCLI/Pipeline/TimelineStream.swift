import BubbleLayout
import BubbleLogs
import BubbleText

/// A window of the timeline, laid out: the rows decided so far and their layouts at each width.
struct LaidOutChunk {
    /// The models the rows index into (by `DecoratedRow.messageIndex`).
    let models: [any MessageModel]
    let rows: [DecoratedRow]
    let widths: [Int]
    /// Width-major, as `LayoutEngine.layoutRows` returns them.
    let layouts: [RowLayout]
    /// Input position of the first row of this chunk in the whole timeline.
    let firstRowNumber: Int

    func layout(row: Int, widthIndex: Int) -> RowLayout { layouts[widthIndex * rows.count + row] }
}

/// Reads a log as a stream, reports each rejected record on stderr, decorates the messages and
/// lays them out a chunk at a time on all cores. Memory holds one chunk of models, not the log.
struct TimelineStream {
    let engine: LayoutEngine<CellMeasurer>
    let widths: [Int]
    var decorationOptions: DecorationOptions
    /// Messages laid out together; large enough to keep every core busy.
    var chunkSize = 8192

    /// Streams `reader` through layout, handing each laid-out chunk to `consume` in input order.
    /// Returns the reader's counts; diagnostics go to `errors` as they come.
    func run(_ reader: LogReader, errors: TextSink, progress: ((Int) -> Void)? = nil,
             consume: (LaidOutChunk) throws -> Void) throws -> LogCounts {
        var window: [any MessageModel] = []
        var decorator: Decorator?
        var pendingModel: (any MessageModel)?
        var rowNumber = 0
        var messagesSeen = 0
        var repeatedIDs = RepeatedIDReport()

        func flush(final: Bool) throws {
            if decorator == nil {
                var options = decorationOptions
                // Names depend on how many people talk: count them over the whole first chunk rather
                // than letting its first rows guess from one sender. With fewer than two there, the
                // decorator keeps counting as new senders appear.
                if options.otherParties == nil, let senders = Self.incomingSenders(in: window, registry: engine.registry),
                   senders > 1 {
                    options.otherParties = senders
                }
                decorator = Decorator(options: options, registry: engine.registry, footerWidths: engine.footerWidths)
            }
            // A chunk's last message is decided by the next chunk's first, so the decorator holds it
            // back. It is pushed under a sentinel index and leads the next window at index 0.
            var models: [any MessageModel] = []
            models.reserveCapacity(window.count + 1)
            if let pendingModel { models.append(pendingModel) }
            let base = models.count
            models += window
            var rows: [DecoratedRow] = []
            for (offset, model) in window.enumerated() {
                let index = offset == window.count - 1 ? Self.heldBack : offset + base
                let emitted = try decorator!.push(model, index: index)
                rows += offset == 0 ? emitted.map { Self.resolveHeldBack($0, to: 0) } : emitted
            }
            if final {
                rows += decorator!.finish().map { Self.resolveHeldBack($0, to: models.count - 1) }
            }
            let layouts = engine.layoutRows(rows, of: models, widths: widths)
            try consume(LaidOutChunk(models: models, rows: rows, widths: widths, layouts: layouts, firstRowNumber: rowNumber))
            rowNumber += rows.count
            pendingModel = final ? nil : window.last
            window.removeAll(keepingCapacity: true)
        }

        for entry in reader {
            switch entry {
            case .message(let record, let position):
                try repeatedIDs.note(record, at: position, errors: errors)
                window.append(record)
                messagesSeen += 1
                if window.count >= chunkSize {
                    try flush(final: false)
                    progress?(messagesSeen)
                }
            case .diagnostic(let diagnostic):
                try errors.write("\(diagnostic)\n")
            }
        }
        try flush(final: true)
        try repeatedIDs.finish(errors: errors)
        progress?(messagesSeen)
        return reader.counts
    }

    /// Stands for "the message held back": far from any real index, and not negative, which
    /// would mark a date separator.
    static let heldBack = Int.max >> 1

    static func resolveHeldBack(_ row: DecoratedRow, to index: Int) -> DecoratedRow {
        row.messageIndex == heldBack ? row.shifted(by: index - heldBack) : row
    }

    static func incomingSenders(in models: [any MessageModel], registry: CellRegistry) -> Int? {
        var senders: Set<String> = []
        for model in models where model.direction == .incoming {
            if let index = try? registry.index(for: model), registry.configurators[index].drawsBubble {
                senders.insert(model.senderName ?? "")
            }
        }
        return senders.isEmpty ? nil : senders.count
    }
}
