/// Free cells by cell class. One pool belongs to one task at a time (it is not `Sendable`):
/// batch layout gives each worker its own, so reuse needs no lock.
///
/// Keyed by the class's `ObjectIdentifier` in a short array scanned linearly: a registry has a
/// handful of kinds, and this avoids hashing the reuse identifier (or, worse, building it with
/// `String(describing:)`) on every dequeue and recycle.
public final class CellPool {
    private var classes: [ObjectIdentifier] = []
    private var free: [[BubbleCell]] = []
    /// Cells this pool has made; stays at one per kind when cells are recycled.
    public private(set) var cellsCreated = 0

    public init() {}

    @inline(__always)
    private func slot(of cellType: BubbleCell.Type) -> Int {
        let key = ObjectIdentifier(cellType)
        for i in classes.indices where classes[i] == key { return i }
        classes.append(key)
        free.append([])
        return classes.count - 1
    }

    /// A free cell for `configurator`, made if the pool has none.
    public func dequeue(for configurator: AnyCellConfigurator) -> BubbleCell {
        let i = slot(of: configurator.cellType)
        if let cell = free[i].popLast() { return cell }
        cellsCreated += 1
        return configurator.cellType.init()
    }

    /// Returns `cell` to the pool, cleared.
    public func recycle(_ cell: BubbleCell) {
        cell.prepareForReuse()
        free[slot(of: type(of: cell))].append(cell)
    }
}

/// One cell per configurator, held by a loop that lays out many rows (a conversation's resize):
/// the cell is cleared (`prepareForReuse`) and bound again for each row, without going through
/// the pool each time. A plain value, so using it needs no exclusivity checks on a class.
struct CellSet {
    private var cells: [BubbleCell?] = []
    /// Binder makers by configurator and model type (`AnyCellConfigurator.makeTypedBinder`): a
    /// task meets few types, so a short list searched from the last one found.
    private var binders: [(configurator: Int, type: ObjectIdentifier, make: @Sendable (any MessageModel) -> CellBinder?)] = []
    private var lastBinder = 0

    init() {}

    /// The cell for `registry.configurators[index]`, made on first use.
    /// `model`'s binder for `registry.configurators[index]`, read without a cast per message when
    /// the cell has a content reader for the model's type (found once per type and task).
    mutating func binder(for model: any MessageModel, configurator index: Int, registry: CellRegistry) -> CellBinder? {
        let type = ObjectIdentifier(Swift.type(of: model))
        if lastBinder < binders.count, binders[lastBinder].configurator == index, binders[lastBinder].type == type {
            return binders[lastBinder].make(model)
        }
        for i in binders.indices where binders[i].configurator == index && binders[i].type == type {
            lastBinder = i
            return binders[i].make(model)
        }
        let make = registry.configurators[index].makeTypedBinder(Swift.type(of: model))
        binders.append((index, type, make))
        lastBinder = binders.count - 1
        return make(model)
    }

    mutating func cell(for index: Int, registry: CellRegistry) -> BubbleCell {
        if index < cells.count, let cell = cells[index] { return cell }
        while cells.count <= index { cells.append(nil) }
        let cell = registry.configurators[index].cellType.init()
        cells[index] = cell
        return cell
    }
}
