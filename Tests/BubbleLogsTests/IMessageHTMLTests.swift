import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

/// imessage-exporter's HTML pages (`-f html`), read by `IMessageHTML`.
@Suite struct IMessageHTMLTests {
    static let chat = "exports/imessage/html/Climbing crew - 12.html"
    static let older = "exports/imessage/html/+15555550123 - 3.html"
    static let damaged = "exports/imessage/html/damaged.html"
    static let guid = "5C0FFEE0-1D2E-4F30-8A4B-00000000"

    @Test func exporterPageReadsEveryMessageAndNotice() throws {
        let result = try readAll(corpus(Self.chat))
        #expect(result.format == .imessage)
        #expect(result.diagnostics.isEmpty && result.warnings.isEmpty)
        #expect(result.texts == [
            "Lena Vogel named the conversation Climbing crew",
            "Lena Vogel added Aiko Tanaka to the conversation.",
            "Bouldering on Saturday? 🧗‍♀️\n[reactions: ❤️ Me, 👍 Aiko Tanaka]",
            "Yes! 10:00 at the new gym",
            "行きます！",
            "attachments/12/IMG_0042.jpeg",
            "Meet at 9:30?",
            // Entities decoded once, markup made plain, the bubble's own line breaks kept.
            "Bring chalk & tape <3 — it's \"crimpy\"\n\nBold and the topo",
            "[file: gym-waiver.pdf]\n[video: IMG_0051.mov]\n[audio: Audio Message.caf]\nTranscription: See you there\n[attachment missing: IMG_0060.HEIC]\n[reactions: 🔥 Lena Vogel]",
            "[sticker]\nhttps://example.com/routes\nexample.com\nRoute guide\nNew problems this week",
            "You unsent this message part 1 minute after sending!",
            "This message was deleted from the conversation!\nNever mind",
            "Lena Vogel unsent a message.",
            "Good night",
            "Ça marche 👍",
            "Aiko Tanaka left the conversation.",
        ])
        #expect(result.kinds == ["system", "system", "text", "text", "text", "image", "text", "text", "text", "text", "text", "text",
                                 "system", "text", "text", "system"])
        #expect(result.counts.recordsIn == 16 && result.counts.reconciles)
        let messages = result.records.filter { !($0 is LogSystemMessage) }
        #expect(messages.map(\.direction) == [.incoming, .outgoing, .incoming, .outgoing, .incoming, .outgoing, .incoming,
                                              .incoming, .outgoing, .incoming, .outgoing, .incoming])
        #expect(messages.map(\.senderName) == ["Lena Vogel", "Me", "Aiko Tanaka", "Me", "Lena Vogel", "Me", "Aiko Tanaka",
                                               "Lena Vogel", "Me", "Aiko Tanaka", "Me", "Lena Vogel"])
        // Messages are named by their GUIDs; notices by their lines.
        #expect(messages.map(\.id) == (1...12).map { Self.guid + String(format: "%04d", $0) })
        #expect(result.records[0].id == "L16")
        // The replies are read once, at their own time, as replies to the message whose thread holds them.
        #expect(result.records[3].header.replyToID == Self.guid + "0001" && result.records[4].header.replyToID == Self.guid + "0001")
        #expect(result.records.filter { $0.header.replyToID != nil }.count == 2)
        #expect(result.records[6].header.isEdited && !result.records[7].header.isEdited)
        // "(Read by them …)" on one's own message.
        #expect(result.records[3].header.status == .read && result.records[7].header.status == .read && result.records[5].header.status == nil)
        #expect((result.records[10] as? LogTextMessage)?.textStyle == .notice)
        #expect((result.records[11] as? LogTextMessage)?.textStyle == .body)
        // The picture is the export's file, found by its path: its size comes from it.
        let picture = try #require(result.records[5] as? LogImageMessage)
        #expect(picture.pixelWidth == 160 && picture.pixelHeight == 120)
        #expect(picture.caption == "Subject: Saturday & Sunday\nLook at this wall\nSent with Confetti\n[reactions: [sticker] Aiko Tanaka]")
        // Local times of the exporting Mac, read in the options' zone.
        #expect(result.records[2].date == utcDate(2024, 3, 2, 18, 1, 10))
        #expect(result.records[13].date == utcDate(2024, 3, 2, 23, 59, 59))
        #expect(result.records[14].date == utcDate(2024, 3, 3, 0, 30))
        let berlin = try readAll(corpus(Self.chat), options: LogReadOptions(timeZone: TimeZone(identifier: "Europe/Berlin")!))
        #expect(berlin.records[2].date == utcDate(2024, 3, 2, 17, 1, 10))
    }

    @Test func explicitInputNameReadsTheSameAsDetection() throws {
        let auto = try readAll(corpus(Self.chat))
        let named = try readAll(corpus(Self.chat), format: .imessage)
        #expect(named.records.map(\.nativeLine) == auto.records.map(\.nativeLine))
    }

    @Test func bytesInMemoryReadLikeTheFileButFindNoPictures() throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: corpus(Self.chat))))
        let reader = try LogSource.open(bytes: bytes, name: "chat.html", options: LogReadOptions(timeZone: utc))
        var texts: [String] = []
        var picture: LogImageMessage?
        for entry in reader {
            if case .message(let record, _) = entry {
                texts.append(record.nativeLine)
                if let image = record as? LogImageMessage { picture = image }
            }
        }
        #expect(texts.count == 16 && reader.media == nil)
        #expect(picture?.imageName == "attachments/12/IMG_0042.jpeg" && picture?.pixelWidth == nil)
    }

    @Test func olderPagesWithReactionsAndXmpRead() throws {
        let result = try readAll(corpus(Self.older))
        #expect(result.diagnostics.isEmpty)
        #expect(result.texts == [
            "Are we still on for tonight?\n[reactions: 😂 Me]",
            "Yes, 7 pm",
            "[sticker]\nhttps://example.org/menu\nExample Bistro\nMenu & <specials>",
            "You deleted a message.",
            "+15555550123 changed the group photo.",
        ])
        // Without a time link, a message is named by its line; a reply's GUID comes from its block's id.
        #expect(result.records.map(\.id) == ["L10", "0A1B2C3D-4E5F-4061-8273-94A5B6C70002", "L45", "L58", "L59"])
        #expect(result.records[1].header.replyToID == "L10" && result.records[1].direction == .outgoing)
    }

    @Test func aThreadCopyWithoutAnIdIsReadWhereItStands() throws {
        let page = Self.page("""
        <div class="message">
        <div class="received">
        <p><span class="timestamp">Jul 17, 2022  5:31:49 PM</span>
        <span class="sender">Ana</span></p>
        <hr><div class="message_part"><span class="bubble">Threads?</span></div>
        <div class="replies">
        <div class="reply">
        <div class="message">
        <div class="sent iMessage">
        <p><span class="timestamp">Jul 17, 2022  5:32:03 PM</span>
        <span class="sender">Me</span></p>
        <hr><div class="message_part"><span class="bubble">Yes</span></div>
        <div class="tapbacks"><hr><p>Tapbacks:</p>
        <div class="tapback"><img src="attachments/boar.png" loading="lazy"><span
        class="tapback">from Ana</span></div>
        </div>
        </div>
        </div>
        </div>
        </div>
        </div>
        </div>
        """)
        let result = try readAll(temporaryFile(page, suffix: ".html"))
        #expect(result.texts == ["Threads?", "Yes\n[reactions: [sticker] Ana]"])
        #expect(result.records.map(\.id) == ["L9", "L16"] && result.records[1].header.replyToID == "L9")
    }

    @Test func damagedMessagesAreReportedAndTheRestRead() throws {
        let result = try readAll(corpus(Self.damaged))
        #expect(result.texts == ["First, fine", "Still read after the damage"])
        let file = corpus(Self.damaged)
        #expect(result.diagnosticLines == [
            "\(file):19: message 2: unreadable time \"Mar 32, 2024 6:02:00 PM\": expected one like \"May 17, 2022  5:29:42 PM\"",
            "\(file):28: message 3: a message with no <span class=\"timestamp\">",
            "\(file):36: markup outside any message (<div class=\"message_part\">): \"Text left outside its message\"",
            "\(file):49: message 5: an announcement with no time: \"Unable to format announcement!\"",
            "\(file):50: message 6: a message with no <span class=\"timestamp\"> (the file ends inside it)",
        ])
        #expect(result.counts.rejected == 5 && result.counts.reconciles)
    }

    @Test func otherHTMLGetsOneClearError() throws {
        let page = corpus("exports/imessage/not-exports/page.html")
        let transcript = corpus("exports/imessage/not-exports/transcript.html")
        for format in [LogFormat.auto, .imessage] {
            #expect(openError(page, format: format)?.message.hasPrefix("an HTML page that is not an imessage-exporter export") == true)
            #expect(openError(transcript, format: format)?.message.hasPrefix("a transcript page written by `bubbles render --format html`") == true)
        }
    }

    @Test func messagesDatabaseRowsGetOneClearError() throws {
        let rows = corpus("exports/imessage/not-exports/message-rows.jsonl")
        let error = try #require(openError(rows, format: .auto))
        #expect(error.line == 1)
        #expect(error.message.hasPrefix("rows of the Messages database (\"guid\", \"is_from_me\"), not JSON Lines of ours"))
        #expect(error.message.contains("imessage-exporter -f txt or -f html"))
    }

    @Test func picturesOutsideTheExportAreNeverLookedUp() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imessage-html-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/export/attachments", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: corpus("exports/imessage/html/attachments/12/IMG_0042.jpeg")))
        try jpeg.write(to: URL(fileURLWithPath: folder + "/outside.jpeg"))
        try jpeg.write(to: URL(fileURLWithPath: folder + "/export/beside.jpeg"))
        try jpeg.write(to: URL(fileURLWithPath: folder + "/export/attachments/inside.jpeg"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/export/attachments/link.jpeg", withDestinationPath: folder + "/outside.jpeg")
        var body = ""
        for source in ["../outside.jpeg", "attachments/../../outside.jpeg", folder + "/outside.jpeg", "beside.jpeg",
                       "attachments/link.jpeg", "attachments/inside.jpeg"] {
            body += "<div class=\"message\">\n<div class=\"sent iMessage\">\n<p><span class=\"timestamp\">Jul 17, 2022  5:04:04 PM</span>\n"
            body += "<span class=\"sender\">Me</span></p>\n<hr><div class=\"message_part\">\n<div class=\"attachment\"><img src=\"\(source)\" loading=\"lazy\"></div>\n</div>\n</div>\n</div>\n"
        }
        let path = folder + "/export/chat.html"
        try Data(Self.page(body)).write(to: URL(fileURLWithPath: path))
        let result = try readAll(path)
        let images = result.records.compactMap { $0 as? LogImageMessage }
        #expect(images.map(\.imageName) == ["../outside.jpeg", "attachments/../../outside.jpeg", "outside.jpeg", "beside.jpeg",
                                            "attachments/link.jpeg", "attachments/inside.jpeg"])
        // Only the file inside the export, by its path there, is read.
        #expect(images.map { $0.pixelWidth != nil } == [false, false, false, false, false, true])
    }

    @Test func convertedRecordsReadBackTheSame() throws {
        let result = try readAll(corpus(Self.chat))
        let back = try roundTrip(result.records)
        #expect(back.map(\.nativeLine) == result.records.map(\.nativeLine))
    }

    @Test func aLongPageIsReadAsAStream() throws {
        // Thousands of messages: records come out while the page is read, each as it closes.
        var body = ""
        for k in 0..<3000 {
            body += "<div class=\"message\">\n<div class=\"received\">\n<p><span class=\"timestamp\">Jul 17, 2022  5:04:04 PM</span>\n"
            body += "<span class=\"sender\">Ana</span></p>\n<hr><div class=\"message_part\">\n<span class=\"bubble\">message \(k)</span>\n</div>\n</div>\n</div>\n"
        }
        let reader = try LogSource.open(bytes: Self.page(body), name: "long.html", options: LogReadOptions(timeZone: utc))
        var count = 0
        for entry in reader {
            guard case .message(let record, let position) = entry else { continue }
            #expect((record as? LogTextMessage)?.text == "message \(count)" && position.line == 9 + 9 * count)
            count += 1
        }
        #expect(count == 3000)
    }

    /// `body` in the exporter's page header and footer.
    static func page(_ body: String) -> [UInt8] {
        Array(("<html>\n<head>\n<meta charset=\"UTF-8\"><style>\n.message .sent { color: white; }\n.message .received { color: black; }\n</style>\n</head>\n<body>\n"
            + body + "\n</body></html>").utf8)
    }
}

