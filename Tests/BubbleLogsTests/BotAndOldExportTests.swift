import BubbleLayout
@testable import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing

/// Slack integrations' posts and Telegram exports older than `date_unixtime`.
@Suite struct BotAndOldExportTests {
    @Test func slackBotPostsShowTheBotsNameAndTheirAttachments() throws {
        let result = try readAll(corpus("exports/slack/bots"))
        #expect(result.diagnostics.isEmpty && result.counts.reconciles)
        #expect(result.kinds == ["text", "text", "text", "text"])
        // bot_profile.name, then username; an ordinary message keeps its user.
        #expect(result.senders == ["GitHub", "ci-bot", "alice", "deploybot"])
        #expect(result.texts[0] == "[acme/api] Pull request opened by alice (https://github.com/alice)\n#42 Fix login redirect (https://github.com/acme/api/pull/42)\nCloses #41 & adds a test")
        // Only a fallback: the fallback is the text.
        #expect(result.texts[1] == "Build #318 failed on main (2 tests)")
        // The post's own text first, then the attachment's title and text (not its fallback too).
        #expect(result.texts[3] == "Deploy finished\napi v2.4.1\n3 services restarted")
        #expect(result.texts.allSatisfy { !$0.isEmpty })
    }

    @Test func aBotWithNoNameIsNamedByItsID() throws {
        let users: [String: String] = [:]
        let decoder = SlackMessageDecoder(users: users, me: nil)
        let object = try #require(JSONParser().parse(Array(#"{"type":"message","subtype":"bot_message","ts":"1714730400.000100","bot_id":"B09X","text":"","attachments":[{"fallback":"ping"}]}"#.utf8)).objectValue)
        let record = try decoder.decode(ExportFields(object: object), idPrefix: "")
        #expect(record.senderName == "bot B09X" && (record as? LogTextMessage)?.text == "ping")
    }

    @Test func anIntegrationPostingOnlyItsIDIsNamedByTheNoticeThatAddedIt() throws {
        let result = try readAll(corpus("exports/slack/integrations"))
        #expect(result.diagnostics.isEmpty && result.counts.reconciles)
        #expect(result.kinds == ["system", "text", "text", "text", "text"])
        #expect((result.records[0] as? LogSystemMessage)?.notice == "alice added an integration to this channel: jenkins-ci")
        // bot_message posts carrying only `bot_id` B0JL6RASU take the bot_link's label.
        #expect(result.senders == [nil, "jenkins-ci", "jenkins-ci", "bot B0ZZ9OLD", "alice"])
        #expect(result.texts[2] == "Build #8 failed")
    }

    @Test func aBotsNameOnOnePostNamesItsOtherPosts() throws {
        var decoder = SlackMessageDecoder(users: [:], me: nil)
        let day = try #require(JSONParser().parse(Array(#"""
            [{"type":"message","subtype":"bot_message","ts":"1.000100","bot_id":"B1","text":"a"},
             {"type":"message","ts":"2.000100","bot_id":"B1","text":"b","bot_profile":{"name":"Deployer"}},
             {"type":"message","subtype":"bot_message","ts":"3.000100","bot_id":"B2","username":"","text":"c","bot_profile":{"name":""}}]
            """#.utf8)).arrayWithLines)
        decoder.learnBotNames(from: day)
        #expect(decoder.botNames == ["B1": "Deployer"])
        let first = try decoder.decode(ExportFields(object: try #require(day.elements[0].objectValue)), idPrefix: "")
        #expect(first.senderName == "Deployer")
        #expect(SlackMessageDecoder.linkLabel("<https://a.slack.com/services/B1|ci>") == "ci")
        #expect(SlackMessageDecoder.linkLabel("<https://a.slack.com/services/B1>") == nil)
    }

    @Test func telegramExportsWithOnlyDateAreReadInTheGivenZone() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let result = try readAll(corpus("exports/telegram/old-dates/result.json"), options: LogReadOptions(timeZone: berlin))
        #expect(result.diagnostics.isEmpty && result.counts.recordsIn == 5 && result.counts.reconciles)
        // 19:20:30 in Berlin in November is 18:20:30 UTC.
        #expect(result.records[0].date == utcDate(2018, 11, 5, 18, 20, 30))
        #expect(result.records[1].isEdited)
        // A date with its own zone and a fraction is read as written, whatever the options' zone.
        #expect(LogTimestamp.microseconds(of: result.records[3].date) == LogTimestamp.microseconds(of: utcDate(2018, 11, 5, 18, 25, 10)) + 250_000)
    }

    @Test func telegramMessagesWithoutIDAreNamedByTheirPlaceStably() throws {
        let path = corpus("exports/telegram/old-dates/result.json")
        let first = try readAll(path).records.map(\.id)
        let second = try readAll(path).records.map(\.id)
        #expect(first == ["101", "102", "line23", "104", "line38"])
        #expect(first == second)
        #expect(Set(first).count == first.count)
    }
}
