import BubbleLogs
import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubblesCLI

/// The renderer draws from the layouts `heights` prints: every row draws exactly its height, and no
/// line is wider than the width, over every bundled corpus at several widths.
@Suite struct CommandContractTests {
    static let inputs = [
        "logs/sample.jsonl", "logs/hostile.jsonl", "logs/bad.jsonl", "logs/conversations.jsonl",
        "exports/telegram/single/result.json", "exports/telegram/full/result.json", "exports/telegram/forwards/result.json",
        "exports/whatsapp/android-en_US-12h.txt", "exports/whatsapp/ios-fr_FR.txt", "exports/whatsapp/android-de_DE.txt",
        "exports/whatsapp/ios-en_GB-unsaved-contacts.txt",
        "exports/discord/channel.json", "exports/discord/markup.json", "exports/slack/export", "exports/slack/export/general",
    ]
    static let widths = [1, 7, 24, 40, 80, 133]

    /// Heights by row number from `bubbles heights FILE --width W`.
    /// Heights by row key (conversation, a newline, id): `heights` keeps each conversation's order,
    /// `render` the input's, so rows of several conversations are matched by key, which is unique.
    func heights(_ file: String, width: Int) throws -> [String: Int] {
        let run = bubbles("heights", corpus(file), "--width", "\(width)", "--tz", "UTC")
        var result: [String: Int] = [:]
        for line in run.outputLines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let key = ((object["conversation"] as? String) ?? "") + "\n" + (try #require(object["id"] as? String))
            #expect(result[key] == nil, "\(file): two rows keyed \(key)")
            result[key] = try #require(object["height"] as? Int)
        }
        return result
    }

    /// Lines drawn per row number by the render command's own drawing path.
    func drawn(_ file: String, width: Int, color: String, ascii: Bool) throws -> [String: [String]] {
        var arguments = [corpus(file), "--width", "\(width)", "--color", color, "--tz", "UTC"]
        if ascii { arguments.append("--ascii") }
        let context = CommandContext(output: StringSink(), errors: StringSink(), environment: [:])
        let command = try RenderCommand(try ParsedArguments(arguments, spec: RenderCommand.spec), context: context)
        let reader = try LogSource.open(path: corpus(file), options: LogReadOptions(timeZone: TimeZone(identifier: "UTC")!))
        var rows: [String: [String]] = [:]
        _ = try command.draw(reader, errors: StringSink()) { _, key, lines in rows[key] = lines }
        return rows
    }

    @Test(arguments: inputs)
    func everyRowDrawsItsHeightAndFitsTheWidth(_ file: String) throws {
        for width in Self.widths {
            let expected = try heights(file, width: width)
            #expect(!expected.isEmpty, "\(file) gave no rows")
            for (color, ascii) in [("never", false), ("always", true), ("always", false)] {
                let rows = try drawn(file, width: width, color: color, ascii: ascii)
                #expect(rows.count == expected.count, "\(file) at \(width): \(rows.count) rows drawn, \(expected.count) measured")
                for (row, lines) in rows {
                    #expect(lines.count == expected[row], "\(file) row \(row) at width \(width): drew \(lines.count), height \(expected[row] ?? -1)")
                    for line in lines {
                        let visible = stripSGR(line)
                        #expect(CellWidth.of(visible) <= width, "\(file) row \(row) at \(width): \(visible)")
                        if color == "never" { #expect(!line.unicodeScalars.contains("\u{1B}")) }
                    }
                }
            }
        }
    }

    @Test func drawnLineCountEqualsTheSumOfHeights() throws {
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--width", "64", "--color", "never", "--tz", "UTC")
        #expect(run.code == 0)
        let total = try heights("logs/sample.jsonl", width: 64).values.reduce(0, +)
        #expect(run.outputLines.count == total)
    }
}

/// Removes our own SGR sequences (`ESC [ digits;… m`) from `line`.
func stripSGR(_ line: String) -> String {
    var out = String.UnicodeScalarView()
    var scalars = line.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
        guard scalar == "\u{1B}" else { out.append(scalar); continue }
        while let next = scalars.next(), next != "m" {}
    }
    return String(out)
}
