/// Readable sentences for Telegram service messages (`"type": "service"` with `actor` and `action`).
enum TelegramServiceSentence {
    static func sentence(for message: ExportFields, actor: String?) throws(ExportProblem) -> String {
        let who = ExpansionLimit.name(actor ?? "Someone")
        guard let action = try message.string("action") else {
            // A service message whose kind the exporter did not name: its text, if it has one.
            let text = try TelegramText.flatten(message.object.present("text"))
            return text.isEmpty ? "\(who): a service message this export does not describe" : text
        }
        let title = try message.string("title").map { "“\(ExpansionLimit.name($0))”" }
        let members = try message.array("members").map { ExpansionLimit.name($0.stringValue ?? "someone") }
        let listed = list(members)
        let duration = try message.int("duration_seconds").map { " (\(ExportItems.duration($0)))" } ?? ""
        switch action {
        case "create_group": return "\(who) created the group \(title ?? "")".trimmed + (members.isEmpty ? "" : " with \(listed)")
        case "create_channel": return "\(who) created the channel \(title ?? "")".trimmed
        case "invite_members": return "\(who) added \(members.isEmpty ? "members" : listed)"
        case "remove_members":
            return members == [who] ? "\(who) left the group" : "\(who) removed \(members.isEmpty ? "members" : listed)"
        case "join_group_by_link":
            return "\(who) joined the group via an invite link" + (try message.string("inviter").map { " from \($0)" } ?? "")
        case "join_group_by_request": return "\(who) joined the group"
        case "pin_message": return "\(who) pinned a message"
        case "edit_group_title": return "\(who) changed the group name to \(title ?? "an empty name")"
        case "edit_group_photo": return "\(who) changed the group photo"
        case "delete_group_photo": return "\(who) removed the group photo"
        case "phone_call":
            switch try message.string("discard_reason") {
            case "missed"?: return "Missed call from \(who)"
            case "busy"?: return "\(who) called (line busy)"
            case "declined"?: return "\(who) called (declined)"
            default: return "\(who) called\(duration)"
            }
        case "group_call": return "\(who) started a video chat\(duration)"
        case "invite_to_group_call": return "\(who) invited \(members.isEmpty ? "members" : listed) to the video chat"
        case "group_call_scheduled": return "\(who) scheduled a video chat"
        case "migrate_to_supergroup": return "\(who) upgraded this group to a supergroup"
        case "migrate_from_group": return "This supergroup was upgraded from the group \(title ?? "")".trimmed
        case "clear_history": return "\(who) cleared the history"
        case "history_clear": return "History was cleared"
        case "score_in_game": return "\(who) scored \(try message.int("score").map(String.init) ?? "points") in a game"
        case "screenshot_taken": return "\(who) took a screenshot"
        case "set_messages_ttl":
            let legacy = try message.int("period")
            let period = try message.int("period_seconds") ?? legacy ?? 0
            return period == 0 ? "\(who) turned off auto-delete" : "\(who) set messages to auto-delete after \(humanPeriod(period))"
        case "topic_created": return "\(who) created the topic \(title ?? "")".trimmed
        case "topic_edit": return "\(who) edited the topic\(title.map { " to " + $0 } ?? "")"
        case "edit_chat_theme": return "\(who) changed the chat theme\(try message.string("emoticon").map { " to " + $0 } ?? "")"
        case "boost_apply": return "\(who) boosted the group"
        case "custom_action":
            // A bot's or an app's own sentence, in `information_text` (older exports: `text`).
            var text = try message.string("information_text") ?? ""
            if text.isEmpty { text = try TelegramText.flatten(message.object.present("text")) }
            return text.isEmpty ? "\(who): a custom action without a description" : text
        default: return "\(who): \(action.replacingUnderscores)"
        }
    }

    /// "Alice", "Alice and Bob", "Alice, Bob and Carol".
    static func list(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        var text = BoundedText()
        for (index, name) in names.enumerated() {
            if index > 0 { text.append(index == names.count - 1 ? " and " : ", ") }
            text.append(name)
        }
        return text.text
    }

    private static func humanPeriod(_ seconds: Int) -> String {
        if seconds % 86_400 == 0 { let d = seconds / 86_400; return d == 1 ? "1 day" : "\(d) days" }
        if seconds % 3600 == 0 { let h = seconds / 3600; return h == 1 ? "1 hour" : "\(h) hours" }
        return "\(seconds) seconds"
    }
}

extension String {
    var trimmed: String {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
