import BubbleLayout

/// Google Hangouts as Google Takeout gave it: `Hangouts/Hangouts.json`,
/// `{conversations: [{conversation: {conversation_id, conversation: {type, name,
/// self_conversation_state, participant_data: [{id: {gaia_id, chat_id}, fallback_name}]}},
/// events: [{sender_id, timestamp, event_id, event_type, chat_message, membership_change,
/// conversation_rename, hangout_event}]}]}`, times in microseconds since 1970 (as strings).
///
/// - A chat message's `segment`s (`TEXT`, `LINE_BREAK`, `LINK`) make its text, their
///   `formatting` its styles; the first photo attachment (`embed_item.plus_photo`) is an image row
///   with its size, other attachments labelled lines.
/// - Membership changes (`ADD_USER`, `REMOVE_USER`), renames and calls (`HANGOUT_EVENT`) are
///   system rows.
///
/// Conversations are read in the order of their first event, each introduced by a row naming it
/// when there are several. Senders are named by the conversation's `participant_data`. The owner
/// (`self_conversation_state`) is "me" unless `--me` names someone else.
enum HangoutsExport {
    /// Whether a JSON document's top level is a Hangouts export.
    static func isExport(_ root: JSONObject) -> Bool {
        guard root["userId"] == nil, root["exportDate"] == nil, let list = root["conversations"]?.arrayValue else { return false }
        guard let first = list.lazy.compactMap(\.objectValue).first else { return false }
        return first["events"] != nil || first["conversation"] != nil
    }

    private struct Conversation {
        var id: String
        var title: String
        var names: [String: String]
        var events: JSONArray
        var firstTime: Int64?
    }

    static func producer(document: JSONValue, file: String, options: LogReadOptions) throws(LogInputError)
        -> (producer: RecordProducer, warnings: [LogDiagnostic]) {
        guard let root = document.objectValue, isExport(root), let list = root["conversations"]?.arrayWithLines else {
            throw LogInputError(file: file, message: "unknown schema: expected a Hangouts.json, an object with a \"conversations\" array of {\"conversation\", \"events\"}")
        }
        var items: [() -> ProducedRecord] = []
        var conversations: [Conversation] = []
        var owner: String?
        for (number, (value, line)) in list.elementsWithLines.enumerated() {
            let position = LogPosition(file: file, line: line, messageIndex: number + 1)
            guard let object = value.objectValue, let events = object["events"]?.arrayWithLines else {
                let found = value.objectValue?.present("events")?.described ?? value.described
                items.append { .rejected(LogDiagnostic(position: position, reason: "wrong type: a conversation must be an object with an \"events\" array, found \(found)")) }
                continue
            }
            let outer = object["conversation"]?.objectValue
            let inner = outer?["conversation"]?.objectValue ?? outer
            let id = outer?["conversation_id"]?.objectValue?["id"]?.stringValue ?? inner?["id"]?.objectValue?["id"]?.stringValue ?? "conversation \(number + 1)"
            var names: [String: String] = [:]
            var people: [(String, String)] = []
            for participant in (inner?["participant_data"]?.arrayValue ?? []).prefix(10_000) {
                guard let p = participant.objectValue, let gaia = p["id"]?.objectValue?["gaia_id"]?.stringValue else { continue }
                let name = p["fallback_name"]?.stringValue ?? gaia
                names[gaia] = name
                people.append((gaia, name))
            }
            let selfID = inner?["self_conversation_state"]?.objectValue?["self_read_state"]?.objectValue?["participant_id"]?.objectValue?["gaia_id"]?.stringValue
            if owner == nil { owner = selfID }
            var title = inner?["name"]?.stringValue ?? ""
            if title.isEmpty {
                let others = people.filter { $0.0 != selfID }.map(\.1)
                title = others.isEmpty ? id : MessengerMessageDecoder.joined(Array(others.prefix(4))) + (others.count > 4 ? " and others" : "")
            }
            guard !events.isEmpty else { continue }
            let first = events.lazyElements.compactMap { $0.objectValue?["timestamp"]?.stringValue.flatMap { Int64($0) } }.first
            conversations.append(Conversation(id: id, title: title, names: names, events: events, firstTime: first))
        }
        conversations = conversations.enumerated().sorted { a, b in
            ((a.element.firstTime ?? .max), a.offset) < ((b.element.firstTime ?? .max), b.offset)
        }.map(\.element)
        conversations = try chosenConversations(conversations, wanted: options.conversation, file: file, title: \.title, id: \.id)
        let several = conversations.count > 1
        for conversation in conversations {
            let prefix = several ? conversation.id + "/" : ""
            let conversationID = several ? conversation.id : nil
            let decoder = HangoutsEventDecoder(names: conversation.names, me: options.me, ownerID: options.me == nil ? owner : nil, idPrefix: prefix)
            if several {
                let micros = conversation.firstTime ?? 0
                let title = conversation.title
                items.append {
                    var notice = LogSystemMessage(header: LogMessageHeader(id: prefix + "conversation", senderName: nil, date: LogTimestamp.date(microseconds: LogTimestamp.isInRange(micros) ? micros : 0)),
                                                  notice: "Hangouts chat “\(ExpansionLimit.name(title))”")
                    notice.header.conversationID = conversationID
                    return .record(notice, LogPosition(file: file, line: nil))
                }
            }
            let events = conversation.events
            for (index, line) in events.elementLines.enumerated() {
                items.append {
                    let position = LogPosition(file: file, line: line, messageIndex: index + 1)
                    let value = events.element(index)
                    guard let object = value.objectValue else {
                        return .rejected(LogDiagnostic(position: position, reason: "wrong type: an event must be an object, found \(value.described)"))
                    }
                    return .decoding(at: position, conversation: conversationID) { () throws(ExportProblem) in
                        try decoder.decode(ExportFields(object: object))
                    }
                }
            }
        }
        return (ListProducer(items), [])
    }
}

