import BubbleLayout
import BubbleLogs

/// The `messages` of a request read as records of the JSON Lines format, by the same reader
/// `render` and `heights` use (so a record means the same here as in a log file).
enum ServeRecords {
    /// A message that could not be read, by its index in `messages`.
    struct Rejection {
        var index: Int
        var reason: String
    }

    /// Each of `messages` read as one record: the models of those read, and why each other was not.
    static func decode(_ messages: [JSONValue], options: LogReadOptions) -> (models: [any MessageModel], rejected: [Rejection]) {
        guard !messages.isEmpty else { return ([], []) }
        // One line a message: written back from what the request held, numbers as they were written.
        var bytes: [UInt8] = []
        for message in messages {
            bytes += Array(message.jsonText.utf8)
            bytes.append(0x0A)
        }
        var models: [any MessageModel] = []
        var rejected: [Rejection] = []
        let reader: LogReader
        do {
            reader = try LogSource.open(bytes: bytes, name: "messages", format: .jsonl, options: options)
        } catch {
            return ([], messages.indices.map { Rejection(index: $0, reason: error.message) })
        }
        for entry in reader {
            switch entry {
            case .message(let record, _):
                models.append(record)
            case .diagnostic(let diagnostic) where !diagnostic.isWarning:
                rejected.append(Rejection(index: (diagnostic.line ?? 1) - 1, reason: diagnostic.reason))
            case .diagnostic:
                break
            }
        }
        return (models, rejected)
    }

    /// The bytes a message's texts take, counted against the service's budget.
    static func bytes(of model: any MessageModel) -> Int {
        var bytes = 128 + model.id.utf8.count + (model.senderName?.utf8.count ?? 0)
        if let text = (model as? any TextMessageModel)?.text { bytes += text.utf8.count }
        if let notice = (model as? any SystemMessageModel)?.notice { bytes += notice.utf8.count }
        if let image = model as? any ImageMessageModel { bytes += image.imageName.utf8.count + (image.caption?.utf8.count ?? 0) }
        return bytes
    }
}
