/// A cell that shows one kind of model: everything a kind says about itself, each said once.
/// `Model` is the model protocol it is configured with (an existential such as
/// `any TextMessageModel`), so the type system ties each cell to its kind; the registry derives
/// the rest (the kind's compact id, its printed name) from `kindName`.
public protocol ConfigurableCell: BubbleCell {
    /// The model protocol the cell is configured with, as an existential (`any TextMessageModel`).
    associatedtype Model
    /// The kind's name: what `heights` prints. Unique among registered kinds (registering a
    /// second cell with a name replaces the first).
    static var kindName: String { get }
    /// What the cell shows for `model`: its text and image box. The cell's layout measures
    /// exactly this and the renderer draws exactly this.
    static func content(of model: Model) -> BubbleContent
    /// A short text standing for `model` in a reply quote (by default, its content's text).
    static func previewText(of model: Model) -> String
}

extension ConfigurableCell {
    /// By default, the text of the model's content.
    public static func previewText(of model: Model) -> String { content(of: model).text ?? "" }

    /// None: a cell without a `ContentReaderProviding` conformance has each message cast to its
    /// `Model`.
    package static func contentReader(for type: any MessageModel.Type) -> ContentReader? { nil }
}

/// A cell with a content reader: `content(of:)` for models of the concrete type `type`, read
/// without a cast to the cell's `Model`, or nil when `type` is not a `Model`. Found once per
/// model type by the batch path, which reads every message's content; it must give what
/// `content(of:)` gives. The standard cells have one.
package protocol ContentReaderProviding: BubbleCell {
    static func contentReader(for type: any MessageModel.Type) -> ContentReader?
}
