/// A cell that shows one kind of model: everything a kind says about itself, each said once.
/// `Model` is the model protocol it is configured with (an existential such as
/// `any TextMessageModel`), so the type system ties each cell to its kind; the registry derives
/// the rest (the kind's compact id, its printed name) from `kindName`.
public protocol ConfigurableCell: BubbleCell {
    associatedtype Model
    /// The kind's name: what `heights` prints. Unique among registered kinds (registering a
    /// second cell with a name replaces the first).
    static var kindName: String { get }
    /// What the cell shows for `model`: its text and image box. The cell's layout measures
    /// exactly this and the renderer draws exactly this.
    static func content(of model: Model) -> BubbleContent
    /// A short text standing for `model` in a reply quote (by default, its content's text).
    static func previewText(of model: Model) -> String
    /// `content(of:)` for models of the concrete type `type`, read without a cast to `Model`, or
    /// nil when `type` is not a `Model` or the cell has none (the default: each message is then
    /// cast to `Model`). Found once per model type by the batch path, which reads every message's
    /// content; it must give what `content(of:)` gives.
    static func contentReader(for type: any MessageModel.Type) -> ContentReader?
}

extension ConfigurableCell {
    public static func previewText(of model: Model) -> String { content(of: model).text ?? "" }

    public static func contentReader(for type: any MessageModel.Type) -> ContentReader? { nil }
}
