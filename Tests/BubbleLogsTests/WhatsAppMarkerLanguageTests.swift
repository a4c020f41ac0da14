import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

/// Notices under a member's name, captions before attachments, and markers in the languages of
/// the generated WhatsAppMarkerTable (Tools/whatsapp/markers.tsv), each on a fixture in
/// Corpora/exports/whatsapp.
@Suite struct WhatsAppMarkerLanguageTests {
    private func read(_ name: String) throws -> ReadResult {
        let result = try readAll(corpus("exports/whatsapp/\(name).txt"))
        #expect(result.format == .whatsapp, "\(name)")
        #expect(result.diagnostics.isEmpty, "\(name): \(result.diagnosticLines)")
        #expect(result.counts.rejected == 0 && result.counts.reconciles, "\(name)")
        return result
    }

    @Test func groupNoticesUnderAMembersNameAreNotices() throws {
        let result = try read("ios-en_GB-group-notices-under-names")
        // The member chats too, so only the notice's sentence tells it apart from their messages.
        #expect(result.kinds == ["system", "system", "system", "text", "text", "system", "system", "text", "text"])
        #expect(result.texts[2] == "~\u{202F}Kaz Gould was added")
        #expect(result.senders[3] == "~\u{202F}Kaz Gould")
        // A person's own words that start with their name stay theirs (no U+200E).
        #expect(result.senders[8] == "Jimmy" && result.texts[8] == "Jimmy was here first")
        let spanish = try read("ios-es_ES-group-notices-under-names")
        #expect(spanish.kinds == ["system", "system", "text", "text"])
        #expect(spanish.texts[0] == "Jimmy creó el grupo “Puerto”")
    }

    @Test func noticesInAnyLanguageUnderAMembersNameAreNotices() throws {
        let result = try read("ios-multilingual-notices-under-names")
        #expect(result.kinds == ["system", "system", "text", "text", "system", "text", "system", "text", "system", "text", "text", "text"])
        #expect(result.texts[1] == "Lena hat Kaz hinzugefügt" && result.senders[1] == nil)
        #expect(result.texts[6] == "Lenaが健太を追加しました")
        #expect(result.texts[8] == "Вы добавили Олег")
        // A marked line of a person's that names nobody, and unmarked words opening with a member's
        // name, stay theirs.
        #expect(result.senders[10] == "Kaz" && result.senders[11] == "Lena")
    }

    @Test func aNameCountsOnlyAsAWordOfItsOwn() {
        #expect(WhatsAppMarkedText.mentionsName("Ana hat Kaz hinzugefügt", "Kaz"))
        #expect(WhatsAppMarkedText.mentionsName("Ana hat ~\u{202F}Kaz Gould entfernt", "~\u{202F}Kaz Gould"))
        #expect(!WhatsAppMarkedText.mentionsName("Ana hat Kazimierz hinzugefügt", "Kaz"))
        #expect(!WhatsAppMarkedText.mentionsName("Kaz hat die Gruppe verlassen", "Kaz"), "the start is startsWithName's")
        #expect(WhatsAppMarkedText.mentionsName("AnaがKazを追加しました", "Kaz"))
        #expect(WhatsAppMarkedText.mentionsName("Ana님이 민준님을 추가했습니다", "민준"))
        #expect(!WhatsAppMarkedText.mentionsName("Ana added K", "K"), "one-scalar names are not looked for")
        #expect(WhatsAppMarkedText.opensWithName("Kaz Gould a quitté le groupe", of: ["Kaz Gould", "Ana"]))
        #expect(!WhatsAppMarkedText.opensWithName("Kazimierz a quitté le groupe", of: ["Kaz"]))
        #expect(!WhatsAppMarkedText.opensWithName(String(repeating: "a", count: 5000) + " b", of: ["b"]))
    }

    @Test func noticeSentencesFromTheTable() {
        #expect(WhatsAppMarkedText.isNoticeSentence("jimmy changed the subject to “harbour crew 2022”"))
        #expect(WhatsAppMarkedText.isNoticeSentence("you changed this group's icon"))
        #expect(WhatsAppMarkedText.isNoticeSentence("ana joined using this group's invite link"))
        #expect(!WhatsAppMarkedText.isNoticeSentence(" joined using this group's invite link"))
        #expect(!WhatsAppMarkedText.isNoticeSentence("we changed the subject"))
        // Deleted by an admin: a note in the person's place, not the group's notice.
        #expect(WhatsAppMarkedText.classify(["\u{200E}This message was deleted by admin Jimmy."], sender: "Ana", senderWritesMessages: true)
            == .notice("This message was deleted by admin Jimmy."))
        #expect(WhatsAppMarkedText.classify(["\u{200E}Jimmy changed this group's icon"], sender: "Ana", senderWritesMessages: true)
            == .chatNotice("Jimmy changed this group's icon"))
    }

    @Test func captionsAndDocumentsBeforeTheirMarkers() throws {
        let result = try read("ios-multilingual-attachments")
        let image = try #require(result.records[0] as? LogImageMessage)
        #expect(image.imageName == "00000012-PHOTO-2022-01-02-11-00-00.jpg")
        #expect(image.caption == "Lunch at the harbour")
        #expect(result.texts[1] == "[document: Resume.pdf • 2 pages]")
        #expect(result.texts[2] == "[document: Lebenslauf.pdf • 2 Seiten]")
        #expect((result.records[3] as? LogImageMessage)?.imageName == "00000013-PHOTO-2022-01-02-11-03-00.jpg")
        #expect(result.texts[4] == "[voice message: 00000014-AUDIO-2022-01-02-11-04-00.opus]")
        #expect(result.texts[5] == "Vamos às 8" && result.records[5].header.isEdited)
        #expect((result.records[6] as? LogTextMessage)?.textStyle == .notice)
        #expect((result.records[7] as? LogTextMessage)?.textStyle == .notice)
    }

    @Test func androidAttachmentsAndOmittedMediaInOtherLanguages() throws {
        let result = try read("android-nl_NL-ru_RU-cs_CZ-attachments")
        let image = try #require(result.records[0] as? LogImageMessage)
        #expect(image.imageName == "IMG-20220102-WA0001.jpg" && image.caption == "Haven bij zonsondergang")
        #expect(result.texts[1] == "[voice message: PTT-20220102-WA0002.opus]")
        #expect(result.texts[2] == "[file: DOC-20220102-WA0003.pdf]")
        #expect(result.records[3] is LogImageMessage && result.records[4] is LogImageMessage)
    }

    /// Every language's attachment word and omission marker in the table is read, not left as text.
    @Test func everyTableMarkerIsRead() {
        for word in WhatsAppMarkerTable.iosAttached {
            #expect(WhatsAppMedia.classify("\u{200E}<\(word): 00000001-PHOTO-2022-01-01.jpg>") == .image(name: "00000001-PHOTO-2022-01-01.jpg"), "\(word)")
        }
        for word in WhatsAppMarkerTable.androidAttached {
            #expect(WhatsAppMedia.classify("IMG-1.jpg (\(word))") == .image(name: "IMG-1.jpg"), "\(word)")
        }
        for (text, _) in WhatsAppMarkerTable.omitted {
            #expect(WhatsAppMedia.classify(text) != nil, "\(text)")
        }
    }
}
