import BubbleLayout
import BubbleLogs
import BubbleTerminal
import BubbleTestSupport
import Foundation
import Testing

/// `bubbles view` and `bubbles render` in a real terminal: tmux 3.3a, which counts cells per code
/// point. Each test has its own tmux server; screens are polled with a bounded wait.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux or the built bubbles binary is missing (.ci/run installs tmux)"))
struct TmuxViewerTests {
    static let sample = corpus("logs/sample.jsonl")
    /// tmux on a loaded CI machine can take longer than the probe's 100 ms to answer; the
    /// tests are about what it answers (the bound itself is tested on a pty).
    static let probeBound = "BUBBLES_PROBE_TIMEOUT_MS=1000"

    /// Runs `arguments` in a pane (with `environment`, `NAME=value` words, set for it); after it
    /// ends, the shell prints its exit status and the terminal's modes, then waits.
    /// `before`, a shell command ending in `&` or `;`, runs first in the same shell.
    static func start(_ arguments: String, width: Int = 72, height: Int = 22, environment: String = "",
                      before: String = "") throws -> TmuxSession {
        let binary = TmuxSession.bubblesBinary!
        return try TmuxSession(width: width, height: height,
                               command: "sh -c '\(before) \(environment) \(Self.probeBound) \(binary) \(arguments); echo EXIT=$?; stty -a | tr -s \" \\n\" \" \" | head -c 2000; echo; exec sleep 60'")
    }

    static func statusLine(_ screen: [String]) -> String {
        screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
    }

    /// The terminal as it was before: normal screen, cursor shown, no mouse reporting, and the
    /// line discipline cooked with echo.
    static func expectRestored(_ session: TmuxSession, exit: String) {
        let (ended, screen) = session.waitFor { $0.contains { $0.contains("EXIT=") } && $0.contains { $0.contains("icanon") } }
        #expect(ended, "the viewer did not end: \(screen)")
        #expect(screen.contains { $0.contains("EXIT=\(exit)") }, "\(screen)")
        #expect(session.display("#{alternate_on}") == "0")
        #expect(session.display("#{cursor_flag}") == "1")
        #expect(session.display("#{mouse_any_flag}") == "0")
        let modes = screen.joined(separator: " ")
        #expect(modes.contains(" icanon") && modes.contains(" echo ") && !modes.contains("-icanon"), "\(modes)")
    }

    @Test func viewerOpensOnTheLatestMessagesAsRenderDrawsThem() throws {
        let session = try Self.start("view \(Self.sample)")
        let (opened, screen) = session.waitFor { Self.statusLine($0).contains("(END)") }
        #expect(opened, "\(screen)")
        #expect(session.display("#{alternate_on}") == "1")
        #expect(session.display("#{cursor_flag}") == "0")
        let status = Self.statusLine(screen)
        #expect(status.contains("of 157"))
        #expect(status.contains("Sat 4 May 2024"))
        // The rows are the end of what render draws at this width with tmux's widths.
        let render = bubbles("render", Self.sample, "--width", "72", "--cell-widths", "wcwidth", "--color", "never",
                             environment: ["TZ": "UTC"])
        let expected = render.outputLines.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
        let shown = screen.prefix(21).map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
        #expect(Array(expected.suffix(21)) == Array(shown))
        session.send("q")
        Self.expectRestored(session, exit: "0")
    }

