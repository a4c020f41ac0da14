import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// An input holding several conversations (a Telegram full export, a Slack export, JSON Lines with
/// `conversation`) reads the same whether it is the export or its conversion, keys every row
/// apart, and lets `--channel` choose one by the same rule.
@Suite struct MultiConversationTests {
    static let exports = ["exports/telegram/full/result.json", "exports/slack/export"]

    /// The export converted to a temporary JSON Lines file.
    func converted(_ export: String) throws -> String {
        let run = bubbles("convert", corpus(export), "--tz", "UTC")
        #expect(run.code == ExitCode.success)
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("conversion-\(UUID().uuidString).jsonl").path
        try run.output.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    func objects<Line: StringProtocol>(_ lines: [Line]) throws -> [[String: Any]] {
        try lines.map { try #require(try JSONSerialization.jsonObject(with: Data(String($0).utf8)) as? [String: Any]) }
    }

    /// A Telegram chat is its name where no other chat of the export has it (as a person knows
    /// it, and as `heights` then writes it), a Slack channel its name.
    @Test(arguments: zip(exports, [["Aiko Tanaka", "Family 👨‍👩‍👧"], ["general", "random"]]))
    func convertWritesEachRecordsConversationRightAfterItsId(export: String, conversations: [String]) throws {
        let run = bubbles("convert", corpus(export), "--tz", "UTC")
        #expect(run.code == ExitCode.success)
        let records = try objects(run.outputLines)
        #expect(!records.isEmpty)
        var seen: [String] = []
        for (record, line) in zip(records, run.outputLines) {
            let conversation = try #require(record["conversation"] as? String, "no conversation in \(line)")
            if seen.last != conversation { seen.append(conversation) }
            #expect(line.hasPrefix("{\"id\":") && line.contains(",\"conversation\":\"\(conversation)\",\"type\":"))
        }
        // Each conversation is one run, in the export's order.
        #expect(seen == conversations)
    }

    @Test(arguments: exports)
    func anExportAndItsConversionGiveTheSameRowsAndHeights(export: String) throws {
        let conversion = try converted(export)
        defer { try? FileManager.default.removeItem(atPath: conversion) }
        let widths = "1,24,40,80"
        let direct = bubbles("heights", corpus(export), "--width", widths, "--tz", "UTC")
        let roundTrip = bubbles("heights", conversion, "--width", widths, "--tz", "UTC")
        #expect(direct.code == ExitCode.success && roundTrip.code == ExitCode.success)
        #expect(!direct.output.isEmpty)
        #expect(direct.output == roundTrip.output)
        for format in ["--color=never", "--ascii"] {
            let drawn = bubbles("render", corpus(export), "--width", "50", "--tz", "UTC", "--color", "never", format == "--ascii" ? "--ascii" : "--width=50")
            let drawnAgain = bubbles("render", conversion, "--width", "50", "--tz", "UTC", "--color", "never", format == "--ascii" ? "--ascii" : "--width=50")
            #expect(drawn.output == drawnAgain.output)
        }
    }

    @Test(arguments: exports + ["logs/conversations.jsonl"])
    func heightsRowsCarryTheirConversationAndNoTwoShareAKey(input: String) throws {
        let run = bubbles("heights", corpus(input), "--width", "40", "--tz", "UTC")
        #expect(run.code == ExitCode.success)
        var keys: Set<String> = []
        var dateRowsByConversation: [String: Int] = [:]
        for row in try objects(run.outputLines) {
            let conversation = try #require(row["conversation"] as? String)
            let id = try #require(row["id"] as? String)
            #expect(keys.insert(conversation + "\n" + id).inserted, "\(input): two rows keyed \(conversation) \(id)")
            if row["kind"] as? String == "date" { dateRowsByConversation[conversation, default: 0] += 1 }
        }
        // Every conversation has its own date separators, the first among them.
        #expect(dateRowsByConversation.count == 2)
    }

    @Test(arguments: [("logs/conversations.jsonl", "work", ["w1", "w2", "w3"]), ("logs/conversations.jsonl", "#home", ["h1", "h2", "h3"])])
    func channelChoosesOneConversationOfJSONLines(log: String, channel: String, ids: [String]) throws {
        let run = bubbles("heights", corpus(log), "--channel", channel, "--width", "40", "--tz", "UTC", "--verbose")
        #expect(run.code == ExitCode.success)
        let rows = try objects(run.outputLines)
        #expect(rows.compactMap { $0["kind"] as? String == "date" ? nil : $0["id"] as? String } == ids)
        // The other conversation's records are said, not lost.
        #expect(run.errors.contains("3 records, 3 laid out, 0 rejected, 3 records of other conversations skipped"))
        // Its rows are those the whole log gives that conversation.
        let whole = try objects(bubbles("heights", corpus(log), "--width", "40", "--tz", "UTC").outputLines)
        let bare = channel.hasPrefix("#") ? String(channel.dropFirst()) : channel
        let expected = whole.filter { $0["conversation"] as? String == bare }.map { "\($0["id"]!) \($0["height"]!)" }
        #expect(rows.map { "\($0["id"]!) \($0["height"]!)" } == expected)
    }

    @Test(arguments: zip(exports, ["Family 👨‍👩‍👧", "#general"]))
    func channelOnAConversionChoosesAsOnTheExport(export: String, channel: String) throws {
        let conversion = try converted(export)
        defer { try? FileManager.default.removeItem(atPath: conversion) }
        let run = bubbles("heights", conversion, "--channel", channel, "--width", "40", "--tz", "UTC")
        #expect(run.code == ExitCode.success)
        let chosen = try objects(run.outputLines)
        #expect(!chosen.isEmpty)
        let whole = try objects(bubbles("heights", conversion, "--width", "40", "--tz", "UTC").outputLines)
        let bare = channel.hasPrefix("#") ? String(channel.dropFirst()) : channel
        let expected = whole.filter { $0["conversation"] as? String == bare }.map { "\($0["id"]!) \($0["height"]!)" }
        #expect(chosen.map { "\($0["id"]!) \($0["height"]!)" } == expected)
    }

    @Test func channelThatNamesNoConversationOfJSONLinesIsAUsageErrorListingThem() {
        let run = bubbles("render", corpus("logs/conversations.jsonl"), "--channel", "school", "--width", "40")
        #expect(run.code == ExitCode.usage)
        #expect(run.output.isEmpty)
        #expect(run.errors.contains("no conversation \"school\"; the log has \"work\", \"home\""))
    }

    @Test func renderDrawsInterleavedConversationsInInputOrder() throws {
        let run = bubbles("render", corpus("logs/conversations.jsonl"), "--width", "50", "--tz", "UTC", "--color", "never")
        #expect(run.code == ExitCode.success)
        let lines = run.outputLines
        func first(_ text: String) throws -> Int { try #require(lines.firstIndex { $0.contains(text) }, "\(text) not drawn") }
        let dates = lines.indices.filter { lines[$0].contains("Wed 1 May 2024") }
        #expect(dates.count == 2)
        // Each conversation's separator stands right above its own first message, not stacked.
        #expect(try dates[0] < first("Stand-up"))
        #expect(try first("Stand-up") < dates[1])
        #expect(try dates[1] < first("Dinner at 7"))
        #expect(try first("Dinner at 7") < first("Fine by me"))
        #expect(try first("Fine by me") < first("Yes 🍝"))
        #expect(try first("Yes 🍝") < first("Launch"))
        #expect(try first("Launch") < first("car keys"))
    }
}
