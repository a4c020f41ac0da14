import BubbleLayout

/// One Google Chat message of a Takeout export → a record.
///
/// - `created_date` is its time (`GoogleChatDate`); an `updated_date` marks it edited; a
///   `message_state` of `DELETED` or a `deletion_metadata` makes it the note "Message deleted" in
///   its sender's place.
/// - The first attached picture (`attached_files`, by its name's extension) is an image row named
///   by its `export_name`, the text its caption; every other file is a labelled line.
/// - A quote (`quoted_message_metadata`) with a `message_id` of the same group makes the message a
///   reply to it; else the quote is kept as "> Name: text" lines before the text.
/// - Annotations not tied to the text (a link's preview, a Drive file, a Meet call) add a line
///   when the text does not already hold what they point at; `reactions` end the text
///   (`[reactions: 👍 Ana Lima]`, reactors named by the group's members).
struct GoogleChatMessageDecoder {
    /// `--me`, or the owner's email (or name) from `user_info.json`.
    var me: String?
    /// Names by email, from the groups' `group_info.json`.
    var members: [String: String]
    /// The `message_id`s of the message's group.
    var ids: Set<String>
    var idPrefix: String
    var place: String

    private static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "bmp", "heic", "heif", "avif"]

    func decode(_ message: ExportFields, line: Int) throws(ExportProblem) -> any LogRecord {
        guard let created = try message.string("created_date") else { throw ExportProblem("missing field \"created_date\"") }
        guard let micros = GoogleChatDate.microseconds(created) else {
            throw ExportProblem("unreadable date \"\(DiagnosticText.quoted(created))\" in \"created_date\" (expected as \"Thursday, November 3, 2016 at 11:59:50 AM UTC\")")
        }
        let date = LogTimestamp.date(microseconds: micros)
        let id = idPrefix + (try message.string("message_id") ?? "\(ExportItems.fileName(place)):\(line)")
        let creator = try message.object("creator")
        let email = try creator?.string("email").flatMap { $0.isEmpty ? nil : $0 }
        var sender = try creator?.string("name").flatMap { $0.isEmpty ? nil : ExpansionLimit.name($0) }
        if sender == nil { sender = email.map { ExpansionLimit.name(members[$0] ?? $0) } }
        let isMine = SenderName.matches(me, sender) || (email != nil && SenderName.matches(me, email))
        var header = LogMessageHeader(id: id, senderName: sender ?? "Deleted user", direction: isMine ? .outgoing : .incoming, date: date,
                                      isEdited: message.object.present("updated_date").map { $0 != .null } ?? false)
        let deleted = try message.string("message_state") == "DELETED" || message.object.present("deletion_metadata").map { $0 != .null } ?? false
        if deleted {
            header.isEdited = false
            return LogTextMessage(header: header, text: "Message deleted", textStyle: .notice)
        }
        let text = try message.string("text") ?? ""
        var lines: [String] = []
        if let quote = try message.object("quoted_message_metadata") {
            if let target = try quote.string("message_id"), ids.contains(target) {
                header.replyToID = idPrefix + target
            } else {
                let author = try quote.object("creator")?.string("name").map(ExpansionLimit.name)
                let quoted = (try quote.string("text") ?? "").split(separator: "\n", omittingEmptySubsequences: false).prefix(64)
                for (k, part) in quoted.enumerated() {
                    if k == 0, let author { lines.append("> \(author): \(part)") } else { lines.append("> \(part)") }
                }
            }
        }
        if !text.isEmpty { lines.append(text) }
        var pictures: [String] = []
        for file in try message.array("attached_files").prefix(256) {
            guard let object = file.objectValue else {
                throw ExportProblem("wrong type: the items of \"attached_files\" must be objects with an \"export_name\", found \(file.described)")
            }
            let fields = ExportFields(object: object)
            let original = try fields.string("original_name")
            let exported = try fields.string("export_name")
            // Takeout writes a `?` of the name as `_` on disk (`File-506…_account_id=1.png`).
            let name = ExpansionLimit.name(exported.map { $0.replacingOccurrences(of: "?", with: "_") } ?? original ?? "not included in the export")
            if Self.isPicture(original ?? name) || Self.isPicture(name) { pictures.append(name) } else { lines.append("[file: \(ExpansionLimit.name(original ?? name))]") }
        }
        for picture in pictures.dropFirst() { lines.append("[photo: \(picture)]") }
        for annotation in try message.array("annotations").prefix(256) {
            guard let object = annotation.objectValue else { continue }
            if let line = try Self.annotationLine(ExportFields(object: object), text: text) { lines.append(line) }
        }
        if let reactions = try reactions(message.array("reactions")) { lines.append(reactions) }
        var body = BoundedText()
        for (k, part) in lines.enumerated() {
            if k > 0 { body.append("\n") }
            body.append(part)
        }
        if let picture = pictures.first {
            return LogImageMessage(header: header, pixelWidth: nil, pixelHeight: nil, imageName: picture, caption: lines.isEmpty ? nil : body.text)
        }
        return LogTextMessage(header: header, text: lines.isEmpty ? "[message with no text]" : body.text)
    }

    private static func isPicture(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// The line an annotation adds: a link's preview, a Drive file, a Meet call, a video, when
    /// the text does not hold it already. Formatting and mentions add none.
    private static func annotationLine(_ annotation: ExportFields, text: String) throws(ExportProblem) -> String? {
        if let url = try annotation.object("url_metadata") {
            let target = try url.object("url")?.string("private_do_not_access_or_else_safe_url_wrapped_value") ?? ""
            guard !target.isEmpty, !text.contains(target) else { return nil }
            let title = try url.string("title") ?? ""
            return title.isEmpty ? "[link: \(boundedPlain(target))]" : "[link: \(ExpansionLimit.name(title)) (\(boundedPlain(target)))]"
        }
        if let drive = try annotation.object("drive_metadata") {
            let title = try drive.string("title") ?? ""
            let id = try drive.string("id") ?? ""
            if !id.isEmpty, text.contains(id) { return nil }
            return "[Drive file: \(ExpansionLimit.name(title.isEmpty ? id : title))]"
        }
        if let call = try annotation.object("video_call_metadata") {
            let url = try call.object("meeting_space")?.string("meeting_url") ?? ""
            if !url.isEmpty, text.contains(url) { return nil }
            return url.isEmpty ? "[video call]" : "[video call: \(boundedPlain(url))]"
        }
        if let video = try annotation.object("youtube_metadata") {
            let id = try video.string("id") ?? ""
            guard !id.isEmpty, !text.contains(id) else { return nil }
            return "[video: https://youtu.be/\(boundedPlain(id))]"
        }
        return nil
    }

    /// `[reactions: 👍 Ana Lima, Ben Okafor]`, reactors named from the members, or nil for none.
    private func reactions(_ list: [JSONValue]) throws(ExportProblem) -> String? {
        guard !list.isEmpty else { return nil }
        var parts: [String] = []
        for value in list.prefix(64) {
            guard let object = value.objectValue else {
                throw ExportProblem("wrong type: a reaction must be an object with \"emoji\" and \"reactor_emails\", found \(value.described)")
            }
            let fields = ExportFields(object: object)
            let emoji = ExpansionLimit.name(try fields.object("emoji")?.string("unicode") ?? "?")
            let who = try fields.array("reactor_emails").prefix(64).compactMap { $0.stringValue }.map { ExpansionLimit.name(members[$0] ?? $0) }
            parts.append(who.isEmpty ? emoji : "\(emoji) \(who.joined(separator: ", "))")
        }
        let more = list.count > 64 ? ", and \(list.count - 64) more" : ""
        return "[reactions: \(parts.joined(separator: "; "))\(more)]"
    }
}
