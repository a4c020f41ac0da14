import BubbleText
import Dispatch
import Synchronization

/// A log, or one streamed window of it, laid out at one or more widths: its decorated rows, and a
/// layout per row and width.
package struct BatchLayout: Sendable {
    /// The rows in timeline order: date separators and messages.
    package let rows: [DecoratedRow]
    /// The number of rows: date separators and messages, in timeline order.
    package var rowCount: Int { rows.count }
    /// The container widths, in the order asked for.
    package let widths: [Int]
    /// `rows.count` layouts per width, width after width.
    package let layouts: [RowLayout]
    /// The messages `rows` index into (`DecoratedRow.messageIndex`).
    package let models: [any MessageModel]
    /// The position of the first row in the whole timeline (non-zero for a streamed window).
    package let firstRowNumber: Int
    /// The texts the layout prepared and broke into lines, when it kept them
    /// (`layoutRowsKeepingTexts`): a `KeptTextsOfRows` of the measurer's prepared type.
    package let keptTexts: (AnyObject & Sendable)?

    package init(rows: [DecoratedRow], widths: [Int], layouts: [RowLayout], models: [any MessageModel],
                firstRowNumber: Int = 0, keptTexts: (AnyObject & Sendable)? = nil) {
        self.rows = rows
        self.widths = widths
        self.layouts = layouts
        self.models = models
        self.firstRowNumber = firstRowNumber
        self.keptTexts = keptTexts
    }

    /// The layout of row `row` at `widths[widthIndex]`.
    package func layout(row: Int, widthIndex: Int) -> RowLayout { layouts[widthIndex * rows.count + row] }

    /// The texts of row `row` at `widths[widthIndex]` as the layout prepared and broke them, when
    /// it kept them and its measurer prepares `Prepared`; nil otherwise.
    package func keptTexts<Prepared: Sendable>(row: Int, widthIndex: Int, as _: Prepared.Type) -> KeptTexts<Prepared>? {
        (keptTexts as? KeptTextsOfRows<Prepared>)?.slots[widthIndex * rows.count + row]
    }

    /// The sum of the row heights at `widths[widthIndex]`.
    package func totalHeight(widthIndex: Int) -> Int {
        layouts[widthIndex * rows.count ..< (widthIndex + 1) * rows.count].reduce(0) { $0 + $1.height }
    }

    /// All the rows as one `LaidOutRows`, so what works on a task's share of a layout works on a
    /// whole one alike.
    package func withAllRows<R>(_ body: (LaidOutRows) throws -> R) rethrows -> R {
        try layouts.withElementsView { layouts in
            try body(LaidOutRows(rows: rows, models: models, widths: widths, range: 0..<rows.count,
                                 firstRowNumber: firstRowNumber, layouts: layouts))
        }
    }
}

/// A row's texts as its layout measured them at one width, kept for whoever draws the row so it
/// neither prepares nor breaks them again: each text prepared once, and its lines at the wrap
/// width its cell measured it at (`TextMeasurer.layout`, whose count and widest line are the
/// metrics the cell was given).
package struct KeptTexts<Prepared: Sendable>: Sendable {
    /// A text prepared, its lines, and the width they were broken at.
    package struct Text: Sendable {
        package let prepared: Prepared
        package let lines: TextLayout
        package let width: Int
    }

    /// Part 0: the message text, caption or notice.
    package var text: Text?
    /// An image of unknown size's label (`ImageContent.labelPart`).
    package var label: Text?

    package init() {}
}

/// Every row's `KeptTexts` of one layout, width-major as `BatchLayout.layouts`.
package final class KeptTextsOfRows<Prepared: Sendable>: Sendable {
    package let slots: [KeptTexts<Prepared>]

    init(_ slots: [KeptTexts<Prepared>]) { self.slots = slots }
}

