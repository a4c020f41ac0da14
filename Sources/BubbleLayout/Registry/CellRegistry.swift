/// Maps model kinds to their cells. Adding a kind takes one model protocol, one cell subclass
/// adopting `ConfigurableCell` with that protocol as `Model` (it names the kind, says what it
/// shows and overrides what it lays out differently), and one `register` line. Date separators
/// are laid out by `dateSeparatorCell`.
///
/// A model goes to the first registered cell whose `Model` it adopts, so register the more
/// specific protocol first when a type adopts several.
public struct CellRegistry: Sendable {
    /// The registered configurators, in lookup order.
    package private(set) var configurators: [AnyCellConfigurator] = []

    /// The cell laying out date separator rows (`DateSeparatorCell` unless replaced by a subclass).
    package var dateSeparatorCell: DateSeparatorCell.Type = DateSeparatorCell.self
    /// The date separators' kind.
    package var dateSeparatorKind: RowKind { .date }

    /// An empty registry: only date separators have a cell.
    package init() {}

    /// Text, image and system notice cells.
    public static let standard: CellRegistry = {
        var registry = CellRegistry()
        registry.register(TextBubbleCell.self)
        registry.register(ImageBubbleCell.self)
        registry.register(SystemNoticeCell.self)
        return registry
    }()

    /// Registers `cell` for models adopting `Cell.Model`. Registering a kind name again replaces
    /// its cell.
    public mutating func register<Cell: ConfigurableCell>(_ cell: Cell.Type) {
        let configurator = AnyCellConfigurator(cell)
        if let i = configurators.firstIndex(where: { $0.kind == configurator.kind }) {
            configurators[i] = configurator
        } else {
            configurators.append(configurator)
        }
    }

    /// The position in `configurators` of the cell for `model`: one cast per kind tried.
    package func index(for model: any MessageModel) throws(LayoutError) -> Int {
        for (i, configurator) in configurators.enumerated() where configurator.accepts(model) { return i }
        throw .unregisteredKind(modelType: String(describing: type(of: model)), id: model.id)
    }

    /// The printed name of rows of `kind` (its cell's `kindName`).
    package func name(of kind: RowKind) -> String { kind.name }

    /// The cell laying out rows of `kind`: a registered cell, the date separator cell, or the
    /// base bubble for a kind no longer registered.
    package func cell(of kind: RowKind) -> BubbleCell.Type {
        if kind == dateSeparatorKind { return dateSeparatorCell }
        for configurator in configurators where configurator.kind == kind { return configurator.cellType }
        return BubbleCell.self
    }

    /// The configurator of the cell for `model`.
    package func configurator(for model: any MessageModel) throws(LayoutError) -> AnyCellConfigurator {
        configurators[try index(for: model)]
    }
}

extension CellRegistry {
    /// `index(for:)` remembered by model type: whether a model adopts a protocol depends on its
    /// type alone, so each type costs its casts once, and every later message of that type is a
    /// comparison of type identities. For a sequential pass over many messages (decoration),
    /// which holds it as a value: no lock.
    struct Lookup: Sendable {
        let registry: CellRegistry
        private var types: [ObjectIdentifier] = []
        private var indices: [Int] = []

        init(_ registry: CellRegistry) { self.registry = registry }

        @inline(__always)
        mutating func index(for model: any MessageModel) throws(LayoutError) -> Int {
            let type = ObjectIdentifier(Swift.type(of: model))
            for i in types.indices where types[i] == type { return indices[i] }
            let index = try registry.index(for: model)
            types.append(type)
            indices.append(index)
            return index
        }
    }
}
