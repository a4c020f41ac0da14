@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

/// Every fixture of every format, read with `--input auto`: each is detected as the format it is
/// (or, for the fixtures damaged on purpose, refused as that format's reader refuses it), never as
/// another one.
@Suite struct FormatDetectionCorpusTests {
    enum Outcome: Equatable {
        /// Read as this format.
        case read(LogFormat)
        /// Refused whole with the error that this format's reader gives it: detection chose it.
        case refusedAs(LogFormat)
        /// No format's: refused whole.
        case unknown
    }

    /// What `auto` makes of each fixture, by its path under Corpora. Every file under
    /// Corpora/exports and Corpora/logs (Slack's day files and lists aside: a Slack export is its
    /// folder) must be listed, and so is each export folder.
    static let expected: [String: Outcome] = {
        var table: [String: Outcome] = [
            "exports/discord/channel.json": .read(.discord),
            "exports/discord/formatting.json": .read(.discord),
            "exports/discord/markup.json": .read(.discord),
            "exports/discord/truncated.json": .refusedAs(.discord),
            "exports/telegram/damaged-full/result.json": .read(.telegram),
            "exports/telegram/damaged/result.json": .read(.telegram),
            "exports/telegram/empty-chats/result.json": .read(.telegram),
            "exports/telegram/forwards/result.json": .read(.telegram),
            "exports/telegram/full/result.json": .read(.telegram),
            "exports/telegram/message-kinds/result.json": .read(.telegram),
            "exports/telegram/old-dates/result.json": .read(.telegram),
            "exports/telegram/reply-other-chat/result.json": .read(.telegram),
            "exports/telegram/single/result.json": .read(.telegram),
            // A malformed chat is one rejected record; the rest of the export is read.
            "exports/telegram/stray-chat/result.json": .read(.telegram),
            "exports/telegram/truncated/result.json": .refusedAs(.telegram),
            "exports/telegram/unknown-schema.json": .unknown,
            "exports/whatsapp/unknown-format.txt": .unknown,
            "exports/zip/WhatsApp Chat - Camille.zip": .read(.whatsapp),
            "exports/zip/whatsapp-with-media.zip": .read(.whatsapp),
            "exports/zip/takeout-hangouts.zip": .read(.hangouts),
            "exports/zip/WhatsApp Chat with Ana.zip": .read(.whatsapp),
            "exports/zip/android-renamed.zip": .read(.whatsapp),
            "exports/zip/android-with-document.zip": .read(.whatsapp),
            "exports/zip/damaged-chat.zip": .read(.whatsapp),
            "exports/whatsapp/mixed-order.txt": .refusedAs(.whatsapp),
            "exports/zip/general.zip": .read(.slack),
            "exports/zip/slack-channel-folder.zip": .read(.slack),
            "exports/zip/slack-day-files-in-two-folders.zip": .unknown,
            "exports/zip/slack-export.zip": .read(.slack),
            "exports/zip/slack-full-export.zip": .read(.slack),
            "exports/zip/slack-hostile.zip": .read(.slack),
            "exports/zip/slack-without-channels-list.zip": .unknown,
            "exports/zip/two-chats.zip": .read(.whatsapp),
            "exports/slack/bots": .read(.slack),
            "exports/slack/damaged": .read(.slack),
            "exports/slack/emoji": .read(.slack),
            "exports/slack/export": .read(.slack),
            "exports/slack/formatting": .read(.slack),
            "exports/slack/full-export": .read(.slack),
            "exports/slack/integrations": .read(.slack),
            "exports/messenger/facebook": .read(.messenger),
            "exports/messenger/facebook-2024-03-02.zip": .read(.messenger),
            "exports/messenger/facebook/your_facebook_activity/messages/inbox/climbingcrew_7253019921": .read(.messenger),
            "exports/messenger/facebook/your_facebook_activity/messages/inbox/climbingcrew_7253019921/message_1.json": .read(.messenger),
            "exports/messenger/facebook/your_facebook_activity/messages/inbox/climbingcrew_7253019921/message_2.json": .read(.messenger),
            "exports/messenger/facebook/your_facebook_activity/messages/inbox/marcorossi_1122334455/message_1.json": .read(.messenger),
            "exports/messenger/instagram": .read(.messenger),
            "exports/messenger/instagram/your_instagram_activity/messages/inbox/aikotanaka_17841400012345678/message_1.json": .read(.messenger),
            "exports/messenger/e2ee/marcorossi_10.json": .read(.messenger),
            "exports/messenger/damaged": .read(.messenger),
            "exports/messenger/damaged/inbox/ana_55/message_1.json": .read(.messenger),
            "exports/messenger/damaged/inbox/ana_55/message_2.json": .refusedAs(.messenger),
            "exports/messenger/damaged/truncated.json": .refusedAs(.messenger),
            "exports/imessage/Climbing crew - 12.txt": .read(.imessage),
            "exports/imessage/damaged.txt": .unknown,
            "exports/imessage/html/Climbing crew - 12.html": .read(.imessage),
            "exports/imessage/html/+15555550123 - 3.html": .read(.imessage),
            "exports/imessage/html/damaged.html": .read(.imessage),
            "exports/imessage/html/attachments/12/IMG_0042.jpeg": .unknown,
            // HTML that is no export: ours, and a web page.
            "exports/imessage/not-exports/transcript.html": .unknown,
            "exports/imessage/not-exports/page.html": .unknown,
            "exports/imessage/not-exports/message-rows.jsonl": .unknown,
            "exports/signal/Ana Lima/chat.md": .read(.signal),
            "exports/signal/Ana Lima/data.json": .read(.signal),
            "exports/line/Chat with Ana Lima.txt": .read(.line),
            "exports/line/クライミング部.txt": .read(.line),
            "exports/line/th-buddhist.txt": .read(.line),
            "exports/line/damaged.txt": .read(.line),
            "exports/matrix/matrix - Climbing crew - Chat Export.json": .read(.matrix),
            "exports/skype/messages.json": .read(.skype),
            "exports/skype/8_live_lena.vogel_export.tar": .read(.skype),
            "exports/skype/damaged.json": .refusedAs(.skype),
            "exports/skype/more-kinds/messages.json": .read(.skype),
            "exports/googlechat/Takeout": .read(.googlechat),
            "exports/googlechat/takeout-20240305T101200Z-001.zip": .read(.googlechat),
            "exports/googlechat/damaged": .read(.googlechat),
            "exports/googlechat/Takeout/Google Chat/Groups/Space AAAAq3bX0cM": .read(.googlechat),
            "exports/googlechat/Takeout/Google Chat/Groups/Space AAAAq3bX0cM/messages.json": .read(.googlechat),
            "exports/googlechat/Takeout/Google Chat/Groups/DM 9wH1sIAAAAE/messages.json": .read(.googlechat),
            "exports/googlechat/damaged/Google Chat/Groups/DM AAAAbad00/messages.json": .read(.googlechat),
            "exports/googlechat/damaged/Google Chat/Groups/Space AAAAcut00/messages.json": .refusedAs(.googlechat),
            "exports/hangouts/Hangouts.json": .read(.hangouts),
            "exports/hangouts/truncated.json": .refusedAs(.hangouts),
            // Takeout's other files of a group are not chats.
            "exports/googlechat/Takeout/Google Chat/Groups/Space AAAAq3bX0cM/group_info.json": .unknown,
            "exports/googlechat/Takeout/Google Chat/Groups/DM 9wH1sIAAAAE/group_info.json": .unknown,
            "exports/googlechat/damaged/Google Chat/Groups/DM AAAAbad00/group_info.json": .unknown,
            "exports/googlechat/damaged/Google Chat/Groups/Space AAAAcut00/group_info.json": .unknown,
            "exports/googlechat/Takeout/Google Chat/Users/User 104483920123456789012/user_info.json": .unknown,
            "exports/googlechat/Takeout/Google Chat/Groups/Space AAAAq3bX0cM/File-IMG_2041.jpg": .unknown,
            "exports/googlechat/Takeout/Google Chat/Groups/Space AAAAq3bX0cM/File-waiver.pdf": .unknown,
            "exports/googlechat/Takeout/Google Chat/Groups/Space AAAAq3bX0cM/File-5066917023354741092_account_id=1.png": .unknown,
        ]
        for name in try! FileManager.default.contentsOfDirectory(atPath: corpus("exports/whatsapp")) where name.hasSuffix(".txt") {
            if table["exports/whatsapp/" + name] == nil { table["exports/whatsapp/" + name] = .read(.whatsapp) }
        }
        for name in try! FileManager.default.contentsOfDirectory(atPath: corpus("logs")) where name.hasSuffix(".jsonl") {
            table["logs/" + name] = .read(.jsonl)
        }
        return table
    }()

