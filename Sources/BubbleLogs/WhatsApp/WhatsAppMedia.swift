/// WhatsApp's media markers, in the languages of our fixtures. A picture becomes an image row of
/// unknown size; other media a labelled text row, so nothing is dropped.
enum WhatsAppMedia {
    enum Kind { case image(name: String), label(String) }

    private static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "heic", "bmp"]
    private static let omitted: [String: Kind] = [
        "<media omitted>": .image(name: "media omitted"),
        "<medien ausgeschlossen>": .image(name: "media omitted"),
        "<médias omis>": .image(name: "media omitted"),
        "image omitted": .image(name: "image omitted"),
        "bild weggelassen": .image(name: "image omitted"),
        "image absente": .image(name: "image omitted"),
        "video omitted": .label("[video]"),
        "audio omitted": .label("[voice message]"),
        "sticker omitted": .label("[sticker]"),
        "gif omitted": .label("[GIF]"),
        "document omitted": .label("[document]"),
        "contact card omitted": .label("[contact card]"),
    ]
    private static let attachedSuffixes = [" (file attached)", " (datei angehängt)", " (fichier joint)"]

    /// Recognises a marker that makes up a message's whole first line.
    static func classify(_ firstLine: String) -> Kind? {
        let line = String(firstLine.unicodeScalars.filter { $0 != "\u{200E}" && $0 != "\u{200F}" })
        let lowered = line.lowercased()
        if let kind = omitted[lowered] { return kind }
        if lowered.hasPrefix("<attached: "), lowered.hasSuffix(">") {
            return file(String(line.dropFirst("<attached: ".count).dropLast()))
        }
        for suffix in attachedSuffixes where lowered.hasSuffix(suffix) {
            return file(String(line.dropLast(suffix.count)))
        }
        return nil
    }

    private static func file(_ name: String) -> Kind {
        let lowered = name.lowercased()
        let ext = lowered.split(separator: ".").last.map(String.init) ?? ""
        if lowered.contains("sticker") || lowered.hasPrefix("stk-") { return .label("[sticker: \(name)]") }
        if imageExtensions.contains(ext) { return .image(name: name) }
        if ["opus", "ogg", "m4a", "aac", "mp3", "amr"].contains(ext) { return .label("[voice message: \(name)]") }
        if ["mp4", "mov", "3gp", "mkv"].contains(ext) { return .label("[video: \(name)]") }
        return .label("[file: \(name)]")
    }
}
