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
        #expect(run.errors.hasPrefix("bubbles: unknown option '-n' (-n belongs to 'bubbles bench', as --messages; 'bubbles heights' has no such option)\n"))
        #expect(!run.errors.contains("did you mean"))
    }

    @Test func heightsRefusesAWidthGivenTwice() {
        let repeated = bubbles("heights", corpus("logs/sample.jsonl"), "--width", "80", "--width", "80")
        let listed = bubbles("heights", corpus("logs/sample.jsonl"), "--width", "40,80,40")
        for run in [repeated, listed] {
            #expect(run.code == 2)
            #expect(run.output.isEmpty)
        }
        #expect(repeated.errors.hasPrefix("bubbles: invalid value '80' for --width: 80 is given more than once\n"))
        #expect(listed.errors.hasPrefix("bubbles: invalid value '40,80,40' for --width: 40 is given more than once\n"))
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
        try "\n".write(to: url, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let run = bubbles("bench", url.path)
        #expect(run.code == 3)
        #expect(run.output.isEmpty)
        #expect(run.errors.contains("bubbles: \(url.path) holds no message to lay out: nothing to benchmark\n"))
        #expect(!run.errors.contains("ns/scalar"))
    }

    /// Options that mean nothing in the mode chosen, and widths given twice, are usage errors;
    /// a log that cannot be written or read is one line naming it, not Foundation's error dump.
    @Test func benchSaysWhatItCannotDo() throws {
        for (arguments, message) in [(["--viewer", "--json"], "--json writes the figures of the layout benchmark"),
                                     (["--pixels", "--json"], "--json writes the figures of the layout benchmark"),
                                     (["--viewer", "--pixels"], "--viewer, --pixels and --serve are three benchmarks: choose one"),
                                     (["--pixels", "--serve"], "--viewer, --pixels and --serve are three benchmarks: choose one"),
                                     (["--fonts", "Corpora/fonts"], "--fonts is for --pixels"),
                                     (["--widths", "40,40"], "40 is given more than once"),
                                     (["--viewer", "-"], "--viewer needs a FILE")] {
            let run = bubbles(["bench"] + arguments)
            #expect(run.code == 2, "\(arguments)")
            #expect(run.errors.contains(message) && run.errors.contains("usage: bubbles bench"), "\(arguments): \(run.errors)")
        }
        let missing = bubbles("bench", "-n", "3", "--save-log", "/nonexistent/dir/x.jsonl")
        #expect(missing.code == 3)
        #expect(missing.errors == "bubbles: cannot write /nonexistent/dir/x.jsonl: No such file or directory\n")
        let full = bubbles("bench", "-n", "3", "--save-log", "/dev/full")
        #expect(full.code == 3 && full.errors == "bubbles: cannot write /dev/full: No space left on device\n")
        let toOutput = bubbles("bench", "-n", "3", "--save-log", "-")
        #expect(toOutput.code == 0 && toOutput.outputLines.count == 3)
        let notThere = bubbles("bench", "--viewer", "/nonexistent/chat.jsonl")
        #expect(notThere.code == 3 && notThere.errors.hasSuffix("bubbles: /nonexistent/chat.jsonl: no such file or folder\n"))
    }

    /// A log without right-to-left text has no bidi figure (0 scalars gave "804 ns/scalar").
    @Test func benchGivesNoBidiFigureForALogWithoutRightToLeftText() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-bench-ltr-\(UUID().uuidString).jsonl")
        try #"{"id":"1","type":"text","from":"A","date":"2024-05-01T10:00:00Z","text":"plain words only"}"#.appending("\n")
            .write(to: url, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let run = bubbles("bench", url.path, "--widths", "40")
        #expect(run.code == 0)
        #expect(run.output.contains("Bidi: no message holds right-to-left text, nothing to measure"))
        #expect(!bubbles("bench", url.path, "--widths", "40", "--json").output.contains("\"bidi\""))
    }

    @Test func aMissingFileIsOneClearErrorNotAUsageError() {
        let run = bubbles("render", "/nonexistent/chat.jsonl", "--width", "40")
        #expect(run.code == 3)
        #expect(run.errors == "bubbles: /nonexistent/chat.jsonl: no such file or folder\n")
    }
}
