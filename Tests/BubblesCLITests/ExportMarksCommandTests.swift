import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// What the exports' own marks look like end to end: Telegram forwards and spoilers, Discord
/// markup, a Slack channel folder given alone.
@Suite struct ExportMarksCommandTests {
    static let forwards = corpus("exports/telegram/forwards/result.json")

    @Test func aTelegramForwardIsDrawnOnTheQuoteRowWithItsOriginEscaped() {
        let run = bubbles("render", Self.forwards, "--width", "70", "--color", "never", "--tz", "UTC")
        #expect(run.code == 0)
        #expect(run.output.contains("│ ↪ Forwarded from Alpine Weather Service"))
        #expect(run.output.contains("│ ↪ Forwarded from Aiko Tanaka"))
        #expect(run.output.contains("│ ↪ Forwarded from Climbing crew 🧗"))
        #expect(run.output.contains("│ ↪ Forwarded  "))
        // A reply to a forward quotes the forwarded text, under the forwarder's name.
        #expect(run.output.contains("│ ↩ Lena Vogel: St"))
        // The origin's controls are drawn visibly; none reaches the terminal.
        #expect(run.output.contains("↪ Forwarded from Evil^[[2J<RLO>Name^G"))
        #expect(!run.output.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" })
        let ascii = bubbles("render", Self.forwards, "--width", "70", "--color", "never", "--tz", "UTC", "--ascii")
        #expect(ascii.output.contains("| > Forwarded from Alpine Weather Service"))
    }

    @Test func aForwardThatIsAlsoAReplyShowsBothOnItsOneQuoteRow() throws {
        let log = #"{"id":"1","type":"text","from":"Ann","date":"2024-06-10T09:00:00Z","text":"hi"}"# + "\n"
            + #"{"id":"2","type":"text","from":"Bo","date":"2024-06-10T09:01:00Z","replyTo":"1","forwardedFrom":"Cy","text":"hello there, everyone: how are you all doing?"}"# + "\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fwd-reply-\(UUID().uuidString).jsonl").path
        try log.write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = bubbles("render", path, "--width", "60", "--color", "never", "--tz", "UTC")
        #expect(run.code == 0)
        #expect(run.output.contains("│ ↪ Forwarded from Cy · ↩ Ann: hi"))
        let heights = bubbles("heights", path, "--width", "60", "--tz", "UTC").outputLines
        #expect(heights.count == 3)
        // One quote row, not two: the reply alone takes the same height.
        let replyOnly = log.replacingOccurrences(of: #","forwardedFrom":"Cy""#, with: "")
        let replyPath = path + ".reply.jsonl"
        try replyOnly.write(toFile: replyPath, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: replyPath) }
        let height = { (lines: [Substring]) in lines.last.map { String($0) }?.components(separatedBy: "\"height\":")[1].prefix(while: \.isNumber) }
        #expect(height(heights) == height(bubbles("heights", replyPath, "--width", "60", "--tz", "UTC").outputLines))
    }

    /// The tester's log: a short forwarded reply. The forward's line is whole, the reply's quote
    /// follows it cut at its minimum, and what `heights` says is what `render` draws.
    @Test func aShortForwardedReplyKeepsTheWholeForwardLineAndTheReply() throws {
        let log = #"{"id":"1","type":"text","from":"Ann","date":"2024-05-01T10:00:00Z","text":"the original"}"# + "\n"
            + #"{"id":"2","type":"text","from":"Bob","date":"2024-05-01T10:01:00Z","replyTo":"1","forwardedFrom":"Carol","text":"fwd reply short"}"# + "\n"
            + #"{"id":"3","type":"text","from":"Bob","date":"2024-05-01T10:02:00Z","replyTo":"1","forwardedFrom":"","text":"fwd reply short"}"# + "\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fwd-short-\(UUID().uuidString).jsonl").path
        try log.write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let wide = bubbles("render", path, "--width", "80", "--color", "never", "--tz", "UTC")
        #expect(wide.code == 0)
        #expect(wide.output.contains("│ ↪ Forwarded from Carol · ↩ Ann: the orig… │"))
        #expect(wide.output.contains("│ ↪ Forwarded · ↩ Ann: the orig… │"))
        // At 40 the bubble's maximum (26 cells) holds the forward's line whole and what room is left of the reply.
        let narrow = bubbles("render", path, "--width", "40", "--color", "never", "--tz", "UTC")
        #expect(narrow.output.contains("│ ↪ Forwarded from Carol · … │"))
        #expect(narrow.output.contains("│ ↪ Forwarded · ↩ Ann: the … │"))
        for width in [1, 5, 12, 20, 30, 40, 45, 60, 100] {
            let drawn = bubbles("render", path, "--width", String(width), "--color", "never", "--tz", "UTC")
            let heights = bubbles("heights", path, "--width", String(width), "--tz", "UTC").outputLines
            let total = heights.compactMap { $0.components(separatedBy: "\"height\":").dropFirst().first.map { Int($0.prefix(while: \.isNumber)) } ?? nil }
            #expect(total.count == 4 && total.reduce(0, +) == drawn.outputLines.count, "width \(width)")
        }
    }

    @Test func spoilersAreHiddenUnlessRevealSpoilersIsGiven() {
        let hidden = bubbles("render", Self.forwards, "--width", "70", "--color", "never", "--tz", "UTC")
        #expect(hidden.output.contains("The crux is [spoiler], and the top has a view"))
        #expect(!hidden.output.contains("undercling"))
        let shown = bubbles("render", Self.forwards, "--width", "80", "--color", "never", "--tz", "UTC", "--reveal-spoilers")
        #expect(shown.code == 0)
        #expect(shown.output.contains("The crux is a hidden undercling on the left"))
        let converted = bubbles("convert", Self.forwards, "--reveal-spoilers")
        #expect(converted.output.contains("surprise cake 🎂 at the hut"))
    }

    @Test func theConversionOfForwardsGivesTheSameHeightsAndTranscript() throws {
        let converted = bubbles("convert", Self.forwards)
        #expect(converted.code == 0)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("forwards-\(UUID().uuidString).jsonl").path
        try converted.output.write(toFile: path, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        for width in ["12", "40", "70"] {
            #expect(bubbles("heights", path, "--width", width, "--tz", "UTC").output
                == bubbles("heights", Self.forwards, "--width", width, "--tz", "UTC").output)
            #expect(bubbles("render", path, "--width", width, "--color", "never", "--tz", "UTC").output
                == bubbles("render", Self.forwards, "--width", width, "--color", "never", "--tz", "UTC").output)
        }
    }

    @Test func aSlackChannelFolderRendersWithOneWarning() {
        let run = bubbles("render", corpus("exports/slack/export/general"), "--width", "60", "--color", "never", "--tz", "UTC")
        #expect(run.code == 0)
        let warnings = run.errors.split(separator: "\n").filter { $0.hasPrefix("bubbles: warning: ") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("the folder that holds channels.json and users.json") == true)
        #expect(run.output.contains("Welcome @U02BORIS!"))
    }

    @Test func discordMarkupIsRenderedAsDiscordShowsIt() {
        let run = bubbles("render", corpus("exports/discord/markup.json"), "--width", "80", "--color", "never", "--tz", "UTC")
        #expect(run.code == 0)
        #expect(run.output.contains("that build log :pepe_laugh: :blobdance:"))
        #expect(!run.output.contains("<:pepe_laugh:"))
    }
}
