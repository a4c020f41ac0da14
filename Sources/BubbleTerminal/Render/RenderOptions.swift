import BubbleLayout
import Foundation

/// How a transcript is drawn. The geometry itself comes from the layouts, never from here.
public struct RenderOptions: Sendable {
    /// The container width in cells: the width the layouts were computed at.
    public var width: Int
    /// Colours to use; `.none` writes not a single escape byte.
    public var colorDepth: ColorDepth
    /// `--ascii`: borders, tails, marks and icons in plain ASCII. Also chosen automatically when
    /// the engine measures East Asian Ambiguous characters (box drawing among them) as 2 cells.
    public var asciiBorders: Bool
    /// The zone footer times are shown in (the decorator's zone, for days to agree).
    public var timeZone: TimeZone
    /// How footer times are written (the decorator's clock, for footers to be as wide as reserved).
    public var clock: ClockStyle = .twentyFourHour
    /// Sender colours.
    public var palette: SenderPalette
    /// Messages remembered for reply quotes when no resolver is given.
    public var replyPreviewCapacity: Int
    /// `--bidi`: right-to-left text in visual order (the default) or in logical order.
    public var bidi: BidiMode = .visual
    /// Web addresses in messages written as OSC 8 hyperlinks, so a terminal opens an address
    /// wrapped over lines as one link. Off by default: for a terminal (`bubbles` turns them on
    /// when standard output is a terminal, off with `--no-hyperlinks`). Never with `colorDepth`
    /// `.none`, which writes no escape at all.
    public var hyperlinks = false
    /// Whether a message's text prepared for drawing is kept in the engine's prepared-text store
    /// (on by default: a viewer draws the same message again). A one-pass transcript turns it off,
    /// so memory does not grow with the messages drawn (up to the store's bound: a few hundred bytes a
    /// message, for a million messages).
    public var keepsPreparedTexts = true

    public init(width: Int, colorDepth: ColorDepth = .none, asciiBorders: Bool = false,
                timeZone: TimeZone = ZoneClock.systemTimeZone, palette: SenderPalette = SenderPalette(),
                replyPreviewCapacity: Int = 4096) {
        self.width = width
        self.colorDepth = colorDepth
        self.asciiBorders = asciiBorders
        self.timeZone = timeZone
        self.palette = palette
        self.replyPreviewCapacity = replyPreviewCapacity
    }
}
