import BubbleText
import Dispatch

/// Lays out timeline rows. One engine has one style and one measurer; it is `Sendable`, and every
/// method may run on any number of tasks.
///
/// There is one layout function: a row's cell (`BubbleCell.layout`, overridden per kind) given
/// the row's content, its decoration, the width and a `MeasureText` that answers from the row's
/// prepared texts. Around it:
/// - the cache: `layout(_:decoration:width:)` (one message) and `layout(_:in:width:)` (a
///   decorated row) stamp the content, look the layout up, and on a miss lay out through the
///   prepared-text store and cache the result;
/// - `layoutKeepingTexts`, for a caller that keeps a row's content and prepared texts
///   (`RowTexts`) across widths, so a new width costs no store lookup and no Unicode work:
///   `Conversation`, and batch rows at several widths;
/// - batching (`layoutRows`, `layoutBatch`, `StreamingLayout`): rows in parallel, each at every
///   width, each task with its own `ContentReaders`; a one-pass batch neither reads nor fills the
///   cache and the store.
///
/// A row is a message or a date separator; `source(of:in:readers:)` is the one place that tells
/// which cell lays a row out and what it shows.
package final class LayoutEngine<Measurer: TextMeasurer>: Sendable {
    /// The geometry every row is laid out with.
    package let style: BubbleStyle
    /// The cells, by model kind.
    package let registry: CellRegistry
    /// The layouts, by message content, width, style and decoration. May be shared by engines.
    package let cache: LayoutCache
    /// Prepared texts by message revision: the Unicode work, done once.
    package let texts: PreparedTextStore<Measurer>
    /// Footer widths in this measurer's unit.
    package let footerWidths: FooterText.Widths
    /// This engine's style in `cache`'s keys.
    package let styleID: UInt16

    /// An engine measuring with `measurer`, in `style`, with the kinds of `registry`.
    package convenience init(measurer: Measurer, style: BubbleStyle = BubbleStyle(), registry: CellRegistry = .standard) {
        self.init(measurer: measurer, style: style, registry: registry, cache: LayoutCache())
    }

    /// An engine measuring with `measurer` that keeps its layouts in `cache` (which other engines
    /// may share) and up to `textCapacity` prepared texts.
    package init(measurer: Measurer, style: BubbleStyle = BubbleStyle(), registry: CellRegistry = .standard,
                 cache: LayoutCache, textCapacity: Int = 1 << 20) {
        self.style = style
        self.registry = registry
        self.cache = cache
        self.texts = PreparedTextStore(measurer: measurer, capacity: textCapacity)
        self.footerWidths = FooterText.Widths(measurer: measurer)
        if let measurer = measurer as? any Hashable {
            self.styleID = cache.styleID(for: style, measurer: AnyHashable(measurer))
        } else {
            self.styleID = cache.styleID(for: style)
        }
    }

    /// The cache key of a message row: its id, the stamp of its content (see `ContentStamp`), the
    /// width, this engine's style and the decoration. A kind no cell is registered for has no
    /// layout; its key stamps its content without a cell.
    package func key(for model: any MessageModel, decoration: RowDecoration, width: Int) -> LayoutKey {
        let id = model.id
        let stamp = cache.stamp(id: id, idHash: identityHash(id), content: content(of: model))
        return LayoutKey(id: id, content: stamp, width: width, styleID: styleID, decoration: decoration)
    }

    /// What of `model` its layout reads, laid out by the registry's cell for it.
    package func content(of model: any MessageModel) -> LayoutContent {
        guard let index = try? registry.index(for: model) else {
            return LayoutContent(cell: ObjectIdentifier(BubbleCell.self), direction: model.direction,
                                 revision: model.revision, body: BubbleContent(text: nil))
        }
        return content(of: model, configuratorIndex: index)
    }

    /// `model`'s content as the registry's cell `configuratorIndex` lays it out. The configurator is
    /// read in place: copying it would retain each of its closures.
    @inline(__always)
    func content(of model: any MessageModel, configuratorIndex i: Int) -> LayoutContent {
        LayoutContent(cell: ObjectIdentifier(registry.configurators[i].cellType), direction: model.direction,
                      revision: model.revision, body: registry.configurators[i].content(model))
    }

    /// The key of a message row whose cell (`configuratorIndex`) is known, and its cached layout.
    @inline(__always)
    func stampAndLookUp(_ model: any MessageModel, configuratorIndex: Int, decoration: RowDecoration, width: Int)
        -> (key: LayoutKey, idHash: UInt64, layout: RowLayout?) {
        let id = model.id
        let idHash = identityHash(id)
        let found = cache.lookup(id: id, idHash: idHash, content: content(of: model, configuratorIndex: configuratorIndex),
                                 width: width, styleID: styleID, decoration: decoration)
        return (found.key, idHash, found.layout)
    }

    /// The layout of `model` with `decoration` in a container `width` wide: from the cache, or
    /// laid out by its cell and cached. Throws for a kind no cell is registered for.
    @_specialize(where Measurer == CellMeasurer)
    package func layout(_ model: any MessageModel, decoration: RowDecoration, width: Int) throws(LayoutError) -> RowLayout {
        let index = try registry.index(for: model)
        let (key, idHash, found) = stampAndLookUp(model, configuratorIndex: index, decoration: decoration, width: width)
        if let found { return found }
        let content = RowContent(content: registry.configurators[index].content(model), direction: model.direction)
        return measureAndCache(configuratorIndex: index, content: content, key: key, idHash: idHash,
                               sizing: PreparedTextSizing(store: texts, id: key.id, revision: model.revision))
    }

    /// The layout of a decorated row of `models`. A row stamped by `decorate` is looked up by its
    /// stamp alone: a hit reads the message's id and nothing else of it.
    @_specialize(where Measurer == CellMeasurer)
    package func layout(_ row: DecoratedRow, in models: [any MessageModel], width: Int) -> RowLayout {
        guard let messageIndex = row.modelIndex else {
            var readers = ContentReaders()
            return layoutUnstored(source(of: row, in: models, readers: &readers)!, decoration: row.decoration, width: width)
        }
        let model = models[messageIndex]
        let key: LayoutKey, idHash: UInt64
        if row.stamp != .unused {
            let id = model.id
            idHash = identityHash(id)
            key = LayoutKey(id: id, content: row.stamp, width: width, styleID: styleID, decoration: row.decoration)
            if let found = cache.layout(for: key, idHash: idHash) { return found }
        } else {
            let found: RowLayout?
            (key, idHash, found) = stampAndLookUp(model, configuratorIndex: row.configuratorIndex, decoration: row.decoration,
                                          width: width)
            if let found { return found }
        }
        let content = RowContent(content: registry.configurators[row.configuratorIndex].content(model),
                                 direction: model.direction)
        return measureAndCache(configuratorIndex: row.configuratorIndex, content: content, key: key, idHash: idHash,
                               sizing: PreparedTextSizing(store: texts, id: key.id, revision: model.revision))
    }

    /// Which cell lays out `row` of `models`, and what it shows: the registry's cell for a
    /// message (its content read through `readers`), the date separator cell for a day. Nil
    /// only for a message the row's cell does not show (not for rows `decorate` made).
    @inline(__always)
    func source(of row: DecoratedRow, in models: [any MessageModel], readers: inout ContentReaders) -> RowSource? {
        guard let messageIndex = row.modelIndex else {
            return RowSource(cell: registry.dateSeparatorCell, kind: registry.dateSeparatorKind,
                             content: RowContent(content: DateSeparatorCell.content(of: row.day), direction: .incoming))
        }
        let i = row.configuratorIndex
        guard let content = readers.content(of: models[messageIndex], configurator: i, registry: registry) else { return nil }
        return RowSource(cell: registry.configurators[i].cellType, kind: registry.configurators[i].kind, content: content)
    }

    /// The one layout function: `source`'s cell laying out its content with `decoration` at
    /// `width`, its texts measured by `text`.
    @inline(__always)
    func layout(_ source: RowSource, decoration: RowDecoration, width: Int, text: MeasureText) -> RowLayout {
        source.cell.layout(kind: source.kind, content: source.content.content, direction: source.content.direction,
                           decoration: decoration, containerWidth: width, style: style, text: text)
    }

    /// `source` laid out with its texts prepared afresh, neither cache nor store used: for rows
    /// without an identity (date separators) and one-off layouts.
    func layoutUnstored(_ source: RowSource, decoration: RowDecoration, width: Int) -> RowLayout {
        let measurer = texts.measurer
        let language = source.content.content.language
        return layout(source, decoration: decoration, width: width) { text, part, wrap in
            measurer.measure(measurer.prepare(text, language: part == 0 ? language : nil), width: wrap)
        }
    }

    /// Lays out configurator `configuratorIndex`'s cell showing `content` without looking in the
    /// cache, then caches. `idHash` is `key.id`'s hash.
    @inline(__always)
    @_specialize(where Measurer == CellMeasurer)
    func measureAndCache(configuratorIndex i: Int, content: RowContent, key: LayoutKey, idHash: UInt64,
                         sizing: PreparedTextSizing<Measurer>) -> RowLayout {
        var sizing = sizing
        sizing.language = content.content.language
        let source = RowSource(cell: registry.configurators[i].cellType, kind: registry.configurators[i].kind, content: content)
        let layout = layout(source, decoration: key.decoration, width: Int(key.width)) { text, part, wrap in
            sizing.metrics(of: text, part: part, width: wrap)
        }
        cache.insert(layout, for: key, idHash: idHash)
        return layout
    }

    /// The layout of a message row whose id hash the caller carries and whose prepared texts it
    /// keeps in `texts`: empty texts are filled from the store (and recorded); known texts are
    /// measured directly, so a new width costs no store lookup and no Unicode work. Returns
    /// whether the layout came from the cache.
    @_specialize(where Measurer == CellMeasurer)
    func layoutKeepingTexts(id: String, revision: Int, stamp: ContentStamp, configuratorIndex: Int, content: RowContent,
                decoration: RowDecoration, width: Int, idHash: UInt64,
                texts: inout RowTexts<Measurer.Prepared>) -> (layout: RowLayout, cached: Bool) {
        let key = LayoutKey(id: id, content: stamp, width: width, styleID: styleID, decoration: decoration)
        if let cached = cache.layout(for: key, idHash: idHash) { return (cached, true) }
        var sizing = PreparedTextSizing(store: self.texts, id: key.id, revision: revision)
        if texts.isRecorded {
            // The borrowed texts go only into a copy of `sizing` local to the closure.
            let layout = withBorrowed(&texts) { known in
                var borrowing = sizing
                borrowing.known = known
                return measureAndCache(configuratorIndex: configuratorIndex, content: content, key: key, idHash: idHash,
                                       sizing: borrowing)
            }
            return (layout, false)
        }
        let recorder = RowTextsRecorder<Measurer.Prepared>()
        sizing.recorder = recorder
        let layout = measureAndCache(configuratorIndex: configuratorIndex, content: content, key: key, idHash: idHash,
                                     sizing: sizing)
        texts = recorder.texts
        texts.isRecorded = true
        return (layout, false)
    }

    /// A date separator for `day` with `decoration` at `width`: its cell's layout.
    package func dateLayout(_ day: CalendarDay, decoration: RowDecoration, width: Int) -> RowLayout {
        var readers = ContentReaders()
        let row = DecoratedRow.dateSeparator(day, isFirstRow: decoration.isFirstRow)
        return layoutUnstored(source(of: row, in: [], readers: &readers)!, decoration: decoration, width: width)
    }

    /// A date separator for `day` whose label measured `label` (at any width: it is one line,
    /// never wrapped): its cell's layout with no text work, for a caller that keeps the label's
    /// measure (a conversation, one per day).
    func dateLayout(_ day: CalendarDay, label: TextMetrics, decoration: RowDecoration, width: Int) -> RowLayout {
        let source = RowSource(cell: registry.dateSeparatorCell, kind: registry.dateSeparatorKind,
                               content: RowContent(content: DateSeparatorCell.content(of: day), direction: .incoming))
        return layout(source, decoration: decoration, width: width) { _, _, _ in label }
    }

    /// The measure of `day`'s label as the date separator's cell asks for it (the label is the
    /// one text a separator measures).
    func dateLabelMetrics(_ day: CalendarDay) -> TextMetrics {
        var measured = TextMetrics(lineCount: 1, widestLine: 0)
        let measurer = texts.measurer
        let content = DateSeparatorCell.content(of: day)
        _ = registry.dateSeparatorCell.layout(kind: registry.dateSeparatorKind, content: content, direction: .incoming,
                                              decoration: RowDecoration(isFirstRow: true), containerWidth: 1, style: style) {
            text, _, wrap in
            measured = measurer.measure(measurer.prepare(text), width: wrap)
            return measured
        }
        return measured
    }

    /// Decorates `models` in order (date separators, groups, names, footers, reply quotes), and
    /// stamps each message row's content in the cache (see `DecoratedRow.stamp`): the content is
    /// read once here instead of at every layout of the row.
    package func decorate(_ models: [any MessageModel], options: DecorationOptions = DecorationOptions())
        throws(LayoutError) -> [DecoratedRow] {
        var rows = try Decorator.decorate(models, options: options, registry: registry, footerWidths: footerWidths)
        for r in rows.indices {
            guard let messageIndex = rows[r].modelIndex else { continue }
            let model = models[messageIndex]
            let id = model.id
            rows[r].stamp = cache.stamp(id: id, idHash: identityHash(id),
                                        content: content(of: model, configuratorIndex: rows[r].configuratorIndex))
        }
        return rows
    }

    /// Forgets message `id` (deleted): its cached layouts and prepared texts.
    package func forget(id: String) {
        cache.removeAll(id: id)
        texts.remove(id: id)
    }
}

extension LayoutEngine where Measurer == CellMeasurer {
    /// An engine measuring in terminal cells.
    package convenience init(style: BubbleStyle = BubbleStyle(), textOptions: TextOptions = TextOptions(),
                            registry: CellRegistry = .standard) {
        self.init(style: style, textOptions: textOptions, registry: registry, cache: LayoutCache())
    }

    /// An engine measuring in terminal cells that keeps its layouts in `cache`.
    package convenience init(style: BubbleStyle = BubbleStyle(), textOptions: TextOptions = TextOptions(),
                             registry: CellRegistry = .standard, cache: LayoutCache) {
        self.init(measurer: CellMeasurer(options: textOptions), style: style, registry: registry, cache: cache)
    }
}
