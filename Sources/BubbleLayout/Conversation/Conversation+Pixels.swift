import BubbleText

extension Conversation where Measurer: PixelTextMeasurer {
    /// An empty conversation measured in pixels by `measurer` (BubbleFonts' `PixelLayoutMeasurer`
    /// over the app's fonts), laid out in `style` in a container `width` whole px wide, with a
    /// new engine. Heights, offsets and frames are in LayoutUnits (1/64 px): divide by 64 for
    /// points.
    public convenience init(measurer: Measurer, style: PixelStyle = PixelStyle(), width: Int,
                            registry: CellRegistry = .standard, options: DecorationOptions = DecorationOptions()) {
        self.init(measurer: measurer, style: style, width: width, registry: registry, cache: LayoutCache(), options: options)
    }

    /// The same, with a new engine keeping its layouts in `cache`.
    package convenience init(measurer: Measurer, style: PixelStyle = PixelStyle(), width: Int,
                             registry: CellRegistry = .standard, cache: LayoutCache,
                             options: DecorationOptions = DecorationOptions()) {
        let style = style.clamped
        let engine = LayoutEngine(measurer: measurer, style: style.bubbleStyle, registry: registry, cache: cache)
        self.init(engine: engine, width: width, options: options, pixelStyle: style) { layout, separator, content, texts in
            // As `PixelHeights` makes a batch's rows, from the texts this row keeps prepared.
            let separatorRow = separator.map { engine.pixelRow($0, content: nil, style: style) { _, _, _, _ in 0 } }
            let row = engine.pixelRow(layout, content: content, style: style) { text, part, lines, wrap in
                if let each = measurer.uniformLineHeight64 { return lines * each }
                return measurer.textHeight64(of: texts.prepared(part: part, text: text)
                    ?? measurer.prepare(text, language: part == 0 ? content.language : nil), width: wrap)
            }
            return (row, separatorRow)
        }
    }
}

extension RowTexts {
    /// Part `part`'s prepared text, when it is known and its source is `text`.
    func prepared(part: Int, text: String) -> Prepared? {
        if let first, first.index == part, first.source == text { return first.prepared }
        return others.first { $0.index == part && $0.source == text }?.prepared
    }
}