/// The tokenizer and character references under `IMessageHTML`.
@Suite struct HTMLTokensTests {
    func tokens(_ lines: [String]) -> [String] {
        var tokenizer = HTMLTokenizer()
        var out: [String] = []
        let emit: (HTMLTokenizer.Token, Int) -> Void = { token, line in
            switch token {
            case .start(let tag): out.append("\(line)<\(tag.name)\(tag.attributes.map { " \($0.name)=\($0.value)" }.joined())\(tag.selfClosing ? "/" : "")>")
            case .end(let name): out.append("\(line)</\(name)>")
            case .text(let text): out.append("\(line)\(text.debugDescription)")
            case .overlongTag: out.append("\(line)overlong")
            }
        }
        for (k, line) in lines.enumerated() { tokenizer.feed(Array((line + "\n").utf8), line: k + 1, emit: emit) }
        tokenizer.finish(emit: emit)
        return out
    }

    @Test func tagsAttributesAndTextAcrossLines() {
        #expect(tokens(["<DIV class =\"announcement\" data-x='1 2' hidden><img src=a.png/>", "a < b &amp; c<span", "  class=\"tapback\">x</span></div>"]) == [
            "1<div class=announcement data-x=1 2 hidden=>", "1<img src=a.png/>", "1\"\\na < b & c\"", "2<span class=tapback>", "3\"x\"", "3</span>", "3</div>",
            "3\"\\n\"",
        ])
        // The exporter's stray comma, and an audio tag it never closes.
        #expect(tokens(["<div class=\"message\", id=\"r-G\"><audio controls src=\"a b.caf\" type=\"audio/x-caf\" </audio>"]) == [
            "1<div class=message ,= id=r-G>", "1<audio controls= src=a b.caf type=audio/x-caf <= audio=>", "1\"\\n\"",
        ])
    }

    @Test func rawTextCommentsAndDeclarations() {
        #expect(tokens(["<!DOCTYPE html><!-- <div> --><style>.a > .b { }</style><xmp>a &amp; <b></xmp>", "<?xml?>end"]) == [
            "1<style>", "1</style>", "1<xmp>", "1\"a &amp; <b>\"", "1</xmp>", "1\"\\n\"", "2\"end\\n\"",
        ])
    }

    @Test func aTagCutOffByTheEndIsDropped() {
        #expect(tokens(["<p>one</p><div class=\"rec"]) == ["1<p>", "1\"one\"", "1</p>"])
    }

    @Test func characterReferences() {
        func decode(_ text: String) -> String { HTMLEntities.decode(Array(text.utf8)[...]) }
        #expect(decode("&lt;3 &amp;&quot;&#39;&apos;&nbsp;") == "<3 &\"''\u{A0}")
        #expect(decode("&#x1F600;&#128512;&#X41;") == "😀😀A")
        #expect(decode("&#0;&#xD800;&#x110000;") == "\u{FFFD}\u{FFFD}\u{FFFD}")
        // Not references we know: kept as written.
        #expect(decode("&amp &mdash; & &#; &#x;") == "&amp &mdash; & &#; &#x;")
    }
}
