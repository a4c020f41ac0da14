import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// Bad input: one clear `file:line: reason` per rejected record, the run goes on, nothing is lost.
@Suite struct InputReportingTests {
    @Test func everyRejectedLineIsReportedWithItsPlaceAndTheRunGoesOn() {
        let path = corpus("logs/bad.jsonl")
        let run = bubbles("heights", path, "--width", "40")
        #expect(run.code == 1)
        let reports = run.errors.split(separator: "\n").filter { $0.hasPrefix(path + ":") && !$0.hasPrefix(path + ": ") }
        #expect(reports.map { $0.split(separator: ":")[1] } == ["2", "4", "6", "8", "10", "12", "14", "16", "17"])
        #expect(run.errors.contains("\(path):10: invalid UTF-8"))
        #expect(run.errors.contains("\(path):8: unknown type \"video\""))
    }

    @Test func rowsOutPlusRejectedEqualsRecordsIn() {
        let run = bubbles("heights", corpus("logs/bad.jsonl"), "--width", "40")
        let messageRows = run.outputLines.filter { !$0.contains("\"kind\":\"date\"") }.count
        let rejected = run.errors.split(separator: "\n").filter { $0.contains("bad.jsonl:") && !$0.contains("bad.jsonl: ") }.count
        #expect(messageRows == 8)
        #expect(messageRows + rejected == 17)
        #expect(run.errors.contains("17 records, 8 laid out, 9 rejected, 1 blank line skipped"))
    }

    @Test func strictStopsAtTheFirstProblem() {
        let run = bubbles("heights", corpus("logs/bad.jsonl"), "--width", "40", "--strict")
        #expect(run.code == 1)
        #expect(run.errors.contains("bad.jsonl:2: malformed JSON"))
        #expect(!run.errors.contains("bad.jsonl:4:"))
    }

    /// A clean run says nothing on stderr; `--verbose` says how the input was read, the
    /// summary and the counts, each after the one prefix.
    @Test func aCleanLogExitsZeroInSilenceAndCountsWithVerbose() {
        let run = bubbles("heights", corpus("logs/sample.jsonl"))
        #expect(run.code == 0)
        #expect(run.errors.isEmpty)
        let verbose = bubbles("heights", corpus("logs/sample.jsonl"), "--verbose")
        #expect(verbose.output == run.output)
        let lines = verbose.errors.split(separator: "\n")
        #expect(lines.count == 3 && lines.allSatisfy { $0.hasPrefix("bubbles: ") }, "\(verbose.errors)")
        #expect(verbose.errors.contains("sample.jsonl: read as native JSON Lines"), "\(verbose.errors)")
        #expect(verbose.errors.contains("bubbles: 161 rows × 1 width in "))
        #expect(verbose.errors.hasSuffix("sample.jsonl: 157 records, 157 laid out, 0 rejected\n"))
    }

    @Test func aWholeFileFailureIsOneMessageSayingWhatWasExpected() {
        let truncated = bubbles("render", corpus("exports/telegram/truncated/result.json"), "--width", "40")
        #expect(truncated.code == 3)
        #expect(truncated.errors.contains("truncated JSON"))
        #expect(truncated.errors.split(separator: "\n").count == 1)
        let unknown = bubbles("render", corpus("exports/whatsapp/unknown-format.txt"), "--width", "40")
        #expect(unknown.code == 3)
        #expect(unknown.errors.contains("unknown-format.txt:1: a WhatsApp date format we don't know"))
        #expect(unknown.errors.split(separator: "\n").count == 1)
    }

