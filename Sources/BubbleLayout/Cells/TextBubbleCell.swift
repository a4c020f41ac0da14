/// A bubble of wrapped text.
open class TextBubbleCell: BubbleCell, ConfigurableCell {
    public private(set) var text = ""

    open func configure(with model: any TextMessageModel) { text = model.text }

    public static func previewText(of model: any TextMessageModel) -> String { model.text }

    /// The text with its style, so a notice in a person's bubble is drawn as one.
    public static func content(of model: any TextMessageModel) -> BubbleContent {
        BubbleContent(text: model.text, textStyle: model.textStyle)
    }

    open override class var rowKind: RowKind { .text }

    open override func measureContent<Sizing: TextSizing>(in frame: BubbleFrame, text sizing: Sizing) -> ContentSize {
        let wrap = frame.maxContentWidth
        let metrics = sizing.metrics(of: text, part: 0, width: wrap)
        return ContentSize(width: metrics.widestLine, textLines: metrics.lineCount, wrapWidth: wrap)
    }

    open override func prepareForReuse() { text = "" }
}
