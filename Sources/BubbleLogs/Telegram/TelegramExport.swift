import BubbleLayout

/// Telegram Desktop's JSON export (`result.json`): one chat (`{name, type, id, messages}`) or a full
/// export (`{personal_information, chats: {list: […]}, left_chats: {list: […]}}`).
///
/// Times come from `date_unixtime`. Older exports have only `date`, a local time without a zone,
/// read in the options' zone; a `date` that carries a zone (`…Z`, `+02:00`), with or without
/// fractional seconds, is read as written. A message without `id` is named by its line. In a full export the default "me" is the
/// exporting account, matched by `from_id` and by name.
enum TelegramExport {
    /// The producer of the export's chosen chats, and a warning for each chosen chat with no
    /// messages (an export limited to a date range has many): such a chat has no heading row,
    /// since it has no date to be placed at.
    static func producer(document: JSONValue, file: String, options: LogReadOptions) throws(LogInputError)
        -> (producer: RecordProducer, warnings: [LogDiagnostic]) {
        guard let root = document.objectValue else {
            throw LogInputError(file: file, message: "unknown schema: a Telegram export is a JSON object, found \(document.described)")
        }
        var me = Me(name: options.me, userID: nil)
        var chats: [JSONObject] = []
        // Chats of a full export that cannot be read, each reported as one rejected record.
        var badChats: [(name: String?, id: String?, diagnostic: LogDiagnostic)] = []
        if let list = root["chats"]?.objectValue?["list"]?.arrayWithLines {
            chats = objects(of: list, in: "chats", file: file, bad: &badChats)
            if let left = root["left_chats"]?.objectValue?["list"]?.arrayWithLines {
                chats += objects(of: left, in: "left_chats", file: file, bad: &badChats)
            }
            if options.me == nil, let person = root["personal_information"]?.objectValue {
                let first = person["first_name"]?.stringValue ?? ""
                let last = person["last_name"]?.stringValue ?? ""
                let name = [first, last].filter { !$0.isEmpty }.joined(separator: " ")
                me = Me(name: name.isEmpty ? nil : name, userID: person["user_id"]?.identifierValue.map { "user" + $0 })
            }
        } else if root["messages"] != nil {
            chats = [root]
        } else {
            throw LogInputError(file: file, message: "unknown schema: expected a Telegram Desktop export, with \"messages\" (one chat) or \"chats\": {\"list\": […]} (a full export)")
        }
        for chat in chats where chat["messages"]?.arrayWithLines == nil {
            let name = chat["name"]?.stringValue ?? "?"
            let message = "unknown schema: chat \"\(DiagnosticText.quoted(name))\" has no \"messages\" array"
            // A chat alone is the whole document; one chat of a full export loses only itself.
            guard root["messages"] == nil else { throw LogInputError(file: file, line: chat.line, message: message) }
            badChats.append((chat["name"]?.stringValue, chat["id"]?.identifierValue,
                             LogDiagnostic(position: LogPosition(file: file, line: chat.line), reason: message + "; its messages are not read")))
        }
        chats = chats.filter { $0["messages"]?.arrayWithLines != nil }
        let all = chats.map { chat in
            let name = chat["name"]?.stringValue ?? "(unnamed)"
            let id = chat["id"]?.identifierValue ?? "?"
            return (id: id, name: name, line: chat.line, conversation: ExportConversation(
                idPrefix: "\(id)/", title: "Telegram chat “\(name)”",
                messages: chat["messages"]?.arrayWithLines ?? JSONArray(elements: [], elementLines: [])))
        }
        let picked = options.conversation.map { wanted in all.filter { $0.name == wanted || $0.id == wanted } } ?? all
        var chosen = picked.map(\.conversation)
        if let wanted = options.conversation {
            if chosen.isEmpty {
                let names = all.prefix(12).map { "\"\(DiagnosticText.quoted($0.name))\"" }.joined(separator: ", ")
                throw LogInputError(file: file, message: "no chat named or numbered \"\(DiagnosticText.quoted(wanted))\"; the export has \(all.count): \(names)\(all.count > 12 ? ", …" : "")", kind: .conversationNotFound)
            }
        }
        // Read together, each chat's records carry its name as their conversation, as a person
        // knows the chat, where the name is one only it has in the export; else its id (ids are
        // unique in an export, names need not be). `--channel` takes either.
        if chosen.count > 1 {
            var uses: [String: Int] = [:]
            for chat in all { uses[chat.name, default: 0] += 1 }
            for (i, chat) in picked.enumerated() {
                let named = chat.name != "(unnamed)" && !chat.name.isEmpty && uses[chat.name] == 1
                    && !all.contains { $0.id == chat.name && $0.id != chat.id }
                chosen[i].conversationID = named ? chat.name : chat.id
            }
        }
        let zoneless = ZonelessTimes()
        let decoder = TelegramMessageDecoder(me: me, timeZoneOptions: options, zoneless: zoneless, said: TelegramMessageDecoder.Said())
        let warnings = picked.filter { $0.conversation.messages.isEmpty }.map { chat in
            LogDiagnostic(position: LogPosition(file: file, line: chat.line),
                          reason: "chat \"\(DiagnosticText.quoted(chat.name))\" has no messages in this export")
        }
        let reported = badChats.filter { bad in options.conversation.map { bad.name == $0 || bad.id == $0 } ?? true }
            .map { bad in { () -> ProducedRecord in .rejected(bad.diagnostic) } }
        let producer = ListProducer(reported, then: ExportItems.lazyItems(file: file, conversations: chosen) { object, conversation throws(ExportProblem) in
            try decoder.decode(ExportFields(object: object), idPrefix: conversation.idPrefix)
        }, zoneless: zoneless)
        return (producer, warnings)
    }

