import BubbleText
import Dispatch

/// Lays out timeline rows: binds each message to its cell through the registry, measures its text
/// through the prepared-text store, and keeps the results in the layout cache. One engine has one
/// style and one measurer; it is `Sendable`, and every method may run on any number of tasks.
///
/// A map of the layout module's paths, from the caller down:
/// - `layout(_:decoration:width:pool:)`: one message, for an app or renderer that has a model and
///   its decoration. Stamps the content, then the cache; on a miss, a cell from the caller's
///   `CellPool` and the prepared-text store.
/// - `layout(_:in:width:pool:)`: one decorated row. A row from `decorate` carries its content's
///   stamp, so a hit reads only the message's id.
/// - `layoutRows` / `layoutBatch` (BatchLayout.swift) and `StreamingLayout`: many rows at several
///   widths on all cores, each worker with its own `CellSet`; each row's text is prepared once for
///   all its widths. `Conversation` does the same change by change, and its resize on all cores.
/// - All three end in `layoutKeepingTexts`, the path for a caller that keeps a row's cast model
///   (its binder) and its prepared texts (`RowTexts`), so a new width costs no store lookup and no
///   Unicode work; then `measureAndCache` (lay out, then cache) or, for a one-pass batch that
///   neither reads nor fills the cache, `measureBound` alone (the bound cell's layout).
///
/// Cells are held three ways: `CellPool` (public, for the one-at-a-time paths), `CellSet` (one cell
/// per kind for a loop over many rows) and the conversation's own `CellSet`. Texts are kept two
/// ways: the shared `PreparedTextStore` (by id and revision, checked against the text) and a row's
/// own `RowTexts` (a conversation entry's, or a batch row's while it is laid out at each width).
public final class LayoutEngine<Measurer: TextMeasurer>: Sendable {
    /// The geometry every row is laid out with.
    public let style: BubbleStyle
    /// The cells, by model kind.
    public let registry: CellRegistry
    /// The layouts, by message content, width, style and decoration. May be shared by engines.
    public let cache: LayoutCache
    /// Prepared texts by message revision: the Unicode work, done once.
    public let texts: PreparedTextStore<Measurer>
    /// Footer widths in this measurer's unit.
    public let footerWidths: FooterText.Widths
    /// This engine's style in `cache`'s keys.
    public let styleID: UInt16

