import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Memory stays bounded by what is laid out, not by a document's size: a Slack day file (in a
/// zip made by Info-ZIP's `zip`) and a Telegram export whose messages each hold thousands of
/// small members, which as one parsed tree would take about eight times their bytes. Each run is
/// the real `bubbles` under an address-space limit (`ulimit -v`), so a regression aborts the
/// child, not the machine; its peak resident size is the one GNU `time` reads from `wait4`.
///
/// Why `time` and not our own `wait4`: `posix_spawn` starts the child in this process's memory
/// (a vfork), and at its `exec` the kernel keeps this process's high-water mark as the child's
/// `ru_maxrss`. A test process that has grown (other suites run beside these in it) would give
/// every child its own peak, not the child's: two runs compared would measure this process at
/// two moments. `time` is a small process of its own, and the
/// child it forks starts from its memory, so the figure is the child's.
@Suite(.serialized) struct MemoryBoundTests {
    static let zip = ["/usr/bin/zip", "/usr/local/bin/zip", "/bin/zip"].first { FileManager.default.isExecutableFile(atPath: $0) }
    /// GNU `time`, which writes a child's peak resident size (`-f %M`, KiB) to a file (`-o`).
    static let time = ["/usr/bin/time", "/usr/local/bin/time"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var canRun: Bool { TmuxSession.bubblesBinary != nil && time != nil }
    static let needs = "needs the bubbles binary and GNU time (.ci/run installs it)"

    /// The address-space limit of every child: far above what a bounded read takes, far below
    /// what the machine has.
    static let limitKiB = 1_500_000

    struct Run {
        var status: Int32
        var peakBytes: Int
        var stderr: String
    }

    /// Runs `bubbles arguments` under the limit, output to /dev/null, stderr kept.
    static func run(_ arguments: [String]) throws -> Run {
        let binary = try #require(TmuxSession.bubblesBinary)
        let time = try #require(Self.time)
        let name = NSTemporaryDirectory() + "bubbles-memory-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let errors = name + ".err", peak = name + ".peak"
        defer {
            unlink(errors)
            unlink(peak)
        }
        let script = "ulimit -v \(limitKiB) && exec \"$0\" \"$@\" >/dev/null 2>\"$BUBBLES_TEST_ERRORS\""
        let argv = [time, "-f", "%M", "-o", peak, "/bin/sh", "-c", script, binary] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["BUBBLES_TEST_ERRORS"] = errors
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, time, nil, nil, cArguments, cEnvironment)
        try #require(spawned == 0, "posix_spawn: \(spawned)")
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // `time` exits with the child's status, or 128 + the signal that ended it.
        let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        // Its last line is %M (a line saying how the child ended may come before it).
        let report = (try? String(contentsOfFile: peak, encoding: .utf8)) ?? ""
        let kibibytes = try #require(report.split(separator: "\n").last.flatMap { Int($0) }, "time wrote \(report.debugDescription)")
        return Run(status: exit, peakBytes: kibibytes * 1024, stderr: text)
    }

    /// `count` messages of `members` small members each besides their own fields: about
    /// 7 bytes of text per member.
    static func messages(count: Int, members: Int, message: (Int) -> String) -> String {
        let filler = (0..<members).map { "\"k\($0)\":\($0 % 10)" }.joined(separator: ",")
        return "[" + (0..<count).map { message($0).replacingOccurrences(of: "}", with: ",\(filler)}") }.joined(separator: ",\n") + "]"
    }

    static func temporaryFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "bubbles-memory-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The peak of reading a tiny input the same way: what the program takes before any document.
    static func baseline(_ arguments: [String]) throws -> Int {
        let run = try run(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        return run.peakBytes
    }

    @Test(.enabled(if: canRun && zip != nil, "\(needs), and Info-ZIP's zip"))
    func aSlackDayFileInAZipIsReadOneMessageAtATime() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func export(_ name: String, messages: Int) throws -> (zip: String, daySize: Int) {
            let root = folder + "/" + name
            try FileManager.default.createDirectory(atPath: root + "/general", withIntermediateDirectories: true)
            try #"[{"id":"C1","name":"general"}]"#.write(toFile: root + "/channels.json", atomically: false, encoding: .utf8)
            try #"[{"id":"U1","name":"ann"}]"#.write(toFile: root + "/users.json", atomically: false, encoding: .utf8)
            let day = Self.messages(count: messages, members: 2000) { #"{"type":"message","user":"U1","text":"hi \#($0)","ts":"1714557720.\#(100000 + $0)"}"# }
            try day.write(toFile: root + "/general/2024-05-01.json", atomically: false, encoding: .utf8)
            let zip = folder + "/" + name + ".zip"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.zip!)
            process.currentDirectoryURL = URL(fileURLWithPath: root)
            process.arguments = ["-q", "-r", "-9", zip, "."]
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0)
            return (zip, day.utf8.count)
        }
        let small = try export("small", messages: 2)
        let large = try export("large", messages: 700)
        let base = try Self.baseline(["heights", small.zip, "--width", "40", "--verbose"])
        let run = try Self.run(["heights", large.zip, "--width", "40", "--verbose"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("700 records, 700 laid out, 0 rejected"), "\(run.stderr)")
        // The inflated day file is held (1×) with a range per message and one message's tree;
        // a tree of the whole file would add about 8×.
        let extra = run.peakBytes - base
        #expect(extra < 3 * large.daySize, "peak \(run.peakBytes >> 20) MiB, \(extra >> 20) MiB above a tiny export's, for a \(large.daySize >> 20) MiB day file")
    }

