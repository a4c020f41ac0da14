import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

@Suite struct CommandLineTests {
    @Test func versionPrintsTheVersion() {
        let run = bubbles("--version")
        #expect(run.code == 0)
        #expect(run.output == "bubbles \(bubblesVersion)\n")
        #expect(bubblesVersion.split(separator: ".").count == 3)
    }

    @Test func helpListsEveryCommand() {
        let run = bubbles("--help")
        #expect(run.code == 0)
        for command in ["render", "heights", "bench", "convert"] { #expect(run.output.contains("  \(command)")) }
    }

    @Test func eachCommandHasHelpFromItsOptions() {
        for command in ["render", "heights", "bench", "convert"] {
            let run = bubbles(command, "--help")
            #expect(run.code == 0)
            #expect(run.output.hasPrefix("usage: bubbles \(command)"))
            #expect(run.output.contains("--input FORMAT"))
        }
    }

    @Test func noArgumentsIsAUsageError() {
        let run = bubbles()
        #expect(run.code == 2)
        #expect(run.errors.contains("usage: bubbles <command>"))
    }

    @Test func unknownCommandIsNamedWithTheUsage() {
        let run = bubbles("draw")
        #expect(run.code == 2)
        #expect(run.errors.contains("unknown command 'draw'"))
        #expect(run.errors.contains("usage: bubbles <command>"))
    }

    @Test func unknownFlagGetsTheUsageAndExitCodeTwo() {
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--colour", "never")
        #expect(run.code == 2)
        #expect(run.errors.contains("unknown option '--colour'"))
        #expect(run.errors.contains("usage: bubbles render"))
        #expect(run.output.isEmpty)
    }

    @Test func badValuesAreNamed() {
        #expect(bubbles("render", "--width", "wide").errors.contains("invalid value 'wide' for --width"))
        #expect(bubbles("render", "--width", "0").code == 2)
        #expect(bubbles("render", "--color", "sometimes").errors.contains("expected one of auto, always, never"))
        #expect(bubbles("heights", "--format", "xml").code == 2)
        #expect(bubbles("heights", "--input", "icq").errors.contains("invalid value 'icq' for --input"))
        #expect(bubbles("heights", "--tz", "Mars/Olympus").errors.contains("invalid value 'Mars/Olympus' for --tz"))
        #expect(bubbles("bench", "--messages", "-5").code == 2)
    }

    @Test func heightsTakesAWidthAttachedToItsShortOption() {
        let attached = bubbles("heights", corpus("logs/sample.jsonl"), "-w40")
        #expect(attached.code == 0)
        #expect(attached.output == bubbles("heights", corpus("logs/sample.jsonl"), "-w", "40").output)
        #expect(attached.output.contains("\"width\":40"))
    }

    @Test func heightsNamesTheCommandAnUnknownShortOptionBelongsTo() {
        let run = bubbles("heights", corpus("logs/sample.jsonl"), "-n", "5")
        #expect(run.code == 2)
        #expect(run.errors.hasPrefix("bubbles heights: unknown option '-n' (-n belongs to 'bubbles bench', as --messages; 'bubbles heights' has no such option)\n"))
        #expect(!run.errors.contains("did you mean"))
    }

    @Test func heightsRefusesAWidthGivenTwice() {
        let repeated = bubbles("heights", corpus("logs/sample.jsonl"), "--width", "80", "--width", "80")
        let listed = bubbles("heights", corpus("logs/sample.jsonl"), "--width", "40,80,40")
        for run in [repeated, listed] {
            #expect(run.code == 2)
            #expect(run.output.isEmpty)
        }
        #expect(repeated.errors.hasPrefix("bubbles heights: invalid value '80' for --width: 80 is given more than once\n"))
        #expect(listed.errors.hasPrefix("bubbles heights: invalid value '40,80,40' for --width: 40 is given more than once\n"))
    }

    @Test func benchPixelsNamesAFontItCannotReadAndWantsAFolderForFonts() {
        let run = bubbles("bench", "--pixels", "--fonts", "/nonexistent")
        #expect(run.code == 3)
        #expect(run.errors.contains("cannot read /nonexistent/NotoSans-Subset.ttf: --pixels measures the test fonts"))
        #expect(run.errors.contains("--fonts DIR"))
        #expect(!run.errors.contains("at byte"))
        #expect(run.output.isEmpty)
        #expect(bubbles("bench", "--pixels", "--fonts").code == 2)
    }

    /// A log without a message gives no figures (per scalar and per row of nothing), but one error.
    @Test func benchOnALogWithoutMessagesSaysThereIsNothingToMeasure() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-bench-empty-\(UUID().uuidString).jsonl")
        try "\n".write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let run = bubbles("bench", url.path)
        #expect(run.code == 3)
        #expect(run.output.isEmpty)
        #expect(run.errors.contains("bubbles bench: \(url.path) holds no message to lay out: nothing to benchmark\n"))
        #expect(!run.errors.contains("ns/scalar"))
    }

    @Test func aMissingFileIsOneClearErrorNotAUsageError() {
        let run = bubbles("render", "/nonexistent/chat.jsonl", "--width", "40")
        #expect(run.code == 3)
        #expect(run.errors == "bubbles: /nonexistent/chat.jsonl: no such file or folder\n")
    }
}

/// What a person sees in colour.
@Suite struct ColourOutputTests {
    @Test func theSampleShowsEverySenderNameInADifferentColour() {
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--width", "80", "--color", "always", "--tz", "UTC")
        var colourOf: [String: Substring] = [:]
        for line in run.outputLines where line.hasPrefix("\u{1B}[38;5;") {
            // A name line: ESC [ 38;5;N m NAME ESC [ 0 m
            let parts = line.dropFirst(2).split(separator: "m", maxSplits: 1)
            colourOf[String(parts[1].prefix { $0 != "\u{1B}" })] = parts[0]
        }
        #expect(Set(colourOf.keys) == ["Yuki", "Omar", "Noa", "Ploy"])
        #expect(Set(colourOf.values).count == colourOf.count)
    }
}
