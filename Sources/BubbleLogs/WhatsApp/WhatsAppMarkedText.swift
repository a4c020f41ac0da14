/// What iOS WhatsApp writes in a person's place. A line `Name: ‎text` (a U+200E after the colon)
/// is WhatsApp's own text, not the person's words. It is still that person's message when it is a
/// deleted-message note, a missed call, a poll or a media marker (one we know, one we do not, or
/// one an anonymiser cut to its noun, "‎image"), and any other marked line under the name of
/// someone who writes ordinary messages; it is the chat's notice when it is
/// the encryption or security-code notice, or when "Name" never wrote an ordinary message (the
/// group's name on "Alice added Bob").
///
/// Wordings are matched whole (deleted notes) or at the start (calls, polls, the chat's notices),
/// ignoring case and a final full stop, in the languages whose media markers we read. Where they
/// were confirmed (public projects, read for the strings only):
/// - Missed group calls ("Missed group video call"): real iOS exports kept as test data by
///   starkdmi/whats_json (test/data).
/// - Deleted notes ("This message was deleted", "You deleted this message"), missed calls, the
///   encryption and security-code notices, in each of these languages (pt-BR and pt-PT apart):
///   starkdmi/whats_json (lib/src/patterns.dart), whose lists come from WhatsApp's iOS
///   Localizable.strings and Android strings.xml.
/// - The Spanish "Este mensaje fue eliminado" is whats_json's Android wording. The informal Dutch
///   "Je hebt dit bericht verwijderd" comes from a public locale table for WhatsApp exports found
///   by text search (our search index does not name its repository); whats_json has "U hebt".
/// - Poll headers: `POLL:`, `UMFRAGE:`, `ENCUESTA:` as real iOS exports write them; an option
///   line is `‎OPTION: text (N votes)`. Other languages' headers were not
///   confirmed: their polls still keep their sender, as text.
/// - The older English encryption notices ("Messages to this chat and calls are now secured…",
///   "Messages to this group are now secured…"), written without the mark under the other
///   person's or the group's name: AyazKhuraishi/whatsapp-export-inconsistencies
///   (inconsistencies-messages/system-messages.md), a copy of Linus Willner's research.
/// - The edited marker: English in Dlurak/Whis (src/lib/constants/whatsapp.ts) and real exports;
///   German (`<Diese Nachricht wurde bearbeitet.>`) in real exports; French, Spanish, Portuguese,
///   Italian and Dutch in public WhatsApp parsers found by text search (several agree on each
///   wording); Russian (`<Сообщение изменено>`) and Turkish (`<Bu mesaj düzenlendi>`) the same way,
///   each in two or more independent parsers of exports and their tests.
enum WhatsAppMarkedText {
    enum Meaning: Equatable {
        /// A media marker, anonymised ones included ("‎image"): a picture or a labelled text row,
        /// with the message's further lines as its caption.
        case media(WhatsAppMedia.Kind)
        /// A note in the person's place, drawn as one ("This message was deleted").
        case notice(String)
        /// The person's own content in WhatsApp's frame (a poll), or a marked line of a person's we
        /// do not recognise: drawn as text.
        case message(String)
        /// The chat's own notice: no sender.
        case chatNotice(String)
    }

