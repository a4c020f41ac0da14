import BubbleText

/// The base of every timeline cell: what all bubbles share. It owns alignment, the sender-name
/// line, the border, the footer, the reply quote, insets and the maximum width, and computes a
/// row's height as chrome plus content. A subclass per kind adopts `ConfigurableCell`: it names
/// its kind and says what it shows for its model (`BubbleContent`: text and an image box), and
/// this base cell measures that content. So what a row shows is what was measured, by
/// construction: the renderer draws the same content at the height measured here.
///
/// Cells are reused: the engine dequeues them from a `CellPool`, binds a message's content,
/// lays out, and returns them. A cell holds per-message state only between those steps.
open class BubbleCell {
    /// The direction of the bound message: incoming hugs the left, outgoing the right.
    public internal(set) var direction: MessageDirection = .incoming
    /// What the bound message shows (its cell's `content(of:)`): what `layout` measures.
    public internal(set) var content = BubbleContent.none
    /// The kind this cell lays out: its `ConfigurableCell.kindName`, as a compact id.
    public let kind: RowKind

    public required init() {
        kind = (Self.self as? any ConfigurableCell.Type).map { RowKind(named: $0.kindName) }
            ?? RowKind(named: String(describing: Self.self))
    }

    /// False for cells drawn without a bubble (system notices): centred, no border, name or footer,
    /// and they break groups.
    open class var drawsBubble: Bool { true }

    /// Drops per-message state before the cell goes back to its pool. A subclass that keeps
    /// state of its own calls `super`.
    open func prepareForReuse() { content = .none }

    /// The size of `content` within `frame`: the image box (at most the frame's width), then the
    /// text, part 0 of the message, wrapped at the frame's content width. Not overridable: the
    /// renderer draws the same box and the same wrapped lines, so the two cannot disagree.
    public final func measureContent<Sizing: TextSizing>(in frame: BubbleFrame, text sizing: Sizing) -> ContentSize {
        let content = self.content  // one read of the class's property, not one per part
        return Self.contentSize(of: content, in: frame) { text, part, wrap in sizing.metrics(of: text, part: part, width: wrap) }
    }

    /// The row layout of the bound message: the base chrome around its content.
    public final func layout<Sizing: TextSizing>(decoration: RowDecoration, containerWidth: Int,
                                                 style: BubbleStyle, text: Sizing) -> RowLayout {
        let content = self.content
        return Self.rowLayout(kind: kind, drawsBubble: Self.drawsBubble, direction: direction, content: content,
                              decoration: decoration, containerWidth: containerWidth, style: style) { string, part, wrap in
            text.metrics(of: string, part: part, width: wrap)
        }
    }
}

extension BubbleCell {
    /// `measureContent` on values: `textMetrics(text, part, wrap)` gives the line count and
    /// widest line of text part `part` of the content wrapped at `wrap` (part 0 the text, part 1 an
    /// image's label). The one definition of a content's size. A picture of known size is a box
    /// of its aspect ratio; one of unknown size is its label's lines (`imageRows` is their count,
    /// `imageColumns` the widest), so its whole label shows in as few rows as it takes.
    @inline(__always)
    static func contentSize(of content: BubbleContent, in frame: BubbleFrame,
                            textMetrics: (String, Int, Int) -> TextMetrics) -> ContentSize {
        let wrap = frame.maxContentWidth
        var size = ContentSize(width: 0, textLines: 0, wrapWidth: wrap)
        if let image = content.image {
            if image.hasKnownSize {
                let box = image.boxSize(maxColumns: wrap, style: frame.style)
                size.width = box.columns
                size.imageColumns = box.columns
                size.imageRows = box.rows
            } else {
                // (A grapheme wider than the whole content, at a width of a cell or two, is cut
                // there, as text is.)
                let label = textMetrics(image.label, ImageContent.labelPart, wrap)
                size.width = min(label.widestLine, wrap)
                size.imageColumns = size.width
                size.imageRows = label.lineCount
            }
        }
        if let text = content.text {
            let metrics = textMetrics(text, 0, wrap)
            size.textLines = metrics.lineCount
            size.width = max(size.width, metrics.widestLine)
        }
        return size
    }

    /// `layout` on values: the row layout of `content` shown by a cell of `kind` (which draws a
    /// bubble or not) for a message going `direction`. The one definition of a row's geometry:
    /// the cell's `layout` is this with its bound state, and the batch path calls it with the same
    /// content it would bind, so what a cell measures is what it draws whichever path asks.
    @inline(__always)
    static func rowLayout(kind: RowKind, drawsBubble: Bool, direction: MessageDirection, content: BubbleContent,
                          decoration: RowDecoration, containerWidth: Int, style: BubbleStyle,
                          textMetrics: (String, Int, Int) -> TextMetrics) -> RowLayout {
        let frame = BubbleFrame(containerWidth: containerWidth, style: style, drawsBubble: drawsBubble)
        let content = contentSize(of: content, in: frame, textMetrics: textMetrics)
        let spacing = decoration.isFirstRow ? 0 : (decoration.startsGroup ? style.groupSpacing : style.inGroupSpacing)
        let maxContent = frame.maxContentWidth
        var contentWidth = min(max(1, content.width), maxContent)

        guard drawsBubble else {
            let width = min(frame.maxOuterWidth, contentWidth + frame.horizontalChrome)
            return RowLayout(kind: kind, alignment: .center, compactLevel: frame.compactLevel,
                             parts: frame.compactLevel == .full ? .rules : [], footer: .none,
                             spacingAbove: spacing, x: (frame.containerWidth - width) / 2, bubbleWidth: width,
                             wrapWidth: content.wrapWidth, textLines: content.textLines,
                             imageColumns: content.imageColumns, imageRows: content.imageRows)
        }

        if decoration.hasReplyQuote {
            // A forward that is also a reply: the forward's line whole, then the reply's quote at its minimum.
            let quoteNeeds = decoration.quoteAddsReply ? decoration.quoteWidth + style.replyQuoteMinimumWidth
                : max(style.replyQuoteMinimumWidth, decoration.quoteWidth)
            contentWidth = max(contentWidth, min(maxContent, quoteNeeds))
        }
        var width = contentWidth + frame.horizontalChrome
        var parts: ChromeParts = []
        if decoration.showsName { parts.insert(.nameLine) }
        if decoration.hasReplyQuote { parts.insert(.replyQuote) }
        if decoration.endsGroup { parts.insert(.tail) }
        if frame.compactLevel != .plain {
            parts.insert(.topBorder)  // one at a time: a set literal here is an array allocated per call
            parts.insert(.bottomBorder)
        }
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
        return RowLayout(kind: kind, alignment: direction == .outgoing ? .right : .left,
                         compactLevel: frame.compactLevel, parts: parts, footer: footer, spacingAbove: spacing,
                         x: x, bubbleWidth: width, wrapWidth: content.wrapWidth, textLines: content.textLines,
                         imageColumns: content.imageColumns, imageRows: content.imageRows)
    }
}
