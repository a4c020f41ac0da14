/// A cell's `content(of:)` for the models of one concrete type, made by the cell
/// (`ConfigurableCell.contentReader(for:)`) where that type is a generic parameter, so each message
/// of that type is read where it lies: no dynamic cast to the cell's model protocol, no copy of
/// the record, and no function value cast between types.
///
/// Safe to hand any model: one of another type reads as nil.
public struct ContentReader: Sendable {
    /// The concrete model type read.
    let modelType: ObjectIdentifier
    /// The reader of `modelType`'s models, stored as `Read<Never>`: every `Read` has one layout,
    /// and its function takes the model by address whatever the model's type.
    private let reader: Read<Never>

    /// A function of `M` values in a generic struct, so it is kept as a generic function is: it
    /// takes its argument by address and returns its result directly, the way both the cell's
    /// closure (made where `M` is a generic parameter) and `read(_:)` (called where the model's
    /// type is opened) see it. Casting this wrapper between model types moves two words; casting
    /// the function itself goes through re-abstraction thunks, each copying the content it
    /// returns.
    private struct Read<M>: @unchecked Sendable {
        let read: (M) -> BubbleContent
    }

    /// A reader of `M` values through `read` (a cell's content function on its own model type).
    public init<M: MessageModel>(_ type: M.Type, read: @escaping @Sendable (M) -> BubbleContent) {
        modelType = ObjectIdentifier(M.self)
        reader = unsafeBitCast(Read<M>(read: read), to: Read<Never>.self)
    }

    /// What the cell shows for `model`, or nil when `model` is not of the type this reader reads.
    @inline(__always)
    public func read<U: MessageModel>(_ model: U) -> BubbleContent? {
        guard ObjectIdentifier(U.self) == modelType else { return nil }
        return unsafeBitCast(reader, to: Read<U>.self).read(model)  // U is the reader's type: checked above
    }
}