/// The rows one task of a parallel layout has just laid out at every width, handed (on that
/// task's thread) to the caller's `finishing` closure, so that what is done with laid-out rows
/// (formatting them for output, say) runs on all cores beside layout instead of after it on one.
/// Valid only during that call; only the layouts of `range` may be read, as other tasks are still
/// writing theirs.
package struct LaidOutRows {
    /// Every row of the window, in timeline order (only `range` is this task's).
    package let rows: [DecoratedRow]
    /// The messages `rows` index into.
    package let models: [any MessageModel]
    /// The container widths, in the order asked for.
    package let widths: [Int]
    /// The rows laid out: theirs are the only layouts that may be read.
    package let range: Range<Int>
    /// The position of the window's first row in the whole timeline.
    package let firstRowNumber: Int
    let layouts: ElementsView<RowLayout>

    /// The layout of row `row` (in `range`) at `widths[widthIndex]`.
    package func layout(row: Int, widthIndex: Int) -> RowLayout {
        precondition(range.contains(row) && widths.indices.contains(widthIndex), "LaidOutRows: row or width out of range")
        return layouts[widthIndex * rows.count + row]
    }

    /// The layouts, width-major (`rows.count` a width), for a loop that reads `range`'s without a
    /// check per read in release builds; the rest of the buffer may still be being written.
    package func withLayouts<R>(_ body: (ElementsView<RowLayout>) throws -> R) rethrows -> R {
        try body(layouts)
    }
}

/// One `layoutRows` call's shared state. Tasks write disjoint rows of `output`.
private struct RowsJob<Measurer: TextMeasurer>: Sendable {
    let engine: LayoutEngine<Measurer>
    let rows: [DecoratedRow]
    let models: [any MessageModel]
    let widths: [Int]
    let remembering: Bool
    let output: ParallelOutput<RowLayout>
    /// Where each row's kept texts go (at `output`'s places), when the texts are kept.
    var kept: ParallelOutput<KeptTexts<Measurer.Prepared>>? = nil

    @_specialize(where Measurer == CellMeasurer)
    func run(_ range: Range<Int>) {
        var readers = ContentReaders()
        if let kept {
            for r in range {
                engine.layoutRowKeepingTexts(rows[r], of: models, widths: widths, readers: &readers, into: output,
                                             keeping: kept, at: r, stride: rows.count)
            }
            return
        }
        for r in range {
            engine.layoutRow(rows[r], of: models, widths: widths, readers: &readers, into: output, at: r, stride: rows.count,
                             remembering: remembering)
        }
    }

    /// Task `task`'s rows laid out, then handed to `finishing`, whose result goes to `parts[task]`.
    func run<Part>(_ range: Range<Int>, task: Int, firstRowNumber: Int, finishing: (LaidOutRows) -> Part,
                   parts: ParallelOutput<Part>) {
        run(range)
        let laidOut = LaidOutRows(rows: rows, models: models, widths: widths, range: range, firstRowNumber: firstRowNumber,
                                  layouts: output.view)
        parts.initialize(task, to: finishing(laidOut))
    }
}

extension LayoutEngine {
    /// Lays out `models` (in timeline order) at each of `widths`, on all cores, sharing the cache.
    /// Decorations are decided first in one cheap sequential pass, since they need neighbours;
    /// then chunks of rows are laid out in parallel, each worker with its own content readers. The
    /// output keeps input order. Throws before any layout if a kind has no registered cell.
    package func layoutBatch(_ models: [any MessageModel], widths: [Int],
                            options: DecorationOptions = DecorationOptions()) throws(LayoutError) -> BatchLayout {
        let rows = try decorate(models, options: options)
        return BatchLayout(rows: rows, widths: widths, layouts: layoutRows(rows, of: models, widths: widths), models: models)
    }

