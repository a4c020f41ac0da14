/// A row's geometry in pixels: a `RowLayout` laid out by the cells in whole px, with the vertical
/// parts of `PixelStyle` and the text's height added. Heights are in LayoutUnits (1/64 px), as
/// the font measurer gives text heights (a line height of 1.4 × 16 px is 1,433/64 px).
public struct PixelRow: Hashable, Sendable {
    /// The row's height, spacing above included, in 1/64 px.
    public var height64: Int
    /// The text's height (message text, caption or notice; 0 for a date separator), in 1/64 px.
    public var textHeight64: Int
    /// The cells' layout, in whole px across (`bubbleWidth`, `wrapWidth`, `imageColumns`) and
    /// image px down (`imageRows`).
    public var layout: RowLayout
    /// The bubble's outer width in px, at least the style's `minimumWidth` for bubbles.
    public var bubbleWidth: Int

    /// The row of `layout` whose text is `textHeight64` tall, in `style`. `labelHeight64` is the
    /// height of a picture of unknown size, drawn as its label (`ImageContent.label`) in
    /// `layout.imageRows` lines; nil for a box of known size, `imageRows` px tall.
    public init(layout: RowLayout, textHeight64: Int, labelHeight64: Int? = nil, style: PixelStyle) {
        self.layout = layout
        self.textHeight64 = textHeight64
        bubbleWidth = layout.bubbleWidth
        var height = layout.spacingAbove * 64
        if layout.kind == .date {
            height += style.dateHeight * 64
        } else if layout.alignment == .center {
            // Drawn without a bubble (system notices): padding above and below the text.
            height += 2 * style.noticeVerticalPadding * 64 + textHeight64
        } else {
            height += Self.fixedHeight(of: layout, style: style) * 64 + textHeight64
            if let labelHeight64 { height += labelHeight64 - layout.imageRows * 64 }
            // The widest the bubble may be is its wrap width plus its chrome.
            let widest = layout.wrapWidth + layout.horizontalChrome(in: style.bubbleStyle)
            bubbleWidth = max(layout.bubbleWidth, min(style.minimumWidth, widest))
        }
        height64 = height
    }

    /// Px a bubble row takes besides its spacing and its text: the padding, the name line, the
    /// reply quote, the image box (and the gap before a caption) and the footer line. The box is
    /// `imageRows` px: a picture of unknown size's label lines are counted by `init` instead.
    public static func fixedHeight(of layout: RowLayout, style: PixelStyle) -> Int {
        var px = 2 * style.verticalPadding
        if layout.parts.contains(.nameLine) { px += style.nameHeight }
        if layout.parts.contains(.replyQuote) { px += style.replyQuoteHeight }
        if layout.imageRows > 0 {
            px += layout.imageRows
            if layout.textLines > 0 { px += style.imageCaptionGap }
        }
        if layout.footer != .none { px += style.footerHeight }
        return px
    }

    /// `value64` LayoutUnits as px, exactly: `22.390625`, `20`.
    public static func pixels(_ value64: Int) -> String {
        let sign = value64 < 0 ? "-" : ""
        let magnitude = abs(value64)
        var text = sign + String(magnitude / 64)
        var fraction = magnitude % 64
        guard fraction != 0 else { return text }
        text += "."
        // 1/64 = 0.015625: at most six decimals, each exact.
        while fraction != 0 {
            fraction *= 10
            text += String(fraction / 64)
            fraction %= 64
        }
        return text
    }
}

extension LayoutEngine {
    /// Row `r` of `batch` at `batch.widths[widthIndex]` in pixels, for an engine measuring in whole
    /// px with `style.bubbleStyle`. `textHeight(text, lines, wrapWidth)` is the height in 1/64 px of
    /// `text` wrapped at `wrapWidth` px into `lines` lines, from the same measurer (it depends on
    /// the line height, and with `line-height: normal` on the fonts each line uses).
    public func pixelRow(_ r: Int, of batch: BatchLayout, widthIndex: Int, style: PixelStyle,
                         textHeight: (String, Int, Int) -> Int) -> PixelRow {
        let row = batch.rows[r]
        return pixelRow(batch.layout(row: r, widthIndex: widthIndex), of: row.isDateSeparator ? nil : batch.models[row.messageIndex],
                        style: style, textHeight: textHeight)
    }

    /// A row laid out as `layout`, of message `model` (nil for a date separator), in pixels: the
    /// text's and an unknown-size picture's label's heights from `textHeight`, as above.
    public func pixelRow(_ layout: RowLayout, of model: (any MessageModel)?, style: PixelStyle,
                         textHeight: (String, Int, Int) -> Int) -> PixelRow {
        var text64 = 0
        var label64: Int? = nil
        // A date separator's height is the style's, whatever its label.
        if let model {
            let body = content(of: model).body
            if layout.textLines > 0, let text = body.text {
                text64 = textHeight(text, layout.textLines, layout.wrapWidth)
            }
            // A picture of unknown size is its label's lines, as tall as the measurer makes them.
            if layout.imageRows > 0, let image = body.image, !image.hasKnownSize {
                label64 = textHeight(image.label, layout.imageRows, layout.wrapWidth)
            }
        }
        return PixelRow(layout: layout, textHeight64: text64, labelHeight64: label64, style: style)
    }
}
