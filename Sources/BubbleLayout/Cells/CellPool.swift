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
    /// Content readers by configurator and model type (`AnyCellConfigurator.reader(for:)`), nil
    /// where the cell has none: a task meets few types, so a short list searched from the last
    /// one found.
    private var readers: [(configurator: Int, type: ObjectIdentifier, reader: ContentReader?)] = []
    private var lastReader = 0

    init() {}

    /// `model`'s binder for `registry.configurators[index]`, read in place (no cast, no copy)
    /// when the cell has a content reader for the model's type (found once per type and task).
    mutating func binder(for model: any MessageModel, configurator index: Int, registry: CellRegistry) -> CellBinder? {
        // Opened, the model's type is at hand (no run-time call to find it) and the model can be
        // read where it lies.
        func opened<M: MessageModel>(_ value: M) -> CellBinder? {
            let type = ObjectIdentifier(M.self)
            if lastReader >= readers.count || readers[lastReader].configurator != index || readers[lastReader].type != type {
                if let i = readers.firstIndex(where: { $0.configurator == index && $0.type == type }) {
                    lastReader = i
                } else {
                    readers.append((index, type, registry.configurators[index].reader(for: M.self)))
                    lastReader = readers.count - 1
                }
            }
            if let reader = readers[lastReader].reader, let content = reader.read(value) {
                return CellBinder(content: content, direction: value.direction)
            }
            return registry.configurators[index].binder(for: model)
        }
        return opened(model)
    }

    /// The cell for `registry.configurators[index]`, made on first use.
    mutating func cell(for index: Int, registry: CellRegistry) -> BubbleCell {
        if index < cells.count, let cell = cells[index] { return cell }
        while cells.count <= index { cells.append(nil) }
        let cell = registry.configurators[index].cellType.init()
        cells[index] = cell
        return cell
    }
}
