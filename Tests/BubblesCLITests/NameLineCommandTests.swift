import BubbleLayout
import BubbleLogs
import BubbleTerminal
import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// Every command names the same groups (`PartyWindow`): a group chat's first group too, a
/// one-to-one chat's none; `heights` counts the name lines `render` and `view` draw.
@Suite struct NameLineCommandTests {
    static let groupChat = """
        {"id":"1","type":"text","from":"Ana","date":"2024-05-01T10:00:00Z","text":"first"}
        {"id":"2","type":"text","from":"Ana","date":"2024-05-01T10:01:00Z","text":"second"}
        {"id":"3","type":"text","from":"Ben","date":"2024-05-01T10:02:00Z","text":"ben here"}
        {"id":"4","type":"text","from":"Cy","date":"2024-05-01T10:03:00Z","text":"cy here"}
        {"id":"5","type":"text","from":"Ana","date":"2024-05-01T10:04:00Z","text":"ana again"}

        """

    static func file(_ text: String, _ ext: String = "jsonl") throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-names-\(UUID().uuidString).\(ext)")
        try text.write(to: url, atomically: false, encoding: .utf8)
        return url.path
    }

    static func render(_ path: String, width: Int = 40, _ more: String...) -> [String] {
        let run = bubbles(["render", path, "--width", "\(width)", "--color", "never", "--tz", "UTC"] + more)
        return run.outputLines.map(String.init)
    }

    static func bubbles(_ arguments: [String]) -> CommandRun {
        let output = StringSink(), errors = StringSink()
        let code = BubblesCommandLine.run(arguments, context: CommandContext(output: output, errors: errors, environment: [:]))
        return CommandRun(code: code, output: output.text, errors: errors.text)
    }

    /// The line above the bubble whose text line contains `text`'s border: its name line, if any.
    static func lineAboveBubble(holding text: String, in lines: [String]) throws -> String {
        let at = try #require(lines.firstIndex { $0.contains(text) })
        return lines[at - 2].trimmingCharacters(in: .whitespaces)
    }

    /// The viewer's frame of `path`, from its top, as many lines as `render` gives.
    static func viewed(_ path: String, width: Int = 40, lines: Int) throws -> [String] {
        let source = try #require(JSONLinesFileSource(path: path, readOptions: LogReadOptions()))
        source.index(upTo: source.fileSize)
        let utc = TimeZone(identifier: "UTC")!
        let screen = ViewerScreen(source: source, engine: LayoutEngine(), decoration: DecorationOptions(timeZone: utc),
                                  title: "chat.jsonl", rows: lines + 1, columns: width,
                                  renderOptions: RenderOptions(width: width, timeZone: utc))
        _ = screen.handle(.character("g"))
        return screen.frame().prefix(lines).map { stripSGR($0) }
    }

    @Test func theFirstGroupOfAGroupChatIsNamedInRenderHeightsAndView() throws {
        let path = try Self.file(Self.groupChat)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rendered = Self.render(path)
        #expect(try Self.lineAboveBubble(holding: "first", in: rendered) == "Ana")
        #expect(try Self.lineAboveBubble(holding: "ana again", in: rendered) == "Ana")
        #expect(rendered.filter { ["Ana", "Ben", "Cy"].contains($0.trimmingCharacters(in: .whitespaces)) }.count == 4)
        // heights: the first row holds spacing, the name line and the bubble, as drawn.
        let heights = Self.bubbles(["heights", path, "--width", "40", "--tz", "UTC"]).outputLines.map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["height"] as? Int ?? -1
        }
        #expect(heights == [1, 5, 3, 5, 5, 5])
        #expect(heights.reduce(0, +) == rendered.count)
        // view draws the same lines.
        let viewed = try Self.viewed(path, lines: rendered.count)
        #expect(viewed.map { $0.trimmingCharacters(in: .whitespaces) } == rendered.map { $0.trimmingCharacters(in: .whitespaces) })
    }

    @Test func aOneToOneChatNamesNobody() throws {
        let lines = (0..<40).map { i in
            #"{"id":"\#(i)","type":"text","from":"\#(i % 3 == 0 ? "Me" : "Ana")","outgoing":\#(i % 3 == 0),"date":\#(1_714_557_600 + 400 * i),"text":"message \#(i)"}"#
        }
        let path = try Self.file(lines.joined(separator: "\n") + "\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rendered = Self.render(path, width: 40)
        #expect(rendered.count > 40 * 3)
        #expect(!rendered.contains { ["Ana", "Me"].contains($0.trimmingCharacters(in: .whitespaces)) })
        #expect(try Self.viewed(path, lines: 60).map { $0.trimmingCharacters(in: .whitespaces) }
                == rendered.prefix(60).map { $0.trimmingCharacters(in: .whitespaces) })
    }

    /// The shipped fixtures the trial found: Mallory's first group, and the first message of a
    /// WhatsApp group whose first sender is the only other party so far.
    @Test func theFirstGroupOfTheShippedGroupChatsIsNamed() throws {
        let hostile = Self.render(corpus("logs/hostile.jsonl"), width: 50)
        #expect(try Self.lineAboveBubble(holding: "cursor up two", in: hostile) == "Mallory")
        let whatsapp = Self.render(corpus("exports/whatsapp/ios-en_GB-unsaved-contacts.txt"), width: 50)
        #expect(try Self.lineAboveBubble(holding: "Hi all!", in: whatsapp) == "~\u{202F}Ana")  // as WhatsApp writes it
    }

    /// `convert` then `render` draws what `render` of the export draws, name lines included.
    @Test func convertThenRenderDrawsWhatRenderDraws() throws {
        let export = corpus("exports/whatsapp/ios-en_GB-unsaved-contacts.txt")
        let converted = Self.bubbles(["convert", export, "--tz", "UTC"])
        #expect(converted.code == 0)
        let path = try Self.file(converted.output)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(Self.render(path, width: 50) == Self.render(export, width: 50))
    }

    /// A large file's tail, shown while the whole file is read, names as the whole file does:
    /// its parties come from the file's first messages, not the tail's.
    @Test func aTailShownWhileLoadingNamesAsTheWholeFile() throws {
        let lines = (0..<400).map { i in
            let who = i == 1 ? "Ben" : i % 3 == 0 ? "Me" : "Ana"
            return #"{"id":"\#(i)","type":"text","from":"\#(who)","outgoing":\#(who == "Me"),"date":\#(1_714_557_600 + 400 * i),"text":"message \#(i)"}"#
        }
        let path = try Self.file(lines.joined(separator: "\n") + "\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loader = ViewLoader(path: path, readOptions: LogReadOptions(), registry: .standard)
        let tail = try #require(loader.tail(tailFirstBytes: 1_000, tailBytes: 2_000))
        #expect(tail.count < 100)
        #expect(tail.otherParties == 2)
        let whole = try #require(JSONLinesFileSource(path: path, readOptions: LogReadOptions()))
        whole.index()
        #expect(whole.otherParties == 2)
    }

    /// A record with no sender and no text is drawn as an empty bubble with one spacing line
    /// above it, and no name line, in every command.
    @Test func aRecordWithoutSenderOrTextHasNoNameLine() throws {
        let path = try Self.file("""
            {"id":"1","type":"text","from":"Ana","date":"2024-05-01T10:00:00Z","text":"hi"}
            {"id":"2","type":"text","from":"","date":"2024-05-01T10:01:00Z","text":""}
            {"id":"3","type":"text","from":"Ben","date":"2024-05-01T10:02:00Z","text":"yo"}

            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rendered = Self.render(path)
        let hi = try #require(rendered.firstIndex { $0.contains("hi") })
        // hi's bottom border, one spacing line, then the empty bubble's top border.
        #expect(rendered[hi + 2].trimmingCharacters(in: .whitespaces).isEmpty)
        #expect(!rendered[hi + 3].trimmingCharacters(in: .whitespaces).isEmpty)
        let heights = Self.bubbles(["heights", path, "--width", "40", "--tz", "UTC"]).outputLines.map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["height"] as? Int ?? -1
        }
        #expect(heights == [1, 5, 4, 5])
        #expect(heights.reduce(0, +) == rendered.count)
        #expect(try Self.viewed(path, lines: rendered.count).map { $0.trimmingCharacters(in: .whitespaces) }
                == rendered.map { $0.trimmingCharacters(in: .whitespaces) })
    }
}
