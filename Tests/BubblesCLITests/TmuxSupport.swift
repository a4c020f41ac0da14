import Foundation

/// A real terminal for tests: a tmux server on a socket of its own (`-L`), killed when the value
/// goes. Screens are read with `capture-pane`, waiting a bounded time for what is expected.
final class TmuxSession {
    static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }
    static var isAvailable: Bool { tmux != nil && bubblesBinary != nil }

    /// The `bubbles` executable built beside this test bundle.
    static let bubblesBinary: String? = {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [directory, directory.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("bubbles").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }()

    nonisolated(unsafe) private static var counter = 0
    private static let lock = NSLock()

    let socket: String
    let width: Int
    let height: Int

    /// Starts `command` (run by sh) in a new detached session of `width` × `height` cells.
    init(width: Int, height: Int, command: String) throws {
        Self.lock.lock()
        Self.counter += 1
        socket = "bubbles-test-\(getpid())-\(Self.counter)"
        Self.lock.unlock()
        self.width = width
        self.height = height
        // The server this starts keeps whatever output it was given open: give it none.
        try run(["-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)",
                 "env LANG=C.UTF-8 TZ=UTC TERM=screen " + command], readOutput: false)
    }

    deinit { _ = try? run(["kill-server"], readOutput: false) }

    @discardableResult
    func run(_ arguments: [String], readOutput: Bool = true) throws -> String {
        spawn(Self.tmux!, ["-L", socket] + arguments, readOutput: readOutput)
    }

    /// The screen as text, one string per row (trailing blanks trimmed); with `escapes`, with the
    /// SGR attributes as tmux holds them.
    func capture(escapes: Bool = false, history: Bool = false) -> [String] {
        var arguments = ["capture-pane", "-p", "-J"]
        if escapes { arguments.append("-e") }
        if history { arguments += ["-S", "-", "-E", "-"] }
        let text = (try? run(arguments)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A tmux format string about the pane (`#{alternate_on}`, `#{cursor_flag}`).
    func display(_ format: String) -> String {
        ((try? run(["display-message", "-p", format])) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func send(_ keys: String...) { _ = try? run(["send-keys"] + keys) }
    /// Sends `text` literally, character by character.
    func type(_ text: String) { _ = try? run(["send-keys", "-l", text]) }

    func resize(width: Int, height: Int) { _ = try? run(["resize-window", "-x", "\(width)", "-y", "\(height)"]) }

    /// Polls the screen until `condition` holds, for at most `seconds`; the last screen either way.
    @discardableResult
    func waitFor(seconds: Double = 10, escapes: Bool = false, _ condition: ([String]) -> Bool) -> (Bool, [String]) {
        let deadline = Date().addingTimeInterval(seconds)
        var screen = capture(escapes: escapes)
        while !condition(screen) {
            if Date() > deadline { return (false, screen) }
            usleep(40_000)
            screen = capture(escapes: escapes)
        }
        return (true, screen)
    }

    /// The process running in the pane's shell (the shell's first child).
    func childPID() -> Int32? {
        let shell = display("#{pane_pid}")
        guard let text = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Int32($0) }
    }
}

/// tmux's own width of lines of text: each is drawn at the start of a line in a tmux pane and
/// the cursor position asked for (`CSI 6 n`), by a shell loop that owns no width table.
enum TmuxWidths {
    static let script = """
        stty raw -echo
        while IFS= read -r line; do
          printf '\\r\\033[2K%s\\033[6n' "$line"
          IFS=';' read -rs -d R _ col < /dev/tty
          echo "$col" >> "$2"
        done < "$1"
        stty sane
        echo DONE >> "$2"
        """

    /// The cells tmux advances for each of `lines`, or nil when it did not finish in time.
    static func measure(_ lines: [String]) throws -> [Int]? {
        let directory = NSTemporaryDirectory() + "bubbles-widths-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = directory + "/in.txt"
        let output = directory + "/out.txt"
        let script = directory + "/measure.sh"
        try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: false, encoding: .utf8)
        try Self.script.write(toFile: script, atomically: false, encoding: .utf8)
        let width = max(20, (lines.map { $0.unicodeScalars.count }.max() ?? 0) * 2 + 4)
        let session = try TmuxSession(width: width, height: 5, command: "bash \(script) \(input) \(output); sleep 30")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: output, encoding: .utf8), text.hasSuffix("DONE\n") {
                _ = session
                return text.split(separator: "\n").dropLast().map { Int($0).map { $0 - 1 } ?? -1 }
            }
            usleep(30_000)
        }
        return nil
    }
}

/// The bubbles on a screen: for each, its lines from the top border (ending `╮`) through its
/// content lines (ending `│`) to the bottom border (ending `╯` or `┘`).
func bubbleLineGroups(_ screen: [String]) -> [[String]] {
    var groups: [[String]] = []
    var open: [String]?
    for line in screen {
        let trimmed = line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        if trimmed.hasSuffix("╮") {
            open = [trimmed]
        } else if open != nil && trimmed.hasSuffix("│") {
            open!.append(trimmed)
        } else if open != nil && (trimmed.hasSuffix("╯") || trimmed.hasSuffix("┘")) {
            open!.append(trimmed)
            groups.append(open!)
            open = nil
        } else {
            open = nil
        }
    }
    return groups
}

/// Runs `path` with `arguments` and waits for it; returns its standard output when `readOutput`
/// (else it gets /dev/null, which a daemon it starts may keep open without holding us). Spawned
/// and reaped by hand: nothing else in the process waits on our children.
func spawn(_ path: String, _ arguments: [String], readOutput: Bool = true) -> String {
    var fds: [Int32] = [-1, -1]
    if readOutput { pipe(&fds) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if readOutput {
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
    } else {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    // The test runner's threads block signals; a child must start with none blocked and the
    // default actions, as from a shell.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    let started = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
    var output: [UInt8] = []
    if readOutput {
        close(fds[1])
        if started == 0 {
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(fds[0], &buffer, buffer.count)
                if count > 0 { output += buffer[0..<count] } else if count == 0 || errno != EINTR { break }
            }
        }
        close(fds[0])
    }
    if started == 0 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
    return String(decoding: output, as: UTF8.self)
}
