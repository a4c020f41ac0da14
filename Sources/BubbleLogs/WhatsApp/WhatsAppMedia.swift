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
/// de "Kontaktkarte weggelassen"). The other languages come from the generated `WhatsAppMarkerTable`
/// (Tools/whatsapp/markers.tsv says where each was collected); a wording confirmed here keeps its
/// meaning. A document that iOS names before its marker ("Plan.pdf • 2 pages document omitted")
/// is a labelled row with that name, in every language of the table.
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
    /// stands for, not its language. The languages confirmed here, with those of the generated
    /// `WhatsAppMarkerTable.omitted` (a wording listed here keeps its meaning here).
    static let omitted: [String: Kind] = {
        let kinds: [String: Kind] = [
            "image": imageOmitted, "video": video, "audio": audio, "sticker": sticker, "gif": gif,
            "contact": contactCard, "document": document, "media": mediaOmitted,
        ]
        var table = confirmedOmitted
        for (text, kind) in WhatsAppMarkerTable.omitted where table[text] == nil {
            if let meaning = kinds[kind] { table[text] = meaning }
        }
        return table
    }()

    private static let confirmedOmitted: [String: Kind] = [
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
        if documentMarkers.contains(where: { lowered.hasSuffix(" " + $0) }) { return true }
        return omissionSuffixes.contains { lowered.hasSuffix($0) && lowered.count > $0.count }
    }

    /// Android's words after an attached file's name, in every language of `WhatsAppMarkerTable`.
    private static let attachedSuffixes = WhatsAppMarkerTable.androidAttached.map { " (\($0))" }.sorted { $0.count > $1.count }

    /// Recognises a marker that makes up a message's whole first line.
    static func classify(_ firstLine: String) -> Kind? {
        guard let (kind, before) = classifyWithText(firstLine), before.isEmpty else { return nil }
        return kind
    }

    /// Recognises a marker that ends a message's first line, and the text WhatsApp wrote before
    /// it: an iOS attachment after its caption or its file's description (`Lunch ‎<attached:
    /// 00000012-PHOTO-….jpg>`, `Resume.pdf • ‎2 pages ‎<attached: …>`), a document's omission
    /// marker after its name (`Resume.pdf • ‎2 pages ‎document omitted`), or a marker alone (the
    /// text is then empty). Markers are read in every language of `WhatsAppMarkerTable`.
    static func classifyWithText(_ firstLine: String) -> (kind: Kind, before: String)? {
        let line = String(firstLine.unicodeScalars.filter { $0 != "\u{200E}" && $0 != "\u{200F}" })
        let lowered = line.lowercased()
        if let kind = omitted[lowered] { return (kind, "") }
        // Cheap guards first: asked of every message's first line.
        if lowered.hasSuffix(">"), let open = lowered.lastIndex(of: "<") {
            let inner = lowered[lowered.index(after: open)..<lowered.index(before: lowered.endIndex)]
            if let colon = inner.range(of: ": "), WhatsAppMarkerTable.iosAttached.contains(String(inner[..<colon.lowerBound])) {
                let offset = lowered.distance(from: lowered.startIndex, to: colon.upperBound)
                let name = String(line[line.index(line.startIndex, offsetBy: offset)...].dropLast())
                let before = String(line[..<line.index(line.startIndex, offsetBy: lowered.distance(from: lowered.startIndex, to: open))])
                return (file(name), trimmedBefore(before))
            }
        }
        if lowered.hasSuffix(")") {
            for suffix in attachedSuffixes where lowered.hasSuffix(suffix) {
                return (file(String(line.dropLast(suffix.count))), "")
            }
        }
        // A document iOS names before its marker: only where WhatsApp marked the marker with U+200E
        // or wrote its "•" between the name and the page count.
        if firstLine.unicodeScalars.contains("\u{200E}") || lowered.contains("•") {
            for marker in documentMarkers where lowered.hasSuffix(" " + marker) {
                let before = trimmedBefore(String(line.dropLast(marker.count)))
                if !before.isEmpty { return (.label("[document: \(before)]"), "") }
            }
        }
        return nil
    }

    /// iOS's document markers in every language of `WhatsAppMarkerTable`.
    private static let documentMarkers = WhatsAppMarkerTable.omitted.filter { $0.kind == "document" }.map(\.text)

    private static func trimmedBefore(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars
        while let last = scalars.last, last == " " || last == "\u{00A0}" { scalars.removeLast() }
        while let first = scalars.first, first == " " { scalars.removeFirst() }
        return String(scalars)
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
