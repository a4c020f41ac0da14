/// A system notice: centred, no bubble, flanked by rules: `── Alice joined the group ──`.
open class SystemNoticeCell: BubbleCell, ConfigurableCell {
    public private(set) var notice = ""

    open func configure(with model: any SystemMessageModel) { notice = model.notice }

    public static func previewText(of model: any SystemMessageModel) -> String { model.notice }

    open override class var rowKind: RowKind { .system }
    open override class var drawsBubble: Bool { false }

    open override func measureContent<Sizing: TextSizing>(in frame: BubbleFrame, text sizing: Sizing) -> ContentSize {
        let wrap = frame.maxContentWidth
        let metrics = sizing.metrics(of: notice, part: 0, width: wrap)
        return ContentSize(width: metrics.widestLine, textLines: metrics.lineCount, wrapWidth: wrap)
    }

    open override func prepareForReuse() { notice = "" }
}
