/// The layout of one timeline row: everything drawing needs besides the text itself. A small
/// value (24 bytes) because the cache holds one per row and width.
///
/// Rows stack top to bottom as: `spacingAbove` blank rows, the name line, the top border, the
/// reply quote, the content (image rows, then text lines), the bottom border, a footer row. So
/// `height == spacingAbove + chromeRows + imageRows + textLines` always holds.
public struct RowLayout: Hashable, Sendable {
    @usableFromInline var storedHeight: UInt32
    @usableFromInline var storedTextLines: UInt32
    @usableFromInline var storedX: UInt16
    @usableFromInline var storedBubbleWidth: UInt16
    @usableFromInline var storedWrapWidth: UInt16
    @usableFromInline var storedImageColumns: UInt16
    @usableFromInline var storedImageRows: UInt16
    /// What the row draws.
    package var kind: RowKind
    package var alignment: RowAlignment
    package var compactLevel: CompactLevel
    package var parts: ChromeParts
    package var footer: FooterPlacement
    @usableFromInline var storedSpacingAbove: UInt8

    /// Builds a layout; the height is the sum of the parts.
    package init(kind: RowKind, alignment: RowAlignment, compactLevel: CompactLevel,
                parts: ChromeParts, footer: FooterPlacement, spacingAbove: Int,
                x: Int, bubbleWidth: Int, wrapWidth: Int, textLines: Int,
                imageColumns: Int = 0, imageRows: Int = 0) {
        self.kind = kind
        self.alignment = alignment
        self.compactLevel = compactLevel
        self.parts = parts
        self.footer = footer
        self.storedSpacingAbove = Self.stored(spacingAbove, "spacingAbove")
        self.storedX = Self.stored(x, "x")
        self.storedBubbleWidth = Self.stored(bubbleWidth, "bubbleWidth")
        self.storedWrapWidth = Self.stored(wrapWidth, "wrapWidth")
        self.storedTextLines = Self.stored(textLines, "textLines")
        self.storedImageColumns = Self.stored(imageColumns, "imageColumns")
        self.storedImageRows = Self.stored(imageRows, "imageRows")
        self.storedHeight = 0
        self.storedHeight = Self.stored(Int(storedSpacingAbove) + chromeRows + imageRows + textLines, "height")
    }

    /// `value` in its stored width. Layout never makes a negative or oversized value (widths are
    /// bounded by `BubbleStyle.maximumContainerWidth`, lines by the text's length), so one that does not fit
    /// is a bug: caught in debug builds, clamped in release so a bad row cannot take memory with it.
    @inline(__always)
    static func stored<Field: FixedWidthInteger & UnsignedInteger>(_ value: Int, _ name: StaticString) -> Field {
        assert(value >= 0 && value <= Int(Field.max), "RowLayout.\(name) = \(value) does not fit in \(Field.self)")
        return Field(clamping: value)
    }

    /// Rows the row takes, spacing included.
    @inlinable public var height: Int { Int(storedHeight) }
    /// Wrapped text lines: the message text, a caption or a notice (0 when there is no text).
    @inlinable public var textLines: Int { Int(storedTextLines) }
    /// Column of the bubble's (or centred text's) left edge within the container.
    @inlinable public var x: Int { Int(storedX) }
    /// Outer width of the bubble, border included; for notices and date rows, text plus rules.
    @inlinable public var bubbleWidth: Int { Int(storedBubbleWidth) }
    /// Width the text was wrapped at.
    @inlinable package var wrapWidth: Int { Int(storedWrapWidth) }
    /// Image box width in cells (0 when there is no image).
    @inlinable package var imageColumns: Int { Int(storedImageColumns) }
    /// Image box height in rows (0 when there is no image).
    @inlinable package var imageRows: Int { Int(storedImageRows) }
    /// Blank rows above the row.
    @inlinable package var spacingAbove: Int { Int(storedSpacingAbove) }

    /// A layout from its stored fields, the height computed as in the public initialiser but
    /// without branches: for unpacking cached layouts on every hit.
    @inline(__always)
    init(storedTextLines: UInt32, x: UInt16, bubbleWidth: UInt16, wrapWidth: UInt16, imageColumns: UInt16,
         imageRows: UInt16, kind: RowKind, alignment: RowAlignment, compactLevel: CompactLevel, parts: ChromeParts,
         footer: FooterPlacement, spacingAbove: UInt8) {
        self.kind = kind
        self.alignment = alignment
        self.compactLevel = compactLevel
        self.parts = parts
        self.footer = footer
        self.storedSpacingAbove = spacingAbove
        self.storedX = x
        self.storedBubbleWidth = bubbleWidth
        self.storedWrapWidth = wrapWidth
        self.storedTextLines = storedTextLines
        self.storedImageColumns = imageColumns
        self.storedImageRows = imageRows
        let rowParts = ChromeParts([.nameLine, .topBorder, .replyQuote, .bottomBorder]).rawValue
        let chrome = (parts.rawValue & rowParts).nonzeroBitCount + (footer == .ownLine ? 1 : 0)
        self.storedHeight = UInt32(spacingAbove) + UInt32(chrome) + UInt32(imageRows) + storedTextLines
    }

    /// A placeholder of height 0, for rows not laid out yet.
    static let empty = RowLayout(kind: .text, alignment: .left, compactLevel: .plain, parts: [], footer: .none,
                                 spacingAbove: 0, x: 0, bubbleWidth: 0, wrapWidth: 0, textLines: 0)

    /// Rows taken by chrome: name line, borders, reply quote and an own-line footer.
    package var chromeRows: Int {
        var rows = 0
        if parts.contains(.nameLine) { rows += 1 }
        if parts.contains(.topBorder) { rows += 1 }
        if parts.contains(.replyQuote) { rows += 1 }
        if parts.contains(.bottomBorder) { rows += 1 }
        if footer == .ownLine { rows += 1 }
        return rows
    }

    /// Cells between the bubble's outer edge and its content, summed over both sides.
    package func horizontalChrome(in style: BubbleStyle) -> Int {
        if parts.contains(.rules) { return 2 * style.ruleWidth }
        switch compactLevel {
        case .full: return 2 + 2 * style.horizontalPadding
        case .noSideBorders: return 0
        // Centred text without rules (notices, date labels) is not indented: it fills its width.
        case .plain: return alignment != .center && bubbleWidth > style.plainIndent ? style.plainIndent : 0
        }
    }

    /// Column of the content's left edge within the container.
    package func contentX(in style: BubbleStyle) -> Int {
        if parts.contains(.rules) { return x + style.ruleWidth }
        return x + (compactLevel == .full ? 1 + style.horizontalPadding : horizontalChrome(in: style))
    }

    /// Width the content may use inside the bubble.
    package func contentWidth(in style: BubbleStyle) -> Int { max(0, bubbleWidth - horizontalChrome(in: style)) }
}
