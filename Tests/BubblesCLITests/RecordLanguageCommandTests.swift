import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// A JSON Lines record's `lang` through the commands: `heights --font` shapes that record's text
/// for it (before `--lang`), `convert` writes it back, and a malformed tag is a warning.
@Suite struct RecordLanguageCommandTests {
    static let log = corpus("logs/languages.jsonl")
    static let koreanFont = corpus("fonts/NotoSansCJK-Subset.ttc") + "#1"

    static func temporaryFile(_ name: String, _ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("record-language-\(getpid())-\(name)")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// The row of id `id` in `heights` output.
    static func row(_ output: String, id: String) -> String? {
        output.split(separator: "\n").first { $0.contains("\"id\":\"\(id)\"") }.map(String.init)
    }

    @Test func convertWritesTheLanguageBack() throws {
        let input = try String(contentsOfFile: Self.log, encoding: .utf8).split(separator: "\n").map(String.init)
        let run = bubbles("convert", Self.log)
        #expect(run.code == 0, "\(run.errors)")
        let output = run.output.split(separator: "\n").map(String.init)
        #expect(output.count == input.count)
        // Every well-formed tag comes back as it was written; the malformed one is dropped.
        #expect(Array(output.prefix(5)) == Array(input.prefix(5)))
        #expect(output[5] == input[5].replacingOccurrences(of: ",\"lang\":\"japanese!\"", with: ""))
        let again = bubbles("convert", try Self.temporaryFile("converted.jsonl", run.output + ""))
        #expect(again.output == run.output)
        #expect(!again.errors.contains("warning"))
    }

    @Test func aMalformedTagIsAWarningWithItsLine() {
        let run = bubbles("heights", Self.log, "--font", Self.koreanFont, "--width", "300")
        #expect(run.code == 0)
        #expect(run.errors.contains("languages.jsonl:6: warning: field \"lang\" must be a BCP 47 language tag"))
        #expect(run.output.split(separator: "\n").count == 7)  // a date row and all six messages
    }

    /// The Korean record measures with its own `lang`; without it, as `--lang` says; without
    /// both, in the chain's default, which its wider `locl` space makes narrower.
    @Test func theRecordsLanguageComesBeforeTheCommands() throws {
        let korean = try #require(try String(contentsOfFile: Self.log, encoding: .utf8).split(separator: "\n").dropFirst().first)
        let untagged = try Self.temporaryFile("untagged.jsonl", korean.replacingOccurrences(of: ",\"lang\":\"ko\"", with: "") + "\n")
        let tagged = try Self.temporaryFile("tagged.jsonl", korean + "\n")
        func heights(_ path: String, _ more: String...) -> String? {
            let run = bubbles(["heights", path, "--font", Self.koreanFont, "--size", "40", "--width", "2000,300"] + more)
            return Self.row(run.output, id: "2")
        }
        let own = try #require(heights(tagged))
        #expect(own == heights(untagged, "--lang", "ko"))
        #expect(own == heights(tagged, "--lang", "ja"))
        #expect(own != heights(untagged))
    }
}
