import BubbleLayout
import BubbleLogs
import BubbleTerminal
import BubbleTestSupport
import Foundation
import Testing

/// The viewer's help screen, counts and log-wide keys, its status line, and what it does with
/// hostile input and signals, in tmux (as `TmuxViewerTests`).
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux or the built bubbles binary is missing (.ci/run installs tmux)"))
struct TmuxViewerKeysTests {
    static let sample = TmuxViewerTests.sample
    static func start(_ arguments: String, width: Int = 72, height: Int = 22, environment: String = "", before: String = "") throws -> TmuxSession {
        try TmuxViewerTests.start(arguments, width: width, height: height, environment: environment, before: before)
    }
    static func statusLine(_ screen: [String]) -> String { TmuxViewerTests.statusLine(screen) }

    static func temporaryDirectory(_ name: String) throws -> String {
        let directory = NSTemporaryDirectory() + "bubbles-\(name)-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// `h` and F1 show every key of `ViewerKeyHelp` (the list the man page prints); any key,
    /// `q` included, returns to the log where it was; `q` then quits.
    @Test func helpScreenListsTheKeysAndAnyKeyReturns() throws {
        let session = try Self.start("view \(Self.sample)", width: 110, height: 40)
        session.waitFor { Self.statusLine($0).contains("(END)") }
        for (open, close) in [("h", "q"), ("F1", "x")] {
            session.send(open)
            let (shown, help) = session.waitFor { $0.first?.contains("Keys of bubbles view") == true }
            #expect(shown, "\(open): \(help)")
            let text = help.joined(separator: "\n")
            for binding in ViewerKeyHelp.bindings {
                #expect(text.contains(binding.keys), "\(binding.keys)")
                #expect(text.contains(binding.action.split(separator: " ").prefix(3).joined(separator: " ")), "\(binding.action)")
            }
            session.send(close)
            let (back, log) = session.waitFor { Self.statusLine($0).contains("(END)") }
            #expect(back, "\(close): \(log)")
        }
        session.send("q")
        TmuxViewerTests.expectRestored(session, exit: "0")
    }

    /// A help screen taller than the terminal scrolls with the paging keys before any other key
    /// returns.
    @Test func aTallHelpScreenScrolls() throws {
        let session = try Self.start("view \(Self.sample)", width: 72, height: 10)
        session.waitFor { Self.statusLine($0).contains("(END)") }
        session.send("h")
        let (shown, top) = session.waitFor { Self.statusLine($0).contains("more below") }
        #expect(shown, "\(top)")
        #expect(!top.joined().contains("Quit."))
        session.send("Space")
        session.send("Space")
        session.send("Space")
        let (scrolled, bottom) = session.waitFor { $0.joined().contains("Quit.") }
        #expect(scrolled, "\(bottom)")
        session.send("z")
        let (back, _) = session.waitFor { Self.statusLine($0).contains("(END)") }
        #expect(back)
        session.resize(width: 72, height: 30)  // room for the exit status and the modes
        session.send("q")
        TmuxViewerTests.expectRestored(session, exit: "0")
    }

    /// A count repeats the key after it (shown on the status line while typed): `3j` is `jjj`,
    /// `2b` is `bb`, `12g` goes to message 12, `2n` is `nn`.
    @Test func aCountRepeatsTheKey() throws {
        let session = try Self.start("view \(Self.sample)")
        session.waitFor { Self.statusLine($0).contains("(END)") }
        func screenAfter(_ keys: [String]) -> [String] {
            for key in keys { session.send(key) }
            usleep(400_000)
            // Cells cleared by an earlier frame may capture as trailing spaces or not.
            return session.capture().map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
        }
        session.send("g")
        session.waitFor { Self.statusLine($0).contains("message 1 of 157") }
        let stepped = screenAfter(["j", "j", "j"])
        session.send("g")
        session.waitFor { Self.statusLine($0).contains("message 1 of 157") }
        session.send("3")
        let (typed, status) = session.waitFor { Self.statusLine($0).contains(":3") }
        #expect(typed, "\(status)")
        let counted = screenAfter(["j"])
        #expect(counted == stepped)
        #expect(!Self.statusLine(counted).contains(":3"))

        session.send("G")
        session.waitFor { Self.statusLine($0).contains("(END)") }
        let paged = screenAfter(["b", "b"])
        session.send("G")
        session.waitFor { Self.statusLine($0).contains("(END)") }
        #expect(screenAfter(["2", "b"]) == paged)

        session.type("12g")
        let (moved, twelve) = session.waitFor { Self.statusLine($0).contains("message 12 of 157") }
        #expect(moved, "\(twelve)")

        // The first two matches one at a time, then the second at once.
        session.send("g")
        session.waitFor { Self.statusLine($0).contains("message 1 of 157") }
        session.type("/the")
        session.send("Enter")
        usleep(300_000)
        let second = screenAfter(["n", "n"])
        session.send("g")
        session.waitFor { Self.statusLine($0).contains("message 1 of 157") }
        session.type("/the")
        session.send("Enter")
        usleep(300_000)
        session.send("g")
        session.waitFor { Self.statusLine($0).contains("message 1 of 157") }
        #expect(screenAfter(["2", "n"]) == second)
        session.send("q")
        TmuxViewerTests.expectRestored(session, exit: "0")
    }

    /// In a log of several conversations `g` goes to the first one's start and `G` to the last
    /// one's end; each conversation has one heading (the header line), not a second row
    /// repeating its name.
    @Test func gAndGGoToTheLogsEndsAndEachConversationHasOneHeading() throws {
        let session = try Self.start("view \(corpus("logs/conversations.jsonl"))", environment: "TZ=UTC")
        var (shown, screen) = session.waitFor { Self.statusLine($0).contains("(END)") }
        #expect(screen.first?.contains("conversation 2 of 2") == true, "\(screen)")
        session.send("g")
        (shown, screen) = session.waitFor { $0.first?.contains("conversation 1 of 2") == true && $0.contains { $0.contains("Stand-up moved to 10:30") } }
        #expect(shown, "\(screen)")
        session.send("G")
        (shown, screen) = session.waitFor { $0.first?.contains("conversation 2 of 2") == true && Self.statusLine($0).contains("(END)") }
        #expect(shown, "\(screen)")
        session.send("q")
        TmuxViewerTests.expectRestored(session, exit: "0")

        let slack = try Self.start("view \(corpus("exports/slack/export"))", width: 80, height: 40, environment: "TZ=UTC")
        slack.waitFor { Self.statusLine($0).contains("(END)") && !Self.statusLine($0).contains("loading") }
        slack.send("g")
        (shown, screen) = slack.waitFor { $0.first?.contains("conversation 1 of") == true && Self.statusLine($0).contains("message 1 of") }
        #expect(shown, "\(screen)")
        #expect(screen.first?.contains("#general") == true, "\(screen)")
        #expect(screen.filter { $0.contains("#general") }.count == 1, "the name once: \(screen)")
        #expect(screen.contains { $0.contains("Wed 1 May 2024") }, "its dates follow: \(screen)")
        slack.send("q")
        TmuxViewerTests.expectRestored(slack, exit: "0")
    }

    /// The status line shortens a long path from its start and keeps the file name; a file name
    /// longer than the line keeps its end.
    @Test func theStatusLineKeepsTheFileName() throws {
        let directory = try Self.temporaryDirectory("status")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let deep = directory + "/a-rather-long-folder-name/another-long-folder-name/exports"
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        let path = deep + "/chat-name.jsonl"
        try FileManager.default.copyItem(atPath: Self.sample, toPath: path)
        let session = try Self.start("view \(path)", width: 72)
        let (shown, screen) = session.waitFor { Self.statusLine($0).contains("(END)") }
        #expect(shown, "\(screen)")
        let status = Self.statusLine(screen)
        #expect(status.contains("…/exports/chat-name.jsonl") || status.contains("…/another-long-folder-name/exports/chat-name.jsonl"), "\(status)")
        #expect(status.contains("message 157 of 157"), "\(status)")
        session.send("q")
        TmuxViewerTests.expectRestored(session, exit: "0")

        let name = String(repeating: "very-long-name-", count: 8) + "tail-end.jsonl"
        let long = directory + "/" + name
        try FileManager.default.copyItem(atPath: Self.sample, toPath: long)
        let narrow = try Self.start("view \(long)", width: 60)
        let (opened, lines) = narrow.waitFor { Self.statusLine($0).contains("(END)") || Self.statusLine($0).contains("tail-end") }
        #expect(opened, "\(lines)")
        let line = Self.statusLine(lines)
        #expect(line.contains("…") && line.contains("tail-end.jsonl"), "\(line)")
        narrow.send("q")
        TmuxViewerTests.expectRestored(narrow, exit: "0")
    }

    /// What opening the log says (here a `TZ` naming no zone) is on the status line while the
    /// viewer runs, and on stderr once it is closed.
    @Test func openingNotesAreOnTheStatusLine() throws {
        let session = try Self.start("view \(Self.sample)", width: 160, environment: "TZ=Nowhere/Bogus")
        let (shown, screen) = session.waitFor { Self.statusLine($0).contains("names no time zone") }
        #expect(shown, "\(screen)")
        session.send("q")
        let (_, after) = session.waitFor { $0.contains { $0.contains("EXIT=") } }
        #expect(after.contains { $0.contains("bubbles: TZ='Nowhere/Bogus' names no time zone") }, "\(after)")

        // What is said at exit once the log is read: here a --me that matched no one.
        for input in [corpus("exports/whatsapp/android-en_GB.txt")] {
            let me = try Self.start("view \(input) --me Nobody-At-All", width: 160)
            let (said, lines) = me.waitFor { Self.statusLine($0).contains("--me matched no sender") }
            #expect(said, "\(input): \(lines)")
            me.send("q")
            let (_, closed) = me.waitFor { $0.contains { $0.contains("EXIT=") } }
            #expect(closed.joined().contains("matched no sender"), "\(closed)")
        }
    }

    /// Every signal whose default action ends the process gives the terminal back first, then
    /// the viewer dies of it.
    @Test func everyTerminatingSignalGivesTheTerminalBack() throws {
        let signals: [Int32] = [SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO, SIGSYS, SIGPIPE, SIGPWR,
                                __libc_current_sigrtmin(), __libc_current_sigrtmax()]
        for signal in signals {
            // No core files from the signals that dump one.
            let session = try Self.start("view \(Self.sample)", environment: "SWIFT_BACKTRACE=enable=no", before: "ulimit -c 0;")
            session.waitFor { Self.statusLine($0).contains("(END)") }
            let pid = try #require(session.childPID())
            // Ignored when the viewer started (tmux leaves SIGPIPE ignored in its panes), a signal
            // ends nothing, and the viewer leaves it so.
            let ignored = spawn("/bin/sh", ["-c", "grep SigIgn /proc/\(pid)/status"])
            let mask = UInt64(ignored.split(separator: "\t").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? "0", radix: 16) ?? 0
            if mask & (1 << UInt64(signal - 1)) != 0 {
                session.send("q")
                TmuxViewerTests.expectRestored(session, exit: "0")
                continue
            }
            kill(pid, signal)
            TmuxViewerTests.expectRestored(session, exit: "\(128 + signal)")
        }
    }

    /// A followed name that becomes a FIFO is never opened (which would wait for a writer, deaf
    /// to keys): the status line says so, and `q` quits at once.
    @Test func followNeverOpensAFIFO() throws {
        let directory = try Self.temporaryDirectory("follow-fifo")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/live.jsonl"
        try FileManager.default.copyItem(atPath: Self.sample, toPath: path)
        let session = try Self.start("view --follow \(path)", width: 140)
        session.waitFor { Self.statusLine($0).contains("(END)") }
        unlink(path)
        try #require(mkfifo(path, 0o600) == 0)
        let (said, screen) = session.waitFor { Self.statusLine($0).contains("a FIFO") }
        #expect(said, "\(screen)")
        #expect(Self.statusLine(screen).contains("of 157"), "the file opened before is shown: \(screen)")
        session.send("q")
        TmuxViewerTests.expectRestored(session, exit: "0")
    }

    /// A log that is still being read (here from a FIFO whose writer keeps it open) is read
    /// behind the open screen: `q` quits and SIGTERM ends the viewer meanwhile, each giving the
    /// terminal back, instead of waiting for the read to end.
    @Test func keysAndSignalsAreAnsweredWhileTheLogLoads() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-loading-fifo-\(getpid())").path
        unlink(fifo)
        try #require(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        for (ending, exit) in [("q", "0"), ("TERM", "143")] {
            let session = try Self.start("view \(fifo)", before: "(cat \(Self.sample); sleep 20) > \(fifo) &")
            let (loading, screen) = session.waitFor { Self.statusLine($0).contains("loading") }
            #expect(loading, "\(screen)")
            if ending == "q" {
                session.send("q")
            } else {
                kill(try #require(Self.viewerPID(session)), SIGTERM)
            }
            TmuxViewerTests.expectRestored(session, exit: exit)
        }
    }

