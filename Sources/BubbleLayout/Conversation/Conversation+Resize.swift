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
        texts.withMutableElementsView { texts in
            entries.withMutableElementsView { entries in
                heights.withMutableElementsView { heights in
                    separators.withMutableElementsView { separators in
                        counts.withMutableElementsView { counts in
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

    /// One resize's shared buffers. Workers touch disjoint index ranges of `entries`, `texts`,
    /// `heights` and `separators`, and only their own slot of `counts` (see `MutableElementsView`).
    private struct RelayoutJob: @unchecked Sendable {  // the engine's measurer is used from every worker, as in a batch
        let engine: LayoutEngine<Measurer>
        let width: Int
        let entries: MutableElementsView<ConversationEntry>
        let texts: MutableElementsView<RowTexts<Measurer.Prepared>>
        let heights: MutableElementsView<Int>
        let separators: MutableElementsView<Int>
        let counts: MutableElementsView<(requested: Int, computed: Int)>
        let measuredRows: MeasuredRows?

        func run(worker: Int, range: Range<Int>) {
            var requested = 0, computed = 0
            for i in range {
                guard entries[i].isLive else { continue }
                let result = engine.layoutKeepingTexts(id: entries[i].id, revision: entries[i].revision, stamp: entries[i].stamp,
                                           configuratorIndex: entries[i].facts.configuratorIndex,
                                           content: entries[i].content, decoration: entries[i].decoration,
                                           width: width, idHash: entries[i].idHash, texts: &texts[i])
                entries[i].layout = result.layout
                requested += 1
                if !result.cached { computed += 1 }
                if let separator = entries[i].separatorDecoration {
                    entries[i].dateLayout = engine.dateLayout(entries[i].facts.day, label: entries[i].dateLabel,
                                                              decoration: separator, width: width)
                }
                if let measuredRows {
                    let measured = measuredRows(entries[i].layout, entries[i].dateLayout, entries[i].content.content, texts[i])
                    heights[i] = measured.row.height64 + (measured.separator?.height64 ?? 0)
                    separators[i] = measured.separator?.height64 ?? -1
                } else {
                    // Spelled out: calling the `height` getter would copy the whole entry.
                    let separator = entries[i].dateLayout?.height
                    heights[i] = (separator ?? 0) + entries[i].layout.height
                    separators[i] = separator ?? -1
                }
            }
            counts[worker] = (requested, computed)
        }
    }
}
