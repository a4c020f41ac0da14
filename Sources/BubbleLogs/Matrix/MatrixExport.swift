import BubbleLayout

/// Element's "Export chat" in JSON: `{room_name, room_creator, topic, export_date, exported_by,
/// messages: [event…]}`, where each event is the Matrix event as the server sent it (`type`,
/// `sender`, `origin_server_ts`, `event_id`, `content`, `unsigned`, `state_key`).
///
/// - `m.room.message` (`m.text`, `m.notice`, `m.emote`, `m.image`, `m.file`, `m.audio`, `m.video`,
///   `m.location`) and `m.sticker` are messages; a reply (`m.in_reply_to`) replies to its event,
///   without the quoted fallback Element puts before its body.
/// - An edit (`m.relates_to.rel_type` `m.replace`) changes the event it replaces (its
///   `m.new_content`) and marks it edited; it is not a row of its own.
/// - A reaction (`m.annotation`) ends the text of the event it reacts to (`[reactions: 👍 Ana]`).
/// - A redacted event is the app's note "Message deleted" in the sender's place.
/// - Membership, name, topic and creation events are system rows.
///
/// Senders are named by the display names their membership events give (else their user id).
/// The exporter (`exported_by`, a display name) is "me" unless `--me` says otherwise.
enum MatrixExport {
    /// Whether a JSON document's top level is an Element export.
    static func isExport(_ root: JSONObject) -> Bool {
        root["messages"]?.arrayValue != nil && (root["room_name"] != nil || root["exported_by"] != nil || root["room_creator"] != nil)
    }

    static func producer(document: JSONValue, file: String, options: LogReadOptions) throws(LogInputError) -> RecordProducer {
        guard let root = document.objectValue, isExport(root), let list = root["messages"]?.arrayWithLines else {
            throw LogInputError(file: file, message: "unknown schema: expected an Element export, an object with \"room_name\", \"exported_by\" and a \"messages\" array")
        }
        // First pass: display names, edits and reactions, each keyed by the event they concern.
        var names: [String: String] = [:]
        var edits: [String: JSONObject] = [:]
        var reactions: [String: [String]] = [:]
        var absorbed: Set<Int> = []
        for (index, value) in list.elements.enumerated() {
            guard let event = value.objectValue, let type = event["type"]?.stringValue else { continue }
            let content = event["content"]?.objectValue
            let relation = content?["m.relates_to"]?.objectValue
            if type == "m.room.member", let user = event["state_key"]?.stringValue,
               let name = content?["displayname"]?.stringValue, !name.isEmpty {
                names[user] = name
            }
            if type == "m.room.message", relation?["rel_type"]?.stringValue == "m.replace",
               let target = relation?["event_id"]?.stringValue, let new = content?["m.new_content"]?.objectValue {
                edits[target] = new
                absorbed.insert(index)
            }
            if type == "m.reaction", relation?["rel_type"]?.stringValue == "m.annotation",
               let target = relation?["event_id"]?.stringValue, let key = relation?["key"]?.stringValue {
                let who = event["sender"]?.stringValue ?? "?"
                reactions[target, default: []].append("\(ExpansionLimit.name(key)) \u{0}\(who)")
                absorbed.insert(index)
            }
        }
        let exporter = options.me ?? root["exported_by"]?.stringValue
        let decoder = MatrixEventDecoder(names: names, edits: edits, reactions: reactions, me: exporter)
        var items: [() -> ProducedRecord] = []
        for (index, (value, line)) in list.elementsWithLines.enumerated() where !absorbed.contains(index) {
            items.append {
                let position = LogPosition(file: file, line: line, messageIndex: index + 1)
                guard let event = value.objectValue else {
                    return .rejected(LogDiagnostic(position: position, reason: "wrong type: an event must be an object, found \(value.described)"))
                }
                return .decoding(at: position) { () throws(ExportProblem) in try decoder.decode(ExportFields(object: event)) }
            }
        }
        return ListProducer(items)
    }
}

/// One Matrix event of an Element export → a record.
struct MatrixEventDecoder {
    var names: [String: String]
    var edits: [String: JSONObject]
    /// "emoji NUL user id" for each reaction, by the event it reacts to.
    var reactions: [String: [String]]
    var me: String?

    private func name(_ user: String) -> String { ExpansionLimit.name(names[user] ?? user) }

