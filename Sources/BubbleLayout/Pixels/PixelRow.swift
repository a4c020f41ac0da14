/// A row's geometry in pixels: a `RowLayout` laid out by the cells in whole px, with the vertical
/// parts of `PixelStyle` and the text's height added by the row's cell (`BubbleCell.pixelRow`). Heights are in LayoutUnits (1/64 px), as
/// the font measurer gives text heights (a line height of 1.4 × 16 px is 1,433/64 px).
package struct PixelRow: Hashable, Sendable {
    /// The row's height, spacing above included, in 1/64 px.
    package var height64: Int
    /// The text's height (message text, caption or notice; 0 for a date separator), in 1/64 px.
    package var textHeight64: Int
    /// The cells' layout, in whole px across (`bubbleWidth`, `wrapWidth`, `imageColumns`) and
    /// image px down (`imageRows`).
    package var layout: RowLayout
    /// The bubble's outer width in px, at least the style's `minimumWidth` for bubbles.
    package var bubbleWidth: Int

    /// A row of `layout` `height64` tall whose text is `textHeight64` tall, its bubble
    /// `bubbleWidth` px wide: what a cell's `pixelRow` makes.
    package init(layout: RowLayout, height64: Int, textHeight64: Int, bubbleWidth: Int) {
        self.layout = layout
        self.height64 = height64
        self.textHeight64 = textHeight64
        self.bubbleWidth = bubbleWidth
    }

    /// Px a bubble row takes besides its spacing and its text: the padding, the name line, the
    /// reply quote, the image box (and the gap before a caption) and the footer line. The box is
    /// `imageRows` px: a picture of unknown size's label lines are counted by the cell instead.
    package static func fixedHeight(of layout: RowLayout, style: PixelStyle) -> Int {
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
    package static func pixels(_ value64: Int) -> String {
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
    /// `text` wrapped at `wrapWidth` px into `lines` lines, from the same measurer. An engine over
    /// a `PixelTextMeasurer` has `PixelHeights` do this.
    package func pixelRow(_ r: Int, of batch: BatchLayout, widthIndex: Int, style: PixelStyle,
                          textHeight: (String, Int, Int) -> Int) -> PixelRow {
        let row = batch.rows[r]
        let layout = batch.layout(row: r, widthIndex: widthIndex)
        return pixelRow(layout, content: row.modelIndex.map { content(of: batch.models[$0]).body }, style: style) {
            text, _, lines, width in textHeight(text, lines, width)
        }
    }

    /// A row laid out as `layout` showing `content` (nil for a date separator: its height is the
    /// style's, whatever its label), in pixels: `textHeight(text, part, lines, wrapWidth)` gives
    /// the height in 1/64 px of text part `part` wrapped at `wrapWidth` px into `lines` lines.
    func pixelRow(_ layout: RowLayout, content: BubbleContent?, style: PixelStyle,
                  textHeight: (String, Int, Int, Int) -> Int) -> PixelRow {
        var text64 = 0
        var label64: Int? = nil
        if let content {
            if layout.textLines > 0, let text = content.text {
                text64 = textHeight(text, 0, layout.textLines, layout.wrapWidth)
            }
            // A picture of unknown size is its label's lines, as tall as the measurer makes them.
            if layout.imageRows > 0, let image = content.image, !image.hasKnownSize {
                label64 = textHeight(image.label, ImageContent.labelPart, layout.imageRows, layout.wrapWidth)
            }
        }
        return registry.cell(of: layout.kind).pixelRow(layout, textHeight64: text64, labelHeight64: label64, style: style)
    }
}
