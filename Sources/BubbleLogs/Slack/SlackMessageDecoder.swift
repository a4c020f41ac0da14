import BubbleLayout

/// One Slack message → a record: `ts` is the id and the time, `user` is resolved to a name,
/// `subtype`s that are events become system rows, `files[]` with `original_w/h` become images.
struct SlackMessageDecoder: Sendable {
    var users: [String: String]
    var me: String?
    /// Integrations' names by `bot_id`, learnt from the export (`learnBotNames`): an old
    /// integration's posts carry only its id, and its name is on its other posts or on the
    /// notice that added it.
    var botNames: [String: String] = [:]

    /// The subtypes of the notices about an integration, and what each says it did.
    private static let integrationNotices: [String: String] = [
        "bot_add": "added an integration to this channel", "bot_remove": "removed an integration from this channel",
        "bot_enable": "enabled an integration", "bot_disable": "disabled an integration",
    ]

    /// Adds to `botNames` the name each of `messages` gives its `bot_id`: `bot_profile.name`,
    /// else `username` on a `bot_message`, else the label of an integration notice's `bot_link`
    /// (`<https://team.slack.com/services/B0JL6RASU|jenkins>`). The first name found for an id stays.
    mutating func learnBotNames(from messages: JSONArray) {
        for value in messages.lazyElements {
            guard let object = value.objectValue, let botID = object["bot_id"]?.stringValue, !botID.isEmpty,
                  botNames[botID] == nil else { continue }
            let subtype = object["subtype"]?.stringValue
            var name = object["bot_profile"]?.objectValue?["name"]?.stringValue
            if name?.isEmpty ?? true, subtype == "bot_message" { name = object["username"]?.stringValue }
            if name?.isEmpty ?? true, let subtype, Self.integrationNotices[subtype] != nil {
                name = object["bot_link"]?.stringValue.flatMap(Self.linkLabel)
            }
            if let name, !name.isEmpty { botNames[botID] = ExpansionLimit.name(name) }
        }
    }

    /// The label of a Slack link, `<url|label>` → `label`; nil when it has none.
    static func linkLabel(_ link: String) -> String? {
        guard link.hasPrefix("<"), link.hasSuffix(">"), let bar = link.firstIndex(of: "|") else { return nil }
        let label = link[link.index(after: bar)..<link.index(before: link.endIndex)]
        return label.isEmpty ? nil : String(label)
    }

    /// Subtypes that are ordinary messages from someone.
    private static let messageSubtypes: Set<String> = [
        "bot_message", "me_message", "thread_broadcast", "file_share", "slackbot_response", "reply_broadcast",
    ]

    func decode(_ message: ExportFields, idPrefix: String) throws(ExportProblem) -> any LogRecord {
        let ts = try message.requiredString("ts")
        guard let micros = LogTimestamp.microseconds(unixSecondsLiteral: ts) else {
            throw ExportProblem("unreadable ts \"\(DiagnosticText.quoted(ts))\" (expected Unix seconds like \"1714557720.000200\")")
        }
        let date = LogTimestamp.date(microseconds: micros)
        let id = idPrefix + ts
        let userID = try message.string("user")
        let profileName = try message.object("bot_profile")?.string("name")
        let botName = try [message.string("username"), profileName].compactMap { $0 }.first { !$0.isEmpty }
        let subtype = try message.string("subtype")
        // users.json names everyone; a message also carries its sender's profile (a channel
        // folder read without users.json has only that), and an id is the last resort.
        let profile = try message.object("user_profile")
        let ownName = try [profile?.string("display_name"), profile?.string("real_name")].compactMap { $0 }.first { !$0.isEmpty }
        let userName = userID.map { users[$0] ?? ownName ?? $0 }
        // An integration posts under its own name; `user`, when present, is whoever installed it.
        let botID = try message.string("bot_id")
        let knownBot = botID.flatMap { botNames[$0] }
        let name = (subtype == "bot_message"
            ? botName ?? knownBot ?? userName ?? botID.map { "bot \($0)" }
            : userName ?? botName ?? knownBot).map(ExpansionLimit.name)
        let who = name ?? "Someone"
        // The text's mrkdwn read as Slack shows it (after its links, mentions and entities).
        var styled = ChatMarkup(dialect: .slack, revealsSpoilers: true).parse(resolve(try message.string("text") ?? ""))
        if subtype == "bot_message" || styled.text.isEmpty {
            let attached = try attachmentText(message)
            if !attached.isEmpty {
                if !styled.text.isEmpty { styled.append("\n") }
                styled.append(attached)
            }
        }
        let text = styled.text
        let threadTS = try message.string("thread_ts")
        let replyTo = threadTS.flatMap { $0 == ts ? nil : idPrefix + $0 }

        if let subtype, !Self.messageSubtypes.contains(subtype) {
            let notice: String
            switch subtype {
            case "channel_join", "group_join": notice = "\(who) joined the channel"
            case "channel_leave", "group_leave": notice = "\(who) left the channel"
            case "channel_topic", "group_topic": notice = "\(who) set the channel topic: \(resolve(try message.string("topic") ?? ""))"
            case "channel_purpose", "group_purpose": notice = "\(who) set the channel purpose: \(resolve(try message.string("purpose") ?? ""))"
            case "channel_name", "group_name":
                notice = "\(who) renamed the channel from #\(try message.string("old_name") ?? "?") to #\(try message.string("name") ?? "?")"
            case "channel_archive", "group_archive": notice = "\(who) archived the channel"
            case "channel_unarchive", "group_unarchive": notice = "\(who) unarchived the channel"
            case "pinned_item": notice = "\(who) pinned a message"
            case "unpinned_item": notice = "\(who) unpinned a message"
            case let integration where Self.integrationNotices[integration] != nil:
                // `<user> added an integration to this channel: jenkins`, named as its posts are.
                let integrationName = (try message.string("bot_link")).flatMap(Self.linkLabel).map(ExpansionLimit.name) ?? knownBot
                if let integrationName, let phrase = Self.integrationNotices[integration] {
                    notice = "\(who) \(phrase): \(integrationName)"
                } else {
                    notice = text.isEmpty ? "\(who): \(subtype.replacingUnderscores)" : "\(who) \(text)"
                }
            default: notice = text.isEmpty ? "\(who): \(subtype.replacingUnderscores)" : text
            }
            return LogSystemMessage(header: LogMessageHeader(id: id, senderName: nil, date: date, replyToID: replyTo), notice: notice)
        }
        let isMine = SenderName.matches(me, name)
        let edited = message.object.present("edited") != nil
        let header = LogMessageHeader(
            id: id, senderName: name, direction: isMine ? .outgoing : .incoming, date: date,
            isEdited: edited, replyToID: replyTo)
        var pictures: [(name: String, width: Int?, height: Int?)] = []
        var labels: [String] = []
        for value in try message.array("files") {
            guard let file = value.objectValue.map(ExportFields.init) else {
                throw ExportProblem("wrong type: each of \"files\" must be an object, found \(value.described)")
            }
            let title = try file.string("title")
            let fileName = try file.string("name") ?? title ?? "file"
            let mode = try file.string("mode")
            if mode == "tombstone" || mode == "hidden_by_limit" {
                labels.append("[file no longer available]")
                continue
            }
            let width = try file.int("original_w"), height = try file.int("original_h")
            let isImage = (try file.string("mimetype"))?.hasPrefix("image/") ?? (width != nil)
            if isImage {
                pictures.append((fileName, width, height))
            } else {
                labels.append("[file: \(fileName)]")
            }
        }
        if let first = pictures.first {
            var caption = styled
            for label in pictures.dropFirst().map({ "[image: \($0.name)]" }) + labels {
                if !caption.text.isEmpty { caption.append("\n") }
                caption.append(label)
            }
            return LogImageMessage(header: header, pixelWidth: first.width, pixelHeight: first.height, imageName: first.name,
                                   caption: caption.text.isEmpty ? nil : caption.text, captionSpans: caption.spans)
        }
        // `/me waves` is drawn as "Name waves".
        var body = StyledText(plain: subtype == "me_message" ? who + " " : "")
        for (n, label) in labels.enumerated() {
            if n > 0 { body.append("\n") }
            body.append(label)
        }
        if !text.isEmpty {
            if !labels.isEmpty { body.append("\n") }
            body.append(styled)
        }
        return LogTextMessage(header: header, text: body.text, spans: body.spans)
    }

