import BubbleLayout
@testable import BubbleLogs
import Foundation
import Testing

/// An export's markup cannot expand into more than the limits: names are cut, messages stop
/// growing, each cut is a warning on a message that is still read, and nothing aborts.
@Suite struct ExpansionLimitTests {
    /// A Slack export folder holding `users`, one channel and one day of `messages`.
    private func slackExport(users: String, messages: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-slack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("general"), withIntermediateDirectories: true)
        try Data(users.utf8).write(to: folder.appendingPathComponent("users.json"))
        try Data(#"[{"id":"C1","name":"general"}]"#.utf8).write(to: folder.appendingPathComponent("channels.json"))
        try Data(messages.utf8).write(to: folder.appendingPathComponent("general/2024-05-01.json"))
        return folder.path
    }

    /// The report's bomb: a 1 MB name mentioned 3,000 times asked for 6 GB and aborted.
    @Test func aHugeNameMentionedThousandsOfTimesIsCutAndSaid() throws {
        let name = String(repeating: "N", count: 1 << 20)
        let mentions = String(repeating: "<@U1> ", count: 3_000)
        let folder = try slackExport(users: #"[{"id":"U1","name":"\#(name)"}]"#,
                                     messages: #"[{"type":"message","user":"U1","text":"\#(mentions)","ts":"1714557600.000100"}]"#)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try readAll(folder)
        let text = try #require(result.records.first as? LogTextMessage).text
        #expect(result.records.count == 1 && result.counts.rejected == 0)
        #expect(text.utf8.count <= ExpansionLimit.messageBytes + 3)
        #expect(text.hasPrefix("@" + String(repeating: "N", count: ExpansionLimit.nameScalars) + "… @"))
        #expect(result.records.first?.senderName?.unicodeScalars.count == ExpansionLimit.nameScalars + 1)
        #expect(result.diagnostics.allSatisfy(\.isWarning) && result.counts.warnings == result.diagnostics.count)
        #expect(result.diagnosticLines == ["\(folder)/general/2024-05-01.json:1: message 1: warning: a name of 1048576 bytes was cut to its first 256 characters (\"NNNNNNNNNNNNNNNNNNNNNNNN…\")"])
        #expect(result.counts.reconciles)
    }

    @Test func aMessageThatExpandsPastTheLimitStopsThere() throws {
        let name = String(repeating: "é", count: 200)
        let mentions = String(repeating: "<@U1>", count: 5_000)
        let folder = try slackExport(users: #"[{"id":"U1","name":"\#(name)"}]"#,
                                     messages: #"[{"type":"message","user":"U1","text":"\#(mentions)","ts":"1714557600.000100"}]"#)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try readAll(folder)
        let text = try #require(result.records.first as? LogTextMessage).text
        #expect(text.utf8.count <= ExpansionLimit.messageBytes + 3 && text.hasSuffix("…"))
        #expect(text.utf8.count > ExpansionLimit.messageBytes - 500)
        #expect(result.diagnosticLines.map { $0.components(separatedBy: "warning: ").last ?? "" } == ["the message expands past 1 MiB and was cut there"])
        #expect(result.counts.rejected == 0 && result.counts.messagesOut == 1)
    }

    @Test func ordinaryMentionsAreNotTouched() throws {
        let folder = try slackExport(users: #"[{"id":"U1","name":"Ada"}]"#,
                                     messages: #"[{"type":"message","user":"U1","text":"hi <@U1> and <#C1|general>","ts":"1714557600.000100"}]"#)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try readAll(folder)
        #expect(result.texts == ["hi @Ada and #general"] && result.diagnostics.isEmpty)
    }

    private func telegram(_ messages: String) -> String {
        temporaryFile(Array(#"{"name":"T","type":"personal_chat","id":1,"messages":[\#(messages)]}"#.utf8), suffix: ".json")
    }

    @Test func telegramEntitiesFlattenWithinTheLimit() throws {
        let part = #"{"type":"link","text":"\#(String(repeating: "x", count: 1_000))","href":"https://example.com/\#(String(repeating: "y", count: 1_000))"}"#
        let parts = Array(repeating: part, count: 600).joined(separator: ",")
        let path = telegram(#"{"id":1,"type":"message","date_unixtime":"1714557600","from":"A","text":[\#(parts)]}"#)
        let result = try readAll(path)
        let text = try #require(result.records.first as? LogTextMessage).text
        #expect(text.utf8.count <= ExpansionLimit.messageBytes + 3 && text.hasSuffix("…"))
        #expect(result.diagnostics.count == 1 && result.diagnostics[0].isWarning && result.counts.rejected == 0)
    }

    @Test func telegramServiceSentencesCutTheirNames() throws {
        let huge = String(repeating: "M", count: 100_000)
        let members = Array(repeating: "\"\(huge)\"", count: 50).joined(separator: ",")
        let path = telegram(#"{"id":1,"type":"service","date_unixtime":"1714557600","actor":"\#(huge)","action":"invite_members","members":[\#(members)]}"#)
        let result = try readAll(path)
        let notice = try #require(result.records.first as? LogSystemMessage).notice
        #expect(notice.utf8.count < 51 * (ExpansionLimit.nameScalars + 10))
        #expect(notice.hasPrefix(String(repeating: "M", count: ExpansionLimit.nameScalars) + "… added "))
        #expect(result.diagnostics.count == 1 && result.diagnostics[0].isWarning, "one warning, however many names were cut")
    }

    @Test func boundedTextKeepsWholeScalars() {
        var text = BoundedText()
        text.append(String(repeating: "a", count: ExpansionLimit.messageBytes - 1))
        text.append("é")
        #expect(text.isCut && text.text.hasSuffix("a…") && text.text.utf8.count == ExpansionLimit.messageBytes - 1 + 3)
        text.append("more")
        #expect(text.text.hasSuffix("a…"))
    }
}
