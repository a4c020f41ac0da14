import BubbleLayout
import BubbleLogs
import BubbleSamples
import BubbleTerminal
import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubblesCLI

/// `view` on a log of several conversations: each conversation is a section of its own, in the
/// order the conversations first appear, under a header line naming it; its rows are exactly
/// those of a `Conversation` of its messages alone (its own date separators, its own names), and
/// `]` / `[` go from one to the next. Checked on the in-memory source and on the file index.
@Suite struct ViewerScreenSectionsTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// Two conversations interleaved message by message (a group chat, `work`, of three other
    /// people, and a one-to-one, `home`, with Mum), over several days, plus `extra` lines.
    static func log(_ perConversation: Int = 90) -> String {
        var generator = SeededGenerator(seed: 11)
        let words = ["stand-up", "ok", "dinner", "見る", "train", "see you at the station", "🍝", "a longer line that wraps across the bubble"]
        var lines: [String] = []
        for index in 0..<(2 * perConversation) {
            let work = index % 2 == 0
            let from = work ? ["Ann", "Bo", "Cy", "Me"][Int.random(in: 0..<4, using: &generator)] : ["Mum", "Me"][Int.random(in: 0..<2, using: &generator)]
            let text = (0..<Int.random(in: 1...6, using: &generator)).map { _ in words[Int.random(in: 0..<words.count, using: &generator)] }.joined(separator: " ")
                + (index == 37 ? " kettle" : "") + (index == 150 ? " kettle" : "")
            let date = Date(timeIntervalSince1970: 1_714_557_600 + Double(index) * 2_400)
            let stamp = ISO8601DateFormatter().string(from: date)
            lines.append(#"{"id":"\#(work ? "w" : "h")\#(index)","conversation":"\#(work ? "work" : "home")","type":"text","from":"\#(from)"\#(from == "Me" ? #","outgoing":true"# : ""),"date":"\#(stamp)","text":"\#(text)"}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func records(_ text: String) -> [any MessageModel] {
        LogSource.jsonLines(Array(text.utf8), file: "log.jsonl").compactMap(\.record)
    }

    static func screen(_ source: ViewerSource, rows: Int = 24, columns: Int = 60) -> ViewerScreen {
        ViewerScreen(source: source, engine: LayoutEngine(), decoration: DecorationOptions(timeZone: utc), title: "log.jsonl",
                     rows: rows, columns: columns, renderOptions: RenderOptions(width: columns, timeZone: utc))
    }

    /// The lines of a whole `Conversation` of `models` alone, made apart from the viewer.
    static func reference(_ models: [any MessageModel], columns: Int = 60) -> [String] {
        let engine = LayoutEngine()
        let conversation = Conversation(engine: engine, width: columns, options: DecorationOptions(timeZone: utc))
        for model in models { try! conversation.append(model) }
        var renderer = TranscriptRenderer(engine: engine, options: RenderOptions(width: columns, timeZone: utc)) { _ in nil }
        var lines: [String] = []
        for row in 0..<conversation.messageCount {
            let entry = conversation[message: row]
            if let separator = entry.separatorRow(at: row), let layout = entry.dateSeparator {
                lines += renderer.lines(for: separator, model: nil, layout: layout)
            }
            lines += renderer.lines(for: entry.messageRow(messageIndex: row), model: entry.model, layout: entry.layout)
        }
        return lines.map { stripSGR($0) }
    }

    static func plain(_ screen: ViewerScreen) -> [String] { screen.frame().map { stripSGR($0) } }

    /// The message lines of the frame (between the header and the status line).
    static func page(_ screen: ViewerScreen) -> [String] { Array(plain(screen).dropFirst().prefix(screen.pageHeight)) }

    static func padded(_ lines: ArraySlice<String>, _ height: Int) -> [String] {
        Array(lines) + Array(repeating: "", count: max(0, height - lines.count))
    }

    /// Walks the sections of `screen` as a user would, checking each page against the
    /// conversation's own transcript.
    static func expectSections(_ screen: ViewerScreen, _ models: [any MessageModel]) throws {
        let work = reference(models.filter { $0.conversationID == "work" })
        let home = reference(models.filter { $0.conversationID == "home" })
        let height = screen.pageHeight
        #expect(height == 22, "a line for the header, one for the status")
        // Opens where the log's last message is (home), at its end.
        #expect(screen.sectionCount == 2 && screen.section == 1)
        let header = plain(screen)[0]
        #expect(header.contains("home") && header.contains("conversation 2 of 2"), "\(header)")
        #expect(page(screen) == Array(home.suffix(height)))
        #expect(Self.plain(screen).last!.contains("(END)"))
        // The first page of home, then a page down.
        for key in "1g" { _ = screen.handle(.character(key)) }  // message 1 of the conversation shown
        #expect(page(screen) == padded(home.prefix(height), height))
        _ = screen.handle(.pageDown)
        #expect(page(screen) == padded(home.dropFirst(height).prefix(height), height))
        // `[`: the first conversation, from its start; a group chat, so its groups are named.
        #expect(screen.handle(.character("[")) == .redraw)
        #expect(screen.section == 0)
        #expect(plain(screen)[0].contains("work") && plain(screen)[0].contains("conversation 1 of 2"))
        #expect(page(screen) == padded(work.prefix(height), height))
        #expect(work.contains { $0.trimmingCharacters(in: .whitespaces) == "Bo" })
        #expect(!home.contains { $0.trimmingCharacters(in: .whitespaces) == "Mum" }, "a one-to-one chat names no one")
        #expect(screen.handle(.character("[")) == .none, "no conversation before the first")
        for key in "999G" { _ = screen.handle(.character(key)) }  // its last page (G alone: the log's)
        #expect(page(screen) == Array(work.suffix(height)))
        // `]`: the next one, from its start.
        #expect(screen.handle(.character("]")) == .redraw)
        #expect(screen.section == 1 && screen.topRow == 0 && screen.topLine == 0)
        #expect(page(screen) == padded(home.prefix(height), height))
        #expect(screen.handle(.character("]")) == .none, "no conversation after the last")
        // Scrolling on past a conversation's end goes into the next one; back past its start,
        // into the previous one's end; past the log's ends, nowhere.
        _ = screen.handle(.character("k"))
        #expect(screen.section == 0 && screen.isAtBottom)
        #expect(page(screen) == Array(work.suffix(height)))
        #expect(screen.handle(.character(" ")) == .redraw)
        #expect(screen.section == 1 && screen.topRow == 0 && screen.topLine == 0)
        _ = screen.handle(.character("G"))
        #expect(screen.handle(.character("j")) == .none)
        _ = screen.handle(.character("["))
        #expect(screen.handle(.character("k")) == .none)
    }

    @Test func eachConversationIsASectionOfItsOwnInMemory() throws {
        let models = Self.records(Self.log())
        try Self.expectSections(Self.screen(ViewerMessages(models)), models)
    }

    @Test func eachConversationIsASectionOfItsOwnInTheFileIndex() throws {
        let path = try ViewFileSourceTests.temporaryFile("sections", Self.log())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = try #require(JSONLinesFileSource(path: path, readOptions: LogReadOptions()))
        source.index()
        #expect(source.sections?.ids == ["work", "home"])
        try Self.expectSections(Self.screen(source), Self.records(Self.log()))
    }

    /// A search goes on into the next conversation (or, backwards, the previous one) when the
    /// one shown holds no further match, and lands on the match's message there.
    @Test func searchGoesOnIntoTheNextConversation() throws {
        let models = Self.records(Self.log())
        let screen = Self.screen(ViewerMessages(models))
        _ = screen.handle(.character("["))
        _ = screen.handle(.character("g"))
        for key in "/kettle" { _ = screen.handle(.character(key)) }
        _ = screen.handle(.enter)
        // index 37 is home's (odd), 150 work's (even).
        #expect(screen.section == 0)
        #expect(screen.shown.messages(in: screen.topRow..<(screen.topRow + 1)).first?.id == "w150")
        _ = screen.handle(.character("n"))
        #expect(screen.section == 1)
        #expect(screen.shown.messages(in: screen.topRow..<(screen.topRow + 1)).first?.id == "h37")
        #expect(screen.search?.notFound == false)
        _ = screen.handle(.character("n"))
        #expect(screen.search?.notFound == true)
        #expect(screen.section == 1)
        _ = screen.handle(.character("N"))
        #expect(screen.section == 0)
        #expect(screen.shown.messages(in: screen.topRow..<(screen.topRow + 1)).first?.id == "w150")
    }

    /// Types `/query` (or `?query`) and Enter.
    static func search(_ screen: ViewerScreen, _ query: String) {
        for key in query { _ = screen.handle(.character(key)) }
        _ = screen.handle(.enter)
    }

    /// The id of the message the last search found, in the conversation shown.
    static func matchedID(_ screen: ViewerScreen) -> String? {
        guard let row = screen.search?.matchedRow, screen.search?.matchedSection == screen.section else { return nil }
        return screen.shown.messages(in: row..<(row + 1)).first?.id
    }

    /// A match on a conversation's last page cannot be scrolled to the top: `n` goes on from it
    /// (not from the top row, above it, which would find it again), to the next match in the
    /// conversation and then into the next conversation; `N` goes back the same way. The
    /// tester's log, in a 60 × 20 terminal.
    @Test func searchGoesOnFromAMatchOnAConversationsLastPage() throws {
        let text = #"{"id":"a1","conversation":"a","type":"text","from":"Ann","date":"2024-05-01T10:00:00Z","text":"hit one"}"# + "\n"
            + #"{"id":"a2","conversation":"a","type":"text","from":"Bob","date":"2024-05-01T10:01:00Z","text":"hit two"}"# + "\n"
            + #"{"id":"b1","conversation":"b","type":"text","from":"Cy","date":"2024-05-01T10:02:00Z","text":"hit three"}"# + "\n"
        let screen = Self.screen(ViewerMessages(Self.records(text)), rows: 20, columns: 60)
        _ = screen.handle(.character("["))
        Self.search(screen, "/hit")
        #expect(screen.section == 0 && Self.matchedID(screen) == "a1")
        _ = screen.handle(.character("n"))
        #expect(screen.section == 0 && Self.matchedID(screen) == "a2")
        #expect(screen.isAtBottom && screen.topRow == 0, "the whole conversation fits: the match stays below the top")
        _ = screen.handle(.character("n"))
        #expect(screen.section == 1 && Self.matchedID(screen) == "b1")
        #expect(Self.page(screen).contains { $0.contains("hit three") })
        _ = screen.handle(.character("n"))
        #expect(screen.search?.notFound == true && screen.section == 1)
        _ = screen.handle(.character("N"))
        #expect(screen.section == 0 && Self.matchedID(screen) == "a2" && screen.search?.notFound == false)
        _ = screen.handle(.character("N"))
        #expect(screen.section == 0 && Self.matchedID(screen) == "a1")
        _ = screen.handle(.character("N"))
        #expect(screen.search?.notFound == true && screen.section == 0)
    }

    /// The same in a longer conversation: matches early on (scrolled to the top) and on its
    /// last page (below the top), then one in the next conversation. Scrolled away from the
    /// last match, a repeat goes on from the screen again, as `less` does.
    @Test func searchGoesOnFromAMatchOnTheLastPageOfALongConversation() throws {
        var lines: [String] = []
        for index in 0..<30 {
            let words = index == 5 || index == 27 || index == 29 ? "a needle here" : "nothing to see"
            lines.append(#"{"id":"a\#(index)","conversation":"a","type":"text","from":"\#(index % 2 == 0 ? "Ann" : "Bob")","date":"2024-05-01T10:\#(10 + index):00Z","text":"\#(words) \#(index)"}"#)
        }
        for index in 0..<6 {
            lines.append(#"{"id":"b\#(index)","conversation":"b","type":"text","from":"Cy","date":"2024-05-02T10:\#(10 + index):00Z","text":"\#(index == 3 ? "needle" : "hay") \#(index)"}"#)
        }
        let screen = Self.screen(ViewerMessages(Self.records(lines.joined(separator: "\n") + "\n")), rows: 20, columns: 60)
        _ = screen.handle(.character("["))
        _ = screen.handle(.character("g"))
        Self.search(screen, "/needle")
        #expect(screen.section == 0 && Self.matchedID(screen) == "a5" && screen.topRow == 5)
        _ = screen.handle(.character("n"))
        #expect(screen.section == 0 && Self.matchedID(screen) == "a27")
        #expect(screen.isAtBottom && screen.topRow < 27, "a27 is on the last page, below its top")
        _ = screen.handle(.character("n"))
        #expect(screen.section == 0 && Self.matchedID(screen) == "a29")
        _ = screen.handle(.character("n"))
        #expect(screen.section == 1 && Self.matchedID(screen) == "b3")
        _ = screen.handle(.character("N"))
        #expect(screen.section == 0 && Self.matchedID(screen) == "a29")
        _ = screen.handle(.character("N"))
        #expect(screen.section == 0 && Self.matchedID(screen) == "a27")
        _ = screen.handle(.character("N"))
        #expect(screen.section == 0 && Self.matchedID(screen) == "a5" && screen.topRow == 5)
        // Scrolled away from the last match (a5, to the last page): `N` searches back from the
        // screen, so finds a5 again rather than nothing before it.
        for key in "999G" { _ = screen.handle(.character(key)) }
        #expect(screen.topRow > 5)
        _ = screen.handle(.character("N"))
        #expect(screen.section == 0 && Self.matchedID(screen) == "a5" && screen.topRow == 5 && screen.search?.notFound == false)
    }

    /// A conversation's name comes from the log: it is drawn neutralised, never raw.
    @Test func aHostileConversationNameIsNeutralisedInTheHeader() throws {
        let name = #"evil\u001b]0;owned\u0007\u001b[2J\u202e\u0085x"#
        let text = #"{"id":"a","conversation":"\#(name)","type":"text","from":"Ann","date":"2024-05-01T10:00:00Z","text":"hi"}"# + "\n"
            + #"{"id":"b","conversation":"ok","type":"text","from":"Bo","date":"2024-05-01T10:01:00Z","text":"hello"}"# + "\n"
        let screen = Self.screen(ViewerMessages(Self.records(text)), rows: 10, columns: 70)
        _ = screen.handle(.character("["))
        let header = screen.frame()[0]
        #expect(header.contains("evil"))
        #expect(!header.unicodeScalars.contains { ($0.value < 0x20 && $0.value != 0x1B) || $0.value == 0x7F || $0.value == 0x85 || $0.value == 0x202E })
        // Our escapes only: the frame has no OSC, no erase, no bell.
        #expect(!header.contains("\u{1B}]") && !header.contains("\u{1B}[2J"))
    }

    /// `--follow`: a second conversation arriving gives the first one its header line (the page
    /// is a line shorter) and the view stays where it was; its messages do not join the one shown.
    @Test func aConversationArrivingUnderFollowGetsItsOwnSection() throws {
        let first = Self.records(Self.log(10)).filter { $0.conversationID == "work" }
        let source = ViewerMessages(first.map { $0 })
        let screen = Self.screen(source)
        #expect(screen.showsHeader, "one conversation with a name: its header")
        let shown = screen.count
        let home = Self.records(Self.log(10)).filter { $0.conversationID == "home" }
        source.append(home)
        screen.sourceDidGrow()
        #expect(screen.sectionCount == 2 && screen.section == 0 && screen.count == shown)
        #expect(Self.plain(screen)[0].contains("conversation 1 of 2"))
        #expect(Self.page(screen) == Array(Self.reference(first).suffix(screen.pageHeight)))
        #expect(Self.plain(screen).last!.contains("new in home"), "the status line says where the new messages went")
        _ = screen.handle(.character("]"))
        #expect(Self.page(screen) == Self.padded(Self.reference(home).prefix(screen.pageHeight), screen.pageHeight))
        #expect(!Self.plain(screen).last!.contains("new in"), "seen now")
    }

    /// The whole log replacing its end (read first): the view stays in the same conversation,
    /// at its end when it was there, on the same top message otherwise.
    @Test func theWholeLogReplacingItsEndKeepsTheConversationAndTheTopMessage() throws {
        let models = Self.records(Self.log())
        let tail = Array(models.suffix(40))
        let screen = Self.screen(ViewerMessages(tail))
        #expect(screen.section == 1, "home holds the last message")
        screen.replaceSource(ViewerMessages(models), shift: models.count - tail.count)
        #expect(screen.section == 1 && screen.isAtBottom)
        #expect(Self.page(screen) == Array(Self.reference(models.filter { $0.conversationID == "home" }).suffix(screen.pageHeight)))

        let again = Self.screen(ViewerMessages(tail))
        _ = again.handle(.character("["))
        _ = again.handle(.character("j"))
        _ = again.handle(.character("j"))
        _ = again.handle(.character("j"))
        let top = try #require(again.shown.messages(in: again.topRow..<(again.topRow + 1)).first?.id)
        #expect(top.hasPrefix("w"))
        again.replaceSource(ViewerMessages(models), shift: models.count - tail.count)
        #expect(again.section == 0)
        #expect(again.shown.messages(in: again.topRow..<(again.topRow + 1)).first?.id == top)
        #expect(again.topRow > 60, "the whole conversation is above it now")
    }

    /// Every frame is as many lines as the terminal has, header or not, down to two rows.
    @Test func aFrameFillsTheTerminalExactlyWithItsHeader() {
        let models = Self.records(Self.log(20))
        for rows in [2, 3, 4, 9] {
            let screen = Self.screen(ViewerMessages(models), rows: rows)
            #expect(screen.frame().count == rows, "\(rows) rows")
            _ = screen.handle(.character("["))
            #expect(screen.frame().count == rows, "\(rows) rows")
        }
    }

    /// A large file's tail, shown while the whole file is read, names each conversation as the
    /// whole file does: a group chat whose second party spoke only in the head is named in the
    /// tail too, a one-to-one chat beside it is not.
    @Test func aTailNamesEachConversationAsTheWholeFile() throws {
        let lines = (0..<400).map { i in
            let work = i % 2 == 0
            let who = work ? (i == 2 ? "Ben" : i % 3 == 0 ? "Me" : "Ana") : (i % 3 == 0 ? "Me" : "Mum")
            return #"{"id":"\#(i)","conversation":"\#(work ? "work" : "home")","type":"text","from":"\#(who)","outgoing":\#(who == "Me"),"date":\#(1_714_557_600 + 400 * i),"text":"message \#(i)"}"#
        }
        let path = try ViewFileSourceTests.temporaryFile("tail-sections", lines.joined(separator: "\n") + "\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let loader = ViewLoader(path: path, readOptions: LogReadOptions(), registry: .standard)
        let tail = try #require(loader.tail(tailFirstBytes: 1_000, tailBytes: 2_000))
        #expect(tail.count < 100)
        let sections = try #require(tail.sections)
        let work = try #require(sections.section(ofConversation: "work")), home = try #require(sections.section(ofConversation: "home"))
        #expect(sections.parties[work].otherParties == 2)
        #expect(sections.parties[home].otherParties == 1)
        let whole = try #require(JSONLinesFileSource(path: path, readOptions: LogReadOptions()))
        whole.index()
        #expect(whole.sections?.parties.map(\.otherParties) == [2, 1])
    }

    /// A log whose records name no conversation is shown as before: no header, every line for
    /// messages.
    @Test func aLogOfNoNamedConversationHasNoHeader() {
        let text = #"{"id":"a","type":"text","from":"Ann","date":"2024-05-01T10:00:00Z","text":"hi"}"# + "\n"
        let screen = Self.screen(ViewerMessages(Self.records(text)))
        #expect(!screen.showsHeader && screen.pageHeight == 23)
        #expect(screen.handle(.character("]")) == .none)
    }
}
