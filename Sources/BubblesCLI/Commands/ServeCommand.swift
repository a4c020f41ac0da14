import BubbleLayout
import Foundation

/// `bubbles serve`: the layout service other programs call, JSON-RPC 2.0 one object a line, with
/// conversations and their layout caches kept warm between requests.
struct ServeCommand: BubblesCommand {
    static let spec = CommandSpec(
        name: "serve",
        abstract: "Serve layouts over JSON-RPC 2.0 on standard input and output (or a Unix socket).",
        discussion: """
            Reads one JSON-RPC request a line and writes one response a line, carrying its request's
            id; responses to different conversations may come out of order. Methods: open,
            append, update, remove, resize, rows, stats, close (see the man page). Rows are the
            records 'heights' prints for the same messages and options. End of input closes the
            service once every request is answered.
              {"jsonrpc":"2.0","id":1,"method":"open","params":{"conversation":"c","width":40}}
              {"jsonrpc":"2.0","id":2,"method":"append","params":{"conversation":"c","messages":[…]}}
            """,
        options: [Options.memory, Options.listen, Options.tz])

    enum Options {
        static let memory = OptionSpec("--memory", value: "MB", help: "Memory budget for open conversations in MB (default 512): the least recently used are laid out again on demand.")
        static let listen = OptionSpec("--listen", value: "unix:PATH", help: "Serve on a Unix-domain socket at PATH (mode 0600), to several clients at once, instead of standard input.")
        static let tz = OptionSpec("--tz", value: "ZONE", help: "Time zone of conversations whose open request gives none (default: TZ, else the system's).")
    }

    /// A request line longer than this is answered with an error and skipped, as a log line is.
    static let maximumLineBytes = 16 << 20

    let budget: Int
    let socketPath: String?
    let timeZone: TimeZone

    init(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) {
        budget = (try arguments.integer(Options.memory, in: 1...1 << 20) ?? 512) << 20
        if let listen = arguments.string(Options.listen) {
            guard listen.hasPrefix("unix:"), listen.count > 5 else {
                throw UsageError("invalid value '\(listen)' for --listen: expected unix:PATH (a Unix-domain socket; no TCP port is served)")
            }
            let path = String(listen.dropFirst(5))
            guard path.utf8.count < UnixSocketListener.maximumPathBytes else {
                throw UsageError("invalid value '\(listen)' for --listen: a socket path is at most \(UnixSocketListener.maximumPathBytes - 1) bytes")
            }
            socketPath = path
        } else {
            socketPath = nil
        }
        if let zone = arguments.string(Options.tz) {
            guard let parsed = ZoneName.parse(zone) else { throw UsageError("invalid value '\(zone)' for --tz: \(ZoneName.refusal(zone))") }
            timeZone = parsed
        } else {
            timeZone = ZoneName.environmentZone(context.environment).zone
        }
    }

    func run(context: CommandContext) throws -> Int32 {
        let service = ServeService(defaultTimeZone: timeZone, budget: budget)
        if let socketPath {
            let listener = try UnixSocketListener(path: socketPath)
            listener.serve(service)
        }
        let output = LockedLines(context.output)
        var lines = RequestLines(fileDescriptor: 0, maximum: Self.maximumLineBytes)
        while let line = lines.next() {
            switch line {
            case .line(let bytes):
                service.handle(bytes) { output.write($0) }
            case .tooLong:
                output.write(ServeResponse.error(id: nil, .invalidRequest("request longer than 16 MiB: skipped")))
            }
        }
        service.drain()
        return output.failed ? ExitCode.failure : ExitCode.success
    }
}

/// Response lines written whole, one at a time, from any thread, each flushed at once so a
/// client waiting for it sees it. A write that fails (the client has gone) is remembered.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private let sink: TextSink
    private(set) var failed = false

    init(_ sink: TextSink) { self.sink = sink }

    func write(_ line: String) {
        lock.withLock {
            guard !failed else { return }
            do {
                try sink.write(line + "\n")
                try sink.flush()
            } catch {
                failed = true
            }
        }
    }
}

/// Request lines read from a file descriptor: each line without its `\n` (and a `\r` before it),
/// blank lines skipped, a line longer than `maximum` given as `.tooLong` once and skipped.
struct RequestLines {
    enum Line {
        case line([UInt8])
        case tooLong
    }

    private let fd: Int32
    private let maximum: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next line end resumes: the bytes before it hold none.
    private var searched = 0
    private var skipping = false
    private var ended = false

    init(fileDescriptor: Int32, maximum: Int) {
        fd = fileDescriptor
        self.maximum = maximum
    }

    mutating func next() -> Line? {
        while true {
            if let newline = buffer[max(start, searched)...].firstIndex(of: 0x0A) {
                var line = Array(buffer[start..<newline])
                start = newline + 1
                searched = start
                if skipping {
                    skipping = false
                    continue
                }
                if line.last == 0x0D { line.removeLast() }
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                return .line(line)
            }
            searched = buffer.count
            if buffer.count - start > maximum {
                buffer.removeAll(keepingCapacity: true)
                start = 0
                searched = 0
                if !skipping {
                    skipping = true
                    return .tooLong
                }
            }
            if ended {
                guard start < buffer.count, !skipping else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                return line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) ? nil : .line(line)
            }
            if start > 0 {
                buffer.removeFirst(start)
                searched -= start
                start = 0
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                ended = true
                continue
            }
            buffer += chunk[..<count]
        }
    }
}
