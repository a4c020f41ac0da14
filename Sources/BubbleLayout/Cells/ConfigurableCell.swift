/// A cell that shows one kind of model. `Model` is the model protocol it is updated with (an
/// existential such as `any TextMessageModel`), so the type system ties each cell to its kind.
public protocol ConfigurableCell: BubbleCell {
    associatedtype Model
    /// Takes what layout needs from `model`. Called on a dequeued cell before layout.
    func configure(with model: Model)
    /// A short text standing for `model` in a reply quote (its text, caption or notice).
    static func previewText(of model: Model) -> String
    /// What a renderer draws inside the bubble for `model`.
    static func content(of model: Model) -> BubbleContent
}

extension ConfigurableCell {
    public static func previewText(of model: Model) -> String { "" }
    /// By default a cell shows its preview text.
    public static func content(of model: Model) -> BubbleContent { BubbleContent(text: previewText(of: model)) }
}
