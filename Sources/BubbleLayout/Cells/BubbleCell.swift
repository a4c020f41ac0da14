/// The base of every timeline cell: what all bubbles share. It owns alignment, the sender-name
/// line, the border, the footer, the reply quote, insets and the maximum width, and computes a
/// row's height as chrome plus content. Subclasses compute only their content size, in
/// `measureContent(in:text:)`, and adopt `ConfigurableCell` to say which model they show.
///
/// Cells are reused: the engine dequeues them from a `CellPool` by `reuseIdentifier`, binds a
/// model, lays out, and returns them. A cell holds per-message state only between those steps.
open class BubbleCell {
    /// The direction of the bound message: incoming hugs the left, outgoing the right.
    public internal(set) var direction: MessageDirection = .incoming

    public required init() {}

    /// The pool key: the class name.
    open class var reuseIdentifier: String { String(describing: self) }

    /// The kind of row this cell lays out.
    open class var rowKind: RowKind { .text }

    /// The name of `rowKind` that `heights` and the renderer print: "text", "image", "system" for
    /// the built-in kinds; a cell of a kind an app adds overrides it ("voice"), else it reads
    /// "kind<N>".
    open class var kindName: String { rowKind.name }

    /// False for cells drawn without a bubble (system notices): centred, no border, name or footer,
    /// and they break groups.
    open class var drawsBubble: Bool { true }

    /// The content's size within `frame`. Subclasses override; the base cell has no content.
    open func measureContent<Sizing: TextSizing>(in frame: BubbleFrame, text: Sizing) -> ContentSize {
        ContentSize(width: 0, textLines: 0, wrapWidth: frame.maxContentWidth)
    }

    /// Drops per-message state before the cell goes back to its pool.
    open func prepareForReuse() {}

    /// The row layout of the bound message: the base chrome around the subclass's content.
    public final func layout<Sizing: TextSizing>(decoration: RowDecoration, containerWidth: Int,
                                                 style: BubbleStyle, text: Sizing) -> RowLayout {
        let drawsBubble = Self.drawsBubble
        let frame = BubbleFrame(containerWidth: containerWidth, style: style, drawsBubble: drawsBubble)
        let content = measureContent(in: frame, text: text)
        let spacing = decoration.isFirstRow ? 0 : (decoration.startsGroup ? style.groupSpacing : style.inGroupSpacing)
        let maxContent = frame.maxContentWidth
        var contentWidth = min(max(1, content.width), maxContent)

        guard drawsBubble else {
            let width = min(frame.maxOuterWidth, contentWidth + frame.horizontalChrome)
            return RowLayout(kind: Self.rowKind, alignment: .center, compactLevel: frame.compactLevel,
                             parts: frame.compactLevel == .full ? .rules : [], footer: .none,
                             spacingAbove: spacing, x: (frame.containerWidth - width) / 2, bubbleWidth: width,
                             wrapWidth: content.wrapWidth, textLines: content.textLines,
                             imageColumns: content.imageColumns, imageRows: content.imageRows)
        }

        if decoration.hasReplyQuote {
            contentWidth = max(contentWidth, min(maxContent, style.replyQuoteMinimumWidth))
        }
        var width = contentWidth + frame.horizontalChrome
        var parts: ChromeParts = []
        if decoration.showsName { parts.insert(.nameLine) }
        if decoration.hasReplyQuote { parts.insert(.replyQuote) }
        if decoration.endsGroup { parts.insert(.tail) }
        if frame.compactLevel != .plain { parts.formUnion([.topBorder, .bottomBorder]) }
        if frame.compactLevel == .full { parts.insert(.sideBorders) }

        var footer = FooterPlacement.none
        if decoration.showsFooter {
            let needed = decoration.footerWidth + style.footerBorderOverhead
            if frame.compactLevel != .plain && needed <= frame.maxOuterWidth {
                footer = .inBottomBorder
                width = max(width, needed)
            } else {
                footer = .ownLine
            }
        }
        width = min(width, frame.maxOuterWidth)
        let x = direction == .outgoing ? frame.containerWidth - width : 0
        return RowLayout(kind: Self.rowKind, alignment: direction == .outgoing ? .right : .left,
                         compactLevel: frame.compactLevel, parts: parts, footer: footer, spacingAbove: spacing,
                         x: x, bubbleWidth: width, wrapWidth: content.wrapWidth, textLines: content.textLines,
                         imageColumns: content.imageColumns, imageRows: content.imageRows)
    }
}
