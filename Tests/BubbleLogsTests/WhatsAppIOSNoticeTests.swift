import BubbleLayout
import BubbleSamples
import BubbleTestSupport
import BubbleText
@testable import BubbleLogs
import Foundation
import Testing

/// iOS writes some lines in a person's place, marked with U+200E after "Name: ". They stay that
/// person's messages; only the chat's own notices lose their sender.
@Suite struct WhatsAppIOSNoticeTests {
    private func style(_ record: any LogRecord) -> MessageTextStyle? { (record as? LogTextMessage)?.textStyle }

    @Test func englishNoticesKeepTheirSenderAndReadAsNotices() throws {
        let result = try readAll(corpus("exports/whatsapp/ios-en_US-notices.txt"))
        #expect(result.diagnostics.isEmpty && result.counts.reconciles)
        #expect(result.kinds == ["system", "system", "system", "text", "text", "text", "text", "text", "text", "text", "text", "system", "image", "text"])
        #expect(result.senders == [nil, nil, nil, "Nora", "Theo", "Nora", "Theo", "Nora", "Theo", "Nora", "Theo", nil, "Nora", "Nora"])
        // The group's own notices (its name before them) and the encryption notice stay system rows.
        #expect(result.texts[0].hasPrefix("Messages and calls are end-to-end encrypted."))
        #expect(result.texts[2] == "Nora added Theo")
        #expect(result.texts[4] == "This message was deleted." && style(result.records[4]) == .notice)
        #expect(result.texts[5] == "You deleted this message." && style(result.records[5]) == .notice)
        // The edited marker sets the flag and leaves the text.
        #expect(result.texts[6] == "Meet on Friday at 6" && result.records[6].isEdited && style(result.records[6]) == .body)
        // A poll is one message with its options, in the person's words, without WhatsApp's marks.
        #expect(result.texts[7] == "POLL:\nWhich day works?\nOPTION: Friday (2 votes)\nOPTION: Saturday (1 vote)")
        #expect(style(result.records[7]) == .body)
        #expect(result.texts[8] == "Missed voice call, Tap to call back" && style(result.records[8]) == .notice)
        // A document named before its marker is a labelled row of its sender; a marker we have
        // no row kind for keeps its sender as a notice.
        #expect(result.texts[9] == "[document: Dune.pdf • 412 pages]" && style(result.records[9]) == .body)
        #expect(result.texts[10] == "video note omitted" && style(result.records[10]) == .notice)
        // WhatsApp's sentence about the member whose name heads it is the group's notice, though
        // that member chats too.
        #expect(result.texts[11] == "Theo pinned a message")
        #expect(result.texts.allSatisfy { !$0.unicodeScalars.contains("\u{200E}") })
    }

    @Test func germanAndSpanishNoticesPollsAndEditedMarkers() throws {
        let german = try readAll(corpus("exports/whatsapp/ios-de_DE-notices.txt"))
        #expect(german.diagnostics.isEmpty)
        #expect(german.senders == [nil, "Jonas", "Mia", "Jonas", "Mia", "Jonas", "Mia"])
        #expect(german.records[2...3].allSatisfy { style($0) == .notice })
        #expect(german.texts[4] == "Treffen um 19 Uhr" && german.records[4].isEdited)
        #expect(german.texts[5] == "UMFRAGE:\nWelches Buch als Nächstes?\nOPTION: Momo (3 Stimmen)\nOPTION: Der Vorleser (0 Stimmen)")
        #expect(german.texts[6] == "Verpasster Sprachanruf" && style(german.records[6]) == .notice)

        let spanish = try readAll(corpus("exports/whatsapp/ios-es_ES-notices.txt"))
        #expect(spanish.senders == ["Lucía", "Pablo", "Lucía", "Pablo"])
        #expect(spanish.texts[1].hasPrefix("ENCUESTA:\n¿Dónde cenamos?\nOPTION: Tapas"))
        #expect(spanish.texts[2] == "Se eliminó este mensaje." && style(spanish.records[2]) == .notice)
        #expect(spanish.texts[3] == "Mejor a las 9" && spanish.records[3].isEdited)
    }

    @Test func anonymisedMarkersAreMediaOfTheirSender() throws {
        let result = try readAll(corpus("exports/whatsapp/ios-anonymised.txt"))
        #expect(result.kinds == ["text", "image", "text", "text", "text", "text"])
        #expect(result.senders == ["frienda", "friendc", "friendc", "frienda", "friendc", "frienda"])
        #expect(result.texts[1...4] == ["image", "[video]", "[sticker]", "[voice message]"])
    }

