/// Binds one model protocol to its cell class: `Cell.Model` says which models it takes, and the
/// kind's name (`Cell.kindName`) gives its compact id and reuse identifier.
public struct CellConfigurator<Cell: ConfigurableCell>: Sendable {
    public init(_ cell: Cell.Type = Cell.self) {}

    /// True when `model` adopts `Cell.Model`.
    public func accepts(_ model: any MessageModel) -> Bool { model is Cell.Model }

    /// Binds `model`'s content to `cell`; false when the model is not a `Cell.Model`.
    public func configure(_ cell: Cell, with model: any MessageModel) -> Bool {
        guard let binder = Self.binder(for: model) else { return false }
        return binder(cell)
    }

    /// `model`'s content, read through one cast to `Cell.Model`, ready to bind; nil for another kind.
    static func binder(for model: any MessageModel) -> CellBinder? {
        guard let typed = model as? Cell.Model else { return nil }
        return CellBinder(content: Cell.content(of: typed), direction: model.direction)
    }

    /// The type-erased form the registry, engine, cache and renderer hold. Its closures know
    /// `Cell`, so none casts a cell: each casts the model once, to `Cell.Model`.
    public var erased: AnyCellConfigurator {
        AnyCellConfigurator(
            kind: RowKind(named: Cell.kindName), cellType: Cell.self, drawsBubble: Cell.drawsBubble,
            accepts: { $0 is Cell.Model },
            preview: { model in (model as? Cell.Model).map { Cell.previewText(of: $0) } ?? "" },
            content: { model in (model as? Cell.Model).map { Cell.content(of: $0) } ?? .none },
            binder: { Self.binder(for: $0) },
            reader: { Cell.contentReader(for: $0) })
    }
}

/// A configurator with its cell type erased: what the engine and renderer hold.
public struct AnyCellConfigurator: Sendable {
    /// The kind, named by the cell's `kindName`.
    public let kind: RowKind
    /// The pool key: the kind's name.
    public var reuseIdentifier: String { kind.name }
    /// The kind's printed name (`ConfigurableCell.kindName`).
    public var kindName: String { kind.name }
    /// The cell class, to make a cell when the pool has none free.
    public let cellType: BubbleCell.Type
    /// False for kinds drawn without a bubble (they break groups and have no name or footer).
    public let drawsBubble: Bool
    let acceptsModel: @Sendable (any MessageModel) -> Bool
    let previewModel: @Sendable (any MessageModel) -> String
    let contentModel: @Sendable (any MessageModel) -> BubbleContent
    let makeBinder: @Sendable (any MessageModel) -> CellBinder?
    /// The cell's content reader for the messages of one concrete model type, if it has one
    /// (`ConfigurableCell.contentReader(for:)`).
    let makeReader: @Sendable (any MessageModel.Type) -> ContentReader?

    init(kind: RowKind, cellType: BubbleCell.Type, drawsBubble: Bool,
         accepts: @escaping @Sendable (any MessageModel) -> Bool,
         preview: @escaping @Sendable (any MessageModel) -> String,
         content: @escaping @Sendable (any MessageModel) -> BubbleContent,
         binder: @escaping @Sendable (any MessageModel) -> CellBinder?,
         reader: @escaping @Sendable (any MessageModel.Type) -> ContentReader?) {
        self.kind = kind
        self.cellType = cellType
        self.drawsBubble = drawsBubble
        self.acceptsModel = accepts
        self.previewModel = preview
        self.contentModel = content
        self.makeBinder = binder
        self.makeReader = reader
    }

    /// True when this configurator's cell shows `model`.
    public func accepts(_ model: any MessageModel) -> Bool { acceptsModel(model) }

    /// A short text standing for `model` in a reply quote.
    public func previewText(_ model: any MessageModel) -> String { previewModel(model) }

    /// What the cell shows for `model` (its cell's `content(of:)`): what the cell measures and
    /// the renderer draws.
    public func content(_ model: any MessageModel) -> BubbleContent { contentModel(model) }

    /// Binds `model`'s content to `cell` (dequeued for this configurator).
    public func bind(_ cell: BubbleCell, to model: any MessageModel) -> Bool {
        guard let binder = makeBinder(model) else { return false }
        return binder(cell)
    }

    /// `model`'s content, read once, ready to bind to a cell again and again: for rows laid out
    /// at several widths or at each new width, so the model's cast to the cell's protocol (which
    /// copies it into a new existential box) is paid once per revision. Nil when the cell does
    /// not show `model`.
    func binder(for model: any MessageModel) -> CellBinder? { makeBinder(model) }

    /// The cell's reader of `type`'s messages, nil when the cell has none for it (they are then
    /// cast, through `binder(for:)`).
    func reader(for type: any MessageModel.Type) -> ContentReader? { makeReader(type) }
}

/// A message's content and direction, ready to bind to its cell: a plain value, so binding costs
/// no cast and no allocation.
struct CellBinder: Sendable {
    let content: BubbleContent
    let direction: MessageDirection

    /// Binds nothing: what a freed row holds.
    static let empty = CellBinder(content: .none, direction: .incoming)

    /// Binds to `cell`. Always true: the content was read for this cell's kind.
    @inline(__always)
    func callAsFunction(_ cell: BubbleCell) -> Bool {
        cell.direction = direction
        cell.content = content
        return true
    }
}