    /// Records pretty-printed over several lines (`jq .` without `-c`) are not JSON Lines: the one
    /// error names the place and says how to write them, one record per line.
    @Test func prettyPrintedRecordsAreToldToBeOnePerLine() throws {
        let record = #"{"id":"1","type":"text","from":"Ana","date":"2024-05-01T10:00:00Z","text":"hi"}"#
        let pretty = record.replacingOccurrences(of: ",", with: ",\n  ").replacingOccurrences(of: "{", with: "{\n  ")
            .replacingOccurrences(of: "}", with: "\n}")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-pretty-\(UUID().uuidString).jsonl")
        try (pretty + "\n" + pretty + "\n").write(to: url, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let run = bubbles("render", url.path, "--width", "40")
        #expect(run.code == 3)
        #expect(run.errors == "bubbles: \(url.path):8: invalid JSON at column 1: unexpected text after the end of the JSON value; expected one complete JSON document (several JSON values one after another: JSON Lines takes one record per line, as `jq -c .` writes it)\n")
        // Other text after a document gets no such advice.
        let trailing = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-trailing-\(UUID().uuidString).json")
        try "[1,\n2]\nnot json\n".write(to: trailing, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: trailing) }
        #expect(!bubbles("render", trailing.path, "--width", "40").errors.contains("jq"))
    }

    @Test func exportsWithDamagedMessagesReportEachOneAndKeepTheRest() {
        let run = bubbles("heights", corpus("exports/telegram/damaged/result.json"), "--width", "40")
        #expect(run.code == 1)
        #expect(run.errors.contains("message "))
        #expect(!run.outputLines.isEmpty)
    }
}

/// The closing count line says what happened to every record, in every command.
@Suite struct CountsSummaryTests {
    @Test func renderReconcilesTheCountsWhenRecordsWereRejected() {
        let run = bubbles("render", corpus("logs/bad.jsonl"), "--width", "40")
        #expect(run.code == 1)
        #expect(run.errors.hasSuffix("bad.jsonl: 17 records, 8 drawn, 9 rejected, 1 blank line skipped\n"))
    }

    @Test func aStrictRunSaysItStoppedEarly() {
        let run = bubbles("render", corpus("logs/bad.jsonl"), "--width", "40", "--strict")
        #expect(run.errors.hasSuffix("bad.jsonl: 2 records, 1 drawn, 1 rejected; stopped at the first rejected record (--strict)\n"))
    }

    @Test func benchOnAFileWithRejectedRecordsReconcilesToo() {
        let run = bubbles("bench", corpus("logs/bad.jsonl"), "--widths", "40", "--json")
        #expect(run.code == 1)
        #expect(run.errors.contains("bad.jsonl: 17 records, 8 measured, 9 rejected, 1 blank line skipped\n"))
    }

    @Test func convertNamesTheFormatItReadAndTheCountsWithVerbose() {
        let path = corpus("exports/telegram/single/result.json")
        #expect(bubbles("convert", path).errors.isEmpty)
        let run = bubbles("convert", path, "--verbose")
        #expect(run.code == 0)
        #expect(run.errors.hasPrefix("bubbles: \(path): read as Telegram Desktop export\n"))
        #expect(run.errors.hasSuffix("bubbles: \(path): 20 records, 20 written, 0 rejected\n"))
    }

    /// An export that writes its times without a zone (WhatsApp, an old Telegram export's
    /// `date`) is converted to instants in a zone the user may not have meant: without `--tz`,
    /// `convert --verbose` says which zone it used and where it came from (the default is the
    /// system's zone, as `date` shows it, so a clean run says nothing). With `--tz`, or for an
    /// export whose times carry their zone, nothing is said.
    @Test func convertSaysWhichZoneReadTimesWrittenWithoutOne() {
        let whatsapp = corpus("exports/whatsapp/android-en_GB.txt")
        #expect(bubbles("convert", whatsapp).errors.isEmpty)
        let unset = bubbles("convert", whatsapp, "-v")
        #expect(unset.code == 0)
        #expect(unset.errors.contains("bubbles: note: \(whatsapp): its times carry no zone and were read in UTC (TZ is not set and the system names no zone); give --tz with the zone of the device that made the export if it was another\n"), "\(unset.errors)")
        let berlin = bubbles("convert", whatsapp, "-v", environment: ["TZ": "Europe/Berlin"])
        #expect(berlin.errors.contains("were read in Europe/Berlin (from TZ);"), "\(berlin.errors)")
        #expect(!bubbles("convert", whatsapp, "--tz", "+02:00", "-v").errors.contains("carry no zone"))
        let oldTelegram = bubbles("convert", corpus("exports/telegram/old-dates/result.json"), "-v")
        #expect(oldTelegram.errors.contains("its times carry no zone and were read in UTC (TZ is not set and the system names no zone)"), "\(oldTelegram.errors)")
        #expect(!bubbles("convert", corpus("exports/telegram/full/result.json"), "-v").errors.contains("carry no zone"))
        #expect(!bubbles("convert", corpus("logs/sample.jsonl"), "-v").errors.contains("carry no zone"))
    }