/// One Hangouts event → a record.
struct HangoutsEventDecoder {
    var names: [String: String]
    var me: String?
    var ownerID: String?
    var idPrefix: String

    private func name(_ participant: JSONValue?) -> String {
        guard let gaia = participant?.objectValue?["gaia_id"]?.stringValue else { return "someone" }
        return ExpansionLimit.name(names[gaia] ?? gaia)
    }

    func decode(_ event: ExportFields) throws(ExportProblem) -> any LogRecord {
        guard let stamp = try event.string("timestamp") ?? event.object.present("timestamp").flatMap({ $0.intValue.map(String.init) }) else {
            throw ExportProblem("missing field \"timestamp\"")
        }
        guard let micros = Int64(stamp), LogTimestamp.isInRange(micros) else {
            throw ExportProblem("unreadable time \"\(DiagnosticText.quoted(stamp))\" in \"timestamp\" (expected microseconds since 1970)")
        }
        let date = LogTimestamp.date(microseconds: micros)
        let id = idPrefix + (try event.string("event_id") ?? stamp)
        let senderValue = event.object["sender_id"]
        let senderID = senderValue?.objectValue?["gaia_id"]?.stringValue
        let sender = name(senderValue)
        let type = try event.string("event_type") ?? "REGULAR_CHAT_MESSAGE"
        func system(_ notice: String) -> LogSystemMessage {
            LogSystemMessage(header: LogMessageHeader(id: id, senderName: nil, date: date), notice: notice)
        }
        if let change = try event.object("membership_change") {
            let people = try change.array("participant_id").prefix(64).map { name($0) }
            let joined = MessengerMessageDecoder.joined(Array(people))
            switch try change.string("type") {
            case "JOIN"?: return system(people.isEmpty || people == [sender] ? "\(sender) joined" : "\(sender) added \(joined)")
            case "LEAVE"?: return system(people.isEmpty || people == [sender] ? "\(sender) left" : "\(sender) removed \(joined)")
            default: return system("\(sender) changed who is in the conversation")
            }
        }
        if let rename = try event.object("conversation_rename") {
            let new = try rename.string("new_name") ?? ""
            return system(new.isEmpty ? "\(sender) removed the conversation's name" : "\(sender) named the conversation \(boundedPlain(new))")
        }
        if let call = try event.object("hangout_event") {
            switch try call.string("event_type") {
            case "START_HANGOUT"?: return system("\(sender) started a call")
            case "END_HANGOUT"?:
                let seconds = try call.int("hangout_duration_secs") ?? 0
                return system(seconds > 0 && seconds < 1_000_000_000 ? "Call ended (\(ExportItems.duration(seconds)))" : "Call ended")
            default: return system("\(sender) called")
            }
        }
        let isMine = SenderName.matches(me, sender) || (ownerID != nil && senderID == ownerID)
        let header = LogMessageHeader(id: id, senderName: sender, direction: isMine ? .outgoing : .incoming, date: date)
        guard let content = try event.object("chat_message")?.object("message_content") else {
            return system("\(sender): \(DiagnosticText.quoted(type, limit: 40))")
        }
        var body = StyledText()
        for segment in try content.array("segment").prefix(100_000) {
            guard let object = segment.objectValue else {
                throw ExportProblem("wrong type: a segment must be an object, found \(segment.described)")
            }
            let fields = ExportFields(object: object)
            let text = try fields.string("text") ?? ""
            if try fields.string("type") == "LINE_BREAK" {
                body.append(text.isEmpty ? "\n" : text)
                continue
            }
            let start = body.utf8Count
            body.append(text)
            if let formatting = try fields.object("formatting") {
                for (key, style) in [("bold", TextSpanStyle.bold), ("italics", .italic), ("strikethrough", .strikethrough), ("underline", .underline)]
                    where formatting.object[key]?.boolValue == true {
                    body.style(from: start, style)
                }
            }
        }
        var picture: (name: String, width: Int?, height: Int?)?
        var lines: [String] = []
        for attachment in try content.array("attachment").prefix(256) {
            guard let item = attachment.objectValue?["embed_item"]?.objectValue else { continue }
            if let photo = item["plus_photo"]?.objectValue {
                let url = photo["url"]?.stringValue ?? photo["original_content_url"]?.stringValue ?? ""
                let isVideo = photo["media_type"]?.stringValue == "VIDEO"
                let label = ExpansionLimit.name(url.isEmpty ? "not included in the export" : ExportItems.fileName(url))
                if picture == nil, !isVideo {
                    let thumbnail = photo["thumbnail"]?.objectValue
                    picture = (label, thumbnail?["width_px"]?.intValue, thumbnail?["height_px"]?.intValue)
                } else {
                    lines.append("[\(isVideo ? "video" : "photo"): \(label)]")
                }
            } else if let place = item["place_v2"]?.objectValue ?? item["place"]?.objectValue {
                lines.append("[location: \(boundedPlain(place["name"]?.stringValue ?? place["url"]?.stringValue ?? ""))]")
            } else {
                let kinds = item["type"]?.arrayValue?.compactMap(\.stringValue).joined(separator: ", ") ?? "attachment"
                lines.append("[\(DiagnosticText.quoted(kinds, limit: 40).lowercased())]")
            }
        }
        for line in lines {
            if body.utf8Count > 0 { body.append("\n") }
            body.append(line)
        }
        if let picture {
            return LogImageMessage(header: header, pixelWidth: picture.width.flatMap { $0 > 0 ? $0 : nil }, pixelHeight: picture.height.flatMap { $0 > 0 ? $0 : nil },
                                   imageName: picture.name, caption: body.text.isEmpty ? nil : body.text, captionSpans: body.spans)
        }
        guard !body.text.isEmpty else { return LogTextMessage(header: header, text: "[message with no text]") }
        return LogTextMessage(header: header, text: body.text, spans: body.spans)
    }
}
