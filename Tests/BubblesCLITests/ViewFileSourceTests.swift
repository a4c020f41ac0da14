import BubbleLayout
import BubbleLogs
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
        try [line, "", other, line].joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
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
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
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
}
