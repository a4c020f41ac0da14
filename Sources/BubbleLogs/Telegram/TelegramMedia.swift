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

    private static func numberText(_ value: JSONValue) -> String {
        if case .number(let literal) = value { return literal }
        return value.stringValue ?? "?"
    }
}

extension String {
    /// "voice_message" → "voice message".
    var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}
