import BubbleText

/// Measures one text of the row being laid out: `(text, part, width)` gives the line count and
/// widest line of `text`, text part `part` of the row (0 the text, `ImageContent.labelPart` a
/// picture's label), wrapped at `width`, in the measurer's unit. The engine answers it from
/// prepared texts, so a cell never does Unicode or font work itself and never sees the measurer.
public typealias MeasureText = (_ text: String, _ part: Int, _ width: Int) -> TextMetrics

/// The base of every timeline cell: what all bubbles share. A cell is a kind's behaviour, not a
/// view: its class methods are pure functions from a row's content and decoration to its
/// layout, so every path (`render`, `view`, `heights` in cells or in pixels, a `Conversation`)
/// runs the same code, and a cell holds no state between rows.
///
/// The base cell owns the frame (maximum width, compacting as the container narrows), the sender's
/// name line, the reply quote, the border, the footer, the padding and the alignment (incoming
/// left, outgoing right), and measures the content's text. A subclass overrides what differs for
/// its kind: `ImageBubbleCell` sizes a box from the picture's aspect ratio (`contentSize`),
/// `SystemNoticeCell` and `DateSeparatorCell` are centred between rules without a bubble
/// (`layout`, `drawsBubble`). A subclass that also adopts `ConfigurableCell` says what it shows
/// for its model protocol; one registration line (`CellRegistry.register`) adds the kind.
open class BubbleCell {
    /// False for kinds drawn without a bubble (notices, date separators): they are centred, have
    /// no name line, reply quote or footer, and break groups.
    open class var drawsBubble: Bool { true }

    /// The size of `content` within `frame`. The base cell measures the text (part 0) wrapped at
    /// the frame's content width; a kind whose content has another shape (a box, a map) overrides
    /// this, and the renderer draws the box and lines measured here.
    open class func contentSize(of content: BubbleContent, in frame: BubbleFrame, text: MeasureText) -> ContentSize {
        let wrap = frame.maxContentWidth
        var size = ContentSize(width: 0, textLines: 0, wrapWidth: wrap)
        if let string = content.text {
            let metrics = text(string, 0, wrap)
            size.textLines = metrics.lineCount
            size.width = metrics.widestLine
        }
        return size
    }

    /// What the box above the text shows (the rows `contentSize` gave it as `imageRows`), for a
    /// renderer to draw: the base cell's is the content's picture, when it has one. A kind with
    /// a box of its own (a map) overrides this with its icon and title.
    open class func box(for content: BubbleContent) -> ContentBox? {
        content.image.map(ContentBox.init(picture:))
    }

    /// The layout of a row of `kind` showing `content`, for a message going `direction`, with
    /// `decoration` (decided from its neighbours), in a container `containerWidth` wide: the
    /// base bubble's chrome around `contentSize`. A kind drawn another way overrides this.
    open class func layout(kind: RowKind, content: BubbleContent, direction: MessageDirection,
                           decoration: RowDecoration, containerWidth: Int, style: BubbleStyle,
                           text: MeasureText) -> RowLayout {
        let frame = BubbleFrame(containerWidth: containerWidth, style: style, drawsBubble: true)
        let content = contentSize(of: content, in: frame, text: text)
        let maxContent = frame.maxContentWidth
        var contentWidth = min(max(1, content.width), maxContent)
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
                         compactLevel: frame.compactLevel, parts: parts, footer: footer,
                         spacingAbove: spacingAbove(decoration, style: style),
                         x: x, bubbleWidth: width, wrapWidth: content.wrapWidth, textLines: content.textLines,
                         imageColumns: content.imageColumns, imageRows: content.imageRows)
    }

    /// A row laid out as `layout` (in whole px across, by a pixel measurer's engine) in pixels:
    /// the style's vertical parts around its text, `textHeight64` tall (in LayoutUnits). A
    /// picture of unknown size, drawn as its label, is `labelHeight64` tall (nil for a box of
    /// known size, `imageRows` px). The base bubble adds its padding, name line, quote, image box
    /// and footer, and is at least the style's `minimumWidth` wide.
    package class func pixelRow(_ layout: RowLayout, textHeight64: Int, labelHeight64: Int?, style: PixelStyle) -> PixelRow {
        var height = layout.spacingAbove * 64 + PixelRow.fixedHeight(of: layout, style: style) * 64 + textHeight64
        if let labelHeight64 { height += labelHeight64 - layout.imageRows * 64 }
        // The widest the bubble may be is its wrap width plus its chrome.
        let widest = layout.wrapWidth + layout.horizontalChrome(in: style.bubbleStyle)
        return PixelRow(layout: layout, height64: height, textHeight64: textHeight64,
                        bubbleWidth: max(layout.bubbleWidth, min(style.minimumWidth, widest)))
    }

    /// Blank space above a row: none for the first row, the group spacing above a group's first
    /// row, the in-group spacing otherwise.
    package static func spacingAbove(_ decoration: RowDecoration, style: BubbleStyle) -> Int {
        decoration.isFirstRow ? 0 : (decoration.startsGroup ? style.groupSpacing : style.inGroupSpacing)
    }
}
