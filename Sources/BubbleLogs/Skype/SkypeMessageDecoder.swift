import BubbleLayout

/// One message of a Skype export → a record.
///
/// - `RichText` content is markup (`SkypeMarkup`): `<b>`, `<i>`, `<s>` and `<pre>` become styles,
///   a link its text (and its address after it when they differ), a mention `<at>` "@Name", an
///   emoticon `<ss>` the text typed for it; a `<quote>` with a `messageid` makes the message a
///   reply to that message (else the quote stays, as "> " lines); an edit mark `<e_m>` or
///   `properties.edittime` marks it edited. `Text` is plain.
/// - A shared photo (`RichText/UriObject`, `URIObject` of type `Picture.1`) is an image row, with
///   its size when given; files, videos, voice messages and albums are labelled lines.
/// - Calls (`Event/Call`, its `partlist`) and the group's changes (`ThreadActivity/AddMember`,
///   `DeleteMember`, `TopicUpdate`, …) are system rows.
/// - A deleted message (`properties.deletetime`, an empty content, or an edit that left only its
///   `<e_m>` mark) is the note "Message deleted" in its sender's place.
/// - Reactions (`properties.emotions`) end the text as one line: `[reactions: 👍 Ana, ❤️ Ben]`.
struct SkypeMessageDecoder {
    /// Display names by user id (`8:live:ana`), from the messages that give one.
    var names: [String: String]
    var me: String?
    /// The export's `userId`, "me" when `--me` is not given.
    var ownerID: String?

    /// `8:live:ana` → `live:ana`: the export writes user ids with and without the type prefix.
    static func bareID(_ id: String) -> String {
        guard let colon = id.firstIndex(of: ":"), id[..<colon].allSatisfy(\.isNumber), !id[..<colon].isEmpty else { return id }
        return String(id[id.index(after: colon)...])
    }

    private func name(ofUser id: String) -> String {
        if let name = names[id] ?? names["8:" + id] { return ExpansionLimit.name(name) }
        return ExpansionLimit.name(Self.bareID(id))
    }

