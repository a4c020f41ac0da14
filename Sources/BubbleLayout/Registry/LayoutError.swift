/// Why a message could not be laid out.
public enum LayoutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No registered cell shows this model: its type adopts none of the registered model protocols.
    case unregisteredKind(modelType: String, id: String)

    /// The reason, in a sentence.
    public var description: String {
        switch self {
        case let .unregisteredKind(type, id):
            "no cell is registered for message \"\(id)\" of type \(type): register a ConfigurableCell "
                + "whose Model protocol \(type) adopts (CellRegistry.register)"
        }
    }
}
