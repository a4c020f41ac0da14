/// WhatsApp's media markers, in the languages we could confirm. A picture becomes an image row of
/// unknown size; other media a labelled text row, so nothing is dropped.
///
/// An Android export "without media" writes one marker for every kind of media ("<Media omitted>");
/// iOS names the kind ("image omitted"). The marker is in the phone's language, and some languages
/// have an older wording still found in old exports. Only markers seen in real exports or in
/// WhatsApp's own string tables are listed: a guessed translation would match nothing real.
enum WhatsAppMedia {
    enum Kind { case image(name: String), label(String) }

    private static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "heic", "bmp"]
    private static let mediaOmitted = Kind.image(name: "media omitted")
    private static let imageOmitted = Kind.image(name: "image omitted")
    /// Keyed by the lowercased marker; the values say what the marker stands for, not its language.
    private static let omitted: [String: Kind] = [
        // Android, any media.
        "<media omitted>": mediaOmitted,
        "<medien ausgeschlossen>": mediaOmitted, "<medien weggelassen>": mediaOmitted,  // de; older
        "<médias omis>": mediaOmitted, "<fichier omis>": mediaOmitted,                   // fr; older
        "<multimedia omitido>": mediaOmitted, "<archivo omitido>": mediaOmitted,         // es; older
        "<mídia oculta>": mediaOmitted, "<mídia omitida>": mediaOmitted,                 // pt-BR; older
        "<ficheiro não revelado>": mediaOmitted,                                         // pt-PT
        "<media omessi>": mediaOmitted, "<media omesso>": mediaOmitted,                  // it; older
        "<media weggelaten>": mediaOmitted,                                              // nl
        "<без медиафайлов>": mediaOmitted, "<файл пропущен>": mediaOmitted,              // ru; older
        "<medya dahil edilmedi>": mediaOmitted, "<medya atlanmış>": mediaOmitted,        // tr; older
        // iOS, a picture.
        "image omitted": imageOmitted,
        "bild weggelassen": imageOmitted,                                                // de
        "image absente": imageOmitted,                                                   // fr
        "imagen omitida": imageOmitted,                                                  // es
        "imagem ocultada": imageOmitted, "imagem não revelada": imageOmitted,            // pt-BR, pt-PT
        "immagine omessa": imageOmitted,                                                 // it
        "afbeelding weggelaten": imageOmitted,                                           // nl
        "изображение отсутствует": imageOmitted,                                         // ru
        "görüntü dahil edilmedi": imageOmitted,                                          // tr
        // iOS, other media (English only so far).
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