    /// The text of `attachments[]`, where integrations (GitHub, CI, alerts) put their content: for
    /// each one its pretext, title (with its link) and text, or its `fallback` summary when it has
    /// none of those. Fields, buttons and images are not shown.
    private func attachmentText(_ message: ExportFields) throws(ExportProblem) -> String {
        var lines: [String] = []
        for value in try message.array("attachments") {
            guard let attachment = value.objectValue.map(ExportFields.init) else {
                throw ExportProblem("wrong type: each of \"attachments\" must be an object, found \(value.described)")
            }
            var parts: [String] = []
            for key in ["pretext", "title", "text"] {
                guard var part = try attachment.string(key).map(resolve), !part.isEmpty else { continue }
                // A linked title keeps its address, as a link in the text does.
                if key == "title", let link = try attachment.string("title_link"), !link.isEmpty, link != part {
                    part += " (\(link))"
                }
                parts.append(part)
            }
            if !parts.isEmpty {
                lines += parts
            } else if let fallback = try attachment.string("fallback").map(resolve), !fallback.isEmpty {
                lines.append(fallback)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Slack's markup to plain text: `:+1:` → 👍 (`SlackEmoji`), `<@U1>` → `@name`,
    /// `<#C1|general>` → `#general`, `<https://x|label>` → `label (https://x)`, `<!here>` →
    /// `@here`, and the three HTML entities.
    func resolve(_ text: String) -> String {
        let text = SlackEmoji.replacingShortcodes(in: text)
        guard text.contains("<") || text.contains("&") else { return text }
        // Bounded: each mention repeats a name from users.json, which the export chose.
        var out = BoundedText()
        var rest = Substring(text)
        while !out.isCut, let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            out.append(rest[..<open])
            let inner = rest[rest.index(after: open)..<close]
            let parts = inner.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
            let target = parts.first.map(String.init) ?? ""
            let label = parts.count > 1 ? String(parts[1]) : nil
            if target.hasPrefix("@") {
                let id = String(target.dropFirst())
                out.append("@" + (label ?? users[id].map(ExpansionLimit.name) ?? id))
            } else if target.hasPrefix("#") {
                out.append("#" + (label ?? String(target.dropFirst())))
            } else if target.hasPrefix("!") {
                let command = target.dropFirst()
                if command.hasPrefix("date^") {
                    // `<!date^1392734382^{date_short}|Feb 18, 2014>`: the fallback is the date as written.
                    out.append(label ?? String(command.dropFirst(5).prefix { $0 != "^" }))
                } else {
                    // `<!here>`, `<!channel>`, and a user group, `<!subteam^S0123|@designers>`,
                    // whose label carries its own @.
                    let name = label ?? String(command.hasPrefix("subteam^") ? command.dropFirst(8) : command)
                    out.append(name.hasPrefix("@") ? name : "@" + name)
                }
            } else if let label, label != target {
                out.append("\(label) (\(target))")
            } else {
                out.append(target)
            }
            rest = rest[rest.index(after: close)...]
        }
        out.append(rest)
        return out.text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

import Foundation
