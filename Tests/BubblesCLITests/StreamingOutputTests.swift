import BubbleLayout
import BubbleLogs
import Foundation
import Synchronization
import Testing
@testable import BubblesCLI
#if canImport(Glibc)
import Glibc
#endif

/// `heights` and `convert` are filters: fed slowly through a real pipe, they write rows through
/// a real pipe before their input ends, and what they write equals a run on the whole file.
@Suite struct StreamingOutputTests {
    static func record(_ n: Int, conversation: String? = nil) -> String {
        let c = conversation.map { #","conversation":"\#($0)""# } ?? ""
        return #"{"id":"\#(n)"\#(c),"type":"text","from":"\#(n % 3 == 0 ? "A" : "B")","date":\#(1_714_557_600 + 60 * n),"text":"message \#(n) 🎈 with a few words"}"#
    }

    /// Runs `bubbles ARGUMENTS /dev/fd/N`, sending `first` lines, then waiting until a line of
    /// output has come out of the output pipe before sending `rest` and closing. Returns whether
    /// output came before the input ended, and the whole output.
    func runSlowly(_ arguments: [String], first: [String], rest: [String],
                   namingTheFormat: Bool = true) throws -> (early: Bool, output: String, code: Int32) {
        var inputPipe: [Int32] = [0, 0], outputPipe: [Int32] = [0, 0]
        #expect(pipe(&inputPipe) == 0 && pipe(&outputPipe) == 0)
        let input = inputPipe, output = outputPipe
        let sawOutput = DispatchSemaphore(value: 0)
        let early = Mutex(false)
        let collected = Mutex([UInt8]())
        @Sendable func send(_ lines: [String]) {
            var bytes = Array(lines.map { $0 + "\n" }.joined().utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { write(input[1], $0.baseAddress!, $0.count) }
                guard written > 0 else { return }
                bytes = bytes.dropFirst(written)
            }
        }
        let writer = Thread {
            send(first)
            // Bounded, so a command that waits for the end fails the test rather than hanging it.
            early.withLock { $0 = sawOutput.wait(timeout: .now() + 30) == .success }
            send(rest)
            close(input[1])
        }
        let outputReader = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var signalled = false
            while true {
                let got = buffer.withUnsafeMutableBytes { read(output[0], $0.baseAddress!, $0.count) }
                guard got > 0 else { break }
                collected.withLock { $0 += buffer[..<got] }
                if !signalled, collected.withLock({ $0.contains(0x0A) }) {
                    signalled = true
                    sawOutput.signal()
                }
            }
            sawOutput.signal()
        }
        writer.start()
        outputReader.start()
        let sink = FileSink(fileDescriptor: output[1])
        let context = CommandContext(output: sink, errors: StringSink(), environment: ["TZ": "UTC"])
        let code = BubblesCommandLine.run(arguments + ["/dev/fd/\(input[0])"] + (namingTheFormat ? ["--input", "jsonl"] : []),
                                          context: context)
        close(output[1])
        close(input[0])
        // Wait for the reader thread to drain the pipe.
        for _ in 0..<3000 where !outputReader.isFinished { usleep(1000) }
        return (early.withLock { $0 }, String(decoding: collected.withLock { $0 }, as: UTF8.self), code)
    }

    // The first batch is larger than the 64 KiB the input reads ahead to detect its format, so
    // what is tested is that rows leave as soon as their messages have been read.
    @Test func heightsWritesRowsBeforeItsInputEnds() throws {
        let lines = (1...1_500).map { Self.record($0) }
        let run = try runSlowly(["heights", "--width", "30,60"], first: Array(lines[..<1_000]), rest: Array(lines[1_000...]))
        #expect(run.code == 0)
        #expect(run.early, "no row came out before the input ended")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-slow-\(UUID().uuidString).jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let whole = bubbles("heights", url.path, "--width", "30,60", environment: ["TZ": "UTC"])
        #expect(run.output == whole.output)
    }

    @Test func convertWritesRecordsBeforeItsInputEnds() throws {
        let lines = (1...1_500).map { Self.record($0) }
        let run = try runSlowly(["convert"], first: Array(lines[..<1_000]), rest: Array(lines[1_000...]))
        #expect(run.code == 0)
        #expect(run.early, "no record came out before the input ended")
        #expect(run.output.split(separator: "\n").count == 1_500)
    }

    /// A slow pipe's first rows come out once its first records are read: the format is known
    /// from the first line, not after 64 KiB of input (here there are a few hundred bytes).
    @Test(arguments: [true, false])
    func theFirstFewRecordsComeOutBeforeMoreInput(namingTheFormat: Bool) throws {
        let lines = (1...40).map { Self.record($0) }
        for command in [["heights", "--width", "30"], ["convert"]] {
            let run = try runSlowly(command, first: Array(lines[..<3]), rest: Array(lines[3...]), namingTheFormat: namingTheFormat)
            #expect(run.code == 0)
            #expect(run.early, "\(command[0]): nothing came out of the first 3 records before more input")
            let expected = command[0] == "convert" ? 40 : 40 + 1
            #expect(run.output.split(separator: "\n").count == expected, "\(command[0])")
        }
    }