    @Test func lessKeysSearchAndHighlights() throws {
        let session = try Self.start("view \(Self.sample)")
        session.waitFor { Self.statusLine($0).contains("(END)") }
        session.send("g")
        var (moved, screen) = session.waitFor { Self.statusLine($0).contains("message 1 of 157") }
        #expect(moved, "\(screen)")
        #expect(screen.first?.contains("Wed 1 May 2024") == true)
        session.send("j")
        (moved, screen) = session.waitFor { !($0.first?.contains("Wed 1 May 2024") ?? true) }
        #expect(moved)
        session.send("G")
        (moved, screen) = session.waitFor { Self.statusLine($0).contains("(END)") }
        #expect(moved)
        session.send("g")
        session.type("/passport")
        session.send("Enter")
        (moved, screen) = session.waitFor(escapes: true) { screen in
            screen.contains { $0.contains("\u{1B}[7mpassport") }
        }
        #expect(moved, "no highlighted match: \(screen)")
        #expect(Self.statusLine(session.capture()).contains("/passport"))
        session.send("q")
        Self.expectRestored(session, exit: "0")
    }

    /// A log of two conversations: each shown under its header line, `[` and `]` going from one
    /// to the other, and `--channel` opening just one.
    @Test func conversationsAreSectionsWithHeadersAndJumpKeys() throws {
        let log = corpus("logs/conversations.jsonl")
        let session = try Self.start("view \(log)", environment: "TZ=UTC")
        var (shown, screen) = session.waitFor { Self.statusLine($0).contains("(END)") }
        #expect(shown, "\(screen)")
        // Opens on the conversation of the log's last message.
        #expect(screen.first?.contains("home") == true && screen.first?.contains("conversation 2 of 2") == true, "\(screen)")
        #expect(!screen.contains { $0.contains("Stand-up") })
        session.send("[")
        (shown, screen) = session.waitFor { $0.first?.contains("conversation 1 of 2") == true }
        #expect(shown, "\(screen)")
        #expect(screen.first?.contains("work") == true)
        #expect(screen.contains { $0.contains("Stand-up moved to 10:30") })
        #expect(!screen.contains { $0.contains("Dinner at 7?") })
        #expect(screen.contains { $0.contains("Wed 1 May 2024") }, "the conversation's own first date separator")
        session.send("]")
        (shown, screen) = session.waitFor { $0.first?.contains("conversation 2 of 2") == true }
        #expect(shown, "\(screen)")
        #expect(screen.contains { $0.contains("Dinner at 7?") })
        session.send("q")
        Self.expectRestored(session, exit: "0")

        let one = try Self.start("view \(log) --channel work", environment: "TZ=UTC")
        (shown, screen) = one.waitFor { Self.statusLine($0).contains("(END)") }
        #expect(shown, "\(screen)")
        #expect(screen.first?.contains("work") == true && screen.first?.contains("conversation 1 of 1") == true, "\(screen)")
        #expect(!screen.contains { $0.contains("Dinner") })
        one.send("q")
        Self.expectRestored(one, exit: "0")
    }

    /// tmux's own widths of the lines of each bubble on screen: all equal when borders line up.
    /// (A captured screen loses part of a long ZWJ sequence, which tmux keeps in one cell of
    /// limited size, so bubbles holding one are measured by `renderAuto…` from the bytes instead.)
    static func misalignedBubbles(_ screen: [String], skippingJoiners: Bool = true) throws -> [[String]] {
        let groups = bubbleLineGroups(screen).filter { group in
            !skippingJoiners || !group.contains { $0.unicodeScalars.contains("\u{200D}") }
        }
        #expect(!groups.isEmpty, "no whole bubble on screen: \(screen)")
        let widths = try #require(try TmuxWidths.measure(groups.flatMap { $0 }), "tmux did not measure the lines")
        var offset = 0
        var misaligned: [[String]] = []
        for group in groups {
            let groupWidths = widths[offset..<(offset + group.count)]
            if Set(groupWidths).count != 1 { misaligned.append(group) }
            offset += group.count
        }
        return misaligned
    }