    @Test func aMeThatMatchesNoSenderIsSaid() {
        let run = bubbles("render", corpus("exports/whatsapp/ios-fr_FR.txt"), "--me", "camille", "--width", "60")
        #expect(run.code == 0)
        #expect(run.errors.hasPrefix("bubbles: --me 'camille' matched no sender in \(corpus("exports/whatsapp/ios-fr_FR.txt")) (names must match exactly"))
        #expect(run.errors.contains("senders seen: ") && run.errors.contains("'Camille'") && run.errors.contains("'Hugo'"))
        let matched = bubbles("render", corpus("exports/whatsapp/ios-fr_FR.txt"), "--me", "Camille", "--width", "60")
        #expect(matched.errors.isEmpty)
    }
}

/// Diagnostics quote what the user or the input gave; none of it reaches stderr raw.
@Suite struct DiagnosticEscapingTests {
    /// True when `text` holds a scalar a terminal would act on (C0 but newline, DEL, C1, bidi).
    func hasRawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { scalar in
            let v = scalar.value
            return (v < 0x20 && v != 0x0A) || (0x7F...0x9F).contains(v) || v == 0x061C || (0x200E...0x200F).contains(v)
                || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
        }
    }

    @Test func aJSONMemberNameInASyntaxErrorIsEscaped() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-key-\(getpid()).json")
        try Data(#"{"a\u001b]0;title\u0007\u202e" 1}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = bubbles("render", file.path, "--input", "telegram")
        #expect(run.code == 3)
        #expect(run.errors.contains(#"after the member name "a\u001B]0;title\u0007\u202E""#))
        #expect(!hasRawControl(run.errors))
    }

    @Test func aFileNameWithControlsIsEscaped() {
        let run = bubbles("render", "/nonexistent/\u{1B}[31mred\u{9B}.jsonl")
        #expect(run.code == 3)
        #expect(run.errors.contains(#"/nonexistent/\u001B[31mred\u009B.jsonl"#))
        #expect(!hasRawControl(run.errors))
    }

    @Test func commandLineTokensInUsageErrorsAreEscaped() {
        for run in [bubbles("\u{1B}[2J"), bubbles("render", "--\u{1B}[2J"), bubbles("render", "--width", "4\u{7}"),
                    bubbles("render", "a", "b\u{202E}")] {
            #expect(run.code == 2)
            #expect(run.errors.contains(#"\u00"#) || run.errors.contains(#"\u202E"#))
            #expect(!hasRawControl(run.errors))
        }
    }

    @Test func meThatMatchesNoSenderIsQuotedEscaped() {
        let run = bubbles("heights", corpus("exports/whatsapp/ios-fr_FR.txt"), "--me", "\u{1B}[31mnobody")
        #expect(run.errors.contains(#"--me '\u001B[31mnobody' matched no sender"#))
        #expect(!hasRawControl(run.errors))
    }

    @Test func anUnknownTZIsEscapedInItsWarning() {
        let run = bubbles("heights", corpus("logs/sample.jsonl"), environment: ["TZ": "Mars/\u{1B}[2J"])
        #expect(run.errors.contains(#"TZ='Mars/\u001B[2J'"#))
        #expect(!hasRawControl(run.errors))
    }
}
