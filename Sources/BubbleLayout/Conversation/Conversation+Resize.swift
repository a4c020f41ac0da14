import BubbleText

/// The resize machinery: every row laid out again at a new width, on all cores for large
/// conversations, from the prepared texts the rows keep.
extension Conversation {
    /// Lays every live entry out at `width`, in storage order (rows do not depend on each other
    /// once decorated), and returns the heights by entry and their separators' (-1: none). Large conversations are split into one
    /// contiguous range per core; each worker writes only its own entries,
    /// texts and heights, and they share the engine (whose cache and store are thread-safe). The
    /// split is `ParallelRows`', as for batch layout.
    @_specialize(where Measurer == CellMeasurer)
    func relayoutEntries() -> (heights: [Int], separators: [Int]) {
        let total = entries.count
        var heights = [Int](repeating: 0, count: total)
        var separators = [Int](repeating: -1, count: total)
        let split = ParallelRows(count: total, minimumPerTask: Self.rowsPerWorker)
        let workers = split.tasks
        var counts = [(requested: Int, computed: Int)](repeating: (0, 0), count: workers)
        texts.withUnsafeMutableBufferPointer { texts in
            entries.withUnsafeMutableBufferPointer { entries in
                heights.withUnsafeMutableBufferPointer { heights in
                    separators.withUnsafeMutableBufferPointer { separators in
                        counts.withUnsafeMutableBufferPointer { counts in
                            let job = RelayoutJob(engine: engine, width: width, entries: entries, texts: texts,
                                                  heights: heights, separators: separators, counts: counts,
                                                  measuredRows: measuredRows)
                            split.run { w in job.run(worker: w, range: split.range(ofTask: w)) }
                        }
                    }
                }
            }
        }
        for (requested, computed) in counts {
            layoutsRequested += requested
            layoutsComputed += computed
        }
        return (heights, separators)
    }

    /// Before a resize, makes room in the cache for the layouts it will add, estimated from a
    /// sample of rows (a width laid out before adds nothing, so reserves nothing).
    func reserveCacheRoom() {
        let live = entries.indices.filter { entries[$0].isLive }
        guard live.count >= 1_024 else { return }
        let samples = 64
        var misses = 0
        for k in 0..<samples {
            let e = entries[live[k * live.count / samples]]
            let key = LayoutKey(id: e.id, content: e.stamp, width: width, styleID: engine.styleID,
                                decoration: e.decoration)
            if !engine.cache.contains(key, idHash: e.idHash) { misses += 1 }
        }
        if misses > 0 { engine.cache.reserveCapacity(additional: live.count * misses / samples) }
    }

    /// Rows a worker takes at least, so small conversations stay on one thread.
    static var rowsPerWorker: Int { 4096 }

    /// One resize's shared buffers. Workers touch disjoint index ranges of `entries`, `texts`
    /// and `heights`, and only their own slot of `counts`: that is why sharing the
    /// buffers across threads is safe, which the compiler cannot see (hence `@unchecked`).
    private struct RelayoutJob: @unchecked Sendable {
        let engine: LayoutEngine<Measurer>
        let width: Int
        let entries: UnsafeMutableBufferPointer<ConversationEntry>
        let texts: UnsafeMutableBufferPointer<RowTexts<Measurer.Prepared>>
        let heights: UnsafeMutableBufferPointer<Int>
        let separators: UnsafeMutableBufferPointer<Int>
        let counts: UnsafeMutableBufferPointer<(requested: Int, computed: Int)>
        let measuredRows: MeasuredRows?

        func run(worker: Int, range: Range<Int>) {
            guard let base = entries.baseAddress, let textBase = texts.baseAddress else { return }
            var requested = 0, computed = 0
            for i in range {
                let e = base + i
                guard e.pointee.isLive else { continue }
                let result = engine.layoutKeepingTexts(id: e.pointee.id, revision: e.pointee.revision, stamp: e.pointee.stamp,
                                           configuratorIndex: e.pointee.facts.configuratorIndex,
                                           content: e.pointee.content, decoration: e.pointee.decoration,
                                           width: width, idHash: e.pointee.idHash, texts: &textBase[i])
                e.pointee.layout = result.layout
                requested += 1
                if !result.cached { computed += 1 }
                if let separator = e.pointee.separatorDecoration {
                    e.pointee.dateLayout = engine.dateLayout(e.pointee.facts.day, label: e.pointee.dateLabel,
                                                             decoration: separator, width: width)
                }
                if let measuredRows {
                    let measured = measuredRows(e.pointee.layout, e.pointee.dateLayout, e.pointee.content.content, textBase[i])
                    heights[i] = measured.row.height64 + (measured.separator?.height64 ?? 0)
                    separators[i] = measured.separator?.height64 ?? -1
                } else {
                    // Spelled out: calling the `height` getter would copy the whole entry.
                    let separator = e.pointee.dateLayout?.height
                    heights[i] = (separator ?? 0) + e.pointee.layout.height
                    separators[i] = separator ?? -1
                }
            }
            counts[worker] = (requested, computed)
        }
    }
}