    func decode(_ message: ExportFields, idPrefix: String) throws(ExportProblem) -> any LogRecord {
        let id = idPrefix + (try message.identifier("id") ?? "")
        guard let arrival = try message.string("originalarrivaltime") else { throw ExportProblem("missing field \"originalarrivaltime\"") }
        guard let micros = LogTimestamp.microseconds(iso8601: arrival) else {
            throw ExportProblem("unreadable date \"\(DiagnosticText.quoted(arrival))\" in \"originalarrivaltime\" (expected ISO 8601, as 2024-03-02T18:03:12.345Z)")
        }
        let date = LogTimestamp.date(microseconds: micros)
        let type = try message.string("messagetype") ?? "RichText"
        let from = try message.string("from") ?? ""
        var sender = try message.string("displayName").flatMap { $0.isEmpty ? nil : ExpansionLimit.name($0) }
        if sender == nil, !from.isEmpty { sender = name(ofUser: from) }
        var content = try message.string("content") ?? ""
        // Older clients wrote an edit as "Edited previous message: " and the new text before its `<e_m>`.
        if content.hasPrefix(Self.editedPrefix), content.contains("<e_m") { content.removeFirst(Self.editedPrefix.count) }
        let properties = message.object["properties"]?.objectValue
        func present(_ key: String) -> Bool {
            guard let value = properties?[key] else { return false }
            switch value {
            case .null: return false
            case .string(let text): return !text.isEmpty
            default: return true
            }
        }
        func system(_ notice: String) -> LogSystemMessage {
            LogSystemMessage(header: LogMessageHeader(id: id, senderName: nil, date: date), notice: notice)
        }
        let isMine = SenderName.matches(me, sender) || SenderName.matches(me, from) || SenderName.matches(me, Self.bareID(from))
            || (ownerID.map { !from.isEmpty && Self.bareID($0) == Self.bareID(from) } ?? false)
        var header = LogMessageHeader(id: id, senderName: sender, direction: isMine ? .outgoing : .incoming, date: date,
                                      isEdited: present("edittime"))
        let who = sender ?? "Someone"
        let markup = SkypeMarkup.parse(content)

        if type.hasPrefix("Event/Call") { return system(callNotice(markup, who: who)) }
        if type.hasPrefix("ThreadActivity/") { return system(activityNotice(type, markup, who: who)) }
        if present("deletetime") || (content.isEmpty && (type == "RichText" || type == "Text")) {
            return LogTextMessage(header: header, text: "Message deleted", textStyle: .notice)
        }
        let reactions = self.reactions(properties?["emotions"])
        switch type {
        case "Text":
            let text = content.isEmpty ? "[message with no text]" : boundedPlain(content)
            return LogTextMessage(header: header, text: reactions.map { text + "\n" + $0 } ?? text)
        case "RichText", "RichText/Html":
            var body = StyledText()
            var reply = ReplyState()
            append(markup.children, to: &body, reply: &reply)
            if reply.edited { header.isEdited = true }
            if let target = reply.target { header.replyToID = idPrefix + target }
            let text = Self.trimmed(body)
            // An edit to nothing (only its `<e_m>` mark left) deleted the message.
            if text.text.isEmpty, reply.edited, reply.target == nil {
                return LogTextMessage(header: header, text: "Message deleted", textStyle: .notice)
            }
            guard !text.text.isEmpty else { return LogTextMessage(header: header, text: reactions.map { "[message with no text]\n" + $0 } ?? "[message with no text]") }
            if let reactions { return LogTextMessage(header: header, text: text.text + "\n" + reactions, spans: text.spans) }
            return LogTextMessage(header: header, text: text.text, spans: text.spans)
        case "EndToEndEncryption/EncryptedText":
            return LogTextMessage(header: header, text: "[encrypted message]", textStyle: .notice)
        case "Notice", "PopCard", "Event/BingBot":
            let text = markup.text.trimmingSpaces
            return system(text.isEmpty ? type : boundedPlain(text))
        default:
            break
        }
        if let object = markup.first("uriobject") {
            let record = media(object, type: type, header: header)
            guard let reactions else { return record }
            if let image = record as? LogImageMessage {
                return LogImageMessage(header: image.header, pixelWidth: image.pixelWidth, pixelHeight: image.pixelHeight,
                                       imageName: image.imageName, caption: reactions)
            }
            if let text = record as? LogTextMessage { return LogTextMessage(header: text.header, text: text.text + "\n" + reactions) }
            return record
        }
        if type == "RichText/Contacts" {
            let contacts = markup.first("contacts")?.children(named: "c").prefix(64).map { contact in
                ExpansionLimit.name(contact.attribute("f") ?? contact.attribute("s").map(Self.bareID) ?? "?")
            } ?? []
            return LogTextMessage(header: header, text: contacts.isEmpty ? "[contact]" : contacts.map { "[contact: \($0)]" }.joined(separator: "\n"))
        }
        if type == "RichText/Location" {
            let place = markup.first("location")
            let address = place?.attribute("address") ?? place?.text ?? markup.text
            return LogTextMessage(header: header, text: "[location: \(boundedPlain(address.trimmingSpaces))]")
        }
        let text = markup.text.trimmingSpaces
        let label = type == "Poll" ? "[poll]" : "[\(DiagnosticText.quoted(type, limit: 40))]"
        return LogTextMessage(header: header, text: text.isEmpty ? label : boundedPlain(type == "Poll" ? "[poll] " + text : text))
    }

    static let editedPrefix = "Edited previous message: "

    /// Skype's six reactions by their `key`; another key (an emoticon's) is shown as Skype types it.
    private static let reactionEmoji: [String: String] = [
        "like": "👍", "heart": "❤️", "laugh": "😆", "surprised": "😮", "sad": "😢", "angry": "😠",
    ]

    /// `properties.emotions`, `[{key, users: [{mri, time, value}]}]` (or that list as a JSON
    /// string), as one line: "[reactions: 👍 Ana, ❤️ Ben]"; nil when there are none.
    private func reactions(_ value: JSONValue?) -> String? {
        var list = value?.arrayValue
        if list == nil, let text = value?.stringValue, text.hasPrefix("["), text.utf8.count <= 1 << 20 {
            list = try? JSONParser(allowsHexEscapes: false).parse(document: JSONDocumentBytes(Array(text.utf8))).arrayValue
        }
        guard let list else { return nil }
        var parts: [String] = []
        for emotion in list.prefix(64) {
            guard let object = emotion.objectValue, let key = object["key"]?.stringValue, !key.isEmpty else { continue }
            let shown = Self.reactionEmoji[key] ?? "(\(ExpansionLimit.name(key)))"
            for user in (object["users"]?.arrayValue ?? []).prefix(256) {
                guard let mri = user.objectValue?["mri"]?.stringValue, !mri.isEmpty else { continue }
                parts.append("\(shown) \(name(ofUser: mri))")
            }
        }
        return parts.isEmpty ? nil : "[reactions: \(parts.joined(separator: ", "))]"
    }

