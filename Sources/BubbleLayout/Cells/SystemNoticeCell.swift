/// A system notice: centred, no bubble, flanked by rules: `── Alice joined the group ──`.
open class SystemNoticeCell: BubbleCell, ConfigurableCell {
    public static let kindName = "system"

    public static func content(of model: any SystemMessageModel) -> BubbleContent { content(typed: model) }

    /// `content(of:)` on a model of a known type: the one definition of a notice's content.
    static func content<M: SystemMessageModel>(typed model: M) -> BubbleContent { BubbleContent(text: model.notice) }

    public static func contentReader(for type: any MessageModel.Type) -> ContentReader? {
        guard let typed = type as? any SystemMessageModel.Type else { return nil }
        func reader<M: SystemMessageModel>(_: M.Type) -> ContentReader { ContentReader(M.self) { content(typed: $0) } }
        return reader(typed)
    }

    open override class var drawsBubble: Bool { false }
}