    /// While the viewer's loop is busy (here a follow tick that takes 30 s, as a huge message's
    /// layout or a long search would), `q`, ctrl-C and SIGTERM still end it at once, giving the
    /// terminal back: this test binary runs `busyViewer` in a pane.
    @Test func waysOutAreAnsweredWhileTheLoopIsBusy() throws {
        let binary = CommandLine.arguments[0]
        for (ending, exit) in [("q", "0"), ("C-c", "0"), ("TERM", "143")] {
            let session = try TmuxSession(width: 72, height: 22, command: "sh -c 'BUBBLES_BUSY_VIEWER=1 SWIFT_BACKTRACE=enable=no \(binary) --testing-library swift-testing --filter busyViewer >/dev/null 2>&1; echo EXIT=$?; stty -a | tr -s \" \\n\" \" \" | head -c 2000; echo; exec sleep 60'")
            let (entered, screen) = session.waitFor(seconds: 30) { Self.statusLine($0).contains("busy viewer") }
            #expect(entered, "\(screen)")
            usleep(600_000)  // the first follow tick has begun
            if ending == "TERM" {
                kill(try #require(session.childPID()), SIGTERM)
            } else {
                session.send(ending)
            }
            TmuxViewerTests.expectRestored(session, exit: exit)
        }
    }

    /// Not a test of its own: the viewer `waysOutAreAnsweredWhileTheLoopIsBusy` runs in a pane.
    /// Its first follow tick keeps the loop busy for 30 seconds.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["BUBBLES_BUSY_VIEWER"] != nil, "run by waysOutAreAnsweredWhileTheLoopIsBusy"))
    func busyViewer() throws {
        let device = try #require(TerminalDevice())
        var models: [any MessageModel] = []
        for case let .message(record, _) in try LogSource.open(path: Self.sample) { models.append(record) }
        let size = device.size ?? (22, 72)
        let screen = ViewerScreen(source: ViewerMessages(models), engine: LayoutEngine(), title: "busy viewer",
                                  rows: size.rows, columns: size.columns, renderOptions: RenderOptions(width: size.columns))
        let session = ViewerSession(screen: screen, device: device)
        session.followInterval = 100
        session.follow = {
            sleep(30)
            return .unchanged
        }
        _ = session.run()
    }

    /// The viewer among the pane shell's children (a writer started `before` it is one too).
    static func viewerPID(_ session: TmuxSession) -> Int32? {
        let shell = session.display("#{pane_pid}")
        guard let text = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8) else { return nil }
        return text.split(separator: " ").compactMap { Int32($0) }.first { pid in
            (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("bubbles") == true
        }
    }

    /// The address space the viewer gets in the tests of huge lines (a debug build).
    static let memoryLimit = "ulimit -v 800000;"

    /// `count` bytes of one JSON Lines text message whose text is one long word.
    static func longLine(id: String, bytes: Int) -> Data {
        var data = Data(#"{"id":"\#(id)","type":"text","from":"Zed","date":"2024-05-04T16:00:00Z","text":""#.utf8)
        data.append(Data(repeating: UInt8(ascii: "a"), count: bytes))
        data.append(Data("\"}\n".utf8))
        return data
    }

    static func message(_ id: String) -> Data {
        Data(#"{"id":"\#(id)","type":"text","from":"Zed","date":"2024-05-04T16:00:00Z","text":"message \#(id)"}"#.utf8 + [0x0A])
    }

    /// A line over the 16 MiB every reader takes is rejected by the viewer too, with the same
    /// report (`file:line: line longer than 16 MiB`), whether it is in the middle of the file,
    /// at its end (no whole line in the end read first), or appended under `--follow`.
    @Test func aLineOver16MiBIsRejectedAsEveryReaderRejectsIt() throws {
        let directory = try Self.temporaryDirectory("long-line")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let over = LineLimit.bytes + (1 << 20)
        for (name, messages) in [("middle", ["one", nil, "two"]), ("end", ["one", nil])] {
            let path = directory + "/\(name).jsonl"
            var data = Data()
            for message in messages { data.append(message.map(Self.message) ?? Self.longLine(id: "big", bytes: over)) }
            try data.write(to: URL(fileURLWithPath: path))
            let shownCount = messages.compactMap { $0 }.count
            // Under an address-space limit: a viewer that held such lines would abort, not the machine.
            let session = try Self.start("view \(path)", width: 120, before: Self.memoryLimit)
            let (shown, screen) = session.waitFor(seconds: 60) {
                Self.statusLine($0).contains("of \(shownCount) ") && Self.statusLine($0).contains("1 rejected")
            }
            #expect(shown, "\(name): \(screen)")
            session.send("q")
            let (_, after) = session.waitFor { $0.contains { $0.contains("EXIT=") } }
            #expect(after.contains { $0.contains("\(name).jsonl:2: line longer than 16 MiB") }, "\(after)")
            #expect(after.contains { $0.contains("EXIT=1") }, "\(after)")
        }

        let path = directory + "/follow.jsonl"
        try Self.message("one").write(to: URL(fileURLWithPath: path))
        let session = try Self.start("view --follow \(path)", width: 120, before: Self.memoryLimit)
        session.waitFor { Self.statusLine($0).contains("message 1 of 1") }
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Self.longLine(id: "big", bytes: over))
        handle.write(Self.message("after"))
        try handle.close()
        let (arrived, screen) = session.waitFor(seconds: 60) { screen in
            Self.statusLine(screen).contains("of 2") && screen.contains { $0.contains("message after") }
        }
        #expect(arrived, "\(screen)")
        session.send("q")
        let (_, after) = session.waitFor { $0.contains { $0.contains("EXIT=") } }
        #expect(after.contains { $0.contains("follow.jsonl:2: line longer than 16 MiB") }, "\(after)")
    }
}
