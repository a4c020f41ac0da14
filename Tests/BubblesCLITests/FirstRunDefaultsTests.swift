import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubblesCLI

/// What a new user sees without any option: times in the system's zone and in the export's or
/// the locale's clock, `--me` typed as a person types it, several conversations each under one
/// heading, and a terminal that stays quiet unless something needs the user.
@Suite struct FirstRunDefaultsTests {
    static let twelveHour = "exports/whatsapp/android-en_US-12h.txt"
    static let phone = "exports/whatsapp/ios-en_GB-phone-nbsp.txt"

    /// A link to a zone file, as /etc/localtime is, in a fresh folder.
    func localtime(_ zone: String) throws -> (link: String, folder: String) {
        let folder = NSTemporaryDirectory() + "bubbles-tz-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/localtime", withDestinationPath: "/usr/share/zoneinfo/" + zone)
        return (folder + "/localtime", folder)
    }

    /// With TZ unset, times are drawn in the zone /etc/localtime names (here a link made for the
    /// test); TZ and then --tz override it; without the file, UTC.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Berlin")))
    func theSystemZoneIsTheDefault() throws {
        let (link, folder) = try localtime("Europe/Berlin")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = corpus("logs/sample.jsonl")  // its first message is at 00:02 UTC on 1 May 2024
        let system = bubbles("render", log, "--width", "60", localtimePath: link)
        #expect(system.code == 0 && system.errors.isEmpty)
        #expect(system.output.contains(" 02:02 "))
        #expect(bubbles("render", log, "--width", "60", environment: ["TZ": "Asia/Kolkata"], localtimePath: link).output.contains(" 05:32 "))
        #expect(bubbles("render", log, "--width", "60", "--tz", "UTC", localtimePath: link).output.contains(" 00:02 "))
        #expect(bubbles("render", log, "--width", "60").output.contains(" 00:02 "))
        // convert --verbose says where the zone of zoneless times came from.
        let converted = bubbles("convert", corpus(Self.twelveHour), "-v", localtimePath: link)
        #expect(converted.errors.contains("were read in Europe/Berlin (the system's zone)"), "\(converted.errors)")
        // heights' date rows follow the same zone: a message at 23:30 UTC is on the next day in Berlin.
        let late = #"{"id":"a","type":"text","from":"Ann","date":"2024-05-01T23:30:00Z","text":"late"}"#
        let file = folder + "/late.jsonl"
        try (late + "\n").write(toFile: file, atomically: false, encoding: .utf8)
        #expect(bubbles("heights", file, localtimePath: link).output.contains("date:2024-05-02"))
        #expect(bubbles("heights", file).output.contains("date:2024-05-01"))
    }

    /// A WhatsApp export written with a 12-hour clock is drawn with one; --clock 24 and --clock
    /// 12 choose; and whatever the clock, the heights are the lines drawn.
    @Test func theExportsOwnClockIsKeptAndHeightsStayExact() throws {
        let path = corpus(Self.twelveHour)
        let drawn = bubbles("render", path, "--width", "50", "--me", "Jordan", "--color", "never")
        #expect(drawn.code == 0 && drawn.errors.isEmpty, "\(drawn.errors)")
        #expect(drawn.output.contains(" 10:01 PM ") && drawn.output.contains(" 7:05 AM "))
        let twentyFour = bubbles("render", path, "--width", "50", "--me", "Jordan", "--clock", "24")
        #expect(twentyFour.output.contains(" 22:01 ") && !twentyFour.output.contains(" PM "))
        // A 24-hour export drawn in 12-hour form, and a locale's clock for JSON Lines.
        #expect(bubbles("render", corpus("exports/whatsapp/android-en_GB.txt"), "--width", "50", "--clock", "12").output.contains(" PM "))
        #expect(bubbles("render", corpus("logs/sample.jsonl"), "--width", "60", environment: ["LANG": "en_US.UTF-8"]).output.contains(" 12:02 AM "))
        #expect(bubbles("render", corpus("logs/sample.jsonl"), "--width", "60", environment: ["LANG": "de_DE.UTF-8"]).output.contains(" 00:02 "))
        #expect(bubbles("render", path, "--clock", "13").code == ExitCode.usage)
        #expect(bubbles("convert", path, "--clock", "12").code == ExitCode.usage)
        for clock in ["12", "24"] {
            for width in [12, 16, 24, 50, 80] {
                for input in [path, corpus("logs/sample.jsonl"), corpus("exports/whatsapp/ios-en_US.txt")] {
                    let rendered = bubbles("render", input, "--width", "\(width)", "--clock", clock, "--color", "never")
                    let heights = bubbles("heights", input, "--width", "\(width)", "--clock", clock)
                    let total = try heights.outputLines.reduce(0) { sum, line in
                        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                        return sum + (object["height"] as! Int)
                    }
                    #expect(total == rendered.outputLines.count, "\(input) at \(width), clock \(clock)")
                    #expect(rendered.outputLines.allSatisfy { CellWidth.of(String($0)) <= width }, "\(input) at \(width)")
                }
            }
        }
        // A 24-hour input's heights do not change with a 24-hour default.
        #expect(bubbles("heights", corpus("logs/sample.jsonl")).output == bubbles("heights", corpus("logs/sample.jsonl"), "--clock", "24").output)
    }

    /// iOS writes a phone number's digit groups with U+00A0: typed with plain spaces it matches;
    /// a near miss is said with the kinds of space written out.
    @Test func meMatchesWhateverKindOfSpaceTheExportWrites() throws {
        let path = corpus(Self.phone)
        let converted = bubbles("convert", path, "--me", "+44 7700 900123")
        #expect(converted.code == 0 && converted.errors.isEmpty, "\(converted.errors)")
        let outgoing = converted.outputLines.filter { $0.contains("\"outgoing\":true") || $0.contains("\"direction\":\"outgoing\"") }
        #expect(outgoing.count == 3, "\(converted.output)")
        // Other spaces a person may type (a tab, two spaces, U+202F) match too.
        #expect(bubbles("convert", path, "--me", "+44\t7700  900123").errors.isEmpty)
        #expect(bubbles("convert", path, "--me", "+44\u{202F}7700 900123").errors.isEmpty)
        let miss = bubbles("render", path, "--me", "+44 7700 90012", "--width", "50")
        #expect(miss.errors.contains("--me '+44 7700 90012' matched no sender"))
        #expect(miss.errors.contains("'\\u202A+44\\u{A0}7700\\u{A0}900123\\u202C'"), "\(miss.errors)")
        let caseOnly = bubbles("render", path, "--me", "priya shah", "--width", "50")
        #expect(caseOnly.errors.contains("'Priya Shah' differs only in case"), "\(caseOnly.errors)")
    }

    /// A message that is only `.` is a message (marked or not); a stray PDF is not drawn.
    @Test func aDotIsAMessageAndAStrayPDFIsNotDrawn() {
        let run = bubbles("render", corpus(Self.phone), "--width", "50", "--color", "never")
        #expect(run.code == 0)
        #expect(!run.output.contains("<PDF>"))
        #expect(run.output.contains("│ Bring the map  please │"))
        #expect(run.outputLines.filter { $0.contains("│ .") }.count == 2, "\(run.output)")
        #expect(!run.outputLines.contains { $0.contains("── . ──") })
        #expect(bubbles("heights", corpus(Self.phone)).output.components(separatedBy: "\"kind\":\"system\"").count == 2)
    }

    /// Several conversations: the transcript opens with the first one's heading (no blank line
    /// before it), each heading stands above its conversation's dates and is drawn apart from
    /// notices; heights names a Telegram chat as a person knows it.
    @Test(arguments: ["exports/telegram/full/result.json", "exports/slack/export", "logs/conversations.jsonl"])
    func severalConversationsOpenWithTheirHeadings(input: String) throws {
        let run = bubbles("render", corpus(input), "--width", "60", "--color", "never", "--tz", "UTC")
        #expect(run.code == 0)
        let lines = run.outputLines
        #expect(!(lines.first ?? "").trimmingCharacters(in: .whitespaces).isEmpty, "\(run.output)")
        let heights = try bubbles("heights", corpus(input), "--width", "60", "--tz", "UTC").outputLines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(heights.reduce(0) { $0 + ($1["height"] as! Int) } == lines.count)
        guard input.hasPrefix("exports") else { return }
        // Each conversation's first row is its heading, then a date.
        var seen: Set<String> = []
        for (i, row) in heights.enumerated() {
            let conversation = try #require(row["conversation"] as? String)
            guard seen.insert(conversation).inserted else { continue }
            #expect((row["id"] as? String)?.hasSuffix("/conversation") == true, "\(row)")
            #expect(heights[i + 1]["kind"] as? String == "date")
        }
        #expect(lines.filter { $0.contains("══ ") }.count == seen.count)
        #expect(lines[0].contains("══ "))
        if input.contains("telegram") {
            #expect(seen == ["Aiko Tanaka", "Family 👨‍👩‍👧"])
            // Chosen by name or by id, as before.
            #expect(bubbles("heights", corpus(input), "--channel", "777").code == 0)
        }
        // ASCII headings have = rules.
        let ascii = bubbles("render", corpus(input), "--width", "60", "--ascii", "--tz", "UTC")
        #expect(ascii.outputLines[0].contains("== ") && !ascii.output.contains("═"))
    }

    /// A clean run says nothing on stderr, whatever the command; --verbose says how the input
    /// was read and the counts; rejections are always said, with the counts. One prefix.
    @Test(arguments: ["render", "heights", "convert"])
    func aCleanRunIsSilentAndVerboseSpeaks(command: String) {
        let clean = bubbles(command, corpus(Self.twelveHour), "--me", "Jordan")
        #expect(clean.code == 0 && clean.errors.isEmpty, "\(clean.errors)")
        let verbose = bubbles(command, corpus(Self.twelveHour), "--me", "Jordan", "--verbose")
        #expect(verbose.output == clean.output)
        #expect(verbose.errors.contains("read as WhatsApp chat export"))
        #expect(verbose.errors.contains("10 records, 10 "))
        let rejected = bubbles(command, corpus("logs/bad.jsonl"))
        #expect(rejected.code == 1)
        #expect(rejected.errors.contains("bubbles: \(corpus("logs/bad.jsonl")): 17 records, 8 "))
        // Every line of ours starts with the one prefix; record diagnostics start with their place.
        for line in (verbose.errors + rejected.errors).split(separator: "\n") {
            #expect(line.hasPrefix("bubbles: ") || line.hasPrefix(corpus("logs/bad.jsonl") + ":"), "\(line)")
        }
    }

    /// `render | less -R`: the width is the terminal's the output is shown in, unless --width or
    /// COLUMNS says otherwise; a file written is 80 wide, whatever window it was made in.
    @Test func aPipeTakesTheControllingTerminalsWidth() {
        let log = corpus("logs/sample.jsonl")
        let piped = bubbles("render", log, "--color", "never", terminalColumns: 64)
        #expect(piped.output == bubbles("render", log, "--color", "never", "--width", "64").output)
        #expect(piped.output != bubbles("render", log, "--color", "never", "--width", "80").output)
        #expect(bubbles("render", log, "--color", "never", terminalColumns: 64, localeDirectory: nil).outputLines.allSatisfy { CellWidth.of(String($0)) <= 64 })
        let toFile = bubbles("render", log, "--color", "never", outputIsFile: true, terminalColumns: 64)
        #expect(toFile.output == bubbles("render", log, "--color", "never", "--width", "80").output)
        #expect(bubbles("render", log, "--color", "never", environment: ["COLUMNS": "50"], terminalColumns: 64).output
                == bubbles("render", log, "--color", "never", "--width", "50").output)
        #expect(bubbles("render", log, "--color", "never", "--width", "40", terminalColumns: 64).output
                == bubbles("render", log, "--color", "never", "--width", "40").output)
    }
}

