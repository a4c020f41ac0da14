/// Labels for Telegram media that are not pictures, so that they show as a row instead of vanishing.
enum TelegramMedia {
    static func label(for message: ExportFields) throws(ExportProblem) -> String? {
        let duration = try message.int("duration_seconds").map { " " + ExportItems.duration($0) } ?? ""
        let file = try message.string("file")
        let fileName = try message.string("file_name")
            ?? file.flatMap { $0.hasPrefix("(") ? nil : ExportItems.fileName($0) }
        let named = fileName.map { ": " + $0 } ?? ""
        switch try message.string("media_type") {
        case "sticker"?:
            return "[sticker\(try message.string("sticker_emoji").map { " " + $0 } ?? "")]"
        case "voice_message"?:
            return "[voice message\(duration)]"
        case "video_message"?:
            return "[video message\(duration)]"
        case "video_file"?:
            return "[video\(named)\(duration)]"
        case "animation"?:
            return "[GIF\(named)]"
        case "audio_file"?:
            let performer = try message.string("performer"), title = try message.string("title")
            let song = [performer, title].compactMap { $0 }.joined(separator: " – ")
            return "[audio: \(song.isEmpty ? fileName ?? "untitled" : song)\(duration)]"
        case let other?:
            return "[\(other.replacingUnderscores)\(named)]"
        case nil:
            break
        }
        if file != nil {
            return "[file: \(fileName ?? "not included in the export")]"
        }
        if let location = try message.object("location_information") {
            let latitude = location.object["latitude"].map(Self.numberText) ?? "?"
            let longitude = location.object["longitude"].map(Self.numberText) ?? "?"
            if let place = try message.string("place_name") {
                return "[place: \(place)\(try message.string("address").map { ", " + $0 } ?? "") (\(latitude), \(longitude))]"
            }
            return "[location \(latitude), \(longitude)]"
        }
        if let place = try message.string("place_name") {
            // A venue Telegram had no coordinates for: its title and address.
            return "[place: \(place)\(try message.string("address").map { ", " + $0 } ?? "")]"
        }
        if let list = try message.object("todo_list") {
            // A checklist: its title and its items.
            let title = try TelegramText.flatten(list.object.present("title"))
            let items = try list.array("answers").compactMap { $0.objectValue }.map { item throws(ExportProblem) in
                try TelegramText.flatten(item.present("text"))
            }
            return (["[checklist: \(title)]"] + items.map { "☐ " + $0 }).joined(separator: "\n")
        }
        if let giveaway = try message.object("giveaway_information") {
            return try Self.giveaway(giveaway, results: false)
        }
        if let results = try message.object("giveaway_results") {
            return try Self.giveaway(results, results: true)
        }
        if let poll = try message.object("poll") {
            let question = try poll.string("question") ?? ""
            let answers = try poll.array("answers").compactMap { $0.objectValue?["text"]?.stringValue }
            return (["[poll: \(question)]"] + answers.map { "• " + $0 }).joined(separator: "\n")
        }
        if let contact = try message.object("contact_information") {
            let name = [try contact.string("first_name"), try contact.string("last_name")].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
            let phone = try contact.string("phone_number").map { ", " + $0 } ?? ""
            return "[contact: \(name)\(phone)]"
        }
        if let game = try message.string("game_title") {
            return "[game: \(game)]"
        }
        return nil
    }

    /// A giveaway or its results: the prize (`additional_prize`, Premium months or Stars, as
    /// many as `quantity`) and when it ends (`until_date`).
    private static func giveaway(_ fields: ExportFields, results: Bool) throws(ExportProblem) -> String {
        var prizes: [String] = []
        var quantity = try fields.int("quantity")
        if quantity == nil { quantity = try fields.int("winners_count") }
        if let months = try fields.int("months"), months > 0 {
            prizes.append("Telegram Premium for \(months) month\(months == 1 ? "" : "s")")
        }
        if let stars = try fields.int("stars"), stars > 0 { prizes.append("\(stars) Stars") }
        if let prize = try fields.string("additional_prize"), !prize.isEmpty { prizes.append(prize) }
        let prize = prizes.isEmpty ? "" : ": " + (quantity.map { "\($0) × " } ?? "") + prizes.joined(separator: " and ")
        let end = try fields.string("until_date").map { ", ends \($0.replacingOccurrences(of: "T", with: " "))" } ?? ""
        return "[\(results ? "giveaway results" : "giveaway")\(prize)\(end)]"
    }

    /// The labels of a message's inline buttons, a row a line (`[Open] [Help]`), or nil without any.
    static func buttons(of message: ExportFields) throws(ExportProblem) -> String? {
        let rows = try message.array("inline_bot_buttons")
        guard !rows.isEmpty else { return nil }
        let lines = rows.map { row in
            (row.arrayValue ?? []).compactMap { $0.objectValue?["text"]?.stringValue }.map { "[\($0)]" }.joined(separator: " ")
        }.filter { !$0.isEmpty }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    private static func numberText(_ value: JSONValue) -> String {
        if case .number(let literal) = value { return literal }
        return value.stringValue ?? "?"
    }
}

extension String {
    /// "voice_message" → "voice message".
    var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}
