import Foundation
import Testing
@testable import BubbleLogs
import BubbleSamples
import BubbleTestSupport

/// A document streamed (`JSONStream`) is the document parsed whole with its lists of messages
/// deferred: the same values and lines, and on damaged text the same error at the same line and
/// column, whatever the chunks the input comes in.
@Suite struct JSONStreamTests {
    /// Serves bytes in chunks of a few bytes, so every token of a small document meets a chunk edge.
    final class ChunkSource: ByteSource {
        let bytes: [UInt8]
        var offset = 0
        let sizes: [Int]
        var turn = 0
        init(_ bytes: [UInt8], sizes: [Int]) {
            self.bytes = bytes
            self.sizes = sizes
        }
        var readError: Int32? { nil }
        func read(appendingTo buffer: inout [UInt8]) -> Bool {
            guard offset < bytes.count else { return false }
            let end = min(bytes.count, offset + sizes[turn % sizes.count])
            turn += 1
            buffer += bytes[offset..<end]
            offset = end
            return true
        }
    }

    enum Outcome: Equatable {
        case value(JSONValue)
        case error(JSONSyntaxError)
    }

    static func whole(_ bytes: [UInt8], parser: JSONParser) -> Outcome {
        do { return .value(try parser.parse(document: JSONDocumentBytes(bytes))) } catch { return .error(error) }
    }

    static func streamed(_ bytes: [UInt8], parser: JSONParser, sizes: [Int], prefix: Int = 0) -> Outcome {
        let head = Array(bytes.prefix(prefix))
        let source = ChunkSource(Array(bytes.dropFirst(prefix)), sizes: sizes)
        do {
            let (value, length) = try JSONStream.parse(prefix: head, source: source, parser: parser, text: JSONDocumentBytes(bytes))
            #expect(length == bytes.count)
            return .value(value)
        } catch { return .error(error) }
    }

    /// Every list of messages in `value`, element by element with its line, compared as values.
    static func lists(_ value: JSONValue) -> [[(JSONValue, Int)]] {
        switch value {
        case .object(let object):
            return object.members.flatMap { member -> [[(JSONValue, Int)]] in
                if member.key == "messages", let list = member.value.arrayWithLines {
                    return [Array(list.elementsWithLines)]
                }
                return lists(member.value)
            }
        case .array(let array): return array.elements.flatMap(lists)
        default: return []
        }
    }

    static let fixtures = ["exports/telegram/single/result.json", "exports/telegram/full/result.json",
                           "exports/telegram/damaged/result.json", "exports/telegram/damaged-full/result.json",
                           "exports/telegram/stray-chat/result.json", "exports/telegram/empty-chats/result.json",
                           "exports/telegram/message-kinds/result.json", "exports/telegram/truncated/result.json",
                           "exports/discord/channel.json", "exports/hangouts/Hangouts.json"]

