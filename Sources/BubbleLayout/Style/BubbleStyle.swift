/// Every geometry constant of a bubble, in terminal cells. One value, compared as a whole: it is
/// part of the layout cache key (as Signal's `ConversationStyle` is), so a cached layout is reused
/// only under an equal style.
///
/// Defaults, for a container `W` cells wide:
/// - A bubble's maximum outer width is `W × 3 / 4`, but never less than 24 cells (and never more
///   than `W`). A bubble shrinks to its widest line. Incoming bubbles hug the left edge, outgoing
///   bubbles the right.
/// - The full bubble has a rounded border and 1 cell of padding each side: 4 cells of horizontal
///   chrome, a top border row and a bottom border row. The footer (time, "edited", status) sits
///   inside the bottom border when the bubble can be widened to hold it, else on its own row.
/// - When the content width left inside the border falls under 6 cells, the bubble steps down:
///   first the side borders and padding go (top and bottom rules stay), and when even the bare
///   maximum width is under 6 cells, messages become plain lines indented by 1 cell with the
///   footer on its own row. No width from 1 up ever breaks the layout.
/// - A group's first row has 1 blank row above it; rows inside a group have none.
/// - A reply quote takes one row inside the bubble, which is then at least 16 content cells wide.
/// - Images are boxes that keep the picture's aspect ratio with a cell counted as 2× as tall as
///   wide, at most the content width and 12 rows, at least 6 × 3 cells; an unknown size is 4:3.
///   A caption wraps below the box at the content width.
/// - System notices are centred without a bubble and flanked by 3-cell rules (`── text ──`), so
///   they wrap 6 cells narrower than a bubble's content; date separators are drawn the same way.
///
/// An app sets the widest bubble, the padding and the spacing (the rest is fixed by how the
/// terminal draws a bubble). A conversation takes a value outside its range as the nearest
/// inside it: a width fraction from 1/denominator to 1, padding of 0 or more, spacing 0 to 255.
public struct BubbleStyle: Hashable, Sendable {
    /// Maximum outer width as a fraction of the container: numerator (default 3, of 4).
    public var maxWidthNumerator: Int = 3
    /// Maximum outer width as a fraction of the container: denominator (default 4).
    public var maxWidthDenominator: Int = 4
    /// Floor of the maximum outer width, so narrow terminals still get usable bubbles (default 24).
    package var minimumMaxWidth: Int = 24
    /// Cells between a side border and the content (default 1).
    public var horizontalPadding: Int = 1
    /// Narrowest content width a layout accepts before stepping down a compact level (default 6).
    package var minimumContentWidth: Int = 6
    /// Indent of plain (fully compact) lines (default 1).
    package var plainIndent: Int = 1
    /// Blank rows above the first row of a group, a notice or a date separator (default 1).
    public var groupSpacing: Int = 1
    /// Blank rows between rows of one group (default 0).
    public var inGroupSpacing: Int = 0
    /// Content width a bubble keeps when it shows a reply quote (default 16, capped by the maximum).
    package var replyQuoteMinimumWidth: Int = 16
    /// Tallest image box, in rows (default 12).
    package var imageMaxRows: Int = 12
    /// Narrowest image box, in cells (default 6, capped by the content width).
    package var imageMinColumns: Int = 6
    /// Shortest image box, in rows (default 3: the fewest a framed box has, a top and a bottom
    /// rule around a row for its label; the terminal frames no shorter box).
    package var imageMinRows: Int = 3
    /// Aspect assumed for an image of unknown size: width (default 4).
    package var defaultImageAspectWidth: Int = 4
    /// Aspect assumed for an image of unknown size: height (default 3).
    package var defaultImageAspectHeight: Int = 3
    /// How many times taller than wide a terminal cell is (default 2).
    package var cellHeightToWidth: Int = 2
    /// Cells of rule each side of a system notice or date label, including the gap (default 3).
    package var ruleWidth: Int = 3
    /// Cells a footer inside the bottom border needs beyond its own width: two corners and a
    /// rule cell each side (default 4).
    package var footerBorderOverhead: Int = 4

    /// The default geometry described above.
    public init() {}

    /// This style with the values an app sets in their ranges: what a conversation lays out with.
    package var clamped: BubbleStyle {
        var style = self
        style.maxWidthDenominator = max(1, style.maxWidthDenominator)
        style.maxWidthNumerator = min(max(1, style.maxWidthNumerator), style.maxWidthDenominator)
        style.horizontalPadding = min(max(0, style.horizontalPadding), Self.maximumContainerWidth)
        style.groupSpacing = min(max(0, style.groupSpacing), 255)
        style.inGroupSpacing = min(max(0, style.inGroupSpacing), 255)
        return style
    }

    /// Widest a container may be; wider containers are laid out as this wide.
    package static let maximumContainerWidth = Int(UInt16.max) - 1
}