    /// The chats of a full export's `chats` or `left_chats` list. A chat that is not an object
    /// would otherwise vanish with all its messages, so it is added to `bad`, naming its line.
    private static func objects(of list: JSONArray, in listName: String, file: String,
                                bad: inout [(name: String?, id: String?, diagnostic: LogDiagnostic)]) -> [JSONObject] {
        var chats: [JSONObject] = []
        for (index, (value, line)) in list.elementsWithLines.enumerated() {
            guard let chat = value.objectValue else {
                bad.append((nil, nil, LogDiagnostic(position: LogPosition(file: file, line: line), reason:
                    "unknown schema: chat \(index + 1) of \"\(listName)\" is \(value.kindName); expected an object with a \"messages\" array; its messages are not read")))
                continue
            }
            chats.append(chat)
        }
        return chats
    }

    struct Me {
        var name: String?
        var userID: String?
    }
}

/// One Telegram message or service message → a record.
struct TelegramMessageDecoder {
    var me: TelegramExport.Me
    var timeZoneOptions: LogReadOptions
    /// Told when a message's time is read in `timeZoneOptions`' zone (an old export's `date`).
    var zoneless: ZonelessTimes
    var said: Said

    func decode(_ message: ExportFields, idPrefix: String) throws(ExportProblem) -> any LogRecord {
        // A message without an id (hand-edited or old exports) is named by its place in the file,
        // which stays the same on every read and cannot clash with Telegram's numeric ids.
        let id = idPrefix + (try message.identifier("id") ?? "line\(message.object.line)")
        let type = try message.string("type") ?? "message"
        if type == "unsupported" {
            // Telegram Desktop writes a message it cannot export as its id and this type alone.
            guard let last = said.lastMicros else {
                throw ExportProblem("a message Telegram Desktop could not export (\"type\": \"unsupported\", with no date or content)")
            }
            return LogSystemMessage(header: LogMessageHeader(id: id, senderName: nil, date: LogTimestamp.date(microseconds: last)),
                                    notice: "A message Telegram Desktop could not export")
        }
        let micros = try time(of: message)
        if ExpansionNotes.current != nil { said.lastMicros = micros }
        let date = LogTimestamp.date(microseconds: micros)
        var repliedTo = try message.identifier("reply_to_message_id")
        if let original = repliedTo, let peer = try message.identifier("reply_to_peer_id"),
           String(peer.unicodeScalars.filter { ("0"..."9").contains($0) }) != idPrefix.dropLast() {
            // A reply to another chat's message (a channel's post, answered in its discussion
            // group): the number is that chat's, so it must not quote this chat's message of the
            // same number. An id no message here has shows the quote of a message not in the log.
            // (A chat read alone has no prefix to compare with: the peer is then always another.)
            repliedTo = "\(peer):\(original)"
        }
        let replyTo = repliedTo.map { idPrefix + $0 }
        switch type {
        case "service":
            let actor = try message.string("actor")
            let sentence = try TelegramServiceSentence.sentence(for: message, actor: actor)
            let pinned = try message.identifier("message_id").map { idPrefix + $0 }
            return LogSystemMessage(header: LogMessageHeader(id: id, senderName: nil, date: date, replyToID: pinned ?? replyTo), notice: sentence)
        case "message":
            break
        default:
            throw ExportProblem("unknown message type \"\(DiagnosticText.quoted(type))\" (expected message or service)")
        }
        let from = try message.string("from")
        let fromID = try message.identifier("from_id")
        let isMine = SenderName.matches(me.name, from) || (fromID != nil && fromID == me.userID)
        let edited = try Self.isEdited(message)
        var header = LogMessageHeader(
            id: id, senderName: from, direction: isMine ? .outgoing : .incoming, date: date,
            isEdited: edited, replyToID: replyTo)
        header.forwardedFrom = try Self.forwardOrigin(of: message)
        // `text_entities` says the same as `text` in objects alone; read it when `text` is missing.
        let text = try TelegramText.flatten(message.object.present("text") ?? message.object.present("text_entities"),
                                            revealsSpoilers: timeZoneOptions.revealsSpoilers)

        if let photo = try message.string("photo") {
            let notIncluded = photo.hasPrefix("(")
            return LogImageMessage(
                header: header, pixelWidth: try message.int("width"), pixelHeight: try message.int("height"),
                imageName: notIncluded ? "photo (not included in the export)" : ExportItems.fileName(photo),
                caption: text.isEmpty ? nil : text)
        }
        if let label = try TelegramMedia.label(for: message) {
            return LogTextMessage(header: header, text: text.isEmpty ? label : label + "\n" + text)
        }
        if text.isEmpty, let buttons = try TelegramMedia.buttons(of: message) {
            // A message that is only inline buttons (a bot's menu): their labels.
            return LogTextMessage(header: header, text: buttons)
        }
        return LogTextMessage(header: header, text: text)
    }