    /// What a message's quote and edit marks say.
    private struct ReplyState {
        var target: String?
        var edited = false
    }

    private func append(_ nodes: [SkypeMarkup.Node], to body: inout StyledText, reply: inout ReplyState) {
        for node in nodes {
            switch node {
            case .text(let text):
                body.append(text)
            case .element(let element):
                append(element, to: &body, reply: &reply)
            }
        }
    }

    private func append(_ element: SkypeMarkup.Element, to body: inout StyledText, reply: inout ReplyState) {
        let start = body.utf8Count
        switch element.name {
        case "b": append(element.children, to: &body, reply: &reply); body.style(from: start, .bold)
        case "i": append(element.children, to: &body, reply: &reply); body.style(from: start, .italic)
        case "s": append(element.children, to: &body, reply: &reply); body.style(from: start, .strikethrough)
        case "u": append(element.children, to: &body, reply: &reply); body.style(from: start, .underline)
        case "pre", "code": append(element.children, to: &body, reply: &reply); body.style(from: start, .code)
        case "at":
            let shown = element.text
            body.append("@" + (shown.isEmpty ? element.attribute("id").map(name(ofUser:)) ?? "" : shown))
        case "a":
            let shown = element.text
            let target = element.attribute("href") ?? ""
            append(element.children, to: &body, reply: &reply)
            if shown.isEmpty { body.append(target) } else if !target.isEmpty, !shown.contains(target), !target.hasPrefix("mailto:") {
                body.append(" (\(target))")
            }
        case "br":
            // Never closed, so what follows it is read as inside it.
            body.append("\n")
            append(element.children, to: &body, reply: &reply)
        case "p", "div", "li":
            // `RichText/Html`'s blocks: one to a line.
            if body.utf8Count > 0, !body.text.hasSuffix("\n") { body.append("\n") }
            append(element.children, to: &body, reply: &reply)
            body.append("\n")
        case "e_m", "legacyquote":
            if element.name == "e_m" { reply.edited = true }
        case "quote":
            if let target = element.attribute("messageid"), !target.isEmpty, reply.target == nil {
                reply.target = target
            } else {
                var quoted = StyledText()
                var inner = ReplyState()
                append(element.children, to: &quoted, reply: &inner)
                let author = element.attribute("authorname").map(ExpansionLimit.name)
                let lines = quoted.text.trimmingSpaces.split(separator: "\n", omittingEmptySubsequences: false)
                var first = true
                for line in lines {
                    if first, let author { body.append("> \(author): \(line)\n") } else { body.append("> \(line)\n") }
                    first = false
                }
            }
        default:
            append(element.children, to: &body, reply: &reply)
        }
    }

