import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

@Suite struct WhatsAppImportTests {
    @Test func androidUSTwelveHourWithNarrowNoBreakSpace() throws {
        let result = try readAll(corpus("exports/whatsapp/android-en_US-12h.txt"))
        #expect(result.format == .whatsapp)
        #expect(result.diagnostics.isEmpty)
        #expect(result.kinds == ["system", "system", "system", "text", "text", "image", "image", "text", "text", "system"])
        #expect(result.senders == [nil, nil, nil, "Jordan", "Casey", "Jordan", "Casey", "Casey", "Jordan", nil])
        #expect(result.texts[1] == "Jordan created group \"Road trip 🚗\"")
        #expect(result.texts[4] == "Me! I'll pick you up at 7\nBring snacks 🍿\nand the aux cable")
        #expect(result.texts[7] == "[voice message: PTT-20240513-WA0002.opus]")
        #expect(result.texts[8] == "Lunch at the diner 🍔")
        #expect(result.records[8].isEdited)
        #expect(result.texts[9] == "Jordan changed the subject from \"Road trip 🚗\" to \"Road trip: day 2\"")
        let photo = try #require(result.records[5] as? LogImageMessage)
        #expect(photo.imageName == "IMG-20240513-WA0001.jpg" && photo.caption == "Ready 😎" && photo.pixelWidth == nil)
        #expect((result.records[6] as? LogImageMessage)?.imageName == "media omitted")
        // Month first: 5/13/24 is 13 May. 9:58 PM is 21:58.
        #expect(result.records[0].date == utcDate(2024, 5, 12, 21, 58))
        #expect(result.records[5].date == utcDate(2024, 5, 13, 7, 5))
        #expect(result.records[9].date == utcDate(2024, 5, 13, 12, 45))
        #expect(result.positions.map { $0.line ?? 0 } == [1, 2, 3, 4, 5, 8, 10, 11, 12, 13])
        #expect(result.counts.recordsIn == 10 && result.counts.reconciles)
    }

    @Test func germanDotsDayFirst() throws {
        let result = try readAll(corpus("exports/whatsapp/android-de_DE.txt"))
        #expect(result.kinds == ["system", "text", "text", "image", "image", "system"])
        #expect(result.senders == [nil, "Oma", "Max", "Max", "Oma", nil])
        #expect(result.texts[2] == "Danke Oma ❤️\nFrohe Weihnachten euch allen")
        #expect(result.texts[4] == "IMG-20231225-WA0007.jpg")
        #expect(result.texts[5] == "Max hat die Gruppe verlassen")
        #expect(result.records[4].date == utcDate(2023, 12, 25, 9, 30))
    }

    @Test func britishFourDigitYearsAndFileAttachments() throws {
        let result = try readAll(corpus("exports/whatsapp/android-en_GB.txt"), options: LogReadOptions(me: "Tom", timeZone: utc))
        #expect(result.kinds == ["text", "text", "text", "text"])
        #expect(result.texts[2] == "Team name ideas:\n1. Quizteama Aguilera\n2. Les Quizerables")
        #expect(result.texts[3] == "[file: document.pdf]\nRules attached")
        #expect(result.records.map(\.direction) == [.incoming, .outgoing, .incoming, .outgoing])
        #expect(result.records[3].date == utcDate(2024, 1, 14, 8, 0))
    }

    @Test func frenchIOSWithBracketsAndNoComma() throws {
        let result = try readAll(corpus("exports/whatsapp/ios-fr_FR.txt"))
        #expect(result.kinds == ["system", "text", "image", "text", "image"])
        #expect(result.texts[0] == "Les messages et les appels sont chiffrés de bout en bout.")
        #expect(result.senders == [nil, "Camille", "Hugo", "Hugo", "Camille"])
        #expect(result.texts[4] == "00000012-PHOTO-2024-01-01-00-02-00.jpg")
        #expect(result.records[0].date == utcDate(2023, 12, 31, 23, 59, 30))
        #expect(result.records[2].date == utcDate(2024, 1, 1, 0, 0, 5))
    }