    /// Lays out already decorated rows at each of `widths`, in parallel; width-major order.
    /// A row is laid out at all widths by one task: its text is prepared (or found in the store)
    /// once, and each further width only measures the prepared text again. Without `remembering`
    /// the layout cache and the prepared-text store are neither read nor filled (see `StreamingLayout`).
    package func layoutRows(_ rows: [DecoratedRow], of models: [any MessageModel], widths: [Int],
                           remembering: Bool = true) -> [RowLayout] {
        let total = rows.count * widths.count
        guard total > 0 else { return [] }
        let split = ParallelRows(count: rows.count, minimumPerTask: max(64, 1024 / widths.count))
        let output = ParallelOutput<RowLayout>(count: total)
        let job = RowsJob(engine: self, rows: rows, models: models, widths: widths, remembering: remembering,
                          output: output)
        split.run { task in job.run(split.range(ofTask: task)) }
        return output.finish()
    }

    /// `layoutRows` without cache or store (`remembering` false), each row's texts kept as it was
    /// laid out (`KeptTexts`): for a caller that draws every row once and would otherwise prepare
    /// and break its texts again. The kept texts go with the layouts, so they are freed with them.
    package func layoutRowsKeepingTexts(_ rows: [DecoratedRow], of models: [any MessageModel], widths: [Int])
        -> (layouts: [RowLayout], kept: KeptTextsOfRows<Measurer.Prepared>) {
        let total = rows.count * widths.count
        guard total > 0 else { return ([], KeptTextsOfRows([])) }
        let split = ParallelRows(count: rows.count, minimumPerTask: max(64, 1024 / widths.count))
        let output = ParallelOutput<RowLayout>(count: total)
        let kept = ParallelOutput<KeptTexts<Measurer.Prepared>>(count: total)
        let job = RowsJob(engine: self, rows: rows, models: models, widths: widths, remembering: false, output: output,
                          kept: kept)
        split.run { task in job.run(split.range(ofTask: task)) }
        let layouts = output.finish()
        return (layouts, KeptTextsOfRows(kept.finish()))
    }

    /// `layoutRows`, each task then handing its rows to `finishing` on its own thread as soon as
    /// they are laid out (see `LaidOutRows`); returns the layouts and each task's part, in row order.
    package func layoutRows<Part: Sendable>(_ rows: [DecoratedRow], of models: [any MessageModel], widths: [Int],
                                           remembering: Bool = true, firstRowNumber: Int = 0,
                                           finishing: @Sendable (LaidOutRows) -> Part) -> (layouts: [RowLayout], parts: [Part]) {
        let total = rows.count * widths.count
        guard total > 0 else { return ([], []) }
        let split = ParallelRows(count: rows.count, minimumPerTask: max(64, 1024 / widths.count))
        // One slot a task; `ParallelRows.run` runs each task once, and a task always ends by
        // filling its slot.
        let slots = ParallelOutput<Part>(count: split.tasks)
        let output = ParallelOutput<RowLayout>(count: total)
        let job = RowsJob(engine: self, rows: rows, models: models, widths: widths, remembering: remembering,
                          output: output)
        split.run { task in
            job.run(split.range(ofTask: task), task: task, firstRowNumber: firstRowNumber, finishing: finishing,
                    parts: slots)
        }
        return (output.finish(), slots.finish())
    }