    /// The year given (`--year`) to fixtures whose dates have none and whose names give none:
    /// without it the WhatsApp reader refuses them and asks for it.
    static let givenYear: [String: Int] = [
        "exports/whatsapp/android-en_US-month-first-no-year.txt": 2012,
    ]

    /// Every fixture file that can be read on its own.
    static func fixtureFiles() -> [String] {
        var files: [String] = []
        for root in ["exports", "logs"] {
            let enumerator = FileManager.default.enumerator(atPath: corpus(root))!
            while let relative = enumerator.nextObject() as? String {
                let path = root + "/" + relative
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: corpus(path), isDirectory: &isFolder)
                if isFolder.boolValue || path.hasSuffix("README.md") || path.hasPrefix("exports/slack/") { continue }
                files.append(path)
            }
        }
        return files.sorted()
    }

    @Test func everyFixtureIsListed() {
        let missing = Self.fixtureFiles().filter { Self.expected[$0] == nil }
        #expect(missing.isEmpty, "fixtures with no expected detection: \(missing)")
    }

    @Test(arguments: expected.keys.sorted())
    func autoDetectsWhatTheFixtureIs(path: String) throws {
        var options = LogReadOptions(timeZone: utc)
        options.year = Self.givenYear[path]
        switch Self.expected[path]! {
        case .read(let format):
            #expect(try LogSource.open(path: corpus(path), options: options).format == format, "\(path)")
        case .refusedAs(let format):
            let auto = try #require(openError(corpus(path), options: options), "\(path) was read")
            #expect(auto.description == openError(corpus(path), format: format, options: options)?.description, "\(path)")
        case .unknown:
            #expect(openError(corpus(path), options: options) != nil, "\(path) was read")
        }
    }
}