    @Test func usIOSWithLeadingMarksAndAudio() throws {
        let result = try readAll(corpus("exports/whatsapp/ios-en_US.txt"))
        #expect(result.kinds == ["system", "text", "image", "text", "text"])
        #expect(result.texts[2] == "image omitted")
        #expect(result.texts[3] == "[voice message: 00000003-AUDIO-2024-03-14-15-16-00.opus]")
        #expect(result.texts[4] == "3.14159265358979323846…\n…and so on")
        #expect(result.records[1].date == utcDate(2024, 3, 14, 15, 14, 16))
    }

    @Test func localisedAndroidMediaMarkersBecomeImageRows() throws {
        // One export per language; the marker is each file's second message.
        let fixtures: [(file: String, sender: String, date: Date)] = [
            ("android-es_AR", "Diego", utcDate(2024, 4, 9, 14, 43)),
            ("android-pt_BR", "Caio", utcDate(2024, 1, 13, 8, 6)),
            ("android-it_IT", "Marco", utcDate(2023, 6, 18, 21, 16)),
            ("android-nl_NL", "Sanne", utcDate(2024, 2, 14, 19, 31)),
            ("android-ru_RU", "Иван", utcDate(2024, 7, 28, 14, 6)),
            ("android-tr_TR", "Ayşe", utcDate(2024, 6, 10, 21, 34)),
        ]
        for fixture in fixtures {
            let result = try readAll(corpus("exports/whatsapp/\(fixture.file).txt"))
            #expect(result.format == .whatsapp && result.diagnostics.isEmpty, "\(fixture.file)")
            let index = fixture.file == "android-tr_TR" ? 0 : 1
            let image = try #require(result.records[index] as? LogImageMessage, "\(fixture.file)")
            #expect(image.imageName == "media omitted" && image.caption == nil && image.pixelWidth == nil, "\(fixture.file)")
            #expect(image.senderName == fixture.sender && image.date == fixture.date, "\(fixture.file)")
            #expect(result.kinds.filter { $0 == "image" }.count == (fixture.file == "android-es_AR" ? 2 : 1), "\(fixture.file)")
            #expect(result.counts.reconciles, "\(fixture.file)")
        }
        // Android puts a caption on the line after the marker.
        let spanish = try readAll(corpus("exports/whatsapp/android-es_AR.txt"))
        #expect((spanish.records[2] as? LogImageMessage)?.caption == "Esta es la del lago")
        #expect(spanish.texts[3] == "¡Qué lindas! 😍")
    }

    @Test func portugueseIOSImageMarker() throws {
        let result = try readAll(corpus("exports/whatsapp/ios-pt_BR.txt"))
        #expect(result.kinds == ["text", "image"])
        #expect(result.senders == ["Bruna", "Caio"])
        #expect(result.texts[1] == "image omitted")
        #expect(result.records[1].date == utcDate(2024, 1, 13, 9, 5, 44))
    }

