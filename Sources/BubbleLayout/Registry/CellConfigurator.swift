/// A registered cell with its type erased: what the engine, decorator and renderer hold. Made by
/// `CellRegistry.register` from a `ConfigurableCell`; its closures know the cell's `Model`, so
/// each casts a model once, to that protocol.
package struct AnyCellConfigurator: Sendable {
    /// The kind, named by the cell's `kindName`.
    package let kind: RowKind
    /// The kind's printed name (`ConfigurableCell.kindName`).
    package var kindName: String { kind.name }
    /// The cell class: its class methods lay out this kind's rows.
    package let cellType: BubbleCell.Type
    /// False for kinds drawn without a bubble (they break groups and have no name or footer).
    package let drawsBubble: Bool
    let acceptsModel: @Sendable (any MessageModel) -> Bool
    let previewModel: @Sendable (any MessageModel) -> String
    let contentModel: @Sendable (any MessageModel) -> RowContent?
    /// The cell's content reader for the messages of one concrete model type, if it has one
    /// (`ContentReaderProviding.contentReader(for:)`).
    let makeReader: @Sendable (any MessageModel.Type) -> ContentReader?

    /// The configurator of `Cell`, for models adopting `Cell.Model`.
    init<Cell: ConfigurableCell>(_ cell: Cell.Type) {
        kind = RowKind(named: Cell.kindName)
        cellType = Cell.self
        drawsBubble = Cell.drawsBubble
        acceptsModel = { $0 is Cell.Model }
        previewModel = { model in (model as? Cell.Model).map { Cell.previewText(of: $0) } ?? "" }
        contentModel = { model in
            (model as? Cell.Model).map { RowContent(content: Cell.content(of: $0), direction: model.direction) }
        }
        makeReader = { (Cell.self as? any ContentReaderProviding.Type)?.contentReader(for: $0) }
    }

    /// True when this configurator's cell shows `model`.
    package func accepts(_ model: any MessageModel) -> Bool { acceptsModel(model) }

    /// A short text standing for `model` in a reply quote.
    package func previewText(_ model: any MessageModel) -> String { previewModel(model) }

    /// What the cell shows for `model` (its cell's `content(of:)`): what the cell measures and
    /// the renderer draws.
    package func content(_ model: any MessageModel) -> BubbleContent { contentModel(model)?.content ?? .none }

    /// `model`'s content and direction, read once, to lay the row out again and again: for rows
    /// laid out at several widths or at each new width, so the model's cast to the cell's
    /// protocol (which copies it into a new existential box) is paid once per revision. Nil when
    /// the cell does not show `model`.
    func rowContent(of model: any MessageModel) -> RowContent? { contentModel(model) }

    /// The cell's reader of `type`'s messages, nil when the cell has none for it (they are then
    /// cast, through `rowContent(of:)`).
    func reader(for type: any MessageModel.Type) -> ContentReader? { makeReader(type) }
}

/// What a message row shows and which way it goes: everything of the message its cell lays out
/// besides the decoration. A plain value, read once per message revision.
struct RowContent: Sendable {
    let content: BubbleContent
    let direction: MessageDirection

    /// Nothing: what a freed row holds.
    static let empty = RowContent(content: .none, direction: .incoming)
}
