/// The bubble geometry in pixels, for layouts measured from font files: one value, compared as a
/// whole, like `BubbleStyle`. Horizontal geometry (maximum width, padding, the reply quote's and
/// the image box's widths) is handed to the cells as a `BubbleStyle` in whole px
/// (`bubbleStyle`), so pixel rows go through the same cells and engine as terminal rows; the
/// vertical parts, which terminal rows count in rows, are added here (`PixelRow`).
///
/// The defaults look like a common phone chat app on a 375 px wide screen. A bubble row is, top to
/// bottom: the spacing above it, the top padding, the sender's name line, a reply quote, the image
/// box (and a gap before a caption), the text, a footer line (time, "edited", status), the bottom
/// padding. So its height is the text's height plus fixed parts, whatever the text.
///
/// Set what your design differs in, then hand the style to a conversation:
///
/// ```swift
/// var style = PixelStyle()
/// style.horizontalPadding = 10
/// style.maxWidthFraction = 0.8
/// let conversation = Conversation(measurer: measurer, style: style, width: 375)
/// ```
///
/// Lengths are whole px (points at a scale of 1), from 0 to 10,000 (spacing from 0 to 255, the
/// padding and the image box's least sizes from 1); a conversation takes a value outside its
/// range as the nearest inside it.
public struct PixelStyle: Hashable, Sendable {
    /// A bubble's widest outer width as a fraction of the container (default 0.75).
    public var maxWidthFraction: Double = 0.75
    /// Floor of that widest width, so narrow containers still get usable bubbles (default 240).
    package var minimumMaxWidth: Int = 240
    /// Narrowest a bubble is drawn, however short its text (default 48, capped by the widest).
    public var minimumWidth: Int = 48
    /// Between the bubble's side edges and its content, each side; at least 1 (default 12).
    public var horizontalPadding: Int = 12
    /// Between the bubble's top and bottom edges and its content, each (default 8).
    public var verticalPadding: Int = 8
    /// Narrowest content width before the bubble drops its side padding (default 32).
    package var minimumContentWidth: Int = 32
    /// The sender's name line, when shown (default 18).
    public var nameHeight: Int = 18
    /// A reply quote above the content (default 44).
    public var replyQuoteHeight: Int = 44
    /// Content width a bubble keeps when it shows a reply quote (default 160).
    package var replyQuoteMinimumWidth: Int = 160
    /// The footer line under the content: time, "edited", status (default 16).
    public var footerHeight: Int = 16
    /// Tallest image box (default 320).
    public var imageMaxHeight: Int = 320
    /// Narrowest image box (default 80, capped by the content width).
    public var imageMinWidth: Int = 80
    /// Shortest image box (default 60).
    public var imageMinHeight: Int = 60
    /// Between an image box and its caption (default 6).
    public var imageCaptionGap: Int = 6
    /// Above a group's first row, a notice or a date separator (default 8).
    public var groupSpacing: Int = 8
    /// Above the other rows of a group (default 2).
    public var inGroupSpacing: Int = 2
    /// A date separator row (default 28).
    public var dateHeight: Int = 28
    /// Above and below a system notice's text (default 6).
    public var noticeVerticalPadding: Int = 6
    /// Each side of a system notice's text, which wraps that much narrower (default 16).
    public var noticeInset: Int = 16

    /// The defaults above.
    public init() {}

    /// This style with every value in its range (see the type's description): what a
    /// conversation lays out with.
    package var clamped: PixelStyle {
        var style = self
        for key in Self.lengthKeys {
            style[keyPath: key.path] = min(max(style[keyPath: key.path], key.range.lowerBound), key.range.upperBound)
        }
        if !(style.maxWidthFraction > 0) { style.maxWidthFraction = PixelStyle().maxWidthFraction }
        style.maxWidthFraction = min(style.maxWidthFraction, 1)
        return style
    }

    /// The largest value any length may take, in px: the engine keeps spacing in a byte and widths
    /// in 16 bits, so the limits are checked when a style is read rather than clamped later.
    package static let maximumLength = 10_000
    package static let maximumSpacing = 255

    /// The horizontal geometry as the cells take it, in whole px. A terminal bubble's side border
    /// is one cell, so the padding handed over is one less: the content starts `horizontalPadding`
    /// px from the edge either way.
    package var bubbleStyle: BubbleStyle {
        var style = BubbleStyle()
        style.maxWidthNumerator = Int((maxWidthFraction * 10_000).rounded())
        style.maxWidthDenominator = 10_000
        style.minimumMaxWidth = minimumMaxWidth
        style.horizontalPadding = max(0, horizontalPadding - 1)
        style.minimumContentWidth = minimumContentWidth
        style.plainIndent = 0
        style.groupSpacing = groupSpacing
        style.inGroupSpacing = inGroupSpacing
        style.replyQuoteMinimumWidth = replyQuoteMinimumWidth
        style.imageMaxRows = imageMaxHeight
        style.imageMinColumns = imageMinWidth
        style.imageMinRows = imageMinHeight
        style.cellHeightToWidth = 1
        style.ruleWidth = noticeInset
        style.footerBorderOverhead = 2 * horizontalPadding
        return style
    }
}