    @Test func everyConfirmedMarkerIsRecognisedAsWritten() {
        // As the exports write them: Android in angle brackets, iOS after a U+200E mark.
        let media = [
            "<Media omitted>", "<Medien ausgeschlossen>", "<Medien weggelassen>", "<Médias omis>", "<Fichier omis>",
            "<Multimedia omitido>", "<Archivo omitido>", "<Mídia oculta>", "<Mídia omitida>", "<Ficheiro não revelado>",
            "<Media omessi>", "<Media omesso>", "<Media weggelaten>", "<Без медиафайлов>", "<Файл пропущен>",
            "<Medya dahil edilmedi>", "<Medya atlanmış>",
        ]
        let images = [
            "image omitted", "Bild weggelassen", "image absente", "imagen omitida", "imagem ocultada", "imagem não revelada",
            "immagine omessa", "afbeelding weggelaten", "изображение отсутствует", "görüntü dahil edilmedi",
        ]
        func name(_ kind: WhatsAppMedia.Kind?) -> String? {
            if case .image(let name)? = kind { return name }
            return nil
        }
        for marker in media { #expect(name(WhatsAppMedia.classify(marker)) == "media omitted", "\(marker)") }
        for marker in images { #expect(name(WhatsAppMedia.classify("\u{200E}" + marker)) == "image omitted", "\(marker)") }
        // A marker inside other text, or a plausible but unconfirmed wording, stays text.
        for text in ["mira <Multimedia omitido> jaja", "<Multimedia omitido> x", "<Medios omitidos>", "<Mídia>", "imagen"] {
            #expect(WhatsAppMedia.classify(text) == nil, "\(text)")
        }
    }

    @Test func localisedIOSMediaMarkersBecomeLabelledRowsNotText() throws {
        // One iOS export per language: a greeting, then video, audio, sticker, GIF, document and
        // contact-card markers (each after U+200E, as iOS writes them), a picture, and last a real
        // message that contains a marker's words and must stay as written.
        let fixtures: [(file: String, senders: (String, String), first: Date, last: Date)] = [
            ("ios-de_DE-media", ("Lena", "Jonas"), utcDate(2024, 3, 24, 18, 0), utcDate(2024, 3, 24, 18, 8, 40)),
            ("ios-fr_FR-media", ("Chloé", "Théo"), utcDate(2024, 7, 14, 12, 0), utcDate(2024, 7, 14, 12, 8, 40)),
            ("ios-es_ES-media", ("Lucía", "Pablo"), utcDate(2024, 4, 19, 9, 0), utcDate(2024, 4, 19, 9, 8, 40)),
            ("ios-pt_BR-media", ("Bruna", "Caio"), utcDate(2024, 1, 13, 9, 0), utcDate(2024, 1, 13, 9, 8, 40)),
            ("ios-pt_PT-media", ("Inês", "Tiago"), utcDate(2024, 4, 25, 10, 0), utcDate(2024, 4, 25, 10, 8, 40)),
            ("ios-it_IT-media", ("Giulia", "Luca"), utcDate(2023, 6, 18, 21, 0), utcDate(2023, 6, 18, 21, 8, 40)),
            ("ios-nl_NL-media", ("Sanne", "Daan"), utcDate(2024, 2, 14, 19, 0), utcDate(2024, 2, 14, 19, 8, 40)),
            ("ios-ru_RU-media", ("Ольга", "Дмитрий"), utcDate(2024, 7, 28, 14, 0), utcDate(2024, 7, 28, 14, 8, 40)),
            ("ios-tr_TR-media", ("Elif", "Emre"), utcDate(2024, 10, 29, 20, 0), utcDate(2024, 10, 29, 20, 8, 40)),
        ]
        let labels = ["[video]", "[voice message]", "[sticker]", "[GIF]", "[document]", "[contact card]"]
        for fixture in fixtures {
            let path = corpus("exports/whatsapp/\(fixture.file).txt")
            let result = try readAll(path)
            #expect(result.format == .whatsapp && result.diagnostics.isEmpty, "\(fixture.file)")
            #expect(result.kinds == ["text", "text", "text", "text", "text", "text", "text", "image", "text"], "\(fixture.file)")
            // The markers keep their sender: before they were known, iOS's U+200E made them notices.
            let (a, b) = fixture.senders
            #expect(result.senders == [a, b, a, b, a, b, a, b, a], "\(fixture.file)")
            #expect(Array(result.texts[1...6]) == labels, "\(fixture.file)")
            let picture = try #require(result.records[7] as? LogImageMessage, "\(fixture.file)")
            #expect(picture.imageName == "image omitted" && picture.caption == nil && picture.pixelWidth == nil, "\(fixture.file)")
            // The last message holds a marker's words among others; it is text, exactly as written.
            let lastLine = try #require(String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").last)
            let written = try #require(lastLine.range(of: "\(a): ").map { String(lastLine[$0.upperBound...]) })
            #expect(result.texts[8] == written && !labels.contains(written), "\(fixture.file)")
            #expect(result.records.first?.date == fixture.first && result.records.last?.date == fixture.last, "\(fixture.file)")
            #expect(result.counts.recordsIn == 9 && result.counts.reconciles, "\(fixture.file)")
        }
    }

    @Test func everyConfirmedIOSMediaKindIsRecognisedAsWritten() {
        // As the sources spell them (capitals included), after iOS's U+200E.
        let markers: [String: [String]] = [
            "[video]": [
                "video omitted", "Video weggelassen", "vidéo absente", "Video omitido", "vídeo omitido", "vídeo não revelado",
                "video omesso", "video weggelaten", "видео отсутствует", "video dahil edilmedi",
            ],
            "[voice message]": [
                "audio omitted", "Audio weggelassen", "audio omis", "audio omitido", "áudio ocultado", "ficheiro de áudio não revelado",
                "audio omesso", "audio weggelaten", "аудиофайл отсутствует", "ses dahil edilmedi",
            ],
            "[sticker]": [
                "sticker omitted", "Sticker weggelassen", "sticker omis", "sticker omitido", "figurinha omitida", "sticker não revelado",
                "sticker non incluso", "sticker weggelaten", "стикер не добавлен", "Çıkartma dahil edilmedi",
            ],
            "[GIF]": [
                "GIF omitted", "GIF weggelassen", "GIF retiré", "GIF omitido", "GIF não revelada", "GIF esclusa", "GIF weggelaten",
                "GIF отсутствует", "GIF dahil edilmedi",
            ],
            "[document]": [
                "document omitted", "Dokument weggelassen", "document manquant", "documento omitido", "documento não revelado",
                "documento omesso", "document weggelaten", "документ отсутствует", "belge dahil edilmedi",
            ],
            "[contact card]": [
                "Contact card omitted", "Kontaktkarte ausgelassen", "Fiche contact manquante", "Tarjeta de contacto omitida",
                "Cartão do contato omitido", "Contacto não revelado", "Scheda contatto omessa", "Visitekaartje weggelaten",
                "Карточка контакта отсутствует", "Kişi kartı dahil edilmedi",
            ],
        ]
        for (label, written) in markers {
            for marker in written {
                #expect(WhatsAppMedia.classify("\u{200E}" + marker) == .label(label), "\(marker)")
                // Locale-free case mapping cannot bring Turkish dotless ı back from capitals (I lowercases
                // to i), so those markers are only matched in the case WhatsApp writes them.
                if !marker.contains("ı") {
                    #expect(WhatsAppMedia.classify(marker.uppercased()) == .label(label), "\(marker) in capitals")
                }
            }
        }
        // Matching is exact: a marker with more around it, cut short or with another ending stays text.
        for text in [
            "Video weggelassen?", "das Video weggelassen", "vidéo absente !", "video omitida", "GIF", "Карточка контакта",
            "ses dahil edilmedi mi", "<video omitido>", "figurinha omitida 😂", "sticker omesso",
        ] {
            #expect(WhatsAppMedia.classify(text) == nil, "\(text)")
        }
    }

    @Test func markerTableHoldsOnlyReachableKeys() {
        // classify lowercases the line and drops U+200E/U+200F before the lookup; a key that is not
        // already in that form could never match.
        for key in WhatsAppMedia.omitted.keys {
            #expect(key == key.lowercased(), "\(key)")
            #expect(!key.unicodeScalars.contains { $0 == "\u{200E}" || $0 == "\u{200F}" }, "\(key)")
            #expect(key == key.trimmingCharacters(in: .whitespaces), "\(key)")
        }
    }

    @Test func localTimesAreReadInTheGivenZone() throws {
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let result = try readAll(corpus("exports/whatsapp/android-de_DE.txt"), options: LogReadOptions(timeZone: zone))
        #expect(result.records[1].date == utcDate(2023, 12, 24, 17, 1))
    }

    @Test func unknownDateFormatIsAWholeFileError() {
        let path = corpus("exports/whatsapp/unknown-format.txt")
        #expect(openError(path, format: .whatsapp)?.description == "\(path): not a WhatsApp export in a date format we know (line 1 starts \"2024年1月13日 20:15 - Priya: this date form…\"): expected lines like \"31/12/23, 21:05 - Name: text\" or \"[31/12/23, 21:05:09] Name: text\"")
        // Detected, the file's WhatsApp shape is said, not "unrecognised format"; see WhatsAppLocaleDateTests.
        #expect(openError(path)?.description == "\(path):1: a WhatsApp date format we don't know: \"2024年1月13日 20:15 - Priya: this date form…\"; expected lines like \"31/12/23, 21:05 - Name: text\" or \"[31/12/23, 21:05:09] Name: text\"")
    }

    @Test func contradictoryDateOrderIsAWholeFileError() {
        let path = corpus("exports/whatsapp/mixed-order.txt")
        #expect(openError(path)?.description == "\(path):2: dates are both day-first (line 1) and month-first (line 2); expected one date format throughout the file (--date-order dmy or mdy reads it one way and reports the dates that do not fit)")
    }

    @Test func damagedLinesAreReportedAndTheRestIsRead() throws {
        let path = corpus("exports/whatsapp/damaged.txt")
        let result = try readAll(path, format: .whatsapp)
        #expect(result.diagnosticLines == [
            "\(path):1: a line without a date before the first message (expected \"31/12/23, 21:05 - Name: text\")",
            "\(path):3: invalid UTF-8 in a continuation line: byte 0xE9 at column 4",
            "\(path):5: invalid UTF-8: byte 0xFF at column 30",
        ])
        #expect(result.texts == ["hello", "still fine", "the end"])
        #expect(result.counts.recordsIn == 6 && result.counts.rejected == 3 && result.counts.reconciles)
    }

