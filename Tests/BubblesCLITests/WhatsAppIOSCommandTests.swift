import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// iOS WhatsApp exports end to end, and `--date-order` on every command that reads input.
@Suite struct WhatsAppIOSCommandTests {
    static let iosExports = [
        "exports/whatsapp/ios-en_US-notices.txt", "exports/whatsapp/ios-de_DE-notices.txt",
        "exports/whatsapp/ios-es_ES-notices.txt", "exports/whatsapp/ios-anonymised.txt",
        "exports/whatsapp/ios-en_US.txt", "exports/whatsapp/ios-fr_FR.txt", "exports/whatsapp/ios-en_GB-2019-group.txt",
    ]

    /// Every dated `Name: text` line of a person (a name that also writes ordinary messages)
    /// becomes a row under that name; only the chat's own notices are drawn without a sender.
    @Test(arguments: iosExports)
    func renderMakesNoMessageOfAPersonASenderlessNotice(_ export: String) throws {
        let text = try String(contentsOfFile: corpus(export), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        // Dated lines, by their line number: (sender, text after "Name: ").
        var dated: [Int: (sender: String, text: Substring)] = [:]
        for (index, line) in lines.enumerated() {
            guard let close = line.firstIndex(of: "]"), line.unicodeScalars.first == "[" || line.hasPrefix("\u{200E}[") else { continue }
            let rest = line[line.index(after: close)...].dropFirst()
            guard let colon = rest.range(of: ": ") else { continue }
            dated[index + 1] = (String(rest[..<colon.lowerBound]), rest[colon.upperBound...])
        }
        let chatNotices = ["Messages and calls are end-to-end encrypted", "Nachrichten und Anrufe sind Ende-zu-Ende-verschlüsselt",
                           "Les messages et les appels sont chiffrés de bout en bout", "Messages to this group are now secured"]
        func isChatNotice(_ text: Substring) -> Bool {
            let unmarked = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\u{200E}" }))
            return chatNotices.contains { unmarked.hasPrefix($0) }
        }
        let people = Set(dated.values.filter { $0.text.unicodeScalars.first != "\u{200E}" && !isChatNotice($0.text) }.map(\.sender))

        let converted = bubbles("convert", corpus(export), "--tz", "UTC")
        #expect(converted.code == 0, "\(converted.errors)")
        var byLine: [Int: [String: Any]] = [:]
        for record in converted.outputLines {
            let object = try #require(JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any])
            let id = try #require(object["id"] as? String)
            byLine[try #require(Int(id.dropFirst()))] = object
        }
        for (line, entry) in dated where people.contains(entry.sender) {
            if isChatNotice(entry.text) { continue }
            // WhatsApp's own sentence about the member whose name heads it ("‎Theo pinned a
            // message") is the group's notice, whoever's name heads it.
            if entry.text.unicodeScalars.first == "\u{200E}", entry.text.dropFirst().hasPrefix(entry.sender + " ") { continue }
            let record = try #require(byLine[line], "line \(line)")
            #expect(record["type"] as? String != "system", "\(export):\(line) became a system row")
            #expect(record["from"] as? String == entry.sender, "\(export):\(line)")
        }

        // The renderer draws each of those people's names, and no WhatsApp mark as a label.
        let rendered = bubbles("render", corpus(export), "--width", "70", "--tz", "UTC", "--color", "never")
        #expect(rendered.code == 0)
        for person in people { #expect(rendered.output.contains("\n\(person)\n") || rendered.output.hasPrefix("\(person)\n"), "\(person)") }
        // The marks in these files are all WhatsApp's own, before its phrases: none is left to draw.
        #expect(!rendered.output.contains("<LRM>"))
    }

    static let newFixtures = [
        "exports/whatsapp/ios-en_US-notices.txt", "exports/whatsapp/ios-de_DE-notices.txt",
        "exports/whatsapp/ios-es_ES-notices.txt", "exports/whatsapp/ios-anonymised.txt",
        "exports/whatsapp/android-es_US-midnight.txt", "exports/whatsapp/android-ambiguous-order.txt",
        "exports/slack/bots", "exports/telegram/old-dates/result.json",
    ]

    /// The same checks as for the other corpora: rows draw their heights within the width, and a
    /// converted export lays out exactly like the original.
    @Test(arguments: newFixtures)
    func newFixturesKeepTheRenderAndConvertContracts(_ file: String) throws {
        try CommandContractTests().everyRowDrawsItsHeightAndFitsTheWidth(file)
        try ConvertTests().convertedExportsLayOutExactlyLikeTheOriginal(file)
    }

    @Test func aNoticeIsDrawnDimAndItalicWhenColourIsOn() {
        let run = bubbles("render", corpus("exports/whatsapp/ios-en_US-notices.txt"), "--width", "70", "--tz", "UTC", "--color", "always")
        #expect(run.output.contains("\u{1B}[2;3mThis message was deleted.\u{1B}[0m"))
        #expect(run.output.contains("\u{1B}[2;3mMissed voice call, Tap to call back\u{1B}[0m"))
    }

    @Test func anAmbiguousDateOrderIsSaidOnStderr() {
        let path = corpus("exports/whatsapp/android-ambiguous-order.txt")
        for command in ["render", "heights", "convert"] {
            let run = bubbles(command, path, "--tz", "UTC")
            #expect(run.code == 0)
            #expect(run.errors.contains("bubbles: note: \(path): every date could be read day or month first; read month first (mdy)"), "\(command)")
        }
        let proven = bubbles("heights", corpus("exports/whatsapp/android-es_US-midnight.txt"), "--tz", "UTC")
        #expect(!proven.errors.contains("note:"))
    }

    @Test func dateOrderOverridesOnEveryInputCommand() {
        let path = corpus("exports/whatsapp/android-ambiguous-order.txt")
        let converted = bubbles("convert", path, "--tz", "UTC", "--date-order", "dmy")
        #expect(converted.code == 0 && !converted.errors.contains("note:"))
        #expect(converted.outputLines.first?.contains("\"date\":\"2024-01-03T10:00:00Z\"") == true)
        for command in ["render", "heights"] {
            let run = bubbles(command, path, "--tz", "UTC", "--date-order", "mdy")
            #expect(run.code == 0 && !run.errors.contains("note:"), "\(command)")
        }
        let bench = bubbles("bench", path, "--messages", "10", "--widths", "40", "--date-order", "dmy")
        #expect(bench.code == 0, "\(bench.errors)")
    }

    @Test func aBadDateOrderIsAUsageError() {
        for command in ["render", "heights", "convert", "bench"] {
            let run = bubbles(command, corpus("exports/whatsapp/android-ambiguous-order.txt"), "--date-order", "dym")
            #expect(run.code == 2, "\(command)")
            #expect(run.errors.contains("invalid value 'dym' for --date-order: expected one of dmy, mdy, ymd"), "\(command)")
        }
    }

    @Test func anOverrideThatDoesNotFitIsAWholeFileError() {
        let path = corpus("exports/whatsapp/android-ambiguous-order.txt")
        let run = bubbles("heights", path, "--date-order", "ymd")
        #expect(run.code == 3)
        #expect(run.errors == "bubbles: \(path):1: --date-order ymd does not fit this file: its dates end with the year (use dmy or mdy)\n")
    }
}