    /// The text without the spaces and line breaks around it, its spans kept where they fall.
    private static func trimmed(_ styled: StyledText) -> (text: String, spans: [TextSpan]) {
        let utf8 = Array(styled.text.utf8)
        var start = 0, end = utf8.count
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 }
        while start < end, isSpace(utf8[start]) { start += 1 }
        while end > start, isSpace(utf8[end - 1]) { end -= 1 }
        let spans = styled.spans.compactMap { span -> TextSpan? in
            let s = max(span.start, start) - start, e = min(span.end, end) - start
            return e > s ? TextSpan(start: s, end: e, style: span.style) : nil
        }
        return (String(decoding: utf8[start..<end], as: UTF8.self), spans)
    }

    private func media(_ object: SkypeMarkup.Element, type: String, header: LogMessageHeader) -> any LogRecord {
        let kind = object.attribute("type") ?? ""
        let original = object.first("originalname")?.attribute("v") ?? object.first("meta")?.attribute("originalname")
        let title = object.first("title")?.text.trimmingSpaces
        var fileName = original ?? title.map { $0.hasPrefix("Title: ") ? String($0.dropFirst(7)) : $0 } ?? ""
        if fileName.isEmpty { fileName = object.attribute("doc_id") ?? "" }
        fileName = ExpansionLimit.name(fileName.isEmpty ? "not included in the export" : fileName)
        let isPicture = kind.hasPrefix("Picture") || type == "RichText/UriObject" && !kind.hasPrefix("Video") && !kind.hasPrefix("File") && !kind.hasPrefix("Audio")
        if isPicture && type != "RichText/Media_Album" {
            let width = object.attribute("width").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
            let height = object.attribute("height").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
            return LogImageMessage(header: header, pixelWidth: width, pixelHeight: height, imageName: fileName, caption: nil)
        }
        let label: String
        if kind.hasPrefix("Video") || type == "RichText/Media_Video" {
            label = "video"
        } else if kind.hasPrefix("Audio") || type == "RichText/Media_AudioMsg" {
            label = "voice message"
        } else if type == "RichText/Media_CallRecording" {
            label = "call recording"
        } else if type == "RichText/Media_Album" {
            label = "album"
        } else if type == "RichText/Media_FlikMsg" || type == "RichText/Media_Card" {
            label = "card"
        } else {
            label = "file"
        }
        return LogTextMessage(header: header, text: "[\(label): \(fileName)]")
    }

    /// "Ana Lima started a call", "Call ended (12:34)", "Missed call from Ana Lima".
    private func callNotice(_ markup: SkypeMarkup.Element, who: String) -> String {
        guard let list = markup.first("partlist") else { return "\(who) called" }
        let parts = list.children(named: "part")
        let caller = parts.first.map { part in
            ExpansionLimit.name(part.first("name")?.text ?? part.attribute("identity").map(name(ofUser:)) ?? who)
        } ?? who
        switch list.attribute("type") {
        case "started"?: return "\(caller) started a call"
        case "missed"?: return "Missed call from \(caller)"
        case "ended"?:
            let seconds = parts.compactMap { $0.first("duration").flatMap { Double($0.text.trimmingSpaces) } }.max() ?? 0
            guard seconds > 0, seconds < 1e9 else { return "Call ended" }
            return "Call ended (\(ExportItems.duration(Int(seconds))))"
        case let other?: return other.isEmpty ? "\(caller) called" : "Call \(DiagnosticText.quoted(other, limit: 24)) (\(caller))"
        case nil: return "\(caller) called"
        }
    }

    /// "Ana Lima added Ben Okafor", "Ana Lima named the group Climbing crew", ….
    private func activityNotice(_ type: String, _ markup: SkypeMarkup.Element, who: String) -> String {
        let kind = type.dropFirst("ThreadActivity/".count)
        let event = markup.children.lazy.compactMap { node -> SkypeMarkup.Element? in
            if case .element(let element) = node { return element }
            return nil
        }.first
        let initiator = event?.first("initiator").map { name(ofUser: $0.text.trimmingSpaces) } ?? who
        let targets = event?.children(named: "target").prefix(64).map { name(ofUser: $0.text.trimmingSpaces) } ?? []
        let joined = MessengerMessageDecoder.joined(targets)
        let value = event?.first("value")?.text ?? ""
        switch kind {
        case "AddMember":
            return targets.isEmpty ? "\(initiator) added someone" : targets == [initiator] ? "\(initiator) joined" : "\(initiator) added \(joined)"
        case "DeleteMember":
            return targets.isEmpty || targets == [initiator] ? "\(initiator) left" : "\(initiator) removed \(joined)"
        case "TopicUpdate":
            return value.isEmpty ? "\(initiator) removed the group name" : "\(initiator) named the group \(boundedPlain(value))"
        case "PictureUpdate":
            return "\(initiator) changed the group picture"
        case "RoleUpdate":
            return "\(initiator) changed \(joined.isEmpty ? "a member" : joined)'s role"
        case "HistoryDisclosedUpdate":
            return "\(initiator) \(value == "true" ? "showed" : "hid") the chat history to new members"
        case "JoiningEnabledUpdate":
            return "\(initiator) \(value == "true" ? "allowed" : "stopped") joining by link"
        case "E2EEHandshakeInvite":
            return "\(initiator) invited to a private conversation"
        case "E2EEHandshakeAccept":
            return "\(initiator) accepted the private conversation"
        case "E2EEHandshakeComplete", "E2EEHandshakeReject":
            return kind == "E2EEHandshakeComplete" ? "Private conversation started" : "\(initiator) declined the private conversation"
        default:
            return "\(initiator): \(DiagnosticText.quoted(String(kind), limit: 40))"
        }
    }
}

/// Text taken whole from an export into a record, cut at `ExpansionLimit.messageBytes` as
/// expanded text is.
func boundedPlain<S: StringProtocol>(_ text: S) -> String {
    var bounded = BoundedText()
    bounded.append(text)
    return bounded.text
}

extension StringProtocol {
    /// Without spaces, tabs and line breaks at either end.
    var trimmingSpaces: String {
        let scalars = Array(unicodeScalars)
        func isSpace(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\n" || s == "\t" || s == "\r" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
