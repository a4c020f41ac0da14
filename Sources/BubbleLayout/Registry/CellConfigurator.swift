/// Binds one model protocol to its cell class: `Cell.Model` says which models it takes, and the
/// reuse identifier is the cell's class name.
public struct CellConfigurator<Cell: ConfigurableCell>: Sendable {
    public init(_ cell: Cell.Type = Cell.self) {}

    /// True when `model` adopts `Cell.Model`.
    public func accepts(_ model: any MessageModel) -> Bool { model is Cell.Model }

    /// Configures `cell` with `model`; false when the model is not a `Cell.Model`.
    public func configure(_ cell: Cell, with model: any MessageModel) -> Bool {
        guard let typed = model as? Cell.Model else { return false }
        cell.direction = model.direction
        cell.configure(with: typed)
        return true
    }

    /// The type-erased form the registry, engine, cache and renderer hold.
    public var erased: AnyCellConfigurator {
        AnyCellConfigurator(
            reuseIdentifier: Cell.reuseIdentifier, cellType: Cell.self, rowKind: Cell.rowKind,
            kindName: Cell.kindName, drawsBubble: Cell.drawsBubble,
            accepts: { $0 is Cell.Model },
            preview: { model in (model as? Cell.Model).map { Cell.previewText(of: $0) } ?? "" },
            content: { model in (model as? Cell.Model).map { Cell.content(of: $0) } ?? BubbleContent(text: nil) },
            bind: { cell, model in
                guard let cell = cell as? Cell else { return false }
                return CellConfigurator<Cell>().configure(cell, with: model)
            },
            binder: { model in
                guard let typed = model as? Cell.Model else { return nil }
                let direction = model.direction
                return { cell in
                    guard let cell = cell as? Cell else { return false }
                    cell.direction = direction
                    cell.configure(with: typed)
                    return true
                }
            },
            boundContent: { model in
                guard let typed = model as? Cell.Model else { return nil }
                let direction = model.direction
                let binder: CellBinder = { cell in
                    guard let cell = cell as? Cell else { return false }
                    cell.direction = direction
                    cell.configure(with: typed)
                    return true
                }
                return (binder, Cell.content(of: typed))
            })
    }
}

/// A configurator with its cell type erased: what the engine and renderer hold.
public struct AnyCellConfigurator: Sendable {
    /// The pool key: the cell's class name.
    public let reuseIdentifier: String
    /// The cell class, to make a cell when the pool has none free.
    public let cellType: BubbleCell.Type
    /// The kind of row the cell lays out.
    public let rowKind: RowKind
    /// That kind's printed name (`BubbleCell.kindName`).
    public let kindName: String
    /// False for kinds drawn without a bubble (they break groups and have no name or footer).
    public let drawsBubble: Bool
    let acceptsModel: @Sendable (any MessageModel) -> Bool
    let bindModel: @Sendable (BubbleCell, any MessageModel) -> Bool
    let previewModel: @Sendable (any MessageModel) -> String
    let contentModel: @Sendable (any MessageModel) -> BubbleContent
    let makeBinder: @Sendable (any MessageModel) -> CellBinder?
    let makeBoundContent: @Sendable (any MessageModel) -> (CellBinder, BubbleContent)?

    init(reuseIdentifier: String, cellType: BubbleCell.Type, rowKind: RowKind, kindName: String, drawsBubble: Bool,
         accepts: @escaping @Sendable (any MessageModel) -> Bool,
         preview: @escaping @Sendable (any MessageModel) -> String,
         content: @escaping @Sendable (any MessageModel) -> BubbleContent,
         bind: @escaping @Sendable (BubbleCell, any MessageModel) -> Bool,
         binder: @escaping @Sendable (any MessageModel) -> CellBinder?,
         boundContent: @escaping @Sendable (any MessageModel) -> (CellBinder, BubbleContent)?) {
        self.reuseIdentifier = reuseIdentifier
        self.cellType = cellType
        self.rowKind = rowKind
        self.kindName = kindName
        self.drawsBubble = drawsBubble
        self.acceptsModel = accepts
        self.bindModel = bind
        self.previewModel = preview
        self.contentModel = content
        self.makeBinder = binder
        self.makeBoundContent = boundContent
    }

    /// True when this configurator's cell shows `model`.
    public func accepts(_ model: any MessageModel) -> Bool { acceptsModel(model) }

    /// A short text standing for `model` in a reply quote.
    public func previewText(_ model: any MessageModel) -> String { previewModel(model) }

    /// What the renderer draws inside the bubble for `model` (its cell's `content(of:)`).
    public func content(_ model: any MessageModel) -> BubbleContent { contentModel(model) }

    /// Configures `cell` (dequeued for this configurator) with `model`.
    public func bind(_ cell: BubbleCell, to model: any MessageModel) -> Bool { bindModel(cell, model) }

    /// `model` cast once to this cell's model protocol, in a closure that configures a cell with
    /// it: for rows laid out again and again (a conversation at each new width), so the dynamic
    /// cast (which copies the model into a new existential box) is paid once per revision. Nil
    /// when the cell does not show `model`.
    func binder(for model: any MessageModel) -> CellBinder? { makeBinder(model) }

    /// `binder(for:)` and the model's `content` from the one cast: for a conversation's new entry,
    /// which needs both (the content to stamp it), so the model is cast once instead of twice.
    func binderAndContent(for model: any MessageModel) -> (binder: CellBinder, content: BubbleContent)? {
        makeBoundContent(model).map { (binder: $0.0, content: $0.1) }
    }
}

/// Configures a cell with a model captured already cast to the cell's model protocol.
typealias CellBinder = (BubbleCell) -> Bool
