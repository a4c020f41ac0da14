import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

@Suite struct DiscordImportTests {
    @Test func channelExportReadsEveryMessage() throws {
        let path = corpus("exports/discord/channel.json")
        let result = try readAll(path, options: LogReadOptions(me: "Sam", timeZone: utc))
        #expect(result.format == .discord)
        #expect(result.diagnostics.isEmpty)
        #expect(result.kinds == ["system", "text", "image", "system", "system", "system", "text", "text"])
        #expect(result.texts == [
            "Rin 🌸 joined the server",
            "Hi all! Which font do you use for ╭─╮ boxes?",
            "screenshot.png",
            "kofi pinned a message",
            "Sam started a call that lasted 12 minutes",
            "Sam added Mo to the group",
            "[file: notes.pdf]",
            "مرحبا! שלום! こんにちは 👋🏾",
        ])
        #expect(result.senders == [nil, "Rin 🌸", "kofi", nil, nil, nil, "Sam", "Mo"])
        #expect(result.records[1].isEdited)
        #expect(result.records[1].date == utcDate(2024, 5, 1, 9, 1, 30).addingTimeInterval(0.5))
        #expect(result.records[2].date == utcDate(2024, 5, 1, 9, 5))
        #expect(result.records[2].replyToID == "1100000000000000002")
        #expect(result.records[3].replyToID == "1100000000000000002")
        #expect(result.records[6].direction == .outgoing)
        let shot = try #require(result.records[2] as? LogImageMessage)
        #expect(shot.pixelWidth == nil && shot.caption == "Iosevka, and here's how it looks\n[file: config.toml]")
        #expect(result.positions[2].line == 40 && result.positions[2].messageIndex == 3)
        #expect(result.counts.recordsIn == 8 && result.counts.reconciles)
    }

    @Test func truncatedExportIsOneWholeFileError() throws {
        let path = corpus("exports/discord/truncated.json")
        let error = try #require(openError(path, format: .discord))
        #expect(error.message.hasPrefix("truncated JSON at column 155: the text ends where a member name was expected"))
        #expect(error.line == 37)
    }

    @Test func exportConvertsToNativeAndReadsBackTheSame() throws {
        let records = try readAll(corpus("exports/discord/channel.json")).records
        let back = try roundTrip(records)
        #expect(back.count == records.count)
        for (a, b) in zip(records, back) { #expect(a.isSameRecord(as: b)) }
    }
}

@Suite struct DiscordMarkupTests {
    @Test func customEmojiMentionsAndTimestampsReadAsDiscordShowsThem() throws {
        // DiscordChatExporter run with --markdown false keeps Discord's markup in "content".
        let result = try readAll(corpus("exports/discord/markup.json"), options: LogReadOptions(timeZone: utc))
        #expect(result.diagnostics.isEmpty)
        #expect(result.texts == [
            "that build log :pepe_laugh: :blobdance:",
            "@Rin 🌸 @kofi see #general, not #unknown-channel; ping @unknown-role or @unknown-user",
            "release 2024-05-02 18:00, at 18:00 on 2024-05-02 (2024-05-02 18:00)",
            // A link in angle brackets is shown as the link alone, as Discord shows it.
            "a < b > c, https://example.com/x, <:x:1>, <@me>, <t:soon> and <id:customize> stay",
        ])
        #expect(result.counts.recordsIn == 4 && result.counts.reconciles)
    }

    @Test func timestampsAreShownInTheReadsZone() throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let result = try readAll(corpus("exports/discord/markup.json"), options: LogReadOptions(timeZone: berlin))
        #expect(result.texts[2] == "release 2024-05-02 20:00, at 20:00 on 2024-05-02 (2024-05-02 20:00)")
    }

    @Test func eachTimestampStyleShowsWhatDiscordsStyleShows() throws {
        // 1700000000 is 2023-11-14 22:13:20 UTC, a Tuesday; in Auckland (UTC+13) a Wednesday.
        let markup = DiscordMarkup(users: [:], channelID: nil, channelName: nil, timeZone: utc)
        let styles = ["t", "T", "d", "D", "f", "F", "R"].map { markup.resolve("<t:1700000000:\($0)>") }
        #expect(styles == ["22:13", "22:13:20", "2023-11-14", "2023-11-14", "2023-11-14 22:13",
                           "Tuesday, 2023-11-14 22:13", "2023-11-14 22:13"])
        #expect(markup.resolve("<t:1700000000>") == "2023-11-14 22:13")
        let auckland = DiscordMarkup(users: [:], channelID: nil, channelName: nil,
                                     timeZone: try #require(TimeZone(identifier: "Pacific/Auckland")))
        #expect(auckland.resolve("<t:1700000000:F>") == "Wednesday, 2023-11-15 11:13")
        #expect(auckland.resolve("<t:1700000000:D>") == "2023-11-15")
        #expect(markup.resolve("<t:1700000000:x>") == "<t:1700000000:x>")
    }

    @Test func aMentionedNameIsCutByTheExpansionLimit() {
        let markup = DiscordMarkup(users: ["1": String(repeating: "n", count: 1000)], channelID: nil, channelName: nil, timeZone: utc)
        let resolved = markup.resolve("<@1>")
        #expect(resolved.count < 300 && resolved.hasPrefix("@nnn") && resolved.hasSuffix("…"))
    }
}

