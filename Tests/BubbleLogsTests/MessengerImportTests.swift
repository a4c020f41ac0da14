import BubbleLayout
@testable import BubbleLogs
import BubbleSamples
import BubbleTestSupport
import Foundation
import Testing

@Suite struct MessengerImportTests {
    static let facebook = "exports/messenger/facebook"

    /// Both threads of the export, in time order: the older direct thread first, then the group,
    /// whose message_2.json (older) comes before message_1.json and whose files list newest first.
    static let expectedTexts = [
        "Messenger chat “Marco Rossi”",
        "You are now connected on Messenger",
        "Hi Marco! Ça va?",
        "Marco Rossi set the nickname for Lena Vogel to Lenchen.",
        "You missed a call from Marco Rossi.",
        "Привет 🙂 אבג",
        "Messenger chat “Climbing crew 🧗”",
        "Lena Vogel named the group Climbing crew 🧗.",
        "Lena Vogel added Marco Rossi and Aiko Tanaka to the group.",
        "Bouldering on Saturday? 🧗‍♀️\n[reactions: 👍 Aiko Tanaka, ❤ Lena Vogel]",
        "行きます！ Café at 10 ☕",
        "431223_wall.jpg",
        "Last time 😅\n[video: fall_8812.mp4]",
        "[audio: audioclip17094027600001234_5566.mp4]",
        "Please sign before Saturday\n[file: gym-waiver_991.pdf]",
        "[sticker]",
        "Aiko Tanaka added Zoë Müller to the group",
        "https://example.com/gym",
        "cheer_42.gif",
        "Marco Rossi started a video chat. (2:05)",
        "Aiko Tanaka unsent a message\n[reactions: 😮 Marco Rossi]",
        "Marco Rossi left the group",
        "Ciao Marco 👋 — see you",
    ]