    func decode(_ event: ExportFields) throws(ExportProblem) -> any LogRecord {
        let type = try event.requiredString("type")
        let id = try event.string("event_id") ?? ""
        guard let ms = try event.int("origin_server_ts") else { throw ExportProblem("missing field \"origin_server_ts\"") }
        guard ms > -8_000_000_000_000, ms < 8_000_000_000_000 else {
            throw ExportProblem("\"origin_server_ts\" \(ms) is out of range (milliseconds since 1970)")
        }
        let date = LogTimestamp.date(microseconds: Int64(ms) * 1000)
        let sender = try event.string("sender") ?? "?"
        let who = name(sender)
        let content = try event.object("content") ?? ExportFields(object: JSONObject(line: event.object.line, members: []))
        func system(_ notice: String) -> LogSystemMessage {
            LogSystemMessage(header: LogMessageHeader(id: id, senderName: nil, date: date), notice: notice)
        }
        let isMine = SenderName.matches(me, who) || SenderName.matches(me, sender)
        var header = LogMessageHeader(id: id, senderName: who, direction: isMine ? .outgoing : .incoming, date: date)
        if event.object["unsigned"]?.objectValue?["redacted_because"] != nil {
            return LogTextMessage(header: header, text: "Message deleted", textStyle: .notice)
        }
        switch type {
        case "m.room.message", "m.sticker":
            break
        case "m.room.member":
            let target = try event.string("state_key") ?? sender
            let targetName = name(target)
            switch try content.string("membership") {
            case "join"?: return system("\(targetName) joined the room")
            case "leave"?: return system(target == sender ? "\(who) left the room" : "\(who) removed \(targetName)")
            case "invite"?: return system("\(who) invited \(targetName)")
            case "ban"?: return system("\(who) banned \(targetName)")
            case "knock"?: return system("\(targetName) asked to join")
            case let other?: return system("\(targetName): \(other)")
            case nil: return system("\(targetName) changed their membership")
            }
        case "m.room.create": return system("\(who) created the room")
        case "m.room.name": return system("\(who) named the room \(try content.string("name") ?? "")")
        case "m.room.topic": return system("\(who) changed the topic to \(try content.string("topic") ?? "")")
        case "m.room.avatar": return system("\(who) changed the room picture")
        case "m.room.encrypted": return LogTextMessage(header: header, text: "[encrypted message]", textStyle: .notice)
        case "m.call.invite": return system("\(who) started a call")
        case "m.call.hangup": return system("\(who) ended the call")
        default: return system("\(who): \(type)")
        }
        var body = content
        if let edit = edits[id] {
            body = ExportFields(object: edit)
            header.isEdited = true
        }
        let relation = try content.object("m.relates_to")
        if let reply = try relation?.object("m.in_reply_to")?.string("event_id") { header.replyToID = reply }
        var text = try body.string("body") ?? ""
        if header.replyToID != nil, edits[id] == nil { text = Self.withoutReplyFallback(text) }
        let msgtype = type == "m.sticker" ? "m.sticker" : try body.string("msgtype") ?? "m.text"
        var lines: [String] = []
        var picture: (name: String, width: Int?, height: Int?)?
        switch msgtype {
        case "m.text", "m.notice": lines.append(text)
        case "m.emote": lines.append("* \(who) \(text)")
        case "m.image":
            let info = try body.object("info")
            let file = ExpansionLimit.name(try body.string("filename") ?? ExportItems.fileName(text))
            picture = (file, try info?.int("w"), try info?.int("h"))
            if let caption = try body.string("filename"), caption != text, !text.isEmpty { lines.append(text) }
        case "m.file": lines.append("[file: \(ExpansionLimit.name(try body.string("filename") ?? text))]")
        case "m.audio": lines.append("[audio: \(ExpansionLimit.name(try body.string("filename") ?? text))]")
        case "m.video": lines.append("[video: \(ExpansionLimit.name(try body.string("filename") ?? text))]")
        case "m.location": lines.append("[location: \(text)\(try body.string("geo_uri").map { " (\($0))" } ?? "")]")
        case "m.sticker": lines.append("[sticker: \(text)]")
        default: lines.append(text.isEmpty ? "[\(msgtype)]" : text)
        }
        if let list = reactions[id], !list.isEmpty {
            let shown = list.prefix(64).map { entry -> String in
                let parts = entry.split(separator: "\u{0}", maxSplits: 1)
                return parts.count == 2 ? "\(parts[0])\(name(String(parts[1])))" : entry
            }
            lines.append("[reactions: \(shown.joined(separator: ", "))\(list.count > 64 ? ", and \(list.count - 64) more" : "")]")
        }
        lines = lines.filter { !$0.isEmpty }
        if let picture {
            return LogImageMessage(header: header, pixelWidth: picture.width, pixelHeight: picture.height,
                                   imageName: picture.name, caption: lines.isEmpty ? nil : lines.joined(separator: "\n"))
        }
        return LogTextMessage(header: header, text: lines.isEmpty ? "[message with no text]" : lines.joined(separator: "\n"))
    }

    /// A reply's body without the quote Element puts first (`> <@ana:x> quoted` lines, then a
    /// blank line).
    static func withoutReplyFallback(_ body: String) -> String {
        guard body.hasPrefix("> ") else { return body }
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
        guard let blank = lines.firstIndex(where: { $0.isEmpty }), lines[..<blank].allSatisfy({ $0.hasPrefix(">") }) else { return body }
        return lines[(blank + 1)...].joined(separator: "\n")
    }
}
