/// WhatsApp's media markers, in the languages we could confirm. A picture becomes an image row of
/// unknown size; other media a labelled text row, so nothing is dropped.
///
/// An Android export "without media" writes one marker for every kind of media ("<Media omitted>");
/// iOS names the kind ("image omitted", "video omitted", …). The marker is in the phone's language,
/// and some languages have an older wording still found in old exports. Only markers seen in real
/// exports or in WhatsApp's own string tables are listed: a guessed translation would match nothing
/// real, and a wording we could not confirm stays a text message (nothing is lost).
///
/// Where the iOS markers for kinds other than pictures were confirmed (public projects, read for
/// the strings only):
/// - de, fr, es, pt-BR, pt-PT, it, nl, ru, tr: starkdmi/whats_json, whose patterns are generated from
///   WhatsApp's iOS string tables (Localizable.strings), one value per language in a fixed order.
/// - es, again: mlomb/chat-analytics (its per-language WhatsApp attachment patterns).
/// - de and tr, again (all but document and contact card): koftezz/whatsapp-chat-analyzer.
/// - pt-BR writes a GIF and a document as Spanish does ("GIF omitido", "documento omitido"):
///   whats_json lists each wording once, and qualichat/qualichat lists them for pt-BR.
/// Left out: wordings seen only in tables that contradict WhatsApp's own (fr "document omis",
/// de "Kontaktkarte weggelassen"). A document that iOS names before the marker ("Plan.pdf • 2 pages
/// document omitted") is not a whole-line marker and stays text, in every language.
enum WhatsAppMedia {
    enum Kind: Equatable { case image(name: String), label(String) }

    private static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "gif", "webp", "heic", "bmp"]
    private static let mediaOmitted = Kind.image(name: "media omitted")
    private static let imageOmitted = Kind.image(name: "image omitted")
    private static let video = Kind.label("[video]")
    private static let audio = Kind.label("[voice message]")
    private static let sticker = Kind.label("[sticker]")
    private static let gif = Kind.label("[GIF]")
    private static let document = Kind.label("[document]")
    private static let contactCard = Kind.label("[contact card]")
    /// Keyed by the lowercased marker (as `classify` looks it up); the values say what the marker
    /// stands for, not its language.
    static let omitted: [String: Kind] = [
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
        // iOS, a video.
        "video omitted": video,
        "video weggelassen": video,                                                      // de
        "vidéo absente": video,                                                          // fr
        "video omitido": video,                                                          // es
        "vídeo omitido": video, "vídeo não revelado": video,                             // pt-BR, pt-PT
        "video omesso": video,                                                           // it
        "video weggelaten": video,                                                       // nl
        "видео отсутствует": video,                                                      // ru
        "video dahil edilmedi": video,                                                   // tr
        // iOS, a voice message or other audio.
        "audio omitted": audio,
        "audio weggelassen": audio,                                                      // de
        "audio omis": audio,                                                             // fr
        "audio omitido": audio,                                                          // es
        "áudio ocultado": audio, "ficheiro de áudio não revelado": audio,                // pt-BR, pt-PT
        "audio omesso": audio,                                                           // it
        "audio weggelaten": audio,                                                       // nl
        "аудиофайл отсутствует": audio,                                                  // ru
        "ses dahil edilmedi": audio,                                                     // tr
        // iOS, a sticker.
        "sticker omitted": sticker,
        "sticker weggelassen": sticker,                                                  // de
        "sticker omis": sticker,                                                         // fr
        "sticker omitido": sticker,                                                      // es
        "figurinha omitida": sticker, "sticker não revelado": sticker,                   // pt-BR, pt-PT
        "sticker non incluso": sticker,                                                  // it
        "sticker weggelaten": sticker,                                                   // nl
        "стикер не добавлен": sticker,                                                   // ru
        "çıkartma dahil edilmedi": sticker,                                              // tr
        // iOS, a GIF.
        "gif omitted": gif,
        "gif weggelassen": gif,                                                          // de
        "gif retiré": gif,                                                               // fr
        "gif omitido": gif,                                                              // es, pt-BR
        "gif não revelada": gif,                                                         // pt-PT
        "gif esclusa": gif,                                                              // it
        "gif weggelaten": gif,                                                           // nl
        "gif отсутствует": gif,                                                          // ru
        "gif dahil edilmedi": gif,                                                       // tr
        // iOS, a document.
        "document omitted": document,
        "dokument weggelassen": document,                                                // de
        "document manquant": document,                                                   // fr
        "documento omitido": document,                                                   // es, pt-BR
        "documento não revelado": document,                                              // pt-PT
        "documento omesso": document,                                                    // it
        "document weggelaten": document,                                                 // nl
        "документ отсутствует": document,                                                // ru
        "belge dahil edilmedi": document,                                                // tr
        // iOS, a contact card.
        "contact card omitted": contactCard,
        "kontaktkarte ausgelassen": contactCard,                                         // de
        "fiche contact manquante": contactCard,                                          // fr
        "tarjeta de contacto omitida": contactCard,                                      // es
        "cartão do contato omitido": contactCard, "contacto não revelado": contactCard,  // pt-BR, pt-PT
        "scheda contatto omessa": contactCard,                                           // it
        "visitekaartje weggelaten": contactCard,                                         // nl
        "карточка контакта отсутствует": contactCard,                                    // ru
        "kişi kartı dahil edilmedi": contactCard,                                        // tr
    ]
    /// The words that end an iOS marker ("video omitted", "Bild weggelassen"), in the languages
    /// of `omitted`.
    private static let omissionSuffixes = [
        " omitted", " weggelassen", " ausgelassen", " absente", " omis", " manquant", " manquante",
        " retiré", " omitido", " omitida", " ocultado", " ocultada", " não revelado", " não revelada",
        " omesso", " omessa", " esclusa", " non incluso", " weggelaten", " отсутствует",
        " не добавлен", " dahil edilmedi",
    ]

    /// An iOS marker cut to its noun, as anonymised exports write it ("‎image", "‎Video"):
    /// taken from `omitted` by dropping the omission words, so each noun means what its marker does.
    static let nouns: [String: Kind] = {
        var nouns: [String: Kind] = [:]
        for (marker, kind) in omitted where !marker.hasPrefix("<") {
            guard let suffix = omissionSuffixes.first(where: { marker.hasSuffix($0) }) else { continue }
            let noun = String(marker.dropLast(suffix.count))
            let meaning: Kind
            if case .image = kind { meaning = .image(name: noun) } else { meaning = kind }
            if nouns[noun] == nil { nouns[noun] = meaning }
        }
        return nouns
    }()

    /// Recognises the first line of a message WhatsApp marked with U+200E: a marker `classify`
    /// knows, or a marker's noun alone. (A person who writes "video" is not matched: this is only
    /// asked about WhatsApp's own lines.)
    static func classifyMarked(_ firstLine: String) -> Kind? {
        if let kind = classify(firstLine) { return kind }
        let line = String(firstLine.unicodeScalars.filter { $0 != "\u{200E}" && $0 != "\u{200F}" })
        return nouns[line.lowercased()]
    }

    /// True for a line shaped like an iOS marker we do not know ("video note omitted",
    /// "Plan.pdf • 2 pages document omitted"): it ends with the omission words of a language we read.
    static func isMarker(_ line: String) -> Bool {
        let lowered = line.lowercased()
        return omissionSuffixes.contains { lowered.hasSuffix($0) && lowered.count > $0.count }
    }

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