    /// What the decoder says once per export, and the time of the last message read (which an
    /// unsupported message, written without a date, is placed at).
    final class Said {
        var zeroUnixTime = false
        var lastMicros: Int64?
    }

    /// The message's time: `date_unixtime`, else `date`. A `date_unixtime` of 0 beside a `date`
    /// that is not the epoch (some exports write it so) is a missing one: `date` is read, said
    /// once in a warning.
    private func time(of message: ExportFields) throws(ExportProblem) -> Int64 {
        var fromUnix: Int64?
        if let unix = try message.identifier("date_unixtime") {
            guard let parsed = LogTimestamp.microseconds(unixSecondsLiteral: unix) else {
                throw ExportProblem("unreadable date_unixtime \"\(DiagnosticText.quoted(unix))\" (expected Unix seconds)")
            }
            fromUnix = parsed
        }
        let written = try message.string("date")
        if let fromUnix, fromUnix != 0 || written == nil { return fromUnix }
        guard let written else { throw ExportProblem("missing field \"date_unixtime\"") }
        let micros: Int64
        if let zoned = LogTimestamp.microseconds(iso8601: written) {
            // A date that names its zone ("2019-03-01T10:02:00.250Z") means what it says.
            micros = zoned
        } else {
            // Exports made before date_unixtime existed have only a local, zoneless time:
            // read it in the options' zone.
            guard let parsed = LogTimestamp.microseconds(iso8601: written + "Z") else {
                throw ExportProblem("unreadable date \"\(DiagnosticText.quoted(written))\" (expected 2024-05-01T10:02:00, with or without fractional seconds and a zone)")
            }
            let offset = timeZoneOptions.timeZone.secondsFromGMT(for: LogTimestamp.date(microseconds: parsed))
            micros = parsed - Int64(offset) * 1_000_000
            zoneless.seen = true
        }
        if fromUnix == 0, !Self.isNearEpoch(micros) {
            if ExpansionNotes.current != nil, !said.zeroUnixTime {
                said.zeroUnixTime = true
                ExpansionNotes.note("date_unixtime is 0 beside date \"\(DiagnosticText.quoted(written))\": read the date (said once for the export)")
            }
            return micros
        }
        return fromUnix ?? micros
    }

