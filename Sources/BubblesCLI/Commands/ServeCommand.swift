import BubbleLayout
import BubbleLogs
import Foundation

/// `bubbles serve`: the layout service other programs call, JSON-RPC 2.0 one object a line, with
/// conversations and their layout caches kept warm between requests.
struct ServeCommand: BubblesCommand {
    static let spec = CommandSpec(
        name: "serve",
        abstract: "Serve layouts over JSON-RPC 2.0 on standard input and output (or a Unix socket).",
        discussion: """
            Reads one JSON-RPC 2.0 request a line and writes one response a line, carrying the
            request's id (a notification, without an id, gets none). Requests on one conversation
            are answered in order; different conversations are laid out in parallel, so their
            responses may come out of order. A malformed line gets an error and the service goes
            on; end of input ends it once every request is answered. Methods (named parameters):
              open      conversation, width, and units "cells" (default; cellWidths unicode|wcwidth|
                        ghostty, ambiguousWide) or "points" (fonts: [FILE or FILE#FACE], size,
                        lineHeight: px or "normal", lang, style: FILE), as heights and heights --font
                        take them; me, timeZone (default --tz)
              append    conversation, messages: [records of the JSON Lines format]
              update    conversation, messages: records replacing those with the same ids
              remove    conversation, ids: [message ids]
              resize    conversation, width
              rows      conversation, and ids: [...] or from/to (row numbers, to exclusive;
                        default every row)
              stats     cache hits, misses, entries and bytes; conversations held; budget
              close     conversation
            append, update, remove and rows answer {"rows":[...],"count":N,"height":H}: each row
            the record heights prints for it ({"row":1,"id":"41","kind":"text","width":40,
            "height":4,...}, date rows included), the rows laid out anew by a change (row numbers
            after it shift by the rows it added or removed), the timeline's row count and, in
            cells, its height; records that could not be read are listed in "rejected" with their
            index and reason. Errors: -32700 not JSON, -32600 not a request, -32601 no such
            method, -32602 a bad parameter (the message names it), -32001 no such conversation,
            -32002 over the memory budget. Example, one request a line:
              {"jsonrpc":"2.0","id":1,"method":"open","params":{"conversation":"c","width":40}}
              {"jsonrpc":"2.0","id":2,"method":"append","params":{"conversation":"c","messages":[
                {"id":"1","type":"text","from":"Ana","date":"2024-05-01T09:00:00Z","text":"Hi"}]}}
            Tools/serve/client.py is a client in Python's standard library.
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
        service.answer(fileDescriptor: 0, into: output)
        return output.failed ? ExitCode.failure : ExitCode.success
    }
}

extension ServeService {
    /// Answers every request line read from `fd` into `output`, and returns at the end of the
    /// input once every request handed in is answered. A line too long is answered and skipped.
    func answer(fileDescriptor fd: Int32, into output: LockedLines) {
        var lines = RequestLines(fileDescriptor: fd, maximum: ServeCommand.maximumLineBytes)
        while let line = lines.next() {
            switch line {
            case .line(let bytes):
                handle(bytes) { output.write($0) }
            case .tooLong:
                output.write(ServeResponse.error(id: nil, .invalidRequest("request longer than 16 MiB: skipped")))
            }
        }
        drain()
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
            let count = SystemIO.readSome(fd, into: &chunk)
            if count <= 0 {
                ended = true
                continue
            }
            buffer += chunk[..<count]
        }
    }
}