@Suite struct SlackImportTests {
    @Test func allChannelsInChannelsJSONOrderEachIntroduced() throws {
        let folder = corpus("exports/slack/export")
        let result = try readAll(folder, options: LogReadOptions(me: "Sam", timeZone: utc))
        #expect(result.format == .slack)
        #expect(result.diagnostics.isEmpty)
        #expect(result.texts == [
            "#general",
            "Boris Ivanov joined the channel",
            "Welcome @Boris Ivanov! Release notes: v2.0 notes (https://example.com/releases/2.0) & more in #random",
            "dashboard.png",
            "Looks great 👍",
            "alice set the channel topic: Launch week 🚀",
            "Deploy finished: 42 services green ✅",
            "[file: spec.pdf]\nSpec attached",
            "Boris Ivanov left the channel",
            "#random",
            "☕ or 🍵?",
            "🍵 obviously",
        ])
        #expect(result.senders == [nil, nil, "alice", "Boris Ivanov", "Sam", nil, "deploybot", "Sam", nil, nil, "alice", "Boris Ivanov"])
        #expect(result.kinds == ["system", "system", "text", "image", "text", "system", "text", "text", "system", "system", "text", "text"])
        let shot = try #require(result.records[3] as? LogImageMessage)
        #expect(shot.pixelWidth == 1920 && shot.pixelHeight == 1080 && shot.caption == "Thanks! Screenshot of the new dashboard:")
        #expect(result.records[4].replyToID == "C01GENERAL/1714557720.000300")
        #expect(result.records[4].isEdited && result.records[4].direction == .outgoing)
        #expect(result.records[2].id == "C01GENERAL/1714557660.000200")
        #expect(result.records[2].date == Date(timeIntervalSince1970: 1_714_557_660.0002))
        #expect(result.counts.recordsIn == 12 && result.counts.reconciles)
        #expect(result.positions[2].file.hasSuffix("general/2024-05-01.json") && result.positions[2].messageIndex == 2)
    }

    @Test func oneChannelCanBeChosenByNameOrHashName() throws {
        for name in ["random", "#random", "C02RANDOM"] {
            let result = try readAll(corpus("exports/slack/export"), options: LogReadOptions(timeZone: utc, conversation: name))
            #expect(result.records.map(\.id) == ["1714558000.000100", "1714558060.000200"])
        }
        #expect(openError(corpus("exports/slack/export"), options: LogReadOptions(conversation: "nope"))?.message
            == "no channel \"nope\"; the export has #general, #random")
    }

    @Test func aDamagedDayFileIsOneRejectedRecordAndTheRestIsRead() throws {
        let folder = corpus("exports/slack/damaged")
        let result = try readAll(folder, format: .slack)
        #expect(result.diagnostics.count == 1)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(diagnostic.file == folder + "/general/2024-05-01.json")
        #expect(diagnostic.reason.hasPrefix("truncated JSON at column 110: the text ends where"))
        #expect(diagnostic.reason.hasSuffix("this day's messages are lost"))
        #expect(result.records.count == 3)
        #expect(result.counts.reconciles)
    }

    @Test func aFolderWithoutChannelsIsNotASlackExport() {
        let folder = corpus("exports/discord")
        #expect(openError(folder)?.message == "not a Slack export: expected channels.json (and users.json, and one folder per channel) in this folder")
        #expect(openError(corpus("exports/discord/channel.json"), format: .slack)?.message.hasPrefix("a Slack export is a folder") == true)
    }

    @Test func markupIsResolvedToPlainText() {
        let decoder = SlackMessageDecoder(users: ["U1": "Ann"], me: nil)
        #expect(decoder.resolve("<@U1> <@U9> <!here> <!channel|@channel> <#C1|dev> <mailto:a@b.c|a@b.c> <https://x.y> 1 &lt; 2 &amp;&amp; 3 &gt; 2")
            == "@Ann @U9 @here @channel #dev a@b.c (mailto:a@b.c) https://x.y 1 < 2 && 3 > 2")
        // A user group and a date, as Slack's API documents them: the group's handle and the date's fallback.
        #expect(decoder.resolve("ping <!subteam^S1|@team> on <!date^1392734382^{date_short}|Feb 18, 2014>, <!subteam^S2>")
            == "ping @team on Feb 18, 2014, @S2")
    }

    /// An export with private channels, a group DM and a DM (`groups.json`, `mpims.json`,
    /// `dms.json`, as Business+ exports hold them), a folder no list names, and the AppleDouble
    /// file macOS leaves beside a day file: every conversation is read, none silently.
    @Test func privateChannelsGroupDMsAndDMsAreReadAsConversations() throws {
        for path in [corpus("exports/slack/full-export"), corpus("exports/zip/slack-full-export.zip")] {
            let reader = try LogSource.open(path: path, options: LogReadOptions(timeZone: utc))
            var texts: [String] = []
            var conversations: [String?] = []
            var diagnostics: [String] = []
            for entry in reader {
                switch entry {
                case let .message(record, _):
                    texts.append((record as? LogTextMessage)?.text ?? (record as? LogSystemMessage)?.notice ?? "")
                    conversations.append(record.conversationID)
                case let .diagnostic(diagnostic): diagnostics.append(diagnostic.description)
                }
            }
            #expect(diagnostics.isEmpty, "\(path)")
            #expect(texts == ["#general", "Morning all", "#secret", "Launch moves to Friday",
                              "group DM: alice, Boris Ivanov, Sam", "Lunch at noon?",
                              "DM: alice, Boris Ivanov", "Can you review my PR?",
                              "#unlisted", "A channel the lists left out"], "\(path)")
            #expect(conversations == ["general", "general", "secret", "secret", "mpdm-alice--boris--sam-1", "mpdm-alice--boris--sam-1",
                                      "D01ALBO", "D01ALBO", "unlisted", "unlisted"], "\(path)")
            #expect(reader.warnings.map(\.reason) == [
                "a folder of day files that channels.json, groups.json, mpims.json and dms.json do not list: read as #unlisted"])
            #expect(reader.counts.reconciles)
            // A DM is chosen by its id, which is its folder's name.
            let dm = try readAll(path, options: LogReadOptions(timeZone: utc, conversation: "D01ALBO"))
            #expect(dm.texts == ["Can you review my PR?"])
        }
    }

    @Test func exportConvertsToNativeAndReadsBackTheSame() throws {
        let records = try readAll(corpus("exports/slack/export")).records
        let back = try roundTrip(records)
        #expect(back.count == records.count)
        for (a, b) in zip(records, back) { #expect(a.isSameRecord(as: b)) }
    }
}

