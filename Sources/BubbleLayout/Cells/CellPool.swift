/// Free cells by reuse identifier. One pool belongs to one task at a time (it is not `Sendable`):
/// batch layout gives each worker its own, so reuse needs no lock.
public final class CellPool {
    private var free: [String: [BubbleCell]] = [:]
    /// Cells this pool has made; stays at one per kind when cells are recycled.
    public private(set) var cellsCreated = 0

    public init() {}

    /// A free cell for `configurator`, made if the pool has none.
    public func dequeue(for configurator: AnyCellConfigurator) -> BubbleCell {
        if let cell = free[configurator.reuseIdentifier]?.popLast() { return cell }
        cellsCreated += 1
        return configurator.cellType.init()
    }

    /// Returns `cell` to the pool, cleared.
    public func recycle(_ cell: BubbleCell) {
        cell.prepareForReuse()
        free[type(of: cell).reuseIdentifier, default: []].append(cell)
    }
}