    /// The probe picks tmux's widths, so every bubble's right border is one column; told to
    /// count by grapheme cluster instead, the first screen (☀️, 🇯🇵 …) is off, which shows the
    /// check can fail.
    @Test func bordersLineUpUnderTmuxWidths() throws {
        for (flag, aligned) in [("", true), (" --cell-widths unicode", false)] {
            let session = try Self.start("view \(Self.sample)\(flag)", width: 64, height: 40)
            session.waitFor { Self.statusLine($0).contains("(END)") }
            var misaligned: [[String]] = []
            for key in ["g", "Space", "Space", "Space", "Space"] {
                session.send(key)
                usleep(150_000)
                let (_, screen) = session.waitFor { Self.statusLine($0).contains("message") }
                misaligned += try Self.misalignedBubbles(Array(screen.dropLast()))
            }
            if aligned {
                #expect(misaligned.isEmpty, "misaligned under the probe: \(misaligned)")
            } else {
                #expect(!misaligned.isEmpty, "--cell-widths unicode lined up in tmux: the check cannot fail")
            }
            session.send("q")
            Self.expectRestored(session, exit: "0")
        }
    }

    @Test func resizeReflowsKeepingTheTopMessage() throws {
        let session = try Self.start("view \(Self.sample)", width: 80, height: 24)
        session.waitFor { Self.statusLine($0).contains("(END)") }
        session.send("g")
        for _ in 0..<4 { session.send("Space") }
        let (_, before) = session.waitFor { Self.statusLine($0).contains("message") && !Self.statusLine($0).contains("message 1 of") }
        usleep(200_000)
        let position = Self.statusLine(session.capture()).components(separatedBy: "│").first { $0.contains("message") }!
        session.resize(width: 46, height: 30)
        let (reflowed, after) = session.waitFor { screen in
            screen.count >= 30 && Self.statusLine(screen).contains(position.trimmingCharacters(in: .whitespaces))
                && screen.allSatisfy { $0.count <= 46 * 2 }
        }
        #expect(reflowed, "before: \(before)\nafter: \(after)")
        #expect(try Self.misalignedBubbles(Array(after.dropLast())).isEmpty)
        session.send("q")
        Self.expectRestored(session, exit: "0")
    }

    @Test func terminalIsGivenBackAfterSignals() throws {
        for (signal, exit) in [(SIGTERM, "143"), (SIGHUP, "129"), (SIGINT, "130"), (SIGQUIT, "131")] {
            let session = try Self.start("view \(Self.sample)")
            session.waitFor { Self.statusLine($0).contains("(END)") }
            let pid = try #require(session.childPID())
            kill(pid, signal)
            Self.expectRestored(session, exit: exit)
        }
    }

    /// Under a shell with job control, as people run it: ctrl-Z gives the terminal back and
    /// stops the viewer; `fg` continues it and it redraws.
    @Test func suspendGivesTheTerminalBackAndResumeRedraws() throws {
        let binary = TmuxSession.bubblesBinary!
        let session = try TmuxSession(width: 72, height: 22, command: "bash --norc --noprofile -i")
        session.type("PS1='$ '; \(Self.probeBound) \(binary) view \(Self.sample)")
        session.send("Enter")
        session.waitFor { Self.statusLine($0).contains("(END)") }
        #expect(session.display("#{alternate_on}") == "1")
        usleep(300_000)
        session.send("C-z")
        let (stopped, shell) = session.waitFor { $0.contains { $0.contains("Stopped") } }
        #expect(stopped, "\(shell)")
        #expect(session.display("#{alternate_on}") == "0")
        #expect(session.display("#{cursor_flag}") == "1")
        session.type("fg")
        session.send("Enter")
        let (redrawn, screen) = session.waitFor { Self.statusLine($0).contains("(END)") && $0.first?.contains("fg") != true }
        #expect(redrawn, "\(screen)")
        #expect(session.display("#{alternate_on}") == "1")
        session.send("j")
        session.send("q")
        session.waitFor { $0.contains { $0.hasPrefix("$ ") && !$0.contains("fg") && !$0.contains("view") } }
        session.type("echo EXIT=$?; stty -a")
        session.send("Enter")
        Self.expectRestored(session, exit: "0")
    }