    @Test func headerParserAcceptsTheVariationsRealExportsUse() {
        let accepted = [
            "12/31/20, 11:59 PM - A: x", "12/31/20, 11:59\u{202F}PM - A: x", "31.12.20, 23:59 - A: x",
            "31-12-2020 23:59 - A: x", "[31/12/2020, 23:59:59] A: x", "\u{200E}[1/2/21, 1:02:03\u{202F}a.m.] A: x",
            "2020-12-31, 23:59 - A: x", "[2020/12/31 23:59:59] A: x",
        ]
        for line in accepted { #expect(WhatsAppLine.parseHeader(line) != nil, "\(line)") }
        let rejected = ["31/12/20 - A: x", "hello: there", "31/12, 10:00 - A: x", "1/2/3/4, 10:00 - A: x"]
        for line in rejected { #expect(WhatsAppLine.parseHeader(line) == nil, "\(line)") }
        // A header's shape with a time no clock shows is still a header: its record is rejected.
        let impossible = ["31/12/20, 25:00 - A: x": "25:00", "12/31/20, 13:00 PM - A: x": "13:00 PM",
                          "[31/12/2020, 23:59:60] A: x": "23:59:60", "31.12.20, 08.60 - A: x": "08:60"]
        for (line, time) in impossible {
            let header = WhatsAppLine.parseHeader(line)
            #expect(header?.isPossibleTime == false, "\(line)")
            #expect(header?.timeDescription == time, "\(line)")
        }
        #expect(WhatsAppLine.parseHeader("1/2/21, 00:30 a.m. - A: x")?.isPossibleTime == true)
    }

    /// A line with a header's shape and an impossible time is its own rejected record, with the
    /// lines under it: not text added to the message before it, and never lost.
    @Test func aHeaderWithAnImpossibleTimeIsReportedAtItsLine() throws {
        let path = corpus("exports/whatsapp/impossible-times.txt")
        let result = try readAll(path, format: .whatsapp)
        #expect(result.diagnosticLines == [
            "\(path):2: impossible time 25:99",
            "\(path):5: impossible date 2024-1-45 (the file's dates read day first)",
            "\(path):6: impossible time 08:60",
        ])
        #expect(result.texts == ["ok", "after", "fine"])
        #expect(result.counts.recordsIn == 6 && result.counts.rejected == 3 && result.counts.reconciles)
    }