    /// An engine measuring with `measurer`.
    public init(measurer: Measurer, style: BubbleStyle = BubbleStyle(), registry: CellRegistry = .standard,
                cache: LayoutCache = LayoutCache(), textCapacity: Int = 1 << 20) {
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
    public func key(for model: any MessageModel, decoration: RowDecoration, width: Int) -> LayoutKey {
        let id = model.id
        let stamp = cache.stamp(id: id, idHash: identityHash(id), content: content(of: model))
        return LayoutKey(id: id, content: stamp, width: width, styleID: styleID, decoration: decoration)
    }

    /// What of `model` its layout reads, laid out by the registry's cell for it.
    public func content(of model: any MessageModel) -> LayoutContent {
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

    /// The layout of `model` with `decoration` in a container `width` cells wide: from the cache,
    /// or laid out by a cell from `pool` and cached. Throws for a kind no cell is registered for.
    @_specialize(where Measurer == CellMeasurer)
    public func layout(_ model: any MessageModel, decoration: RowDecoration, width: Int,
                       pool: CellPool) throws(LayoutError) -> RowLayout {
        let index = try registry.index(for: model)
        let (key, idHash, found) = stampAndLookUp(model, configuratorIndex: index, decoration: decoration, width: width)
        if let found { return found }
        let cell = pool.dequeue(for: registry.configurators[index])
        defer { pool.recycle(cell) }
        _ = registry.configurators[index].bind(cell, to: model)
        return measureAndCache(cell, key: key, idHash: idHash,
                      sizing: PreparedTextSizing(store: texts, id: key.id, revision: model.revision))
    }

    /// The layout of a decorated row of `models`. A row stamped by `decorate` is looked up by its
    /// stamp alone: a hit reads the message's id and nothing else of it.
    @_specialize(where Measurer == CellMeasurer)
    public func layout(_ row: DecoratedRow, in models: [any MessageModel], width: Int, pool: CellPool) -> RowLayout {
        if row.isDateSeparator { return dateLayout(row.day, decoration: row.decoration, width: width) }
        let model = models[row.messageIndex]
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
        let cell = pool.dequeue(for: registry.configurators[row.configuratorIndex])
        defer { pool.recycle(cell) }
        _ = registry.configurators[row.configuratorIndex].bind(cell, to: model)
        return measureAndCache(cell, key: key, idHash: idHash,
                      sizing: PreparedTextSizing(store: texts, id: key.id, revision: model.revision))
    }

    /// Lays out with `cell` (bound to the message) without looking in the cache, then caches.
    /// `idHash` is `key.id`'s hash.
    @inline(__always)
    @_specialize(where Measurer == CellMeasurer)
    func measureAndCache(_ cell: BubbleCell, key: LayoutKey, idHash: UInt64, sizing: PreparedTextSizing<Measurer>) -> RowLayout {
        let layout = measureBound(cell, decoration: key.decoration, width: Int(key.width), sizing: sizing)
        cache.insert(layout, for: key, idHash: idHash)
        return layout
    }

    /// The layout of a message row whose id hash the caller carries and whose prepared texts it
    /// keeps in `texts`: empty texts are filled from the store (and recorded); known texts are
    /// measured directly, so a new width costs no store lookup and no Unicode work. Returns
    /// whether the layout came from the cache. Without `remembering`, neither the cache nor the
    /// store is looked in or added to: for a one-pass batch, where each message is laid out once.
    @_specialize(where Measurer == CellMeasurer)
    func layoutKeepingTexts(id: String, revision: Int, stamp: ContentStamp, configuratorIndex: Int, binder: CellBinder,
                decoration: RowDecoration, width: Int, idHash: UInt64, texts: inout RowTexts<Measurer.Prepared>,
                cells: inout CellSet, remembering: Bool = true) -> (layout: RowLayout, cached: Bool) {
        let key = LayoutKey(id: id, content: stamp, width: width, styleID: styleID, decoration: decoration)
        if remembering, let cached = cache.layout(for: key, idHash: idHash) { return (cached, true) }
        let cell = cells.cell(for: configuratorIndex, registry: registry)
        cell.prepareForReuse()
        _ = binder(cell)
        var sizing = PreparedTextSizing(store: self.texts, id: key.id, revision: revision)
        sizing.bypassesStore = !remembering
        @inline(__always) func laidOut() -> RowLayout {
            remembering ? measureAndCache(cell, key: key, idHash: idHash, sizing: sizing)
                : measureBound(cell, decoration: decoration, width: width, sizing: sizing)
        }
        if texts.isRecorded {
            let layout = withUnsafePointer(to: &texts) { known in
                sizing.known = known
                return laidOut()
            }
            return (layout, false)
        }
        let recorder = RowTextsRecorder<Measurer.Prepared>()
        sizing.recorder = recorder
        let layout = laidOut()
        texts = recorder.texts
        texts.isRecorded = true
        return (layout, false)
    }

    /// The bound `cell`'s layout. Terminal-cell engines hand cells the non-generic `CellTextSizing`
    /// (see there why); the check is a metatype comparison, folded away in specialized code.
    @inline(__always)
    func measureBound(_ cell: BubbleCell, decoration: RowDecoration, width: Int,
                 sizing: PreparedTextSizing<Measurer>) -> RowLayout {
        if Measurer.self == CellMeasurer.self {
            let cellSizing = CellTextSizing(base: unsafeBitCast(sizing, to: PreparedTextSizing<CellMeasurer>.self))
            return cell.layout(decoration: decoration, containerWidth: width, style: style, text: cellSizing)
        }
        return cell.layout(decoration: decoration, containerWidth: width, style: style, text: sizing)
    }

    /// A date separator: the day's label centred between rules (`── Wed 1 May 2024 ──`), one row
    /// plus the group spacing above it unless it is the first row.
    public func dateLayout(_ day: CalendarDay, decoration: RowDecoration, width: Int) -> RowLayout {
        dateLayout(labelWidth: texts.measurer.width(of: day.label), decoration: decoration, width: width)
    }

    /// A date separator whose label is `label` wide: arithmetic only.
    func dateLayout(labelWidth label: Int, decoration: RowDecoration, width: Int) -> RowLayout {
        let frame = BubbleFrame(containerWidth: width, style: style, drawsBubble: false)
        let ruled = frame.compactLevel == .full && label + frame.horizontalChrome <= frame.containerWidth
        let outer = min(frame.containerWidth, label + (ruled ? frame.horizontalChrome : 0))
        return RowLayout(kind: .date, alignment: .center, compactLevel: ruled ? .full : .plain,
                         parts: ruled ? .rules : [], footer: .none,
                         spacingAbove: decoration.isFirstRow ? 0 : style.groupSpacing,
                         x: (frame.containerWidth - outer) / 2, bubbleWidth: outer,
                         wrapWidth: frame.containerWidth, textLines: 1)
    }

    /// Decorates `models` in order (date separators, groups, names, footers, reply quotes), and
    /// stamps each message row's content in the cache (see `DecoratedRow.stamp`): the content is
    /// read once here instead of at every layout of the row.
    public func decorate(_ models: [any MessageModel], options: DecorationOptions = DecorationOptions())
        throws(LayoutError) -> [DecoratedRow] {
        var rows = try Decorator.decorate(models, options: options, registry: registry, footerWidths: footerWidths)
        for r in rows.indices where !rows[r].isDateSeparator {
            let model = models[rows[r].messageIndex]
            let id = model.id
            rows[r].stamp = cache.stamp(id: id, idHash: identityHash(id),
                                        content: content(of: model, configuratorIndex: rows[r].configuratorIndex))
        }
        return rows
    }

    /// Forgets message `id` (deleted): its cached layouts and prepared texts.
    public func forget(id: String) {
        cache.removeAll(id: id)
        texts.remove(id: id)
    }
}

extension LayoutEngine where Measurer == CellMeasurer {
    /// An engine measuring in terminal cells.
    public convenience init(style: BubbleStyle = BubbleStyle(), textOptions: TextOptions = TextOptions(),
                            registry: CellRegistry = .standard, cache: LayoutCache = LayoutCache()) {
        self.init(measurer: CellMeasurer(options: textOptions), style: style, registry: registry, cache: cache)
    }
}
