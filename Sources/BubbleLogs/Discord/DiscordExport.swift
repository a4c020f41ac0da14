import BubbleLayout

/// DiscordChatExporter's JSON: `{guild, channel, messages: [{id, type, timestamp, timestampEdited,
/// content, author{name, nickname}, attachments[{fileName}], reference{messageId}, mentions}]}`.
///
/// Attachments carry no pixel size, so a picture becomes an image row of unknown size (the first
/// picture; any further attachments are named in its caption). Joins, pins, calls, renames and
/// recipient changes become system rows.
enum DiscordExport {
    static func producer(document: JSONValue, file: String, options: LogReadOptions) throws(LogInputError) -> RecordProducer {
        guard let root = document.objectValue, let messages = root["messages"]?.arrayWithLines else {
            throw LogInputError(file: file, message: "unknown schema: expected DiscordChatExporter JSON, an object with \"guild\", \"channel\" and a \"messages\" array")
        }
        let channelObject = root["channel"]?.objectValue
        let channel = channelObject?["name"]?.stringValue ?? "channel"
        let conversation = ExportConversation(idPrefix: "", title: "#\(channel)", messages: messages)
        let me = options.me
        let revealsSpoilers = options.revealsSpoilers
        let markup = DiscordMarkup(users: [:], channelID: channelObject?["id"]?.identifierValue,
                                   channelName: channelObject?["name"]?.stringValue, timeZone: options.timeZone)
        return ListProducer([], then: ExportItems.lazyItems(file: file, conversations: [conversation]) { object, _ throws(ExportProblem) in
            try decode(ExportFields(object: object), me: me, markup: markup, revealsSpoilers: revealsSpoilers)
        })
    }

    private static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "bmp", "heic", "avif"]

    static func decode(_ message: ExportFields, me: String?, markup: DiscordMarkup,
                       revealsSpoilers: Bool = false) throws(ExportProblem) -> any LogRecord {
        let id = try message.requiredIdentifier("id")
        let type = try message.string("type") ?? "Default"
        guard let micros = try message.isoDate("timestamp") else { throw ExportProblem("missing field \"timestamp\"") }
        let date = LogTimestamp.date(microseconds: micros)
        guard let author = try message.object("author") else { throw ExportProblem("missing field \"author\"") }
        let name = try author.string("name")
        let display = try author.string("nickname") ?? name
        let who = display ?? "Someone"
        let mentions = try message.array("mentions").compactMap(\.objectValue)
        var markup = markup
        for mention in mentions {
            guard let id = mention["id"]?.identifierValue,
                  let shown = mention["nickname"]?.stringValue ?? mention["name"]?.stringValue else { continue }
            markup.users[id] = shown
        }
        let rawContent = try message.string("content") ?? ""
        let content = markup.resolve(rawContent)
        let replyTo = try message.object("reference")?.identifier("messageId")
        let edited = try message.isoDate("timestampEdited") != nil

        func system(_ notice: String, replyTo: String? = nil) -> LogSystemMessage {
            LogSystemMessage(header: LogMessageHeader(id: id, senderName: nil, date: date, replyToID: replyTo), notice: notice)
        }
        let mentioned = mentions.first.map { mention in
            mention["nickname"]?.stringValue ?? mention["name"]?.stringValue ?? "someone"
        }
        switch type {
        case "Default", "Reply", "ThreadStarterMessage", "ChatInputCommand", "ContextMenuCommand":
            break
        case "GuildMemberJoin": return system("\(who) joined the server")
        case "ChannelPinnedMessage": return system("\(who) pinned a message", replyTo: replyTo)
        case "Call":
            if let ended = try message.isoDate("callEndedTimestamp") {
                let minutes = max(0, Int((ended - micros) / 60_000_000))
                return system("\(who) started a call that lasted \(minutes == 1 ? "a minute" : "\(minutes) minutes")")
            }
            return system("\(who) started a call")
        case "RecipientAdd": return system("\(who) added \(mentioned ?? "someone") to the group")
        case "RecipientRemove":
            if let mentioned, mentioned != who { return system("\(who) removed \(mentioned) from the group") }
            return system("\(who) left the group")
        case "ChannelNameChange": return system("\(who) changed the channel name: \(content)")
        case "ChannelIconChange": return system("\(who) changed the channel icon")
        case "ThreadCreated": return system("\(who) started a thread: \(content)")
        case "GuildBoost", "GuildBoostTier1", "GuildBoostTier2", "GuildBoostTier3": return system("\(who) boosted the server")
        default:
            return system(content.isEmpty ? "\(who): \(type)" : "\(who): \(type): \(content)")
        }

        let isMine = SenderName.matches(me, name) || SenderName.matches(me, display)
        let header = LogMessageHeader(
            id: id, senderName: display, direction: isMine ? .outgoing : .incoming, date: date,
            isEdited: edited, replyToID: replyTo)
        let attachments = try message.array("attachments").map { value throws(ExportProblem) -> String in
            guard let object = value.objectValue else { throw ExportProblem("wrong type: an attachment must be an object, found \(value.described)") }
            return object["fileName"]?.stringValue ?? object["url"]?.stringValue.map(ExportItems.fileName) ?? "attachment"
        }
        let stickers = try message.array("stickers").map { "[sticker: \($0.objectValue?["name"]?.stringValue ?? "sticker")]" }
        let embeds = try message.array("embeds").compactMap { $0.objectValue?["title"]?.stringValue }.map { "[embed: \($0)]" }

        // The message's markup read as Discord shows it; mentions, emoji and times inside it as
        // `DiscordMarkup` resolves them.
        let resolver = markup
        let styled = ChatMarkup(dialect: .discord, revealsSpoilers: revealsSpoilers) { inner in
            let token = "<" + inner + ">"
            let resolved = resolver.resolve(token)
            return resolved == token ? nil : resolved
        }.parse(rawContent)

        if let pictureIndex = attachments.firstIndex(where: { isPicture($0) }) {
            var others = attachments
            others.remove(at: pictureIndex)
            var caption = styled
            for label in others.map({ "[file: \($0)]" }) + stickers {
                if !caption.text.isEmpty { caption.append("\n") }
                caption.append(label)
            }
            return LogImageMessage(
                header: header, pixelWidth: nil, pixelHeight: nil, imageName: attachments[pictureIndex],
                caption: caption.text.isEmpty ? nil : caption.text, captionSpans: caption.spans)
        }
        var body = StyledText()
        for label in attachments.map({ "[file: \($0)]" }) + stickers {
            if !body.text.isEmpty { body.append("\n") }
            body.append(label)
        }
        if !styled.text.isEmpty {
            if !body.text.isEmpty { body.append("\n") }
            body.append(styled)
        }
        if body.text.isEmpty { body = StyledText(plain: embeds.isEmpty ? "[message with no text]" : embeds.joined(separator: "\n")) }
        return LogTextMessage(header: header, text: body.text, spans: body.spans)
    }

    static func isPicture(_ fileName: String) -> Bool {
        guard let dot = fileName.lastIndex(of: ".") else { return false }
        return imageExtensions.contains(fileName[fileName.index(after: dot)...].lowercased())
    }
}
