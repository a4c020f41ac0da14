import BubbleLayout

/// Skype's "Export chat history" (Conversations): `messages.json`,
/// `{userId, exportDate, conversations: [{id, displayName, threadProperties, MessageList: […]}]}`,
/// each message `{id, displayName, originalarrivaltime, messagetype, content, conversationid,
/// from, properties, amsreferences}`, newest first. Read alone, or from the export's `.tar`
/// (`SkypeTar`).
///
/// Each conversation's messages are read in time order; conversations in the order of their
/// first message, each introduced by a row naming it when there are several (conversations
/// with no message, and Skype's own lists such as `48:calllogs`, are left out). An edited
/// or deleted message, written once per version (the same `from` and `originalarrivaltime`,
/// newest first), is read once, as its last version; blank messages the server generated
/// (`properties.isserversidegenerated`) are not messages. Messages are named by
/// their `id` (a conversation's id before it, `8:live:ana/1709402592345`, when several are
/// read). The export's owner (`userId`) is "me" unless `--me` names someone else.
enum SkypeExport {
    /// Whether a JSON document's top level is a Skype export.
    static func isExport(_ root: JSONObject) -> Bool {
        root["conversations"]?.arrayValue != nil && (root["userId"] != nil || root["exportDate"] != nil)
    }

    private struct Message {
        var value: JSONValue
        var line: Int
        var index: Int
        var micros: Int64?
    }

    private struct Conversation {
        var id: String
        var title: String
        var messages: [Message]
        var line: Int
    }

