import BubbleText
import Dispatch

/// A log laid out at one or more widths: its decorated rows, and a layout per row and width.
public struct BatchLayout: Sendable {
    /// The rows in timeline order: date separators and messages.
    public let rows: [DecoratedRow]
    /// The container widths, in the order asked for.
    public let widths: [Int]
    /// `rows.count` layouts per width, width after width.
    public let layouts: [RowLayout]

    /// The layout of row `row` at `widths[widthIndex]`.
    public func layout(row: Int, widthIndex: Int) -> RowLayout { layouts[widthIndex * rows.count + row] }

    /// The sum of the row heights at `widths[widthIndex]`.
    public func totalHeight(widthIndex: Int) -> Int {
        layouts[widthIndex * rows.count ..< (widthIndex + 1) * rows.count].reduce(0) { $0 + $1.height }
    }
}

/// Lets workers write disjoint slices of one buffer.
private struct SharedOutput: @unchecked Sendable {
    let base: UnsafeMutablePointer<RowLayout>
}

extension LayoutEngine {
    /// Lays out `models` (in timeline order) at each of `widths`, on all cores, sharing the cache.
    /// Decorations are decided first in one cheap sequential pass, since they need neighbours;
    /// then chunks of rows are laid out in parallel, each worker with its own cell pool. The
    /// output keeps input order. Throws before any layout if a kind has no registered cell.
    public func layoutBatch(_ models: [any MessageModel], widths: [Int],
                            options: DecorationOptions = DecorationOptions()) throws(LayoutError) -> BatchLayout {
        let rows = try decorate(models, options: options)
        return BatchLayout(rows: rows, widths: widths, layouts: layoutRows(rows, of: models, widths: widths))
    }

    /// Lays out already decorated rows at each of `widths`, in parallel; width-major order.
    @_specialize(where Measurer == CellMeasurer)
    public func layoutRows(_ rows: [DecoratedRow], of models: [any MessageModel], widths: [Int]) -> [RowLayout] {
        let perWidth = rows.count
        let total = perWidth * widths.count
        guard total > 0 else { return [] }
        let chunk = 2048
        let chunksPerWidth = (perWidth + chunk - 1) / chunk
        return [RowLayout](unsafeUninitializedCapacity: total) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let output = SharedOutput(base: base)
            DispatchQueue.concurrentPerform(iterations: chunksPerWidth * widths.count) { task in
                let widthIndex = task / chunksPerWidth
                let start = (task % chunksPerWidth) * chunk
                let end = min(perWidth, start + chunk)
                let width = widths[widthIndex]
                let pool = CellPool()
                let base = output.base + widthIndex * perWidth
                for r in start..<end {
                    (base + r).initialize(to: layout(rows[r], in: models, width: width, pool: pool))
                }
            }
            initialized = total
        }
    }
}