    /// Within a day and a half of 1970-01-01T00:00Z: the epoch written in any zone.
    static func isNearEpoch(_ micros: Int64) -> Bool { abs(micros) <= 36 * 3600 * 1_000_000 }

    /// Whether the message was edited: `edited` or `edited_unixtime` present, unless it is the
    /// epoch in some zone (older exports write `"edited": "1970-01-01T05:00:00"` on every message
    /// that never was).
    static func isEdited(_ message: ExportFields) throws(ExportProblem) -> Bool {
        var present = false
        if let unix = try message.identifier("edited_unixtime") {
            present = true
            if let micros = LogTimestamp.microseconds(unixSecondsLiteral: unix), isNearEpoch(micros) { return false }
        }
        if let written = try message.string("edited") {
            present = true
            if let micros = LogTimestamp.microseconds(iso8601: written) ?? LogTimestamp.microseconds(iso8601: written + "Z"),
               isNearEpoch(micros) { return false }
        }
        return present
    }

    /// Who a forwarded message came from: `forwarded_from` (null when Telegram had no name for
    /// them: then empty, shown as "Forwarded"), else `saved_from` (a message saved from a chat).
    /// A name from the export, so cut as names are; the renderer escapes it as it does names.
    static func forwardOrigin(of message: ExportFields) throws(ExportProblem) -> String? {
        for key in ["forwarded_from", "saved_from"] {
            guard let value = message.object[key] else { continue }
            if case .null = value { return "" }
            guard let name = value.stringValue else {
                throw ExportProblem("wrong type: field \"\(key)\" must be a string or null, found \(value.described)")
            }
            return ExpansionLimit.name(name)
        }
        return nil
    }
}

/// Telegram's `text`: a string, or an array of strings and entity objects (`{type, text, href}`).
/// A `spoiler` entity, hidden in the app until tapped, is shown as `[spoiler]` unless
/// `revealsSpoilers`: a fixed marker, the same width in every terminal.
enum TelegramText {
    /// What a hidden spoiler shows.
    static let hiddenSpoiler = "[spoiler]"

    static func flatten(_ value: JSONValue?, revealsSpoilers: Bool = false) throws(ExportProblem) -> String {
        switch value {
        case nil: return ""
        case .string(let text)?: return text
        case .array(let parts)?:
            var out = BoundedText()
            for part in parts.elements {
                switch part {
                case .string(let text): out.append(text)
                case .object(let entity):
                    let text = entity["text"]?.stringValue ?? ""
                    if !revealsSpoilers, entity["type"]?.stringValue == "spoiler" {
                        out.append(hiddenSpoiler)
                        continue
                    }
                    out.append(text)
                    // A link whose label is not its address keeps the address, or it would be lost.
                    if let href = entity["href"]?.stringValue, href != text { out.append(" (\(href))") }
                default:
                    throw ExportProblem("wrong type: \"text\" parts must be strings or objects, found \(part.described)")
                }
            }
            return out.text
        case let other?:
            throw ExportProblem("wrong type: field \"text\" must be a string or an array, found \(other.described)")
        }
    }
}
