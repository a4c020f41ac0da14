/// The room a cell's content has, decided by the base cell from the container width and style.
public struct BubbleFrame: Sendable {
    /// The container width, clamped to 1…`BubbleStyle.maximumContainerWidth`.
    package let containerWidth: Int
    /// Widest the row may be, chrome included.
    package let maxOuterWidth: Int
    /// Chrome the container width leaves room for.
    package let compactLevel: CompactLevel
    /// Cells of chrome across the row (borders and padding, or rules).
    package let horizontalChrome: Int
    /// Widest the content may be: the width text wraps at. At least 1.
    package var maxContentWidth: Int { max(1, maxOuterWidth - horizontalChrome) }
    package let style: BubbleStyle

    /// The frame of a bubble (`drawsBubble`) or of centred ruled text in a container `width` wide.
    package init(containerWidth width: Int, style: BubbleStyle, drawsBubble: Bool) {
        let w = min(max(1, width), BubbleStyle.maximumContainerWidth)
        let fraction = w * style.maxWidthNumerator / max(1, style.maxWidthDenominator)
        let maxOuter = min(w, max(style.minimumMaxWidth, fraction))
        containerWidth = w
        maxOuterWidth = maxOuter
        self.style = style
        if drawsBubble {
            let bordered = 2 + 2 * style.horizontalPadding
            if maxOuter - bordered >= style.minimumContentWidth {
                compactLevel = .full
                horizontalChrome = bordered
            } else if maxOuter >= style.minimumContentWidth {
                compactLevel = .noSideBorders
                horizontalChrome = 0
            } else {
                compactLevel = .plain
                horizontalChrome = maxOuter > style.plainIndent ? style.plainIndent : 0
            }
        } else if maxOuter - 2 * style.ruleWidth >= style.minimumContentWidth {
            compactLevel = .full
            horizontalChrome = 2 * style.ruleWidth
        } else {
            compactLevel = .plain
            horizontalChrome = 0
        }
    }
}

/// What a cell's content measures: the part of a row each subclass computes.
public struct ContentSize: Hashable, Sendable {
    /// Widest content line or box, in cells.
    package var width: Int
    /// Wrapped text lines (message text, caption or notice).
    package var textLines: Int
    /// Width the text was wrapped at.
    package var wrapWidth: Int
    /// Image box size; zero without an image.
    package var imageColumns: Int
    package var imageRows: Int

    /// Content `width` wide, of `textLines` lines wrapped at `wrapWidth`, below an image box of
    /// `imageColumns` × `imageRows` (zero without an image).
    public init(width: Int, textLines: Int, wrapWidth: Int, imageColumns: Int = 0, imageRows: Int = 0) {
        self.width = width
        self.textLines = textLines
        self.wrapWidth = wrapWidth
        self.imageColumns = imageColumns
        self.imageRows = imageRows
    }
}
