import BubbleLayout

/// One Messenger or Instagram message → a record.
///
/// - `type` `Subscribe`/`Unsubscribe` (someone added, someone left or was removed) and `Call` are
///   system rows, worded by the export's own `content` when it has one; so is a message whose text
///   is one of the app's English notices (a rename, a nickname, a theme, a call, a join).
/// - `is_unsent` (`isUnsent`) is the app's note in the sender's place.
/// - The first of `photos` or `gifs` (or an image among `media`) is an image row of unknown size;
///   every other attachment is a labelled line: `[photo: …]`, `[video: …]`, `[audio: …]`,
///   `[file: …]`, `[sticker]`, `[link: …]`.
/// - `reactions` end the text as one line: `[reactions: ❤ Ana, 😆 Ben]`.
struct MessengerMessageDecoder {
    var me: String?

    private static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "bmp", "heic", "avif"]

    func decode(_ message: ExportFields, id: String) throws(ExportProblem) -> any LogRecord {
        let milliseconds: Int64
        if let ms = try Self.milliseconds(message, "timestamp_ms") {
            milliseconds = ms
        } else if let ms = try Self.milliseconds(message, "timestamp") {
            milliseconds = ms
        } else {
            throw ExportProblem("missing field \"timestamp_ms\"")
        }
        let date = LogTimestamp.date(microseconds: milliseconds * 1000)
        var sender = try message.string("sender_name")
        if sender == nil { sender = try message.string("senderName") }
        var content = try message.string("content") ?? ""
        if content.isEmpty { content = try message.string("text") ?? "" }
        let type = try message.string("type") ?? "Generic"
        let who = sender.map(ExpansionLimit.name) ?? "Someone"

        func system(_ notice: String) -> LogSystemMessage {
            LogSystemMessage(header: LogMessageHeader(id: id, senderName: nil, date: date), notice: notice)
        }
        switch type {
        case "Subscribe":
            if !content.isEmpty { return system(content) }
            return system("\(who) added \(try Self.names(message.array("users"))) to the group")
        case "Unsubscribe":
            if !content.isEmpty { return system(content) }
            let users = try Self.userNames(message.array("users"))
            if users.isEmpty || users == [sender ?? ""] { return system("\(who) left the group") }
            return system("\(who) removed \(Self.joined(users)) from the group")
        case "Call":
            let seconds = try message.int("call_duration") ?? 0
            let missed = message.object["missed"]?.boolValue == true
            var notice = content.isEmpty ? (missed ? "Missed call from \(who)" : "\(who) called") : content
            if seconds > 0 { notice += " (\(ExportItems.duration(seconds)))" }
            return system(notice)
        default:
            break
        }
        if Self.isNotice(content, sender: sender) { return system(content) }

        let isMine = SenderName.matches(me, sender)
        let header = LogMessageHeader(id: id, senderName: sender, direction: isMine ? .outgoing : .incoming, date: date,
                                      isEdited: message.object["is_edited"]?.boolValue == true)
        let reactions = try Self.reactions(message.array("reactions"))
        let unsent = message.object["is_unsent"]?.boolValue == true || message.object["isUnsent"]?.boolValue == true
        if unsent {
            let note = isMine ? "You unsent a message" : "\(who) unsent a message"
            return LogTextMessage(header: header, text: reactions.map { note + "\n" + $0 } ?? note, textStyle: .notice)
        }

        // Pictures first: the first one is drawn, the rest are named.
        var pictures: [String] = []
        var lines: [String] = []
        for key in ["photos", "gifs"] {
            for uri in try Self.uris(message.array(key), key) { pictures.append(uri) }
        }
        for uri in try Self.uris(message.array("media"), "media") {
            if Self.isPicture(uri) { pictures.append(uri) } else { lines.append(Self.label(forFile: uri)) }
        }
        for uri in try Self.uris(message.array("videos"), "videos") { lines.append("[video: \(uri)]") }
        for uri in try Self.uris(message.array("audio_files"), "audio_files") { lines.append("[audio: \(uri)]") }
        for uri in try Self.uris(message.array("files"), "files") { lines.append("[file: \(uri)]") }
        if message.object.present("sticker") != nil { lines.append("[sticker]") }
        if let share = try message.object("share") {
            if let link = try share.string("link"), !content.contains(link) { lines.append("[link: \(link)]") }
            if let text = try share.string("share_text"), !text.isEmpty, text != content { lines.append(text) }
        }
        var text = BoundedText()
        var first = true
        func add(_ line: String) {
            if !first { text.append("\n") }
            text.append(line)
            first = false
        }
        if !content.isEmpty { add(content) }
        for picture in pictures.dropFirst() { add("[photo: \(picture)]") }
        for line in lines { add(line) }
        if let reactions { add(reactions) }
        if let picture = pictures.first {
            return LogImageMessage(header: header, pixelWidth: nil, pixelHeight: nil, imageName: picture,
                                   caption: first ? nil : text.text)
        }
        if first { add("[message with no text]") }
        return LogTextMessage(header: header, text: text.text)
    }

    private static func milliseconds(_ message: ExportFields, _ key: String) throws(ExportProblem) -> Int64? {
        guard let value = message.object.present(key) else { return nil }
        guard case .number(let literal) = value, let ms = Int64(literal),
              ms > -8_000_000_000_000_000 / 1000, ms < 8_000_000_000_000_000 / 1000 else {
            throw ExportProblem("wrong type: field \"\(key)\" must be an integer of milliseconds, found \(value.described)")
        }
        return ms
    }

    /// The file names of a list of `{uri}` objects.
    private static func uris(_ list: [JSONValue], _ key: String) throws(ExportProblem) -> [String] {
        var names: [String] = []
        for value in list {
            guard let object = value.objectValue else {
                throw ExportProblem("wrong type: the items of \"\(key)\" must be objects with a \"uri\", found \(value.described)")
            }
            let uri = object["uri"]?.stringValue ?? ""
            names.append(uri.isEmpty ? "not included in the export" : ExpansionLimit.name(ExportItems.fileName(uri)))
        }
        return names
    }

    private static func isPicture(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    private static func label(forFile name: String) -> String {
        let ext = name.lastIndex(of: ".").map { name[name.index(after: $0)...].lowercased() } ?? ""
        if ["mp4", "mov", "webm", "3gp", "mkv"].contains(ext) { return "[video: \(name)]" }
        if ["m4a", "aac", "mp3", "ogg", "opus", "wav", "amr"].contains(ext) { return "[audio: \(name)]" }
        return "[file: \(name)]"
    }

    /// `[reactions: ❤ Ana, 😆 Ben]`, or nil for none.
    private static func reactions(_ list: [JSONValue]) throws(ExportProblem) -> String? {
        guard !list.isEmpty else { return nil }
        var parts: [String] = []
        for value in list.prefix(64) {
            guard let object = value.objectValue else {
                throw ExportProblem("wrong type: a reaction must be an object with \"reaction\" and \"actor\", found \(value.described)")
            }
            let emoji = ExpansionLimit.name(object["reaction"]?.stringValue ?? "?")
            let actor = object["actor"]?.stringValue.map(ExpansionLimit.name)
            parts.append(actor.map { "\(emoji) \($0)" } ?? emoji)
        }
        let more = list.count > 64 ? ", and \(list.count - 64) more" : ""
        return "[reactions: \(parts.joined(separator: ", "))\(more)]"
    }

    private static func userNames(_ list: [JSONValue]) throws(ExportProblem) -> [String] {
        try list.prefix(64).map { value throws(ExportProblem) -> String in
            guard let name = value.objectValue?["name"]?.stringValue ?? value.stringValue else {
                throw ExportProblem("wrong type: \"users\" must hold objects with a \"name\", found \(value.described)")
            }
            return ExpansionLimit.name(name)
        }
    }

    private static func names(_ list: [JSONValue]) throws(ExportProblem) -> String {
        let users = try userNames(list)
        return users.isEmpty ? "someone" : joined(users)
    }

    /// "Ana", "Ana and Ben", "Ana, Ben and Chloé".
    static func joined(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }

    /// What follows a name in the app's English notices that Messenger writes as plain messages.
    private static let noticeVerbs = [
        "named the group", "changed the group name", "removed the group name", "changed the group photo",
        "set the nickname", "set your nickname", "set his own nickname", "set her own nickname",
        "set their own nickname", "set the quick reaction", "cleared the nickname", "cleared your nickname",
        "changed the chat theme", "changed the theme", "set the emoji", "changed the emoji",
        "left the group", "created the group", "started a call", "started a video chat",
        "started an audio call", "joined the call", "joined the video chat", "missed a call",
        "missed a video chat", "missed your call", "pinned a message", "unpinned a message",
        "turned on ", "turned off ", "changed the group's ",
    ]
    /// Whole notices with no name before them.
    private static let standaloneNotices: Set<String> = [
        "The video chat ended.", "The call ended.", "You are now connected on Messenger",
        "You are now connected on Messenger.", "You can now message and call each other on Messenger.",
    ]

    /// Whether `content` is one of the app's notices: "Ana named the group Climbing.", "You left the group.".
    static func isNotice(_ content: String, sender: String?) -> Bool {
        guard !content.isEmpty, content.utf8.count < 512 else { return false }
        if standaloneNotices.contains(content) { return true }
        var rest: Substring
        if let sender, !sender.isEmpty, content.hasPrefix(sender + " ") {
            rest = content.dropFirst(sender.count + 1)
        } else if content.hasPrefix("You ") {
            rest = content.dropFirst(4)
        } else {
            return false
        }
        guard content.hasSuffix(".") || rest.hasPrefix("pinned") || rest.hasPrefix("unpinned") else { return false }
        rest = rest.drop { $0 == " " }
        if rest.hasPrefix("added "), rest.hasSuffix(" to the group.") { return true }
        if rest.hasPrefix("removed "), rest.hasSuffix(" from the group.") { return true }
        if rest.hasPrefix("made "), rest.hasSuffix(" an admin.") || rest.hasSuffix(" admin.") { return true }
        return noticeVerbs.contains { rest.hasPrefix($0) }
    }
}