    /// Lays out one decorated row at every width, writing width `w`'s layout at `output[w * stride]`.
    @_specialize(where Measurer == CellMeasurer)
    func layoutRow(_ row: DecoratedRow, of models: [any MessageModel], widths: [Int], readers: inout ContentReaders,
                   into output: ParallelOutput<RowLayout>, at first: Int, stride: Int, remembering: Bool) {
        guard let source = source(of: row, in: models, readers: &readers) else {
            // Not reached for rows a decorator made (it found this configurator for the model).
            for w in widths.indices {
                output.initialize(first + w * stride, to: layout(row, in: models, width: widths[w]))
            }
            return
        }
        // A row without an identity (a date separator) is not cached, and a one-pass batch caches nothing.
        guard remembering, let messageIndex = row.modelIndex else {
            layoutOnce(source, decoration: row.decoration, widths: widths, into: output, at: first, stride: stride)
            return
        }
        let model = models[messageIndex]
        let id = model.id
        let revision = model.revision
        let idHash = identityHash(id)
        // The content is stamped once for all widths (if `decorate` has not); it was read already.
        let stamp = row.stamp != .unused ? row.stamp
            : cache.stamp(id: id, idHash: idHash,
                          content: LayoutContent(cell: ObjectIdentifier(source.cell), direction: source.content.direction,
                                                 revision: revision, body: source.content.content))
        var texts = RowTexts<Measurer.Prepared>()
        for w in widths.indices {
            let result = layoutKeepingTexts(id: id, revision: revision, stamp: stamp, configuratorIndex: row.configuratorIndex,
                                            content: source.content, decoration: row.decoration, width: widths[w],
                                            idHash: idHash, texts: &texts)
            output.initialize(first + w * stride, to: result.layout)
        }
    }

    /// `layoutRow` with neither cache nor store, writing width `w`'s kept texts at `kept[w * stride]`.
    func layoutRowKeepingTexts(_ row: DecoratedRow, of models: [any MessageModel], widths: [Int], readers: inout ContentReaders,
                               into output: ParallelOutput<RowLayout>, keeping kept: ParallelOutput<KeptTexts<Measurer.Prepared>>,
                               at first: Int, stride: Int) {
        guard let source = source(of: row, in: models, readers: &readers) else {
            for w in widths.indices {
                output.initialize(first + w * stride, to: layout(row, in: models, width: widths[w]))
                kept.initialize(first + w * stride, to: KeptTexts())
            }
            return
        }
        let measurer = texts.measurer
        let content = source.content.content
        let prepared = content.text.map { measurer.prepare($0, language: content.language) }
        let label = content.image.flatMap { $0.hasKnownSize ? nil : measurer.prepare($0.label) }
        for w in widths.indices {
            // The lines are asked for where `layoutOnce` asks for their count and widest line: one pass either way.
            var texts = KeptTexts<Measurer.Prepared>()
            output.initialize(first + w * stride, to: layout(source, decoration: row.decoration, width: widths[w]) { text, part, wrap in
                if part == 0, let prepared {
                    let lines = measurer.layout(prepared, width: wrap)
                    texts.text = .init(prepared: prepared, lines: lines, width: wrap)
                    return lines.metrics
                }
                if part == ImageContent.labelPart, let label {
                    let lines = measurer.layout(label, width: wrap)
                    texts.label = .init(prepared: label, lines: lines, width: wrap)
                    return lines.metrics
                }
                return measurer.measure(measurer.prepare(text), width: wrap)  // a part a cell added
            })
            kept.initialize(first + w * stride, to: texts)
        }
    }

    /// A row laid out at every width with neither cache nor store: its texts prepared once, then
    /// at each width only measured again (line count and widest line) by its cell's layout.
    /// Nothing is allocated per width.
    @inline(__always)
    func layoutOnce(_ source: RowSource, decoration: RowDecoration, widths: [Int],
                    into output: ParallelOutput<RowLayout>, at first: Int, stride: Int) {
        let measurer = texts.measurer
        let content = source.content.content
        // The texts measured: part 0, and an image of unknown size's label, part 1; each prepared once.
        let prepared = content.text.map { measurer.prepare($0, language: content.language) }
        let label = content.image.flatMap { $0.hasKnownSize ? nil : measurer.prepare($0.label) }
        for w in widths.indices {
            output.initialize(first + w * stride, to: layout(source, decoration: decoration, width: widths[w]) { text, part, wrap in
                if part == 0, let prepared { return measurer.measure(prepared, width: wrap) }
                if part == ImageContent.labelPart, let label { return measurer.measure(label, width: wrap) }
                return measurer.measure(measurer.prepare(text), width: wrap)  // a part a cell added
            })
        }
    }
}