    @Test func followShowsAppendedMessages() throws {
        let directory = NSTemporaryDirectory() + "bubbles-follow-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/live.jsonl"
        try String(contentsOfFile: Self.sample, encoding: .utf8).write(toFile: path, atomically: false, encoding: .utf8)
        let session = try Self.start("view --follow \(path)")
        session.waitFor { Self.statusLine($0).contains("of 157") }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"id":"live-1","type":"text","from":"Zed","date":"2024-05-04T16:00:00Z","text":"fresh off the press"}"#.utf8 + [0x0A]))
        handle.write(Data("not json\n".utf8))
        try handle.close()
        let (arrived, screen) = session.waitFor { screen in
            Self.statusLine(screen).contains("of 158") && screen.contains { $0.contains("fresh off the press") }
        }
        #expect(arrived, "\(screen)")
        session.send("q")
        let (_, after) = session.waitFor { $0.contains { $0.contains("EXIT=") } }
        // The bad line is reported at its place in the file once the screen is given back.
        #expect(after.contains { $0.contains("live.jsonl:159:") }, "\(after)")
        #expect(after.contains { $0.contains("EXIT=1") })
    }

    /// A JSON Lines file over the tail-first size opens on its end, is indexed behind it, and
    /// every key and search then reaches the whole file: the first message, and one in the middle.
    @Test func aLargeFileOpensOnItsEndAndIsIndexedBehindIt() throws {
        let directory = NSTemporaryDirectory() + "bubbles-large-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/large.jsonl"
        let sample = try String(contentsOfFile: Self.sample, encoding: .utf8)
        let copies = 220
        var text = ""
        for copy in 0..<copies {
            if copy == copies / 2 {
                text += #"{"id":"marker","type":"text","from":"Zed","date":"2024-05-04T16:00:00Z","text":"the marker in the middle"}"# + "\n"
            }
            text += sample.replacingOccurrences(of: #""id": "m"#, with: #""id": "c\#(copy)-m"#)
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let lines = sample.split(separator: "\n").count
        let total = lines * copies + 1
        let grouped = NumberText.grouped(total)  // the status line groups its counts
        #expect(text.utf8.count > 4 << 20)
        let session = try Self.start("view \(path)", width: 80, height: 24)
        let (indexed, screen) = session.waitFor(seconds: 90) {
            Self.statusLine($0).contains("of \(grouped) ") && Self.statusLine($0).contains("(END)") && !Self.statusLine($0).contains("loading")
        }
        #expect(indexed, "\(screen)")
        session.send("g")
        let (first, top) = session.waitFor { Self.statusLine($0).contains("message 1 of \(grouped)") }
        #expect(first, "\(top)")
        session.type("/the marker")
        session.send("Enter")
        let (found, middle) = session.waitFor(seconds: 30) {
            Self.statusLine($0).contains("message \(NumberText.grouped(lines * copies / 2 + 1)) of \(grouped)") && $0.contains { $0.contains("the marker in the middle") }
        }
        #expect(found, "\(middle)")
        session.send("q")
        Self.expectRestored(session, exit: "0")
    }

    /// `--follow` on a format that cannot be followed says why, as a usage error.
    @Test func followRefusesFormatsThatAreNotAppendedTo() throws {
        let cases = [("exports/whatsapp/android-en_GB.txt", "day or month first"), ("exports/discord/channel.json", "one JSON document"),
                     ("exports/telegram/single/result.json", "a Telegram Desktop export (result.json) is one JSON document"),
                     ("exports/zip/android-renamed.zip", "a zip archive is read whole"),
                     ("logs/sample-utf16be.jsonl", "a UTF-16 file is read whole")]
        for (file, reason) in cases {
            let session = try Self.start("view --follow \(corpus(file))", width: 220)
            let (ended, screen) = session.waitFor { $0.contains { $0.contains("EXIT=") } }
            #expect(ended)
            #expect(screen.contains { $0.contains("EXIT=2") }, "\(screen)")
            #expect(screen.joined(separator: " ").contains(reason), "\(screen)")
        }
    }

    /// A log read from a FIFO (as from `<(unzip -p chat.zip)`): read once, through the reader, and
    /// shown whole; never opened a second time, which would wait for a writer that has gone.
    @Test func aLogFromAFIFOIsShownWhole() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-view-fifo-\(getpid())").path
        unlink(fifo)
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let session = try Self.start("view \(fifo)", before: "cat \(Self.sample) > \(fifo) &")
        // Read behind the open screen: its end once all of it is read.
        let (opened, screen) = session.waitFor { Self.statusLine($0).contains("(END)") && Self.statusLine($0).contains("of 157") }
        #expect(opened, "\(screen)")
        #expect(Self.statusLine(screen).contains("of 157"), "\(screen)")
        session.send("q")
        Self.expectRestored(session, exit: "0")

        let follow = try Self.start("view --follow \(fifo)", width: 220, before: "cat \(Self.sample) > \(fifo) &")
        let (ended, refused) = follow.waitFor { $0.contains { $0.contains("EXIT=") } }
        #expect(ended)
        #expect(refused.contains { $0.contains("EXIT=2") }, "\(refused)")
        #expect(refused.joined(separator: " ").contains("a pipe or FIFO is read once"), "\(refused)")
    }

    /// `count` JSON Lines messages whose ids and texts name `tag`.
    static func lines(_ tag: String, _ count: Int) -> String {
        (1...count).map { #"{"id":"\#(tag)-\#($0)","type":"text","from":"Zed","date":"2024-05-04T16:00:00Z","text":"\#(tag) says \#($0)"}"# + "\n" }.joined()
    }

    /// A followed file rewritten in place with longer content, then shorter, then replaced by a
    /// file renamed over it: each time it is read again from its start (said on the status
    /// line) and its new end shown, the viewer stays alive, and `q` gives the terminal back.
    @Test func followReadsAFileRewrittenUnderItAgain() throws {
        let directory = NSTemporaryDirectory() + "bubbles-rewrite-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/live.jsonl"
        let head = try String(contentsOfFile: Self.sample, encoding: .utf8).split(separator: "\n").prefix(10).joined(separator: "\n") + "\n"
        try head.write(toFile: path, atomically: false, encoding: .utf8)
        let session = try Self.start("view --follow \(path)", width: 80, height: 24)
        let (opened, first) = session.waitFor { Self.statusLine($0).contains("message 10 of 10") }
        #expect(opened, "\(first)")
        let rewrites: [(text: String, count: Int, last: String, renamed: Bool)] = [
            (Self.lines("longer", 30), 30, "longer says 30", false),
            (Self.lines("shorter", 2), 2, "shorter says 2", false),
            (Self.lines("renamed", 12), 12, "renamed says 12", true),
        ]
        for rewrite in rewrites {
            if rewrite.renamed {
                try rewrite.text.write(toFile: path, atomically: true, encoding: .utf8)
            } else {
                let handle = try #require(FileHandle(forWritingAtPath: path))
                try handle.truncate(atOffset: 0)
                try handle.write(contentsOf: Data(rewrite.text.utf8))
                try handle.close()
            }
            let (shown, screen) = session.waitFor { screen in
                let status = Self.statusLine(screen)
                return status.contains("message \(rewrite.count) of \(rewrite.count)") && status.contains("read again")
                    && screen.contains { $0.contains(rewrite.last) }
            }
            #expect(shown, "\(rewrite.last): \(screen)")
            #expect(!screen.contains { $0.contains("no longer in") })
            #expect(!screen.contains { $0.contains("EXIT=") }, "the viewer ended: \(screen)")
            #expect(session.display("#{alternate_on}") == "1")
        }
        session.send("q")
        Self.expectRestored(session, exit: "0")
    }

    /// A fatal signal (a Swift trap is SIGILL here, SIGTRAP on arm64) still gives the terminal
    /// back before the process dies of it: sent to the viewer, with the runtime's backtracer
    /// off (the default action then ends it: 128 + the signal) and on (it takes the signal after
    /// us and prints its backtrace on the normal screen; the modes are read from outside).
    @Test func aFatalSignalStillGivesTheTerminalBack() throws {
        for (signal, exit) in [(SIGILL, "132"), (SIGSEGV, "139"), (SIGABRT, "134"), (SIGBUS, "135")] {
            let session = try Self.start("view \(Self.sample)", environment: "SWIFT_BACKTRACE=enable=no")
            session.waitFor { Self.statusLine($0).contains("(END)") }
            let pid = try #require(session.childPID())
            kill(pid, signal)
            Self.expectRestored(session, exit: exit)
        }
        let session = try Self.start("view \(Self.sample)", environment: "SWIFT_BACKTRACE=enable=yes,interactive=no")
        session.waitFor { Self.statusLine($0).contains("(END)") }
        let pid = try #require(session.childPID())
        kill(pid, SIGILL)
        let (restored, screen) = session.waitFor(seconds: 20) { _ in
            session.display("#{alternate_on}") == "0" && session.display("#{cursor_flag}") == "1" && session.display("#{mouse_any_flag}") == "0"
        }
        #expect(restored, "\(screen)")
        let modes = spawn("/bin/stty", ["-F", session.display("#{pane_tty}"), "-a"])
        #expect(modes.contains(" icanon") && modes.contains(" echo ") && !modes.contains("-icanon"), "\(modes)")
        kill(pid, SIGKILL)  // the backtracer takes a while to symbolicate a debug build
    }

    /// A real trap (a failed precondition, as the bug in `endPosition` was) in a viewer that holds
    /// the terminal: this test binary runs `trappingViewer` in a pane, which gives the terminal
    /// back from the signal handler and dies of the trap's signal.
    @Test func aRealTrapInTheViewerGivesTheTerminalBack() throws {
        let binary = CommandLine.arguments[0]
        let session = try TmuxSession(width: 72, height: 22, command: "sh -c 'BUBBLES_TRAPPING_VIEWER=1 SWIFT_BACKTRACE=enable=no \(binary) --testing-library swift-testing --filter trappingViewer >/dev/null 2>&1; echo EXIT=$?; stty -a | tr -s \" \\n\" \" \" | head -c 2000; echo; exec sleep 60'")
        let (entered, screen) = session.waitFor(seconds: 30) { Self.statusLine($0).contains("trapping viewer") }
        #expect(entered, "\(screen)")
        #if arch(arm64)
        let exit = "133"  // SIGTRAP: a Swift trap is brk on arm64
        #else
        let exit = "132"  // SIGILL: ud2
        #endif
        Self.expectRestored(session, exit: exit)
    }

    /// Not a test of its own: the viewer `aRealTrapInTheViewerGivesTheTerminalBack` runs in a
    /// pane. It shows the sample and, a few follow ticks later, traps as a bug would.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["BUBBLES_TRAPPING_VIEWER"] != nil, "run by aRealTrapInTheViewerGivesTheTerminalBack"))
    func trappingViewer() throws {
        let device = try #require(TerminalDevice())
        var models: [any MessageModel] = []
        for case let .message(record, _) in try LogSource.open(path: Self.sample) { models.append(record) }
        let size = device.size ?? (22, 72)
        let screen = ViewerScreen(source: ViewerMessages(models), engine: LayoutEngine(), title: "trapping viewer",
                                  rows: size.rows, columns: size.columns, renderOptions: RenderOptions(width: size.columns))
        let session = ViewerSession(screen: screen, device: device)
        session.followInterval = 100
        nonisolated(unsafe) var ticks = 0
        session.follow = {
            ticks += 1
            precondition(ticks < 10, "a deliberate trap")
            return .unchanged
        }
        _ = session.run()
    }

    /// `render --cell-widths auto` in tmux writes what `--cell-widths wcwidth` does (the two
    /// screens are the same), the probe leaves nothing on screen, and those lines, drawn in tmux
    /// from their bytes, line up by tmux's own count; `unicode`'s do not.
    @Test func renderAutoLinesUpInTmuxAndLeavesNoProbeTrace() throws {
        let binary = TmuxSession.bubblesBinary!
        let session = try TmuxSession(width: 64, height: 50,
                                      command: "sh -c 'printf \"before\\n\"; \(Self.probeBound) \(binary) render \(Self.sample) --width 64 --color never; echo EXIT=$?; exec sleep 60'")
        let (done, _) = session.waitFor { $0.contains { $0.contains("EXIT=") } }
        #expect(done)
        let screen = session.capture(history: true)
        #expect(screen.first == "before")
        #expect(screen[1].contains("Wed 1 May 2024"), "the probe left a line: \(screen.prefix(3))")
        // No test grapheme and no cursor report (`CSI row ; col R`, shown as `^[[5;3R` or `[5;3R`).
        #expect(!screen.contains { $0.contains("🫨") })
        #expect(!screen.contains { $0.range(of: #"\[\d+;\d+R"#, options: .regularExpression) != nil })

        var expected: [String: [String]] = [:]
        for profile in ["wcwidth", "unicode"] {
            let run = bubbles("render", Self.sample, "--width", "64", "--color", "never", "--cell-widths", profile,
                              environment: ["TZ": "UTC"])
            expected[profile] = run.outputLines.map(String.init)
        }
        let file = NSTemporaryDirectory() + "bubbles-render-\(getpid()).txt"
        try (expected["wcwidth"]!.joined(separator: "\n") + "\n").write(toFile: file, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let reference = try TmuxSession(width: 64, height: 50, command: "sh -c 'printf \"before\\n\"; cat \(file); echo EXIT=0; exec sleep 60'")
        reference.waitFor { $0.contains { $0.contains("EXIT=") } }
        #expect(reference.capture(history: true) == screen, "render --cell-widths auto drew other lines than wcwidth")

        #expect(try Self.misalignedBubbles(expected["wcwidth"]!, skippingJoiners: false).isEmpty)
        #expect(try !Self.misalignedBubbles(expected["unicode"]!, skippingJoiners: false).isEmpty)
    }

    /// `render | cat` in a tmux pane: nothing to ask through the pipe, and tmux draws the lines,
    /// so they are laid out as tmux counts (per code point): the pane shows what `wcwidth` draws.
    @Test func renderPipedOnInsideTmuxLinesUpInTmux() throws {
        let binary = TmuxSession.bubblesBinary!
        let session = try TmuxSession(width: 64, height: 50,
                                      command: "sh -c '\(binary) render \(Self.sample) --width 64 --color never | cat; echo EXIT=$?; exec sleep 60'")
        let (done, _) = session.waitFor { $0.contains { $0.contains("EXIT=") } }
        #expect(done)
        let screen = session.capture(history: true)
        let wcwidth = bubbles("render", Self.sample, "--width", "64", "--color", "never", "--cell-widths", "wcwidth",
                              environment: ["TZ": "UTC"]).outputLines.map(String.init)
        let file = NSTemporaryDirectory() + "bubbles-piped-\(getpid()).txt"
        try (wcwidth.joined(separator: "\n") + "\n").write(toFile: file, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let reference = try TmuxSession(width: 64, height: 50, command: "sh -c 'cat \(file); echo EXIT=0; exec sleep 60'")
        reference.waitFor { $0.contains { $0.contains("EXIT=") } }
        #expect(reference.capture(history: true) == screen, "render piped inside tmux drew other lines than wcwidth")
        #expect(try Self.misalignedBubbles(wcwidth, skippingJoiners: false).isEmpty)
    }
}