    @Test func exportFolderReadsEveryThreadInTimeOrderWithMojibakeUndone() throws {
        let result = try readAll(corpus(Self.facebook))
        #expect(result.format == .messenger)
        #expect(result.diagnostics.isEmpty)
        #expect(result.texts == Self.expectedTexts)
        #expect(result.counts.recordsIn == Self.expectedTexts.count && result.counts.reconciles)
        #expect(result.kinds == [
            "system", "system", "text", "system", "system", "text",
            "system", "system", "system", "text", "text", "image", "text", "text", "text", "text",
            "system", "text", "image", "system", "text", "system", "text",
        ])
        // The owner (the other person of the thread titled "Marco Rossi") is outgoing.
        let outgoing = result.records.filter { $0.direction == .outgoing }.map(\.id)
        #expect(outgoing == ["marcorossi_1122334455/1709316060000", "climbingcrew_7253019921/1709402640000",
                             "climbingcrew_7253019921/1709402820000"])
        #expect(result.senders.contains("Zoë Müller"))
        // Two messages in the same millisecond get distinct ids.
        #expect(result.records.suffix(2).map(\.id) == ["climbingcrew_7253019921/1709403240000", "climbingcrew_7253019921/1709403240000-2"])
        #expect(Set(result.records.compactMap(\.header.conversationID)) == ["marcorossi_1122334455", "climbingcrew_7253019921"])
        let photo = try #require(result.records[11] as? LogImageMessage)
        #expect(photo.caption == "[photo: 431224_route.jpg]")
        #expect(photo.date == utcDate(2024, 3, 2, 18, 4))
        let unsent = try #require(result.records[20] as? LogTextMessage)
        #expect(unsent.textStyle == .notice)
        // Positions name the file each message came from, and its line.
        #expect(result.positions[7].file.hasSuffix("climbingcrew_7253019921/message_2.json"))
        #expect(result.positions.last?.file.hasSuffix("climbingcrew_7253019921/message_1.json") == true)
        #expect(result.positions.last?.line == 17)
    }

    @Test func zipOfTheExportReadsAsTheFolderDoes() throws {
        let folder = try readAll(corpus(Self.facebook))
        let zipped = try readAll(corpus("exports/messenger/facebook-2024-03-02.zip"))
        #expect(zipped.format == .messenger)
        #expect(zipped.diagnostics.isEmpty)
        #expect(zipped.records.map(\.nativeLine) == folder.records.map(\.nativeLine))
        #expect(zipped.positions[7].file.hasSuffix(".zip:your_facebook_activity/messages/inbox/climbingcrew_7253019921/message_2.json"))
    }

    @Test func convertedRecordsReadBackTheSame() throws {
        let result = try readAll(corpus(Self.facebook))
        let back = try roundTrip(result.records)
        #expect(back.map(\.nativeLine) == result.records.map(\.nativeLine))
    }

    @Test func oneThreadFileAloneIsMessengerNotTelegram() throws {
        let path = corpus(Self.facebook + "/your_facebook_activity/messages/inbox/climbingcrew_7253019921/message_1.json")
        let result = try readAll(path)
        #expect(result.format == .messenger)
        #expect(result.diagnostics.isEmpty)
        #expect(result.texts == Array(Self.expectedTexts.suffix(10)))
        // Read alone, the thread names no owner: nothing is outgoing without --me.
        #expect(result.records.allSatisfy { $0.direction == .incoming })
        let mine = try readAll(path, options: LogReadOptions(me: "Zoë Müller", timeZone: utc))
        #expect(mine.records.filter { $0.direction == .outgoing }.count == 3)
        // The one file of a thread whose files are read together keeps its own ids.
        #expect(result.records.first?.id == "1709402760000")
    }

    @Test func instagramAndEncryptedDownloadsRead() throws {
        let instagram = try readAll(corpus("exports/messenger/instagram"))
        #expect(instagram.format == .messenger)
        #expect(instagram.diagnostics.isEmpty)
        #expect(instagram.texts == [
            "見て！ this route\n[link: https://www.instagram.com/p/C4abcdEfGh1/]\nProject send 💪 #climbing",
            "Wow 😍\n[reactions: ❤️ Aiko Tanaka]",
            "3312_chalk.jpg",
        ])
        #expect(instagram.records.map(\.direction) == [.incoming, .outgoing, .outgoing])
        #expect((instagram.records[2] as? LogImageMessage)?.caption == "My new chalk bag")

        let e2ee = try readAll(corpus("exports/messenger/e2ee/marcorossi_10.json"))
        #expect(e2ee.format == .messenger)
        #expect(e2ee.diagnostics.isEmpty)
        #expect(e2ee.texts == [
            "Encrypted now 🔒", "5a1c7e0e-1b7d-4a3e-9f5e-2f3c1d2e4b5a.jpeg",
            "Größter Sprung\n[video: 0c2d9a77-2222-4d6b-8f00-9a8b7c6d5e4f.mp4]", "You unsent a message",
        ])
        #expect(e2ee.records.map(\.direction) == [.incoming, .incoming, .outgoing, .outgoing])
        #expect((e2ee.records[1] as? LogImageMessage)?.caption == "[reactions: 😂 Lena Vogel]")
    }

    @Test func oneThreadIsChosenByTitleOrFolder() throws {
        let byTitle = try readAll(corpus(Self.facebook), options: LogReadOptions(timeZone: utc, conversation: "Climbing crew 🧗"))
        #expect(byTitle.texts == Array(Self.expectedTexts.suffix(16)))
        let byFolder = try readAll(corpus(Self.facebook), options: LogReadOptions(timeZone: utc, conversation: "marcorossi_1122334455"))
        #expect(byFolder.texts == Array(Self.expectedTexts[1...5]))
        let error = try #require(openError(corpus(Self.facebook), options: LogReadOptions(timeZone: utc, conversation: "Nobody")))
        #expect(error.kind == .conversationNotFound)
        #expect(error.message.contains("\"Marco Rossi\"") && error.message.contains("\"Climbing crew 🧗\""))
    }

    @Test func aDamagedFileOfAThreadIsOneRejectionAndTheRestIsRead() throws {
        let result = try readAll(corpus("exports/messenger/damaged"))
        #expect(result.format == .messenger)
        #expect(result.counts.rejected == 1 && result.counts.reconciles)
        #expect(result.records.count == 5)
        #expect(result.diagnosticLines.count == 1)
        #expect(result.diagnosticLines[0].contains("damaged/inbox/ana_55/message_2.json:32: truncated JSON"))
    }

    @Test func aTruncatedThreadFileIsOneError() throws {
        let error = try #require(openError(corpus("exports/messenger/damaged/truncated.json")))
        #expect(error.message.hasPrefix("truncated JSON"))
        #expect(openError(corpus("exports/messenger/damaged/truncated.json"), format: .messenger)?.message.hasPrefix("truncated JSON") == true)
    }

    @Test func wrongMessagesAreRejectedNamingTheirPlace() throws {
        let json = #"{"participants": [{"name": "A"}], "messages": [{"sender_name": "A", "content": "no time"}, 7, {"sender_name": "A", "timestamp_ms": "soon"}, {"sender_name": "A", "timestamp_ms": 1, "photos": "x"}], "title": "A", "thread_path": "inbox/a_1"}"#
        let result = try readAll(temporaryFile(Array(json.utf8), suffix: ".json"))
        #expect(result.format == .messenger)
        #expect(result.records.isEmpty && result.counts.rejected == 4)
        #expect(result.diagnostics.map(\.reason).sorted() == [
            "missing field \"timestamp_ms\"",
            "wrong type: a message must be an object, found a number (7)",
            "wrong type: field \"photos\" must be an array, found a string (\"x\")",
            "wrong type: field \"timestamp_ms\" must be an integer of milliseconds, found a string (\"soon\")",
        ])
    }

    @Test func aFolderWithoutThreadsIsRefusedAsMessenger() {
        let error = openError(corpus("exports/slack/export"), format: .messenger)
        #expect(error?.message.hasPrefix("no Messenger or Instagram thread here") == true)
    }

    @Test func mojibakeIsUndoneExactlyAndOnlyWhereItCanBe() {
        #expect(Mojibake.undo("\u{C3}\u{A1}") == "á")
        #expect(Mojibake.undo("\u{F0}\u{9F}\u{98}\u{A2} \u{E8}\u{A1}\u{8C}") == "😢 行")
        #expect(Mojibake.undo("plain ascii") == "plain ascii")
        // Latin-1 text that is not UTF-8 as bytes stays as it is, and so does repaired text.
        #expect(Mojibake.undo("caf\u{E9}") == "caf\u{E9}")
        #expect(Mojibake.undo("Ã¡ and 行") == "Ã¡ and 行")
        // An unpaired lead byte, an overlong form and a surrogate's bytes are not UTF-8.
        #expect(Mojibake.undo("\u{F0}\u{9F}") == "\u{F0}\u{9F}")
        #expect(Mojibake.undo("\u{C0}\u{AF}") == "\u{C0}\u{AF}")
        #expect(Mojibake.undo("\u{ED}\u{A0}\u{80}") == "\u{ED}\u{A0}\u{80}")
    }

    @Test func mojibakeIsUndoneForEveryScalarByProperty() {
        // Every scalar's UTF-8 written as \u00XX escapes comes back as the scalar.
        var generator = SeededGenerator(seed: 39)
        for _ in 0..<2000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let value = UInt32.random(in: 0...0x10FFFF, using: &generator)
                if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
            }
            let text = String(scalars)
            let escaped = String(String.UnicodeScalarView(text.utf8.map { Unicode.Scalar($0) }))
            #expect(Mojibake.undo(escaped) == text)
        }
    }

    @Test func appNoticesAreToldFromMessages() {
        #expect(MessengerMessageDecoder.isNotice("Ana named the group Crew.", sender: "Ana"))
        #expect(MessengerMessageDecoder.isNotice("You added Ben to the group.", sender: "Ana"))
        #expect(MessengerMessageDecoder.isNotice("The video chat ended.", sender: "Ana"))
        #expect(!MessengerMessageDecoder.isNotice("Ana added milk to the list.", sender: "Ana"))
        #expect(!MessengerMessageDecoder.isNotice("You left the group chat open", sender: "Ana"))
        #expect(!MessengerMessageDecoder.isNotice("Ben named the group Crew.", sender: "Ana"))
    }

    @Test func aThreadFileLinkingOutOfTheExportIsNotRead() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("messenger-\(UUID().uuidString)")
        let thread = root.appendingPathComponent("export/messages/inbox/ana_1")
        try FileManager.default.createDirectory(at: thread, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let inside = #"{"participants": [{"name": "Ana"}, {"name": "Ben"}], "messages": [{"sender_name": "Ana", "timestamp_ms": 1000, "content": "hi"}], "title": "Ana", "thread_path": "inbox/ana_1"}"#
        let outside = #"{"participants": [{"name": "Ana"}], "messages": [{"sender_name": "Ana", "timestamp_ms": 1, "content": "SECRET"}], "title": "Ana"}"#
        try Data(inside.utf8).write(to: thread.appendingPathComponent("message_1.json"))
        try Data(outside.utf8).write(to: root.appendingPathComponent("secret.json"))
        try FileManager.default.createSymbolicLink(atPath: thread.appendingPathComponent("message_2.json").path,
                                                   withDestinationPath: root.appendingPathComponent("secret.json").path)
        let result = try readAll(root.appendingPathComponent("export").path)
        #expect(result.format == .messenger)
        #expect(result.texts == ["hi"])
        #expect(!result.texts.contains { $0.contains("SECRET") })
        #expect(result.diagnostics.map(\.reason) == ["a symbolic link leading out of the export (not followed)"])
        // The thread is titled after Ana: its other person, Ben, is the owner.
        #expect(result.records.first?.direction == .incoming)
    }
}
