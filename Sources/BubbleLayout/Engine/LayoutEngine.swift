import BubbleText
import Dispatch

/// Lays out timeline rows: binds each message to its cell through the registry, measures its text
/// through the prepared-text store, and keeps the results in the layout cache. One engine has one
/// style and one measurer; it is `Sendable`, and every method may run on any number of tasks.
public final class LayoutEngine<Measurer: TextMeasurer>: Sendable {
    /// The geometry every row is laid out with.
    public let style: BubbleStyle
    /// The cells, by model kind.
    public let registry: CellRegistry
    /// The layouts, by message revision, width, style and decoration. May be shared by engines.
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

    /// The cache key of a message row.
    public func key(for model: any MessageModel, decoration: RowDecoration, width: Int) -> LayoutKey {
        LayoutKey(id: model.id, revision: model.revision, width: width, styleID: styleID, decoration: decoration)
    }

    /// The layout of `model` with `decoration` in a container `width` cells wide: from the cache,
    /// or laid out by a cell from `pool` and cached. Throws for a kind no cell is registered for.
    @_specialize(where Measurer == CellMeasurer)
    public func layout(_ model: any MessageModel, decoration: RowDecoration, width: Int,
                       pool: CellPool) throws(LayoutError) -> RowLayout {
        let key = key(for: model, decoration: decoration, width: width)
        let idHash = identityHash(key.id)
        if let cached = cache.layout(for: key, idHash: idHash) { return cached }
        let index = try registry.index(for: model)
        let cell = pool.dequeue(for: registry.configurators[index])
        defer { pool.recycle(cell) }
        _ = registry.configurators[index].bind(cell, to: model)
        return layOut(cell, key: key, idHash: idHash,
                      sizing: PreparedTextSizing(store: texts, id: key.id, revision: key.revision))
    }

    /// The layout of a decorated row of `models`.
    @_specialize(where Measurer == CellMeasurer)
    public func layout(_ row: DecoratedRow, in models: [any MessageModel], width: Int, pool: CellPool) -> RowLayout {
        if row.isDateSeparator { return dateLayout(row.day, decoration: row.decoration, width: width) }
        let model = models[row.messageIndex]
        let key = key(for: model, decoration: row.decoration, width: width)
        let idHash = identityHash(key.id)
        if let cached = cache.layout(for: key, idHash: idHash) { return cached }
        let cell = pool.dequeue(for: registry.configurators[row.configuratorIndex])
        defer { pool.recycle(cell) }
        _ = registry.configurators[row.configuratorIndex].bind(cell, to: model)
        return layOut(cell, key: key, idHash: idHash,
                      sizing: PreparedTextSizing(store: texts, id: key.id, revision: key.revision))
    }

    /// Lays out with `cell` (bound to the message) without looking in the cache, then caches.
    /// `idHash` is `key.id`'s hash.
    @inline(__always)
    @_specialize(where Measurer == CellMeasurer)
    func layOut(_ cell: BubbleCell, key: LayoutKey, idHash: UInt64, sizing: PreparedTextSizing<Measurer>) -> RowLayout {
        let layout = measure(cell, decoration: key.decoration, width: Int(key.width), sizing: sizing)
        cache.insert(layout, for: key, idHash: idHash)
        return layout
    }

    /// The layout of a message row whose id hash the caller carries and whose prepared texts it
    /// keeps in `texts`: empty texts are filled from the store (and recorded); known texts are
    /// measured directly, so a new width costs no store lookup and no Unicode work. Returns
    /// whether the layout came from the cache.
    @_specialize(where Measurer == CellMeasurer)
    func layout(id: String, revision: Int, configuratorIndex: Int, binder: CellBinder, decoration: RowDecoration,
                width: Int, idHash: UInt64, texts: inout RowTexts<Measurer.Prepared>,
                cells: inout CellSet) -> (layout: RowLayout, cached: Bool) {
        let key = LayoutKey(id: id, revision: revision, width: width, styleID: styleID, decoration: decoration)
        if let cached = cache.layout(for: key, idHash: idHash) { return (cached, true) }
        let cell = cells.cell(for: configuratorIndex, registry: registry)
        cell.prepareForReuse()
        _ = binder(cell)
        var sizing = PreparedTextSizing(store: self.texts, id: key.id, revision: key.revision)
        if texts.isRecorded {
            let layout = withUnsafePointer(to: &texts) { known in
                sizing.known = known
                return layOut(cell, key: key, idHash: idHash, sizing: sizing)
            }
            return (layout, false)
        }
        let recorder = RowTextsRecorder<Measurer.Prepared>()
        sizing.recorder = recorder
        let layout = layOut(cell, key: key, idHash: idHash, sizing: sizing)
        texts = recorder.texts
        texts.isRecorded = true
        return (layout, false)
    }

    /// The bound `cell`'s layout. Terminal-cell engines hand cells the non-generic `CellTextSizing`
    /// (see there why); the check is a metatype comparison, folded away in specialized code.
    @inline(__always)
    func measure(_ cell: BubbleCell, decoration: RowDecoration, width: Int,
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

    /// Decorates `models` in order (date separators, groups, names, footers, reply quotes).
    public func decorate(_ models: [any MessageModel], options: DecorationOptions = DecorationOptions())
        throws(LayoutError) -> [DecoratedRow] {
        try Decorator.decorate(models, options: options, registry: registry, footerWidths: footerWidths)
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