    @Test(arguments: fixtures)
    func aFixtureStreamsToWhatAWholeParseGives(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: corpus(name))))
        let parser = JSONParser(allowsHexEscapes: true, deferring: .messageArrays, maximumTreeBytes: 1 << 20)
        let expected = Self.whole(bytes, parser: parser)
        for sizes in [[1], [3, 7], [64 << 10]] {
            let got = Self.streamed(bytes, parser: parser, sizes: sizes, prefix: sizes == [1] ? 0 : 100)
            #expect(got == expected, "chunks \(sizes)")
            if case .value(let a) = expected, case .value(let b) = got {
                let left = Self.lists(a), right = Self.lists(b)
                #expect(left.count == right.count)
                for (x, y) in zip(left, right) {
                    #expect(x.map(\.1) == y.map(\.1))
                    #expect(x.map(\.0) == y.map(\.0))
                }
            }
        }
    }

    /// Damage of every kind at seeded places: truncation, a byte dropped, a byte put in.
    @Test(arguments: fixtures.prefix(6))
    func damagedTextFailsWhereAWholeParseFails(_ name: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: corpus(name))))
        let parser = JSONParser(allowsHexEscapes: true, deferring: .messageArrays)
        var random = SeededGenerator(seed: 37)
        let inserts = Array("{}[],:\"\\ \n1x\u{01}".utf8)
        var failures = 0
        for round in 0..<300 {
            var damaged = bytes
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch round % 3 {
            case 0: damaged.removeLast(bytes.count - at)
            case 1: damaged.remove(at: at)
            default: damaged.insert(inserts.randomElement(using: &random)!, at: at)
            }
            let expected = Self.whole(damaged, parser: parser)
            if case .error = expected { failures += 1 }
            let got = Self.streamed(damaged, parser: parser, sizes: [5, 11, 2])
            #expect(got == expected, "round \(round): damage at \(at)")
        }
        // Most damage breaks the document: the errors were compared, not only values.
        #expect(failures > 150)
    }

    @Test func lineAndColumnGoOnAfterAListOnTheSameLine() throws {
        let text = "{\"messages\": [1,\n 2], \"x\": {\"messages\": [{\"a\": 1}]}, \"y\": tru}"
        let parser = JSONParser(deferring: .messageArrays)
        let got = Self.streamed(Array(text.utf8), parser: parser, sizes: [4])
        #expect(got == Self.whole(Array(text.utf8), parser: parser))
        guard case .error(let error) = got else { Issue.record("parsed"); return }
        #expect(error.line == 2 && error.column == 45, "\(error)")
    }

    @Test func anElementPastTheTreeBudgetIsRefusedWhereItPassesIt() throws {
        let big = "{\"text\": \"" + String(repeating: "a", count: 300_000) + "\"}"
        let text = "{\"messages\": [\n{\"id\": 1},\n" + big + "\n]}"
        let parser = JSONParser(deferring: .messageArrays, maximumTreeBytes: 1 << 16)
        guard case .error(let error) = Self.streamed(Array(text.utf8), parser: parser, sizes: [4096]) else {
            Issue.record("a tree past the budget was built")
            return
        }
        #expect(error.isOverBudget)
        #expect(error.line == 3)
        #expect(error.message.contains("more than 64 KiB of JSON in one element of a list"), "\(error)")
    }

    @Test func textOutsideTheListsPastTheTreeBudgetIsRefused() throws {
        let text = "{\"messages\": [], \"contacts\": [" + Array(repeating: "\"someone\"", count: 20_000).joined(separator: ",") + "]}"
        let parser = JSONParser(deferring: .messageArrays, maximumTreeBytes: 1 << 16)
        guard case .error(let error) = Self.streamed(Array(text.utf8), parser: parser, sizes: [4096]) else {
            Issue.record("a tree past the budget was built")
            return
        }
        #expect(error.isOverBudget)
        #expect(error.message.contains("outside the lists of messages"), "\(error)")
    }

    /// A FIFO cannot be read again: its text is kept in a temporary file, and the messages read
    /// from there are those of the file.
    @Test func aTelegramExportThroughAFIFOReadsAsFromItsFile() throws {
        let path = corpus("exports/telegram/full/result.json")
        let fifo = NSTemporaryDirectory() + "bubbles-fifo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            guard fd >= 0 else { return }
            bytes.withUnsafeBytes { raw in
                var done = 0
                while done < raw.count {
                    let wrote = write(fd, raw.baseAddress! + done, raw.count - done)
                    if wrote <= 0 { break }
                    done += wrote
                }
            }
            close(fd)
        }
        writer.start()
        let options = LogReadOptions(timeZone: utc)
        let piped = try LogSource.open(path: fifo, format: .telegram, options: options)
        let filed = try LogSource.open(path: path, format: .telegram, options: options)
        func describe(_ reader: LogReader) -> [String] {
            reader.map { entry in
                switch entry {
                case .message(let record, _): "\(record.id) \(record)"
                case .diagnostic(let diagnostic): diagnostic.reason
                }
            }
        }
        let fromFIFO = describe(piped), fromFile = describe(filed)
        #expect(fromFIFO == fromFile)
        #expect(fromFIFO.count > 5)
    }
}
