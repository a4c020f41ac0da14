/// The content readers one task has found, by configurator and model type
/// (`AnyCellConfigurator.reader(for:)`), nil where the cell has none: a task meets few types, so
/// a short list searched from the last one found. A plain value, one per task: no lock.
struct ContentReaders {
    /// A struct, not a tuple: a tuple holding an existential is copied by the runtime's generic
    /// tuple witness, element by element.
    private struct Entry {
        let configurator: Int
        let type: ObjectIdentifier
        let reader: ContentReader?
    }
    private var readers: [Entry] = []
    private var lastReader = 0

    init() {}

    /// `model`'s content as `registry.configurators[index]` shows it, read without a cast when
    /// the cell has a content reader for the model's type (found once per type and task).
    mutating func content(of model: any MessageModel, configurator index: Int, registry: CellRegistry) -> RowContent? {
        // Opened, the model's type is at hand (no run-time call to find it) and the model can be
        // read where it lies.
        func opened<M: MessageModel>(_ value: M) -> RowContent? {
            let type = ObjectIdentifier(M.self)
            if lastReader >= readers.count || readers[lastReader].configurator != index || readers[lastReader].type != type {
                if let i = readers.firstIndex(where: { $0.configurator == index && $0.type == type }) {
                    lastReader = i
                } else {
                    readers.append(Entry(configurator: index, type: type, reader: registry.configurators[index].reader(for: M.self)))
                    lastReader = readers.count - 1
                }
            }
            if let reader = readers[lastReader].reader, let content = reader.read(value) {
                return RowContent(content: content, direction: value.direction)
            }
            return registry.configurators[index].rowContent(of: model)
        }
        return opened(model)
    }
}