    @Test func dateOrderIsDecidedFromTheWholeFile() throws {
        // Only the last line proves the order; every earlier date is ambiguous.
        var lines = (1...9).map { "0\($0)/02/24, 10:00 - A: message \($0)" }
        lines.append("03/25/24, 10:00 - A: the 25th of March")
        let path = temporaryFile(Array(lines.joined(separator: "\n").utf8), suffix: ".txt")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try readAll(path)
        #expect(result.records.first?.date == utcDate(2024, 1, 2, 10, 0))
        #expect(result.records.last?.date == utcDate(2024, 3, 25, 10, 0))
    }

    @Test func exportsConvertToNativeAndReadBackTheSame() throws {
        for name in [
            "android-en_US-12h", "android-de_DE", "android-en_GB", "ios-fr_FR", "ios-en_US",
            "android-es_AR", "android-pt_BR", "ios-pt_BR", "android-it_IT", "android-nl_NL", "android-ru_RU", "android-tr_TR",
            "ios-de_DE-media", "ios-fr_FR-media", "ios-es_ES-media", "ios-pt_BR-media", "ios-pt_PT-media", "ios-it_IT-media",
            "ios-nl_NL-media", "ios-ru_RU-media", "ios-tr_TR-media",
        ] {
            let records = try readAll(corpus("exports/whatsapp/\(name).txt")).records
            let back = try roundTrip(records)
            #expect(back.count == records.count)
            for (a, b) in zip(records, back) { #expect(a.isSameRecord(as: b), "\(name): \(a) vs \(b)") }
        }
    }
}