    /// Messages of different conversations never quote each other: a reply quotes the message
    /// with that id in its own conversation, and one whose conversation has no such message
    /// shows the generic quote, though another conversation has one.
    @Test func renderQuotesOnlyWithinAConversation() throws {
        let lines = [
            #"{"id":"1","conversation":"a","type":"text","from":"Ann","date":1714557600,"text":"apple pie"}"#,
            #"{"id":"1","conversation":"b","type":"text","from":"Bob","date":1714557660,"text":"banana bread"}"#,
            #"{"id":"2","conversation":"b","type":"text","from":"Cy","date":1714557720,"replyTo":"1","text":"yes"}"#,
            #"{"id":"3","conversation":"c","type":"text","from":"Di","date":1714557780,"replyTo":"1","text":"no, nothing of the sort here"}"#,
            #"{"id":"4","conversation":"a","type":"text","from":"Ed","date":1714557840,"replyTo":"1","text":"ok"}"#,
        ]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-quotes-\(UUID().uuidString).jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let run = bubbles("render", url.path, "--width", "60", "--color", "never", environment: ["TZ": "UTC"])
        #expect(run.code == 0, "\(run.errors)")
        let output = run.output.split(separator: "\n").map(String.init)
        func quote(above body: String) -> String? {
            guard let at = output.firstIndex(where: { $0.contains(body) }) else { return nil }
            return output[..<at].last { $0.contains("↩") || $0.contains("<-") }
        }
        let inB = try #require(quote(above: "yes"))
        #expect(inB.contains("Bob: banana") && !inB.contains("apple"), "\(inB)")
        let inA = try #require(quote(above: " ok"))
        #expect(inA.contains("Ann: apple") && !inA.contains("banana"), "\(inA)")
        let inC = try #require(quote(above: "nothing of the sort"))
        #expect(inC.contains("reply to a") && !inC.contains("apple") && !inC.contains("banana"), "\(inC)")
    }

    @Test func heightsCarriesTheConversationAndKeepsConversationsApart() throws {
        // Two conversations interleaved message by message: each one's rows are the rows it gets alone.
        let a = (1...30).map { Self.record($0, conversation: "a") }
        let b = (1...30).map { Self.record($0 + 1000, conversation: "b") }
        func heights(_ lines: [String]) throws -> [String: [String: Any]] {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-conv-\(UUID().uuidString).jsonl")
            try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: false, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: url) }
            let run = bubbles("heights", url.path, "--width", "28,50", environment: ["TZ": "UTC"])
            #expect(run.code == 0)
            var rows: [String: [String: Any]] = [:]
            for line in run.outputLines {
                var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let key = "\(object["conversation"] ?? "-")|\(object["id"]!)|\(object["width"]!)"
                #expect(rows[key] == nil, "\(key) twice")
                object["row"] = nil
                rows[key] = object
            }
            return rows
        }
        let mixed = try heights(zip(a, b).flatMap { [$0, $1] })
        let alone = try heights(a).merging(try heights(b)) { x, _ in x }
        #expect(mixed.count == alone.count)
        #expect(mixed.keys.allSatisfy { $0.hasPrefix("a|") || $0.hasPrefix("b|") })
        for (key, row) in alone {
            #expect(mixed[key].map { NSDictionary(dictionary: $0).isEqual(to: row) } == true, "\(key)")
        }
        // Each conversation has its own date separators.
        #expect(mixed.keys.contains { $0.hasPrefix("a|date:") } && mixed.keys.contains { $0.hasPrefix("b|date:") })
    }

    @Test func csvFieldsNeverCarryRawLineBreaksOrControls() {
        for (raw, shown) in [("a\rb", "a^Mb"), ("a\nb", "a^Jb"), ("a\u{0B}b", "a^Kb"), ("a\u{0C}b", "a^Lb"),
                             ("a\u{85}b", "a<85>b"), ("a\u{2028}b", "a<LS>b"), ("a\u{2029}b", "a<PS>b"),
                             ("a\u{9B}b", "a<9B>b"), ("a\u{202E}b", "a<RLO>b"), ("a\tb", "a^Ib")] {
            #expect(OutputEscaping.csvField(raw) == shown)
            var buffer = OutputBuffer(capacity: 4)
            buffer.appendCSVField(raw)
            #expect(String(decoding: buffer.bytes, as: UTF8.self) == shown)
        }
        #expect(OutputEscaping.csvField("a\r\"b,") == "\"a^M\"\"b,\"")
    }

    @Test func csvOutputOfHostileIdsHasNoRawControls() throws {
        let ids = ["x\ry", "x\u{0B}y", "x\u{0C}y", "x\u{85}y", "x\u{2028}y", "x\u{2029}y", "x,\"y"]
        let lines = ids.enumerated().map { n, id in
            #"{"id":\#(JSONString.quoted(id)),"conversation":\#(JSONString.quoted(id)),"type":"text","date":\#(1_714_557_600 + n),"text":"hi"}"#
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-csv-\(UUID().uuidString).jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        for format in ["csv", "jsonl"] {
            let run = bubbles("heights", url.path, "--format", format, environment: ["TZ": "UTC"])
            #expect(run.code == 0)
            let unsafe = run.output.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029
            }
            #expect(unsafe.isEmpty, "\(format): \(unsafe.map { String($0.value, radix: 16) })")
            #expect(run.outputLines.count == (format == "csv" ? 1 : 0) + 2 * ids.count)
        }
    }
}