    @Test(.enabled(if: canRun, "\(needs)"))
    func aTelegramExportIsReadOneMessageAtATime() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func export(_ name: String, messages: Int) throws -> (path: String, size: Int) {
            let list = Self.messages(count: messages, members: 2000) {
                #"{"id":\#($0 + 1),"type":"message","date_unixtime":"\#(1714557720 + $0)","from":"Ann","from_id":"user1","text":"hi \#($0)"}"#
            }
            // A full export, a chat's header fields before its messages as Telegram writes them.
            let text = #"{"personal_information":{"user_id":1,"first_name":"Ann"},"chats":{"list":[{"name":"Bob","type":"personal_chat","id":2,"messages":"# + list + "}]}}"
            let path = folder + "/" + name + ".json"
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            return (path, text.utf8.count)
        }
        let small = try export("small", messages: 2)
        let large = try export("large", messages: 700)
        let base = try Self.baseline(["heights", small.path, "--width", "40", "--verbose"])
        let run = try Self.run(["heights", large.path, "--width", "40", "--verbose"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("700 records, 700 laid out, 0 rejected"), "\(run.stderr)")
        let extra = run.peakBytes - base
        #expect(extra < 3 * large.size, "peak \(run.peakBytes >> 20) MiB, \(extra >> 20) MiB above a tiny export's, for a \(large.size >> 20) MiB export")
    }

    /// Makes `name`.zip in `folder` with Info-ZIP's `zip -9`, holding the file `entry` with `text`.
    static func zipFile(_ name: String, entry: String, text: String, in folder: String) throws -> String {
        let root = folder + "/" + name
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try text.write(toFile: root + "/" + entry, atomically: false, encoding: .utf8)
        let zip = folder + "/" + name + ".zip"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.zip!)
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        process.arguments = ["-q", "-9", zip, entry]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return zip
    }

    @Test(.enabled(if: canRun && zip != nil, "\(needs), and Info-ZIP's zip"))
    func aWhatsAppChatInAZipIsInflatedAChunkAtATime() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Many short messages of varied words, so the chat is large (27 MB), compresses as a
        // real one does, and the layout's window (16,384 messages at most) holds a part of it.
        func chat(messages: Int) -> String {
            (0..<messages).map { n in
                let words = (0..<40).map { "w\(($0 * 7 + n) % 997)" }.joined(separator: " ")
                return "12/03/2023, 10:\(10 + n % 50) - Ana: \(n) \(words)\n"
            }.joined()
        }
        let small = try Self.zipFile("small", entry: "_chat.txt", text: chat(messages: 2), in: folder)
        let text = chat(messages: 120_000)
        let large = try Self.zipFile("large", entry: "_chat.txt", text: text, in: folder)
        let base = try Self.baseline(["heights", small, "--width", "40", "--verbose"])
        let run = try Self.run(["heights", large, "--width", "40", "--verbose"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("120000 records, 120000 laid out, 0 rejected"), "\(run.stderr)")
        // Inflated whole, the chat adds its size on top of the layout's window (1.5 times its
        // size in all here); streamed, the window and a chunk (half its size).
        let extra = run.peakBytes - base
        #expect(extra < text.utf8.count * 3 / 4, "peak \(run.peakBytes >> 20) MiB, \(extra >> 20) MiB above a tiny chat's, for a \(text.utf8.count >> 20) MiB chat")
    }

    @Test(.enabled(if: canRun, "\(needs)"))
    func renderTakesAboutWhatHeightsTakesOnManyTinyLines() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let count = 150_000
        let path = folder + "/tiny.jsonl"
        let log = (0..<count).map { #"{"id":"m\#($0)","type":"text","from":"A","date":"2024-05-01T10:00:00Z","text":"x"}"# + "\n" }.joined()
        try log.write(toFile: path, atomically: false, encoding: .utf8)
        let heights = try Self.run(["heights", path, "--width", "40"])
        let render = try Self.run(["render", path, "--width", "40", "--color", "never"])
        #expect(heights.status == 0 && render.status == 0, "\(heights.stderr)\(render.stderr)")
        // Drawing keeps nothing per row: the renderer's own state is a few MiB whatever the log,
        // where keeping each row's prepared text cost about 300 bytes a row (45 MB here) more.
        let extra = render.peakBytes - heights.peakBytes
        #expect(extra < 20 << 20, "render peaks \(render.peakBytes >> 20) MiB, heights \(heights.peakBytes >> 20) MiB, for \(count) rows")
    }
}

