/// A cell that shows one kind of model: everything a kind says about itself, each said once.
/// `Model` is the model protocol it is configured with (an existential such as
/// `any TextMessageModel`), so the type system ties each cell to its kind; the registry derives
/// the rest (the kind's compact id, the reuse identifier, the printed name) from `kindName`.
public protocol ConfigurableCell: BubbleCell {
    associatedtype Model
    /// The kind's name: what `heights` prints and the pool key. Unique among registered kinds
    /// (registering a second cell with a name replaces the first).
    static var kindName: String { get }
    /// What the cell shows for `model`: its text and image box. The base cell measures exactly
    /// this and the renderer draws exactly this.
    static func content(of model: Model) -> BubbleContent
    /// A short text standing for `model` in a reply quote (by default, its content's text).
    static func previewText(of model: Model) -> String
    /// `content(of:)` for models of the concrete type `type`, as a function that takes them
    /// without a dynamic cast, or nil when `type` is not a `Model` or the cell has none (the
    /// default: each message is then cast to `Model`). Found once per model type by the batch
    /// path, which reads every message's content; it must give what `content(of:)` gives.
    static func contentReader<T: MessageModel>(for type: T.Type) -> ((T) -> BubbleContent)?
}

extension ConfigurableCell {
    /// The pool key: the kind's name.
    public static var reuseIdentifier: String { kindName }

    public static func previewText(of model: Model) -> String { content(of: model).text ?? "" }

    public static func contentReader<T: MessageModel>(for type: T.Type) -> ((T) -> BubbleContent)? { nil }

    /// Binds `model`'s content (the registry's configurator does this, with the direction too).
    public func configure(with model: Model) { content = Self.content(of: model) }
}

/// `read`, a function of `M` values, as the function of `T` values it is: `M` is `T` (checked in
/// debug builds), opened from a metatype. Both are generic parameters, so both functions take
/// their argument by address: casting the function (at worst through a re-abstraction thunk)
/// reads a message in place, where casting the message (`unsafeBitCast(value, to: M.self)`) copied
/// the whole record, retaining each of its strings, and freed the copy after.
@inline(__always)
func castReader<M, T>(_ read: @escaping (M) -> BubbleContent, to type: T.Type) -> (T) -> BubbleContent {
    assert(M.self == T.self, "a content reader is made for the model type it reads")
    return unsafeBitCast(read, to: ((T) -> BubbleContent).self)
}
