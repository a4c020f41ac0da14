/// A cell's `content(of:)` for the models of one concrete type, made by the cell
/// (`ContentReaderProviding.contentReader(for:)`) where that type is a generic parameter, so each message
/// of that type is read without casting it to the cell's model protocol (a cast that boxes the
/// record into a new existential).
///
/// Safe to hand any model: one of another type reads as nil.
package struct ContentReader: Sendable {
    /// The concrete model type read.
    let modelType: ObjectIdentifier
    private let reader: any ContentReading

    /// A reader of `M` values through `read` (a cell's content function on its own model type).
    package init<M: MessageModel>(_ type: M.Type, read: @escaping @Sendable (M) -> BubbleContent) {
        modelType = ObjectIdentifier(M.self)
        reader = Reader<M>(content: read)
    }

    /// What the cell shows for `model`, or nil when `model` is not of the type this reader reads.
    @inline(__always)
    package func read<U: MessageModel>(_ model: U) -> BubbleContent? {
        guard ObjectIdentifier(U.self) == modelType else { return nil }
        return reader.read(model)
    }
}

/// A content function of one model type, called with a model of any type. A class, so that a
/// reader is copied by a retain (a struct in an existential is copied through its witnesses).
private protocol ContentReading: AnyObject, Sendable {
    func read<U: MessageModel>(_ model: U) -> BubbleContent?
}

private final class Reader<M: MessageModel>: ContentReading {
    let content: @Sendable (M) -> BubbleContent

    init(content: @escaping @Sendable (M) -> BubbleContent) { self.content = content }

    /// A forced cast after comparing the types: `as? M` would make `Optional<M>`'s metadata, a
    /// look-up in the runtime's cache, for every message; `as!` needs only `M`'s, and still
    /// stops the program rather than read a model as the wrong type.
    func read<U: MessageModel>(_ model: U) -> BubbleContent? {
        guard U.self == M.self else { return nil }
        return content(model as! M)
    }
}