/// `bubbles render` in a real terminal (tmux): with no file and standard input a terminal, a
/// hint says how to give a file and what is typed is read; piped on, the transcript takes the
/// controlling terminal's width.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux or the built bubbles binary is missing (.ci/run installs tmux)"))
struct RenderTerminalDefaultsTests {
    @Test func renderWithNoFileOnATerminalSaysHowToGiveOneThenReadsWhatIsTyped() throws {
        let binary = try #require(TmuxSession.bubblesBinary)
        let session = try TmuxSession(width: 90, height: 20, command: "\(binary) render --width 40 --color never; sleep 30")
        let (hinted, screen) = session.waitFor { $0.contains { $0.hasPrefix("bubbles: reading a log from standard input (end it with Ctrl-D); to read a file: bubbles render FILE") } }
        #expect(hinted, "\(screen)")
        session.type(#"{"id":"a","type":"text","from":"Ann","date":"2024-05-01T10:00:00Z","text":"typed in"}"#)
        session.send("Enter")
        session.send("C-d")
        let (drawn, after) = session.waitFor { $0.contains { $0.contains("│ typed in │") } }
        #expect(drawn, "\(after)")
        // Given a file, or `-` on purpose, nothing is said.
        let named = bubbles("render", corpus("logs/sample.jsonl"), "--width", "40")
        #expect(named.errors.isEmpty)
    }

    @Test func aTranscriptPipedOnIsAsWideAsTheTerminal() throws {
        let binary = try #require(TmuxSession.bubblesBinary)
        let log = corpus("logs/sample.jsonl")
        let out = NSTemporaryDirectory() + "bubbles-pipe-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let session = try TmuxSession(width: 57, height: 10, command: "\(binary) render '\(log)' --color never | cat > '\(out)'; echo PIPED; sleep 30")
        let (done, screen) = session.waitFor { $0.contains { $0 == "PIPED" } }
        #expect(done, "\(screen)")
        let piped = try String(contentsOfFile: out, encoding: .utf8)
        // Inside tmux a pipe is counted as tmux counts (per code point).
        #expect(piped == bubbles("render", log, "--width", "57", "--color", "never", "--cell-widths", "wcwidth", environment: ["TZ": "UTC"]).output)
        #expect(piped.split(separator: "\n").allSatisfy { CellWidth.of(String($0), options: TextOptions(widthProfile: .wcwidth)) <= 57 })
    }
}