@Suite struct SlackChannelFolderTests {
    @Test func aChannelFolderAloneIsReadAsThatChannelWithAWarningToPointAtTheRoot() throws {
        let folder = corpus("exports/slack/export/general")
        let reader = try LogSource.open(path: folder, options: LogReadOptions(timeZone: utc))
        #expect(reader.format == .slack)
        let warning = try #require(reader.warnings.first)
        #expect(reader.warnings.count == 1)
        #expect(warning.file == folder && warning.line == nil)
        #expect(warning.reason.hasPrefix("one channel's folder of a Slack export"))
        #expect(warning.reason.contains("read as #general"))
        #expect(warning.reason.contains("the folder that holds channels.json and users.json"))
        let result = try readAll(folder)
        #expect(result.diagnostics.isEmpty)
        // Both day files, in date order, under the ids the export's own read gives them alone.
        let whole = try readAll(corpus("exports/slack/export"), options: LogReadOptions(timeZone: utc, conversation: "general"))
        #expect(result.records.map(\.id) == whole.records.map(\.id))
        #expect(result.kinds == whole.kinds)
        #expect(result.counts.recordsIn == 8 && result.counts.reconciles)
    }

    /// A zip of one channel's folder (`zip -r slack-channel-folder.zip general`), or of its day
    /// files alone (`zip general.zip *.json`, named after the archive), is read as the folder
    /// is: that channel, with the same warning. A zip of several channel folders without
    /// `channels.json` is refused as not an export, not read as one of them.
    @Test func aZipOfOneChannelsFolderIsReadAsThatChannel() throws {
        let whole = try readAll(corpus("exports/slack/export/general"))
        for name in ["slack-channel-folder.zip", "general.zip"] {
            let path = corpus("exports/zip/" + name)
            let reader = try LogSource.open(path: path, options: LogReadOptions(timeZone: utc))
            #expect(reader.format == .slack)
            #expect(reader.warnings.count == 1)
            #expect(reader.warnings.first?.reason.contains("read as #general") == true, "\(reader.warnings)")
            let result = try readAll(path)
            #expect(result.diagnostics.isEmpty)
            #expect(result.records.map(\.id) == whole.records.map(\.id))
            #expect(result.texts == whole.texts)
            #expect(result.counts.recordsIn == 8 && result.counts.reconciles)
        }
        // Named after the archive when the day files are at its root; from standard input,
        // which names nothing, `#channel`.
        let days = try Array(Data(contentsOf: URL(fileURLWithPath: corpus("exports/zip/general.zip"))))
        for (name, channel) in [("days.zip", "#days"), ("<stdin>", "#channel")] {
            let reader = try LogSource.open(bytes: days, name: name, options: LogReadOptions(timeZone: utc))
            #expect(reader.warnings.first?.reason.contains("read as \(channel);") == true, "\(name): \(reader.warnings)")
        }
        let several = openError(corpus("exports/zip/slack-without-channels-list.zip"))
        #expect(several?.message == "day files of Slack channels in more than one folder (\"general/\", \"random/\") but no channels.json: zip the whole export, or one channel's folder alone", "\(String(describing: several))")
        let mixed = openError(corpus("exports/zip/slack-day-files-in-two-folders.zip"))
        #expect(mixed?.message.hasPrefix("day files of Slack channels in more than one folder (\"general/\", the archive's root)") == true, "\(String(describing: mixed))")
    }