    @Test func everyDeletedWordingInEveryLanguageKeepsItsSender() {
        let wordings = [
            "This message was deleted.", "You deleted this message.", "Diese Nachricht wurde gelöscht.",
            "Du hast diese Nachricht gelöscht.", "Ce message a été supprimé.", "Vous avez supprimé ce message.",
            "Se eliminó este mensaje.", "Eliminaste este mensaje.", "Mensagem apagada", "Você apagou esta mensagem",
            "Esta mensagem foi apagada", "Apagou esta mensagem", "Questo messaggio è stato eliminato",
            "Hai eliminato questo messaggio", "Dit bericht is verwijderd.", "U hebt dit bericht verwijderd.",
            "Данное сообщение удалено.", "Вы удалили данное сообщение.", "Bu mesaj silindi.", "Bu mesajı sildiniz.",
        ]
        for wording in wordings {
            // Even from a sender who never wrote an ordinary message.
            #expect(WhatsAppMarkedText.classify(["\u{200E}" + wording], senderWritesMessages: false) == .notice(wording), "\(wording)")
        }
    }

    @Test func theChatsOwnNoticesLoseTheNameBeforeThem() {
        let encryption = "Messages and calls are end-to-end encrypted. No one outside of this chat, not even WhatsApp, can read or listen to them."
        // In a one-to-one chat iOS writes it under the other person's name.
        #expect(WhatsAppMarkedText.classify(["\u{200E}" + encryption], senderWritesMessages: true) == .chatNotice(encryption))
        #expect(WhatsAppMarkedText.classify(["\u{200E}Your security code with Ana changed. Tap to learn more."], senderWritesMessages: true)
            == .chatNotice("Your security code with Ana changed. Tap to learn more."))
        // An unknown sentence under a name that never writes is the group's; under a person's name it is theirs.
        #expect(WhatsAppMarkedText.classify(["\u{200E}Ana changed the group description"], senderWritesMessages: false)
            == .chatNotice("Ana changed the group description"))
        #expect(WhatsAppMarkedText.classify(["\u{200E}Ana changed the group description"], senderWritesMessages: true)
            == .message("Ana changed the group description"))
    }

    @Test func olderUnmarkedEncryptionNoticesAreTheChats() throws {
        let result = try readAll(corpus("exports/whatsapp/ios-en_GB-2019-group.txt"))
        #expect(result.kinds == ["system", "system", "text", "text"])
        #expect(result.senders == [nil, nil, "Jane Doe", "Joe Bloggs"])
        #expect(result.texts[0] == "Messages to this group are now secured with end-to-end encryption.")
        // In a one-to-one chat the older notice is written under the other person's name.
        #expect(WhatsAppMarkedText.isUnmarkedChatNotice("Messages to this chat and calls are now secured with end-to-end encryption."))
        #expect(!WhatsAppMarkedText.isUnmarkedChatNotice("Messages to this chat are fun"))
        #expect(WhatsAppLine.parseHeader("[1/1/19, 12:00:00] Jane Doe: Messages to this chat and calls are now secured with end-to-end encryption.")?.ordinarySender == nil)
        #expect(WhatsAppLine.parseHeader("[1/1/19, 12:00:00] Jane Doe: hi")?.ordinarySender == "Jane Doe")
    }

    @Test func editedMarkersAreRemovedInEveryConfirmedLanguage() {
        let cases: [(String, String?)] = [
            ("Lunch at 1 \u{200E}<This message was edited>", "Lunch at 1"),
            ("Lunch at 1 <This message was edited>", "Lunch at 1"),
            ("Mittag \u{200E}<Diese Nachricht wurde bearbeitet.>", "Mittag"),
            ("Déjeuner <Ce message a été modifié>", "Déjeuner"),
            ("Comida <Se editó este mensaje.>", "Comida"),
            ("Almoço <Esta mensagem foi editada>", "Almoço"),
            ("Pranzo <Questo messaggio è stato modificato>", "Pranzo"),
            ("Lunch <Dit bericht is bewerkt>", "Lunch"),
            ("Обед \u{200E}<Сообщение изменено>", "Обед"),
            ("Öğle yemeği \u{200E}<Bu mesaj düzenlendi>", "Öğle yemeği"),
            // Not a marker: a person's own angle brackets, or the marker alone.
            ("x <y>", nil),
            ("<This message was edited>", nil),
        ]
        for (text, expected) in cases {
            #expect(WhatsAppMarkedText.removingEditedMarker(text) == expected, "\(text)")
        }
    }

    /// Each language's marker in a file of that locale's shape: the flag is set, the text is the
    /// person's own, and the messages around it are untouched.
    @Test func editedMarkersInRealFilesOfEachLocale() throws {
        let cases: [(file: String, sender: String, text: String)] = [
            ("ios-fr_FR-edited.txt", "Hugo", "Plutôt 20 h"),
            ("ios-pt_BR-edited.txt", "Caio", "Chego às 10"),
            ("ios-it_IT-edited.txt", "Luca", "Arrivo alle nove"),
            ("ios-nl_NL-edited.txt", "Daan", "Ik ben er om acht uur"),
            ("ios-ru_RU-edited.txt", "Дмитрий", "Буду в восемь"),
            ("ios-tr_TR-edited.txt", "Emre", "Sekizde geliyorum"),
        ]
        for (file, sender, text) in cases {
            let result = try readAll(corpus("exports/whatsapp/" + file))
            #expect(result.diagnostics.isEmpty, "\(file)")
            #expect(result.kinds == ["text", "text", "text"], "\(file)")
            #expect(result.senders[1] == sender && result.texts[1] == text, "\(file): \(result.texts)")
            #expect(result.records.map(\.isEdited) == [false, true, false], "\(file)")
        }
    }

    /// iOS in locales whose time separator is a dot: `[12.03.2022, 14.08.18]`, and Finnish with
    /// `klo` before the time. Each line is a message at its own time, not a continuation.
    @Test func dottedTimesAreRead() throws {
        let danish = try readAll(corpus("exports/whatsapp/ios-da_DK-dotted-times.txt"))
        #expect(danish.diagnostics.isEmpty)
        #expect(danish.senders == ["Freja", "Mads", "Freja"])
        #expect(danish.texts == ["Hej med dig", "Hej! Ses vi i aften?", "Godmorgen"])
        #expect(danish.records.map(\.date) == [utcDate(2022, 3, 12, 14, 8, 18), utcDate(2022, 3, 12, 14, 9, 2),
                                               utcDate(2022, 3, 13, 9, 0, 0)])
        let finnish = try readAll(corpus("exports/whatsapp/ios-fi_FI-dotted-times.txt"))
        #expect(finnish.diagnostics.isEmpty)
        #expect(finnish.senders == ["Matias Virtanen", "Aino", "Matias Virtanen"])
        #expect(finnish.records.map(\.date) == [utcDate(2022, 3, 12, 14, 8, 18), utcDate(2022, 3, 12, 14, 9, 2),
                                                utcDate(2022, 3, 13, 9, 0, 0)])
        // A dot before the seconds needs a dot before the minutes: mixed separators are no time.
        #expect(WhatsAppLine.parseHeader("[12.03.2022, 14.08:18] Freja: x") == nil)
        #expect(WhatsAppLine.parseHeader("[12.03.2022, 14:08.18] Freja: x") == nil)
        #expect(WhatsAppLine.parseHeader("[12.3.2022 klo 14.08.18] Aino: x")?.minute == 8)
    }

    @Test func aPersonWritingAMarkersWordsIsNotMatched() {
        // Only WhatsApp's own (marked) lines are read as markers or notices.
        #expect(WhatsAppMedia.classify("video") == nil)
        #expect(WhatsAppMedia.classifyMarked("\u{200E}video") == .label("[video]"))
        #expect(WhatsAppMedia.classifyMarked("\u{200E}Bild") == .image(name: "bild"))
    }

    /// A group whose name holds ": " writes its notices under that whole name, the U+200E after
    /// the last colon: they are the chat's notices, not a person "Trip" saying "Planning: …".
    @Test func aGroupNameWithAColonKeepsItsNoticesTheChats() throws {
        let result = try readAll(corpus("exports/whatsapp/ios-group-name-colon.txt"), options: LogReadOptions(me: "Ben", timeZone: utc))
        #expect(result.diagnostics.isEmpty && result.counts.reconciles)
        #expect(result.kinds == ["system", "system", "text", "text"])
        #expect(result.texts == ["Ana created this group", "Ana added Ben", "Hi all", "Hello"])
        #expect(result.senders == [nil, nil, "Ana", "Ben"])
        // An ordinary message keeps its first colon's split.
        #expect(WhatsAppLine.parseHeader("[13/01/2024, 20:16:03] Ana: note: this")?.senderAndText.sender == "Ana")
        // A later marked colon too far for a name leaves the first split as it was.
        let long = "[13/01/2024, 20:16:03] Ana: " + String(repeating: "word ", count: 20) + "quoted: \u{200E}x"
        #expect(WhatsAppLine.parseHeader(long)?.senderAndText.sender == "Ana")
    }

    @Test func midnightInATwelveHourFileIsADate() throws {
        let result = try readAll(corpus("exports/whatsapp/android-es_US-midnight.txt"))
        #expect(result.diagnostics.isEmpty)
        #expect(result.kinds == ["text", "system", "text", "text"])
        #expect(result.texts[1] == "Carla creó el grupo \"Viaje 🏖️\"")
        #expect(result.records[1].date == utcDate(2020, 6, 20, 0, 8))
        #expect(result.records[3].date == utcDate(2020, 6, 20, 12, 30))
        #expect(WhatsAppLine.parseHeader("06/20/2020, 00:08 a. m. - Carla: hola")?.hour24 == 0)
        // 13 with a day period is no time: the line is a header whose record is rejected.
        #expect(WhatsAppLine.parseHeader("06/20/2020, 13:08 p. m. - Carla: hola")?.isPossibleTime == false)
    }

    @Test func ambiguousDatesAreReadInTheOrderThatKeepsThemChronological() throws {
        let path = corpus("exports/whatsapp/android-ambiguous-order.txt")
        let reader = try LogSource.open(path: path, options: LogReadOptions(timeZone: utc))
        let records = reader.compactMap { entry -> (any LogRecord)? in
            if case .message(let record, _) = entry { return record }
            return nil
        }
        #expect(records.map(\.date) == [utcDate(2024, 3, 1, 10, 0), utcDate(2024, 3, 5, 9, 30), utcDate(2024, 3, 9, 18, 45), utcDate(2024, 4, 2, 8, 15)])
        #expect(reader.notes == ["\(path): every date could be read day or month first; read month first (mdy): the other order would put dates out of order 1 time. --date-order dmy or mdy overrides this."])

        let forced = try readAll(path, options: LogReadOptions(timeZone: utc, dateOrder: .dmy))
        #expect(forced.records.map(\.date) == [utcDate(2024, 1, 3, 10, 0), utcDate(2024, 5, 3, 9, 30), utcDate(2024, 9, 3, 18, 45), utcDate(2024, 2, 4, 8, 15)])
        #expect(try LogSource.open(path: path, options: LogReadOptions(timeZone: utc, dateOrder: .mdy)).notes.isEmpty)
    }

    @Test func noticesSurviveAConvertAndReadBack() throws {
        let records = try readAll(corpus("exports/whatsapp/ios-en_US-notices.txt")).records
        let back = try roundTrip(records)
        #expect(back.count == records.count)
        for (original, reread) in zip(records, back) { #expect(reread.isSameRecord(as: original), "\(original.id)") }
    }

    @Test func aFileThatProvesItsOrderGetsNoNote() throws {
        #expect(try LogSource.open(path: corpus("exports/whatsapp/android-es_US-midnight.txt"), options: LogReadOptions(timeZone: utc)).notes.isEmpty)
    }

    @Test func anOverrideThatDoesNotFitTheFileIsAWholeFileError() {
        let path = corpus("exports/whatsapp/android-ambiguous-order.txt")
        #expect(openError(path, options: LogReadOptions(timeZone: utc, dateOrder: .ymd))?.description
            == "\(path):1: --date-order ymd does not fit this file: its dates end with the year (use dmy or mdy)")
    }

    @Test func anOverrideReadsAContradictoryFileAndRejectsWhatDoesNotFit() throws {
        let path = corpus("exports/whatsapp/mixed-order.txt")
        let result = try readAll(path, options: LogReadOptions(timeZone: utc, dateOrder: .dmy))
        #expect(result.counts.reconciles && result.counts.rejected == 1)
        #expect(result.diagnosticLines.first?.contains("impossible date") == true)
    }

    /// Invariant over random files: whichever order keeps a file of random ascending dates in
    /// order is the order it was written in, when the other order would break it.
    @Test func theChronologicalOrderIsFoundInRandomFiles() throws {
        var generator = SeededGenerator(seed: 0x5EED_0010)
        for trial in 0..<200 {
            let monthFirst = trial % 2 == 0
            var day = Int(generator.next() % 28) + 1, month = Int(generator.next() % 6) + 1
            var evidence = WhatsAppDateOrder.Evidence()
            for line in 1...12 {
                let (a, b) = monthFirst ? (month, day) : (day, month)
                let text = String(format: "%02d/%02d/24, 10:%02d - P: hi", a, b, line)
                evidence.add(try #require(WhatsAppLine.parseHeader(text)), line: line, text: text)
                day += Int(generator.next() % 3)
                if day > 28 { day -= 27; month += 1 }
            }
            let decision = try WhatsAppDateOrder.decide(evidence, override: nil, file: "f")
            let written = monthFirst ? evidence.backwardMonthFirst : evidence.backwardDayFirst
            #expect(written == 0)
            let other = monthFirst ? evidence.backwardDayFirst : evidence.backwardMonthFirst
            if other > 0, evidence.sawDayFirst == nil, evidence.sawMonthFirst == nil {
                #expect(decision.order == (monthFirst ? .monthFirst : .dayFirst), "trial \(trial)")
            }
            if evidence.sawDayFirst != nil || evidence.sawMonthFirst != nil {
                #expect(decision.order == (monthFirst ? .monthFirst : .dayFirst) && decision.note == nil, "trial \(trial)")
            }
        }
    }
}