    /// Reads the lines of a message whose first line opened with U+200E. `senderWritesMessages`
    /// says whether the sender wrote ordinary messages anywhere in the file (always true for an
    /// Android line: Android writes the chat's notices without a name).
    /// `people` holds the names of those who wrote ordinary messages, as `nameCores` makes them.
    static func classify(_ lines: [String], sender: String? = nil, senderWritesMessages: Bool, people: Set<String> = []) -> Meaning {
        let first = withoutMarks(lines.first ?? "")
        let key = normalised(first)
        if let kind = WhatsAppMedia.classifyMarked(first) { return .media(kind) }
        let whole = lines.map(withoutMarks).joined(separator: "\n")
        if lines.count == 1, deleted.contains(key) || WhatsAppMarkerTable.deleted.contains(key) || WhatsAppMedia.isMarker(first) {
            return .notice(whole)
        }
        if lines.count == 1, isNoticeSentence(key, in: WhatsAppMarkerTable.deletedPieces) {
            // Deleted by an admin: a note in the person's place, as their own deleted message is.
            return .notice(whole)
        }
        // The person's words in WhatsApp's frame: only the marks that open lines are WhatsApp's.
        let words = lines.map(withoutLeadingMarks).joined(separator: "\n")
        // What WhatsApp writes itself has words; a text of punctuation alone (`.`) is a person's.
        if !whole.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil }) {
            return .message(words)
        }
        if calls.contains(where: { key.hasPrefix($0) && isWordEnd(key, after: $0) })
            || WhatsAppMarkerTable.calls.contains(where: { key.hasPrefix($0) && isWordEnd(key, after: $0) }) {
            return .notice(whole)
        }
        if polls.contains(where: { first.uppercased().hasPrefix($0) }) { return .message(words) }
        if chatNotices.contains(where: { key.hasPrefix($0) }) || key.contains(" ile aranızdaki güvenlik kodu değişti") {
            return .chatNotice(whole)
        }
        // A group's notice under a member's name, in whatever language: WhatsApp's sentence about
        // that member starts with the name itself (`~ Kaz Gould: ‎~ Kaz Gould was added`,
        // `Jimmy: ‎Jimmy creó el grupo`) or names them further on (`Kaz: ‎Ana hat Kaz hinzugefügt`),
        // or it opens with another member's name (`Ana: ‎Jimmy a changé le sujet…`); else it is one
        // of the notice sentences of `WhatsAppMarkerTable`.
        if lines.count == 1, let sender,
           startsWithName(first, sender) || mentionsName(first, sender) || opensWithName(first, of: people) || isNoticeSentence(key) {
            return .chatNotice(whole)
        }
        // Anything else keeps its sender as text: a mark before a person's own words is not enough
        // to draw them as a note. Under a name that never writes (the group's), it is the chat's.
        return senderWritesMessages ? .message(words) : .chatNotice(whole)
    }

    /// Whether `text` opens with `name` and a space (ignoring the `~` and spaces WhatsApp puts
    /// before a name not in the contacts).
    static func startsWithName(_ text: String, _ name: String) -> Bool {
        func core(_ s: Substring.UnicodeScalarView) -> Substring.UnicodeScalarView {
            s.drop { isNamePadding($0) }
        }
        let bare = core(Substring(name).unicodeScalars)
        let line = core(Substring(text).unicodeScalars)
        guard !bare.isEmpty, line.starts(with: bare) else { return false }
        let after = line.dropFirst(bare.count)
        return after.first == " " || after.first == "\u{00A0}"
    }

    /// `name` as the sentences WhatsApp writes show it: without the `~` and spaces it puts before
    /// a name that is not in the contacts.
    static func nameCore(_ name: String) -> String {
        String(String.UnicodeScalarView(Substring(name).unicodeScalars.drop { isNamePadding($0) }))
    }

    private static func isNamePadding(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "~" || scalar == " " || scalar == "\u{202F}" || scalar == "\u{00A0}"
    }

    /// The longest name, in scalars, that `opensWithName` looks for: it bounds the work per line.
    private static let longestName = 100

    /// Whether `text` opens with one of `names` (name cores) followed by a space: the sentence is
    /// about another member. O(min(length, `longestName`)) set lookups.
    static func opensWithName(_ text: String, of names: Set<String>) -> Bool {
        guard !names.isEmpty else { return false }
        let line = Substring(text).unicodeScalars.drop { isNamePadding($0) || $0 == "\u{200E}" }
        var prefix = String.UnicodeScalarView()
        for (count, scalar) in line.enumerated() {
            if count >= longestName { return false }
            if scalar == " " || scalar == "\u{00A0}", !prefix.isEmpty, names.contains(String(prefix)) { return true }
            prefix.append(scalar)
        }
        return false
    }

    /// Whether `text` names `name` after its start, as a word of its own: letters or digits
    /// beside it only where the two sides are written without spaces between words (`AliceがBobを
    /// 追加しました`). Names of one scalar are not looked for.
    static func mentionsName(_ text: String, _ name: String) -> Bool {
        let bare = Array(nameCore(name).unicodeScalars)
        guard bare.count >= 2, let head = bare.first, let tail = bare.last else { return false }
        let line = Array(text.unicodeScalars)
        guard line.count > bare.count else { return false }
        var start = 1
        while start + bare.count <= line.count {
            if line[start] == head, line[start..<(start + bare.count)].elementsEqual(bare) {
                let end = start + bare.count
                if isWordBoundary(line[start - 1], head), end == line.count || isWordBoundary(line[end], tail) { return true }
            }
            start += 1
        }
        return false
    }

    /// Whether `neighbour` ends a word that `edge` (a scalar of the name beside it) belongs to.
    private static func isWordBoundary(_ neighbour: Unicode.Scalar, _ edge: Unicode.Scalar) -> Bool {
        let properties = neighbour.properties
        if !(properties.isAlphabetic || properties.numericType != nil) { return true }
        return isWrittenWithoutSpaces(neighbour) || isWrittenWithoutSpaces(edge)
            || (neighbour.value >= 0x2E80) != (edge.value >= 0x2E80)
    }

    /// Scripts that put no space between words (and Korean, whose particles join a name).
    private static func isWrittenWithoutSpaces(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF,  // Thai, Lao, Myanmar, Khmer
             0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,  // kana, Han
             0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF66...0xFF9F:  // Hangul, compatibility Han, halfwidth kana
            return true
        default:
            return false
        }
    }

    /// Whether the lowercased `key` is one of WhatsApp's notice sentences (its pieces in order,
    /// a name or subject in each placeholder's place).
    static func isNoticeSentence(_ key: String, in table: [[String]] = WhatsAppMarkerTable.noticePieces) -> Bool {
        table.contains { pieces in
            if pieces.count == 1 { return key == pieces[0] }
            guard let first = pieces.first, let last = pieces.last, key.hasPrefix(first), key.hasSuffix(last),
                  key.count > first.count + last.count else { return false }
            var rest = Substring(key.dropFirst(first.count).dropLast(last.count))
            for piece in pieces.dropFirst().dropLast() {
                guard let found = rest.range(of: piece), found.lowerBound > rest.startIndex else { return false }
                rest = rest[found.upperBound...]
            }
            return !rest.isEmpty
        }
    }

    private static func withoutLeadingMarks(_ line: String) -> String {
        guard line.unicodeScalars.first == "\u{200E}" else { return line }
        return String(String.UnicodeScalarView(line.unicodeScalars.drop { $0 == "\u{200E}" }))
    }

    /// True for the chat's own encryption or security-code notice written without the U+200E
    /// (exports from before WhatsApp marked its lines write it as a message of the other person,
    /// or of the group). Asked of every line, so it compares bytes, and only when the first byte
    /// could start one of them.
    static func isUnmarkedChatNotice(_ text: Substring) -> Bool {
        guard let first = text.utf8.first, chatNoticeFirstBytes.contains(first) else { return false }
        return chatNoticeOpenings.contains { text.utf8.starts(with: $0.utf8) }
    }

    /// `chatNotices` as WhatsApp writes them, with a capital first letter.
    private static let chatNoticeOpenings: [String] = chatNotices.map { $0.prefix(1).uppercased() + $0.dropFirst() }
    private static let chatNoticeFirstBytes = Set(chatNoticeOpenings.compactMap(\.utf8.first))

    /// `text` without its trailing edited marker, or nil when it has none. The marker follows the
    /// text after a space or a U+200E: "Lunch at 1 ‎<This message was edited>".
    static func removingEditedMarker(_ text: String) -> String? {
        // Asked of every message: most do not end with ">" and are passed over without a copy.
        guard text.utf8.last(where: { $0 != 0x20 }) == UInt8(ascii: ">") || text.hasSuffix("\u{200E}") else { return nil }
        var scalars = Array(text.unicodeScalars)
        while let last = scalars.last, last == " " || last == "\u{200E}" { scalars.removeLast() }
        guard scalars.last == ">", let open = scalars.lastIndex(of: "<") else { return nil }
        let inner = String(String.UnicodeScalarView(scalars[(open + 1)..<(scalars.count - 1)]))
        let key = normalised(inner)
        guard editedMarkers.contains(key) || WhatsAppMarkerTable.edited.contains(key) else { return nil }
        var end = open
        while end > 0, scalars[end - 1] == " " || scalars[end - 1] == "\u{200E}" { end -= 1 }
        // A message that is nothing but the marker is left as it is, rather than emptied.
        guard end > 0 else { return nil }
        return String(String.UnicodeScalarView(scalars[..<end]))
    }

    /// The line without WhatsApp's U+200E marks (it puts them before each of its own phrases).
    static func withoutMarks(_ line: String) -> String {
        guard line.unicodeScalars.contains("\u{200E}") else { return line }
        return String(String.UnicodeScalarView(line.unicodeScalars.filter { $0 != "\u{200E}" }))
    }

    /// Lowercased, without a final full stop, for comparing with the tables.
    private static func normalised(_ text: String) -> String {
        var lowered = text.lowercased()
        while lowered.hasSuffix(".") || lowered.hasSuffix(" ") { lowered.removeLast() }
        return lowered
    }

    private static func isWordEnd(_ text: String, after prefix: String) -> Bool {
        guard let next = text.dropFirst(prefix.count).unicodeScalars.first else { return true }
        return next == "," || next == "." || next == " "
    }

    private static let deleted: Set<String> = [
        "this message was deleted", "you deleted this message",                         // en
        "diese nachricht wurde gelöscht", "du hast diese nachricht gelöscht",           // de
        "ce message a été supprimé", "vous avez supprimé ce message",                   // fr
        "se eliminó este mensaje", "eliminaste este mensaje", "este mensaje fue eliminado", // es
        "mensagem apagada", "você apagou esta mensagem",                                // pt-BR
        "esta mensagem foi apagada", "apagou esta mensagem",                            // pt-PT
        "questo messaggio è stato eliminato", "hai eliminato questo messaggio",         // it
        "dit bericht is verwijderd", "u hebt dit bericht verwijderd", "je hebt dit bericht verwijderd", // nl
        "данное сообщение удалено", "вы удалили данное сообщение", "вы удалили это сообщение", // ru
        "bu mesaj silindi", "bu mesajı sildiniz",                                       // tr
    ]

    private static let calls: [String] = [
        "missed voice call", "missed video call", "missed group voice call", "missed group video call", // en
        "verpasster sprachanruf", "verpasster videoanruf",                              // de
        "appel vocal manqué", "appel vidéo manqué",                                     // fr
        "llamada perdida", "llamada de voz perdida", "videollamada perdida",            // es
        "chamada de voz perdida", "chamada de vídeo perdida", "videochamada perdida",   // pt
        "chiamata vocale persa", "videochiamata persa",                                 // it
        "gemist spraakgesprek", "gemist videogesprek", "gemiste spraakoproep", "gemiste video-oproep", // nl
        "пропущенный аудиозвонок", "пропущенный видеозвонок",                           // ru
        "cevapsız sesli arama", "cevapsız görüntülü arama",                             // tr
    ]

    private static let polls = ["POLL:", "UMFRAGE:", "ENCUESTA:"]

    /// The openings of the notices that belong to the chat even when a person's name is before
    /// them (in a one-to-one chat iOS writes them under the other person's name).
    private static let chatNotices: [String] = [
        "messages and calls are end-to-end encrypted", "your security code with ",     // en
        "messages to this chat and calls are now secured with end-to-end encryption",  // en, before 2021
        "messages to this group are now secured with end-to-end encryption",
        "nachrichten und anrufe sind ende-zu-ende-verschlüsselt", "deine sicherheitsnummer für ", // de
        "les messages et les appels sont chiffrés de bout en bout", "votre code de sécurité avec ", // fr
        "los mensajes y las llamadas están cifrados de extremo a extremo", "cambió tu código de seguridad con ", // es
        "as mensagens e as chamadas são protegidas com a criptografia de ponta a ponta", "seu código de segurança com ", // pt-BR
        "as mensagens e chamadas são encriptadas ponto a ponto", "o seu código de segurança partilhado com ", // pt-PT
        "i messaggi e le chiamate sono crittografati end-to-end", "il tuo codice di sicurezza con ", // it
        "berichten en gesprekken worden end-to-end versleuteld", "uw beveiligingscode voor ", // nl
        "сообщения и звонки защищены сквозным шифрованием", "ваш код безопасности с контактом ", // ru
        "mesajlar ve aramalar uçtan uca şifrelidir",                                    // tr
    ]

    private static let editedMarkers: Set<String> = [
        "this message was edited", "diese nachricht wurde bearbeitet", "ce message a été modifié",
        "se editó este mensaje", "esta mensagem foi editada", "questo messaggio è stato modificato",
        "dit bericht is bewerkt", "сообщение изменено", "bu mesaj düzenlendi",
    ]
}