    @Test func withoutUsersJSONSendersAreNamedFromTheirMessageProfileElseTheirID() throws {
        let result = try readAll(corpus("exports/slack/export/general"))
        // U01ALICE's message carries user_profile.display_name; the others carry no profile.
        #expect(result.senders == [nil, "alice", "U02BORIS", "U03SAM", nil, "deploybot", "U03SAM", nil])
        #expect(result.texts[1].hasPrefix("Welcome @U02BORIS! Release notes"))
        #expect(result.texts[0] == "U02BORIS joined the channel")
    }

    @Test func aChannelFolderCanBeChosenOnlyByItsOwnName() throws {
        #expect(try readAll(corpus("exports/slack/export/general"), options: LogReadOptions(timeZone: utc, conversation: "#general")).records.count == 8)
        #expect(openError(corpus("exports/slack/export/general"), options: LogReadOptions(conversation: "random"))?.message
            == "no channel \"random\"; this channel folder holds #general alone")
    }

    /// `cd general && bubbles render .`: the folder is named by its resolved path, not `.`.
    @Test(arguments: ["/.", "/./", "/./."])
    func aChannelFolderGivenAsDotIsNamedAfterTheRealFolder(suffix: String) throws {
        let folder = corpus("exports/slack/export/general") + suffix
        let reader = try LogSource.open(path: folder, options: LogReadOptions(timeZone: utc))
        let warning = try #require(reader.warnings.first)
        #expect(warning.reason.contains("read as #general"), "\(warning.reason)")
        #expect(try readAll(folder, options: LogReadOptions(timeZone: utc, conversation: "general")).records.count == 8)
        #expect(openError(folder, options: LogReadOptions(conversation: "channel"))?.message
            == "no channel \"channel\"; this channel folder holds #general alone")
    }

    @Test func onlyDayFileNamesMakeAChannelFolder() {
        #expect(SlackExport.isDayFileName("2024-05-01.json"))
        for name in ["channels.json", "2024-05-1.json", "2024-05-01.json.bak", "2024_05_01.json", "２０２４-05-01.json"] {
            #expect(!SlackExport.isDayFileName(name), "\(name)")
        }
    }
}
