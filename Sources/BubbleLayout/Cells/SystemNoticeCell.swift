/// A system notice: centred, no bubble, flanked by rules: `── Alice joined the group ──`.
open class SystemNoticeCell: BubbleCell, ConfigurableCell {
    public static let kindName = "system"

    public static func content(of model: any SystemMessageModel) -> BubbleContent { BubbleContent(text: model.notice) }

    open override class var drawsBubble: Bool { false }
}
