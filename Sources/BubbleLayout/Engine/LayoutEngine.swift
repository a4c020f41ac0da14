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
        self.styleID = cache.styleID(for: style)
    }

    /// The cache key of a message row.
    public func key(for model: any MessageModel, decoration: RowDecoration, width: Int) -> LayoutKey {
        LayoutKey(id: model.id, revision: model.revision, width: width, styleID: styleID, decoration: decoration)
    }

    /// The layout of `model` with `decoration` in a container `width` cells wide: from the cache,
    /// or laid out by a cell from `pool` and cached. Throws for a kind no cell is registered for.
    public func layout(_ model: any MessageModel, decoration: RowDecoration, width: Int,
                       pool: CellPool) throws(LayoutError) -> RowLayout {
        let key = key(for: model, decoration: decoration, width: width)
        if let cached = cache.layout(for: key) { return cached }
        let configurator = try registry.configurator(for: model)
        return layOut(model, configurator: configurator, key: key, pool: pool)
    }

    /// The layout of a decorated row of `models`.
    public func layout(_ row: DecoratedRow, in models: [any MessageModel], width: Int, pool: CellPool) -> RowLayout {
        if row.isDateSeparator { return dateLayout(row.day, decoration: row.decoration, width: width) }
        let model = models[row.messageIndex]
        let key = key(for: model, decoration: row.decoration, width: width)
        if let cached = cache.layout(for: key) { return cached }
        return layOut(model, configurator: registry.configurators[row.configuratorIndex], key: key, pool: pool)
    }

    /// Lays out without looking in the cache, then caches.
    func layOut(_ model: any MessageModel, configurator: AnyCellConfigurator, key: LayoutKey,
                pool: CellPool) -> RowLayout {
        let cell = pool.dequeue(for: configurator)
        defer { pool.recycle(cell) }
        _ = configurator.bind(cell, to: model)
        let sizing = PreparedTextSizing(store: texts, id: model.id, revision: model.revision)
        let layout = cell.layout(decoration: key.decoration, containerWidth: Int(key.width), style: style, text: sizing)
        cache.insert(layout, for: key)
        return layout
    }

    /// A date separator: the day's label centred between rules (`── Wed 1 May 2024 ──`), one row
    /// plus the group spacing above it unless it is the first row.
    public func dateLayout(_ day: CalendarDay, decoration: RowDecoration, width: Int) -> RowLayout {
        let frame = BubbleFrame(containerWidth: width, style: style, drawsBubble: false)
        let label = texts.measurer.width(of: day.label)
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