    static func producer(document: JSONValue, file: String, options: LogReadOptions) throws(LogInputError)
        -> (producer: RecordProducer, warnings: [LogDiagnostic]) {
        guard let root = document.objectValue, isExport(root), let list = root["conversations"]?.arrayWithLines else {
            throw LogInputError(file: file, message: "unknown schema: expected a Skype messages.json, an object with \"userId\", \"exportDate\" and a \"conversations\" array")
        }
        var conversations: [Conversation] = []
        var items: [() -> ProducedRecord] = []
        var names: [String: String] = [:]
        // Names that calls and quotes give, for senders whose own messages name no one (the
        // owner's, in most exports).
        var learned: [String: String] = [:]
        for (number, (value, line)) in list.elementsWithLines.enumerated() {
            guard let object = value.objectValue else {
                let position = LogPosition(file: file, line: line, messageIndex: number + 1)
                items.append { .rejected(LogDiagnostic(position: position, reason: "wrong type: a conversation must be an object, found \(value.described)")) }
                continue
            }
            let id = object["id"]?.identifierValue ?? "conversation \(number + 1)"
            guard let messages = object["MessageList"]?.arrayWithLines else {
                if let present = object.present("MessageList") {
                    let position = LogPosition(file: file, line: object.line, messageIndex: number + 1)
                    items.append { .rejected(LogDiagnostic(position: position, reason: "wrong type: \"MessageList\" must be an array, found \(present.described)")) }
                }
                continue
            }
            // Skype's own lists (`48:calllogs`) repeat what the chats hold.
            if id.hasPrefix("48:") { continue }
            var read: [Message] = []
            // Edited messages: the versions of one message share its sender and arrival time;
            // the list, newest first, gives the last version first. Earlier versions are folded
            // into it, as are the blank messages the server generates.
            var edited: Set<String> = []
            for (index, (message, messageLine)) in messages.elementsWithLines.enumerated() {
                let fields = message.objectValue
                let arrival = fields?["originalarrivaltime"]?.stringValue
                let micros = arrival.flatMap { LogTimestamp.microseconds(iso8601: $0) }
                if let fields, let from = fields["from"]?.stringValue, let name = fields["displayName"]?.stringValue, !name.isEmpty {
                    names[from] = name
                }
                if let content = fields?["content"]?.stringValue { learnNames(from: content, into: &learned) }
                if let fields, let arrival, let from = fields["from"]?.stringValue {
                    let version = from + "\u{0}" + arrival
                    if edited.contains(version) { continue }
                    let properties = fields["properties"]?.objectValue
                    let content = fields["content"]?.stringValue ?? ""
                    if properties?["edittime"]?.stringValue != nil || properties?["deletetime"]?.stringValue != nil || content.contains("<e_m") {
                        edited.insert(version)
                    }
                    if properties?["isserversidegenerated"]?.boolValue == true, content.isEmpty,
                       properties?["edittime"] == nil, properties?["deletetime"] == nil { continue }
                }
                read.append(Message(value: message, line: messageLine, index: index + 1, micros: micros))
            }
            guard !read.isEmpty else { continue }
            let displayName = object["displayName"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            let topic = object["threadProperties"]?.objectValue?["topic"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            conversations.append(Conversation(id: id, title: displayName ?? topic ?? id, messages: inTimeOrder(read), line: object.line))
        }
        conversations = conversations.enumerated().sorted { a, b in
            let x = a.element.messages.lazy.compactMap(\.micros).first ?? .max
            let y = b.element.messages.lazy.compactMap(\.micros).first ?? .max
            return (x, a.offset) < (y, b.offset)
        }.map(\.element)
        conversations = try chosenConversations(conversations, wanted: options.conversation, file: file, title: \.title, id: \.id)
        for (id, name) in learned where names[id] == nil && names["8:" + id] == nil { names["8:" + id] = name }
        let owner = root["userId"]?.stringValue
        let decoder = SkypeMessageDecoder(names: names, me: options.me, ownerID: options.me == nil ? owner : nil)
        let several = conversations.count > 1
        for conversation in conversations {
            let prefix = several ? conversation.id + "/" : ""
            let conversationID = several ? conversation.id : nil
            if several {
                let micros = conversation.messages.lazy.compactMap(\.micros).first ?? 0
                let title = conversation.title, line = conversation.line
                items.append {
                    var notice = LogSystemMessage(header: LogMessageHeader(id: prefix + "conversation", senderName: nil, date: LogTimestamp.date(microseconds: micros)),
                                                  notice: "Skype chat “\(ExpansionLimit.name(title))”")
                    notice.header.conversationID = conversationID
                    return .record(notice, LogPosition(file: file, line: line))
                }
            }
            for message in conversation.messages {
                items.append {
                    let position = LogPosition(file: file, line: message.line, messageIndex: message.index)
                    guard let object = message.value.objectValue else {
                        return .rejected(LogDiagnostic(position: position, reason: "wrong type: a message must be an object, found \(message.value.described)"))
                    }
                    return .decoding(at: position, conversation: conversationID) { () throws(ExportProblem) in
                        try decoder.decode(ExportFields(object: object), idPrefix: prefix)
                    }
                }
            }
        }
        return (ListProducer(items), [])
    }

    /// Display names a message's markup gives for user ids: a call's `<part identity=…><name>`,
    /// a quote's `author` and `authorname`. Looked for only where the content has them.
    private static func learnNames(from content: String, into names: inout [String: String]) {
        guard content.contains("<partlist") || content.contains("<quote") else { return }
        let markup = SkypeMarkup.parse(content)
        func visit(_ element: SkypeMarkup.Element) {
            if element.name == "part", let id = element.attribute("identity"), let name = element.first("name")?.text, !name.isEmpty {
                names[SkypeMessageDecoder.bareID(id)] = name
            }
            if element.name == "quote", let id = element.attribute("author"), let name = element.attribute("authorname"), !name.isEmpty {
                names[SkypeMessageDecoder.bareID(id)] = name
            }
            for child in element.children { if case .element(let inner) = child { visit(inner) } }
        }
        visit(markup)
    }

    /// Sorted by time, stably; a message without a readable time keeps its place after the one
    /// before it (the list runs newest first, so it is reversed first).
    private static func inTimeOrder(_ messages: [Message]) -> [Message] {
        var previous = Int64.min
        let keyed = messages.reversed().enumerated().map { offset, message -> (Int64, Int, Message) in
            if let micros = message.micros { previous = micros }
            return (previous, offset, message)
        }
        return keyed.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }
}
