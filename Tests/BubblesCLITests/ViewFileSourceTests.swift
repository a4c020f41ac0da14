import BubbleBenchmarks
import BubbleLayout
import BubbleLogs
import BubbleSamples
import BubbleTerminal
import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubblesCLI

/// The viewer's index of a JSON Lines file against the file reader, which nobody here changed
/// for it: the same messages in the same order, the same diagnostics at the same lines.
@Suite struct ViewFileSourceTests {
    static func source(_ path: String) throws -> JSONLinesFileSource {
        let source = try #require(JSONLinesFileSource(path: path, readOptions: LogReadOptions()))
        source.index(upTo: source.fileSize)
        return source
    }

    static func readerEntries(_ path: String) throws -> (ids: [String], diagnostics: [String]) {
        var ids: [String] = [], diagnostics: [String] = []
        for entry in try LogSource.open(path: path, format: .jsonl) {
            switch entry {
            case let .message(record, _): ids.append(record.id)
            case let .diagnostic(diagnostic): diagnostics.append(diagnostic.description)
            }
        }
        return (ids, diagnostics)
    }

    @Test func indexHoldsWhatTheReaderReadsAndReportsWhatItRejects() throws {
        for file in ["logs/sample.jsonl", "logs/bad.jsonl", "logs/hostile.jsonl"] {
            let path = corpus(file)
            let source = try Self.source(path)
            let reader = try Self.readerEntries(path)
            let ids = source.messages(in: 0..<source.count).map(\.id)
            #expect(ids == reader.ids, "\(file)")
            #expect(source.diagnostics == reader.diagnostics, "\(file)")
            // Any range decodes to the same messages as the whole.
            var generator = SeededGenerator(seed: 5)
            for _ in 0..<50 where source.count > 0 {
                let low = Int.random(in: 0..<source.count, using: &generator)
                let high = Int.random(in: (low + 1)...source.count, using: &generator)
                #expect(source.messages(in: low..<high).map(\.id) == Array(ids[low..<high]))
            }
            for (position, id) in ids.enumerated() { #expect(source.position(ofID: id) == position) }
            #expect(source.position(ofID: "no such id") == nil)
        }
    }

    /// A repeated id is refused and reported at its line, as the conversation refused it.
    @Test func aRepeatedIDIsReportedAtItsLine() throws {
        let path = NSTemporaryDirectory() + "bubbles-index-\(getpid())-repeat.jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let line = #"{"id":"a","type":"text","from":"Ann","date":"2024-05-01T10:00:00Z","text":"hi"}"#
        let other = #"{"id":"b","type":"text","from":"Ben","date":"2024-05-01T10:01:00Z","text":"yo"}"#
        try [line, "", other, line].joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
        let source = try Self.source(path)
        #expect(source.count == 2)
        #expect(source.rejected == 1)
        #expect(source.blankLines == 1)
        #expect(source.diagnostics.count == 1)
        #expect(source.diagnostics.first?.contains(":4: message a:") == true, "\(source.diagnostics)")
    }

    /// Search skipping blocks by their bytes finds what decoding every message finds, for
    /// queries in names, in texts, behind JSON escapes, and nowhere.
    @Test func searchFindsWhatDecodingEveryMessageFinds() throws {
        let path = NSTemporaryDirectory() + "bubbles-index-\(getpid())-search.jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let lines = SyntheticLog(messageCount: 3000, seed: 11).lines()
            + [#"{"id":"esc","type":"text","from":"Zo\u00eb","date":"2024-06-01T10:00:00Z","text":"caf\u00e9 \u0041BBA line\nbreak"}"#]
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        let source = try Self.source(path)
        let memory = ViewerMessages(source.messages(in: 0..<source.count))
        let registry = CellRegistry.standard
        for query in ["lol", "abba", "zoë", "CAFÉ", "zebra-none", "e", "line", "break"] {
            let matcher = SearchMatcher(query)
            let matches: (any MessageModel) -> Bool = { model in
                if let name = model.senderName, matcher.matches(name) { return true }
                guard let index = try? registry.index(for: model) else { return false }
                let content = registry.configurators[index].content(model)
                return content.text.map(matcher.matches) == true || content.image.map { matcher.matches($0.name) } == true
            }
            for (start, forward) in [(0, true), (1500, true), (source.count - 1, false), (1500, false)] {
                let fast = source.find(from: start, forward: forward, query: matcher, matches: matches)
                let slow = memory.find(from: start, forward: forward, query: matcher, matches: matches)
                #expect(fast == slow, "\(query) from \(start) \(forward)")
            }
        }
    }

    /// A file rewritten under the viewer never crashes it: what is gone is shown as gone.
    @Test func aFileChangedUnderTheViewerShowsWhatIsGone() throws {
        let path = NSTemporaryDirectory() + "bubbles-index-\(getpid())-changed.jsonl"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try String(contentsOfFile: corpus("logs/sample.jsonl"), encoding: .utf8).write(toFile: path, atomically: false, encoding: .utf8)
        let source = try Self.source(path)
        let screen = ViewerScreen(source: source, engine: LayoutEngine(), title: "changed", rows: 20, columns: 60,
                                  renderOptions: RenderOptions(width: 60))
        _ = screen.frame()
        // Rewritten in place, shorter, with the same id repeated.
        let line = #"{"id":"m001","type":"text","from":"Yuki","date":"2024-05-01T00:02:00Z","text":"x"}"#
        try Array(repeating: line, count: 3).joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
        _ = screen.handle(.character("g"))
        let frame = screen.frame().joined(separator: "\n")
        #expect(frame.contains("no longer in the file"))
        _ = screen.handle(.character(" "))
        _ = screen.handle(.character("G"))
        _ = screen.frame()
    }

    /// `count` lines of JSON Lines whose ids and texts start with `tag`.
    static func lines(_ tag: String, _ count: Int) -> String {
        (1...count).map { #"{"id":"\#(tag)-\#($0)","type":"text","from":"Zed","date":"2024-05-04T16:00:00Z","text":"\#(tag) line \#($0)"}"# + "\n" }.joined()
    }

    static func temporaryFile(_ name: String, _ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "bubbles-index-\(getpid())-\(name).jsonl"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Rewrites the file at `path` in place (truncated, then written), as `>` does.
    static func rewrite(_ path: String, _ text: String) throws {
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    @Test func aFileThatOnlyGrewIsNotChanged() throws {
        let path = try Self.temporaryFile("grew", Self.lines("old", 10))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try Self.source(path)
        #expect(source.change() == nil)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(Self.lines("new", 3).utf8))
        try handle.close()
        #expect(source.change() == nil)
        #expect(source.index() == 3)
        #expect(source.messages(in: 0..<source.count).map(\.id).suffix(4) == ["old-10", "new-1", "new-2", "new-3"])
    }

    /// Shorter than what was read (truncated, with or without new lines after): read again from
    /// the start, and only the new lines are the source.
    @Test func aShorterFileIsTruncatedAndReadAgain() throws {
        let path = try Self.temporaryFile("shorter", Self.lines("old", 10))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try Self.source(path)
        try Self.rewrite(path, "")
        #expect(source.change() == .truncated)
        try Self.rewrite(path, Self.lines("new", 2))
        #expect(source.change() == .truncated)
        source.readAgain(because: .truncated)
        #expect(source.count == 2)
        #expect(source.messages(in: 0..<2).map(\.id) == ["new-1", "new-2"])
        #expect(source.position(ofID: "old-1") == nil)
        #expect(source.change() == nil)
    }

    /// Rewritten in place with longer content (the next tick sees it past what was read): the
    /// bytes already read differ, so it is read again, not taken as appended lines.
    @Test func aLongerRewriteIsSeenByTheBytesAlreadyRead() throws {
        let path = try Self.temporaryFile("longer", Self.lines("old", 10))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try Self.source(path)
        try Self.rewrite(path, Self.lines("new", 30))
        #expect(source.change() == .rewritten)
        source.readAgain(because: .rewritten)
        #expect(source.messages(in: 0..<source.count).map(\.id) == (1...30).map { "new-\($0)" })
        // Only the last bytes differ: still seen.
        var text = Self.lines("new", 30)
        text.replace("new line 30", with: "new line 3X")
        try Self.rewrite(path, text + Self.lines("more", 1))
        #expect(source.change() == .rewritten)
    }

    /// A new file renamed over the name (as editors save): the name is opened again.
    @Test func aFileRenamedOverTheNameIsReplacedAndOpenedAgain() throws {
        let path = try Self.temporaryFile("renamed", Self.lines("old", 10))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try Self.source(path)
        try Self.lines("old", 12).write(toFile: path, atomically: true, encoding: .utf8)  // same first lines, a new inode (written aside, renamed over)
        #expect(source.change() == .replaced)
        #expect(source.readAgain(because: .replaced))
        #expect(source.count == 12)
        // Removed: the open file is followed on, as tail -f does.
        try FileManager.default.removeItem(atPath: path)
        #expect(source.change() == nil)
    }

    /// Records rejected before the file was read again stay listed and counted; the new lines'
    /// diagnostics follow a line saying why they start again at line 1.
    @Test func readingAgainKeepsWhatWasRejectedBefore() throws {
        let path = try Self.temporaryFile("rejected", Self.lines("old", 3) + "not json\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try Self.source(path)
        #expect(source.rejected == 1)
        try Self.rewrite(path, "also not json\n" + Self.lines("new", 1))
        let change = try #require(source.change())
        source.readAgain(because: change)
        #expect(source.rejected == 1 && source.rejectedEarlier == 1)
        #expect(source.diagnostics.count == 3)
        #expect(source.diagnostics[0].contains(":4:"))
        #expect(source.diagnostics[1].contains("file truncated while viewed: read again"))
        #expect(source.diagnostics[2].contains(":1:"))
    }

    /// The follow tick: appended lines, then a rewrite, which the status line names.
    @Test func theFollowTickSaysWhenTheFileWasReadAgain() throws {
        let path = try Self.temporaryFile("tick", Self.lines("old", 5))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loader = ViewLoader(path: path, readOptions: LogReadOptions(), registry: .standard)
        let source = loader.index(from: 0)
        #expect(loader.readAppended(into: source) == .unchanged)
        try Self.rewrite(path, Self.lines("new", 2))
        #expect(loader.readAppended(into: source) == .readAgain(note: "file truncated: read again"))
        #expect(source.count == 2)
        #expect(loader.readAppended(into: source) == .unchanged)
    }

    /// `--follow` refuses what is read whole, naming what the input is.
    @Test func followNamesWhatTheInputIsWhenItCannotFollowIt() throws {
        let cases: [(String, LogFormat, String)] = [
            ("exports/telegram/single/result.json", .telegram, "a Telegram Desktop export (result.json) is one JSON document"),
            ("exports/discord/channel.json", .discord, "a DiscordChatExporter file is one JSON document"),
            ("exports/zip/WhatsApp Chat with Ana.zip", .whatsapp, "a zip archive is read whole"),
            ("exports/zip/slack-export.zip", .slack, "a zip archive is read whole"),
            ("logs/sample-utf16be.jsonl", .jsonl, "a UTF-16 file is read whole"),
            ("exports/whatsapp/android-en_GB.txt", .whatsapp, "a WhatsApp .txt is read whole"),
        ]
        for (file, format, reason) in cases {
            let path = corpus(file)
            let said = ViewLoader.cannotFollow(format, path: path, head: ViewLoader.head(of: path))
            #expect(said?.hasPrefix(reason) == true, "\(file): \(said ?? "nil")")
            #expect(said?.contains("export export") != true)
        }
        let sample = corpus("logs/sample.jsonl")
        #expect(ViewLoader.cannotFollow(.jsonl, path: sample, head: ViewLoader.head(of: sample)) == nil)
    }
}
