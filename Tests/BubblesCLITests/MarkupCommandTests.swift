import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// Discord's and Slack's markup through the commands: drawn with SGR (markers gone), measured as
/// drawn, and kept by `convert` as plain text with `styles`.
@Suite struct MarkupCommandTests {
    static let inputs = ["exports/discord/formatting.json", "exports/slack/formatting"]

    static func temporaryFile(_ name: String, _ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("markup-\(getpid())-\(name)")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func markersAreDrawnAsStylesAndNeverShown() {
        let run = bubbles("render", corpus("exports/discord/formatting.json"), "--width", "70", "--color", "always", "--tz", "UTC")
        #expect(run.code == 0, "\(run.errors)")
        #expect(run.output.contains("the release is \u{1B}[1mdone\u{1B}[0m, \u{1B}[3mfinally\u{1B}[0m and \u{1B}[4mfor real\u{1B}[0m \u{1B}[9mmaybe\u{1B}[0m"))
        #expect(run.output.contains("[spoiler]") && !run.output.contains("butler"))
        #expect(!run.output.contains("**done**") && !run.output.contains("||"))
        // Markup inside code is literal, unmatched markers and escapes are text.
        #expect(run.output.contains("make **all**"))
        #expect(run.output.contains("2 * 3 * 4, snake_case_name,"))
        let revealed = bubbles("render", corpus("exports/discord/formatting.json"), "--width", "70", "--color", "never",
                               "--tz", "UTC", "--reveal-spoilers")
        #expect(revealed.output.contains("ending: the butler did it"))
        let slack = bubbles("render", corpus("exports/slack/formatting"), "--width", "70", "--color", "always", "--tz", "UTC")
        #expect(slack.output.contains("\u{1B}[1mDeploy\u{1B}[0m is \u{1B}[3mdone\u{1B}[0m, \u{1B}[9mnot\u{1B}[0m broken"))
        #expect(slack.output.contains("2*3*4 and"))
        // A picture's caption keeps its styles too.
        #expect(run.output.contains("[image] screenshot.png") && run.output.contains("\u{1B}[1mlook\u{1B}[0m at this"))
    }

    @Test func colourChangesNoLineAndHeightsAreWhatIsDrawn() throws {
        for input in Self.inputs {
            for width in [24, 40, 70] {
                let plain = bubbles("render", corpus(input), "--width", "\(width)", "--color", "never", "--tz", "UTC")
                let styled = bubbles("render", corpus(input), "--width", "\(width)", "--color", "always", "--tz", "UTC")
                let stripped = styled.outputLines.map { $0.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) }
                #expect(stripped == plain.outputLines.map(String.init), "\(input) at \(width)")
                let heights = bubbles("heights", corpus(input), "--width", "\(width)", "--tz", "UTC")
                let total = try heights.output.split(separator: "\n").map { line -> Int in
                    let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                    return try #require(record["height"] as? Int)
                }.reduce(0, +)
                #expect(total == plain.outputLines.count, "\(input) at \(width)")
            }
        }
    }

    @Test func convertKeepsThePlainTextAndTheStyles() throws {
        for input in Self.inputs {
            let converted = bubbles("convert", corpus(input), "--tz", "UTC")
            #expect(converted.code == 0, "\(converted.errors)")
            #expect(converted.output.contains("\"styles\":[{\"style\":"))
            #expect(!converted.output.contains("**done**") && !converted.output.contains("*Deploy*"))
            let path = try Self.temporaryFile(input.replacingOccurrences(of: "/", with: "-") + ".jsonl", converted.output)
            // Converted again, the same bytes; drawn, the same transcript as the export.
            #expect(bubbles("convert", path, "--tz", "UTC").output == converted.output)
            let fromExport = bubbles("render", corpus(input), "--width", "50", "--color", "always", "--tz", "UTC")
            let fromLog = bubbles("render", path, "--width", "50", "--color", "always", "--tz", "UTC")
            #expect(fromLog.output == fromExport.output, "\(input)")
        }
    }

    @Test func badStylesAreReportedWithTheirLine() throws {
        let log = """
            {"id":"1","type":"text","date":"2024-05-01T10:00:00Z","text":"héllo","styles":[{"style":"bold","from":0,"to":5}]}
            {"id":"2","type":"text","date":"2024-05-01T10:01:00Z","text":"héllo","styles":[{"style":"bold","from":2,"to":9}]}
            {"id":"3","type":"text","date":"2024-05-01T10:02:00Z","text":"héllo","styles":{"style":"bold"}}
            {"id":"4","type":"text","date":"2024-05-01T10:03:00Z","text":"héllo","styles":[{"style":"sparkle","from":0,"to":1}]}
            {"id":"5","type":"text","date":"2024-05-01T10:04:00Z","text":"héllo","styles":[{"style":"code","from":3,"to":3}]}

            """
        let path = try Self.temporaryFile("bad-styles.jsonl", log)
        let run = bubbles("convert", path, "--tz", "UTC")
        #expect(run.code == 1)
        #expect(run.errors.contains(":2:") && run.errors.contains("styles[].to"))
        #expect(run.errors.contains(":3:") && run.errors.contains("\"styles\""))
        #expect(run.errors.contains(":5:"))
        // The good lines: a style over "héllo" counted in characters; an unknown style is ignored.
        #expect(run.output.contains(#""text":"héllo","styles":[{"style":"bold","from":0,"to":5}]"#))
        #expect(run.output.contains(#""id":"4","type":"text","date":"2024-05-01T10:03:00Z","text":"héllo"}"#))
    }

    @Test func hyperlinksFollowTheTerminalAndTheFlag() {
        let input = corpus("logs/sample.jsonl")
        let terminal = bubbles("render", input, "--width", "60", "--tz", "UTC", environment: ["TERM": "xterm-256color"], outputIsTerminal: true)
        #expect(terminal.output.contains("\u{1B}]8;id="))
        let off = bubbles("render", input, "--width", "60", "--tz", "UTC", "--no-hyperlinks", environment: ["TERM": "xterm-256color"],
                          outputIsTerminal: true)
        #expect(!off.output.contains("\u{1B}]8;"))
        let piped = bubbles("render", input, "--width", "60", "--tz", "UTC", "--color", "always", environment: ["TERM": "xterm-256color"])
        #expect(!piped.output.contains("\u{1B}]8;"))
        let dumb = bubbles("render", input, "--width", "60", "--tz", "UTC", "--color", "always", environment: ["TERM": "dumb"], outputIsTerminal: true)
        #expect(!dumb.output.contains("\u{1B}]8;"))
        // Links change no line: the same text with the escapes taken out.
        let withoutLinks = terminal.output.replacingOccurrences(of: "\u{1B}\\]8;[^\u{1B}]*\u{1B}\\\\", with: "", options: .regularExpression)
        #expect(withoutLinks == off.output)
    }
}
