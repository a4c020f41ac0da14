/// Maps model kinds to their cells. Adding a kind takes one model protocol, one cell subclass
/// adopting `ConfigurableCell` with that protocol as `Model`, and one `register` line.
///
/// A model goes to the first registered cell whose `Model` it adopts, so register the more
/// specific protocol first when a type adopts several.
public struct CellRegistry: Sendable {
    /// The registered configurators, in lookup order.
    public private(set) var configurators: [AnyCellConfigurator] = []

    /// An empty registry.
    public init() {}

    /// Text, image and system notice cells.
    public static let standard: CellRegistry = {
        var registry = CellRegistry()
        registry.register(TextBubbleCell.self)
        registry.register(ImageBubbleCell.self)
        registry.register(SystemNoticeCell.self)
        return registry
    }()

    /// Registers `cell` for models adopting `Cell.Model`. Registering a class again replaces it.
    public mutating func register<Cell: ConfigurableCell>(_ cell: Cell.Type) {
        let configurator = CellConfigurator<Cell>().erased
        if let i = configurators.firstIndex(where: { $0.reuseIdentifier == configurator.reuseIdentifier }) {
            configurators[i] = configurator
        } else {
            configurators.append(configurator)
        }
    }

    /// The position in `configurators` of the cell for `model`.
    public func index(for model: any MessageModel) throws(LayoutError) -> Int {
        for (i, configurator) in configurators.enumerated() where configurator.accepts(model) { return i }
        throw .unregisteredKind(modelType: String(describing: type(of: model)), id: model.id)
    }

    /// The printed name of rows of `kind`: the registered cell's `kindName` ("voice" for a voice
    /// cell an app adds), "date" for date separators, else `kind.name`.
    public func name(of kind: RowKind) -> String {
        if kind == .date { return kind.name }
        return configurators.first { $0.rowKind == kind }?.kindName ?? kind.name
    }

    /// The configurator of the cell for `model`.
    public func configurator(for model: any MessageModel) throws(LayoutError) -> AnyCellConfigurator {
        configurators[try index(for: model)]
    }
}
