import BubbleLayout
import BubbleSamples
import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal
import BubbleTestSupport

/// The viewer's screen model, key by key, with no terminal: each frame is read as the lines it
/// would put on screen.
@Suite struct ViewerScreenTests {
    /// `count` messages over several days from three people, some long enough to wrap, with
    /// words to search for at known places.
    static func models(_ count: Int, seed: UInt64 = 7) -> [any MessageModel] {
        var generator = SeededGenerator(seed: seed)
        let words = ["morning", "tea", "Kyoto", "train", "😀", "ok", "见面", "मिलते", "photo", "👍🏽", "☀️"]
        let people = ["Ana", "Bo", "Chen"]
        return (0..<count).map { index in
            let length = Int.random(in: 1...18, using: &generator)
            var text = (0..<length).map { _ in words[Int.random(in: 0..<words.count, using: &generator)] }.joined(separator: " ")
            if index % 97 == 41 { text += " needle\(index)" }
            let sender = people[Int.random(in: 0..<people.count, using: &generator)]
            return TextNote(id: "m\(index)", senderName: sender, direction: sender == "Ana" ? .outgoing : .incoming,
                            date: may1.addingTimeInterval(Double(index) * 1800), text: text)
        }
    }

    static func screen(_ models: [any MessageModel], rows: Int = 20, columns: Int = 60,
                       options: TextOptions = TextOptions()) -> ViewerScreen {
        ViewerScreen(source: ViewerMessages(models), engine: LayoutEngine(textOptions: options),
                     decoration: DecorationOptions(timeZone: utc), title: "chat.jsonl", rows: rows, columns: columns,
                     renderOptions: RenderOptions(width: columns, timeZone: utc))
    }

    /// The frame's lines with our escapes removed.
    static func plain(_ screen: ViewerScreen) -> [String] {
        screen.frame().map { stripSGR($0) }
    }

    /// A whole conversation of `models` at `columns`, drawn line by line, with the offset of each
    /// row: the reference a frame must be a window of (made apart from the viewer's window).
    struct Reference {
        let conversation: Conversation<CellMeasurer>
        let lines: [String]

        init(_ models: [any MessageModel], columns: Int, options: TextOptions = TextOptions()) {
            let engine = LayoutEngine(textOptions: options)
            conversation = Conversation(engine: engine, width: columns, options: DecorationOptions(timeZone: utc))
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
            self.lines = lines.map { stripSGR($0) }
        }

        /// The line offset of the screen's top.
        func top(_ screen: ViewerScreen) -> Int { conversation.offset(ofMessage: screen.topRow) + screen.topLine }

        /// The page starting at line `top`, padded with empty lines.
        func page(_ top: Int, _ height: Int) -> [String] {
            let slice = Array(lines[top..<min(lines.count, top + height)])
            return slice + Array(repeating: "", count: height - slice.count)
        }
    }

    @Test func opensOnTheLatestMessagesWithTheStatusLine() {
        let models = Self.models(300)
        let screen = Self.screen(models)
        let lines = Self.plain(screen)
        #expect(lines.count == 20)
        let reference = Reference(models, columns: 60)
        #expect(Array(lines.prefix(19)) == Array(reference.lines.suffix(19)))
        let status = lines[19]
        #expect(status.contains("chat.jsonl"))
        #expect(status.contains("of 300"))
        #expect(status.contains("(END)"))
        // At the end the status names the last message, the one the count reaches.
        #expect(status.contains("message 300 of 300"))
        #expect(status.contains(reference.conversation[message: 299].day.label))
        // Only a window of a few pages is laid out, not the log.
        #expect(screen.window.messageCount < 80)
    }

    /// Every key that moves lands on the window of the whole transcript its place names, the
    /// window moving over a log many times its size.
    @Test func lessKeysMoveTheWindowOverTheTranscript() {
        let models = Self.models(400)
        let screen = Self.screen(models)
        let reference = Reference(models, columns: 60)
        let page = screen.pageHeight
        func window() -> [String] { Array(Self.plain(screen).prefix(page)) }
        let end = reference.lines.count - page
        #expect(reference.top(screen) == end)
        let steps: [(ViewerKey, Int)] = [
            (.character("g"), 0), (.character("j"), 1), (.down, 2), (.character("k"), 1), (.up, 0), (.up, 0),
            (.character(" "), page), (.pageDown, 2 * page), (.character("b"), page), (.pageUp, 0),
            (.character("d"), page / 2), (.character("u"), 0), (.wheelDown, 3), (.wheelUp, 0),
            (.end, end), (.home, 0), (.character("G"), end), (.character("j"), end), (.character("f"), end),
        ]
        for (key, top) in steps {
            _ = screen.handle(key)
            #expect(reference.top(screen) == top, "\(key)")
            #expect(window() == reference.page(reference.top(screen), page), "\(key)")
        }
        // Down the whole log a page at a time, and back up a line at a time over a stretch.
        _ = screen.handle(.character("g"))
        var expected = 0
        while expected < end {
            _ = screen.handle(.character(" "))
            expected = min(end, expected + page)
            #expect(reference.top(screen) == expected)
            #expect(window() == reference.page(expected, page))
        }
        for _ in 0..<60 {
            _ = screen.handle(.character("k"))
            expected -= 1
            #expect(window() == reference.page(expected, page))
        }
        // And back up the whole log a page at a time: the window grows at its start and drops
        // its end.
        _ = screen.handle(.character("G"))
        expected = end
        while expected > 0 {
            _ = screen.handle(.character("b"))
            expected = max(0, expected - page)
            #expect(reference.top(screen) == expected)
            #expect(window() == reference.page(expected, page))
        }
        #expect(screen.windowsSlid > 3)
        #expect(screen.window.messageCount < 250)
        #expect(screen.handle(.character("q")) == .quit)
        #expect(screen.handle(.interrupt) == .quit)
    }

    @Test func searchMovesMatchesToTheTopAndHighlightsThem() {
        let models = Self.models(400)
        let screen = Self.screen(models)
        let expectedRows = models.indices.filter { (models[$0] as! TextNote).text.contains("needle") }
        #expect(expectedRows.count >= 3)
        _ = screen.handle(.character("g"))
        for key in "/NEEDLE" { _ = screen.handle(.character(key)) }
        #expect(Self.plain(screen).last!.contains("/NEEDLE"))
        _ = screen.handle(.enter)
        #expect(screen.topRow == expectedRows[0])
        let frame = screen.frame()
        #expect(frame.contains { $0.contains(SearchMatcher.on + "needle") })
        _ = screen.handle(.character("n"))
        #expect(screen.topRow == expectedRows[1])
        _ = screen.handle(.character("n"))
        #expect(screen.topRow == expectedRows[2])
        _ = screen.handle(.character("N"))
        #expect(screen.topRow == expectedRows[1])
        // Backward search from the end.
        _ = screen.handle(.character("G"))
        for key in "?needle" { _ = screen.handle(.character(key)) }
        _ = screen.handle(.enter)
        #expect(expectedRows.contains(screen.topRow))
        #expect(screen.topRow <= expectedRows.last!)
        // A query that matches nothing says so and stays.
        let before = (screen.topRow, screen.topLine)
        for key in "/zzzz" { _ = screen.handle(.character(key)) }
        _ = screen.handle(.enter)
        #expect((screen.topRow, screen.topLine) == before)
        #expect(Self.plain(screen).last!.contains("not found"))
    }

    /// A message taller than the screen: search goes line by line, as `less` does. From the end,
    /// `?` finds the match inside the message at the top; `n` visits every line showing the
    /// query, in the reference transcript's order, each brought on screen, and `N` goes back.
    @Test func searchFindsEachMatchingLineOfAMessageTallerThanTheScreen() throws {
        let body = (1...150).map { $0 % 40 == 0 ? "line \($0) TARGET here" : "line \($0) more \($0)" }.joined(separator: "\n")
        let models: [any MessageModel] = [
            TextNote(id: "tall", senderName: "Bo", direction: .incoming, date: may1, text: body),
            TextNote(id: "short", senderName: "Ana", direction: .outgoing, date: may1.addingTimeInterval(60), text: "ok"),
        ]
        let screen = Self.screen(models, rows: 12, columns: 40)
        let reference = Reference(models, columns: 40)
        let targets = reference.lines.indices.filter { reference.lines[$0].contains("TARGET") }
        #expect(targets.count == 3)
        func search(_ text: String) { for key in text { _ = screen.handle(.character(key)) }; _ = screen.handle(.enter) }
        func shown(_ line: Int) -> Bool { (reference.top(screen)..<reference.top(screen) + 11).contains(line) }

        // From the end (inside the tall message's last page), backwards: the last target.
        search("?TARGET")
        #expect(!Self.plain(screen).last!.contains("not found"))
        #expect(shown(targets[2]))
        _ = screen.handle(.character("n"))
        #expect(shown(targets[1]) && !shown(targets[2]))
        _ = screen.handle(.character("n"))
        #expect(shown(targets[0]))
        _ = screen.handle(.character("N"))
        #expect(shown(targets[1]))
        // Forwards from a top line inside the message: the next line showing the query, not the message's start.
        _ = screen.handle(.character("g"))
        for _ in 0..<5 { _ = screen.handle(.character("d")) }
        let top = reference.top(screen)
        search("/more 50")
        let wanted = try #require(reference.lines.indices.first { $0 >= top && reference.lines[$0].contains("more 50") })
        #expect(shown(wanted))
        #expect(Self.plain(screen).contains { $0.contains("more 50") })
        #expect(screen.frame().contains { $0.contains(SearchMatcher.on + "more 50") })
        // Forwards from the top of the log: the first target, brought on screen.
        _ = screen.handle(.character("g"))
        search("/target")
        #expect(shown(targets[0]))
    }

    /// Under `--bidi visual` right-to-left words are drawn reversed, Arabic in its shaped
    /// presentation forms (lam-alef as one ligature): a query typed in logical order, in letters,
    /// is still shown where it is drawn. Each highlighted run, folded and read right to left, is
    /// the query.
    @Test func rightToLeftMatchesAreHighlightedWhereVisualOrderDrawsThem() throws {
        let models: [any MessageModel] = [
            TextNote(id: "he", senderName: "Noa", direction: .incoming, date: may1, text: "שלום! הפגישה ב-10:30 (בחדר 4B), לא 11."),
            TextNote(id: "ar", senderName: "Omar", direction: .incoming, date: may1.addingTimeInterval(60), text: "مرحبا بالعالم hello"),
            TextNote(id: "lam", senderName: "Omar", direction: .incoming, date: may1.addingTimeInterval(120), text: "السلام عليكم"),
        ]
        for bidi in [BidiMode.visual, .logical] {
            var options = RenderOptions(width: 50, timeZone: utc)
            options.bidi = bidi
            let screen = ViewerScreen(source: ViewerMessages(models), engine: LayoutEngine(textOptions: TextOptions()),
                                      decoration: DecorationOptions(timeZone: utc), title: "chat.jsonl", rows: 30, columns: 50,
                                      renderOptions: options)
            for query in ["שלום", "הפגישה", "مرحبا", "السلام", "عليكم", "hello"] {
                _ = screen.handle(.character("g"))
                for key in "/" + query { _ = screen.handle(.character(key)) }
                _ = screen.handle(.enter)
                let runs = screen.frame().dropLast().flatMap { line in
                    line.components(separatedBy: SearchMatcher.on).dropFirst().map { stripSGR(String($0.prefix { $0 != "\u{1B}" })) }
                }
                let rightToLeft = bidi == .visual && query != "hello"
                let expected = SearchMatcher.fold(query)
                // Read right to left character by character, each folded in its own (logical) order: a
                // ligature stands for its letters in reading order.
                #expect(runs.contains { (rightToLeft ? $0.reversed().flatMap { SearchMatcher.fold(String($0)) } : SearchMatcher.fold($0)) == expected },
                        "\(bidi) \(query): \(runs)")
            }
        }
    }

    /// A mirrored glyph is searched as it is drawn: `≓` in a right-to-left line is drawn `≒` when
    /// both take one cell, and stays `≓` with ambiguous characters two cells wide
    /// (`VisualOrder.mirrored`); either way the match is highlighted.
    @Test func rightToLeftMatchesHoldingMirroredGlyphsAreHighlightedAsDrawn() throws {
        let models: [any MessageModel] = [TextNote(id: "he", senderName: "Noa", direction: .incoming, date: may1, text: "שלום ≓ עולם")]
        for ambiguous in [1, 2] {
            let screen = ViewerScreen(source: ViewerMessages(models), engine: LayoutEngine(textOptions: TextOptions(ambiguousWidth: ambiguous)),
                                      decoration: DecorationOptions(timeZone: utc), title: "chat.jsonl", rows: 20, columns: 40,
                                      renderOptions: RenderOptions(width: 40, timeZone: utc))
            for key in "/שלום ≓" { _ = screen.handle(.character(key)) }
            _ = screen.handle(.enter)
            let runs = screen.frame().dropLast().flatMap { line in
                line.components(separatedBy: SearchMatcher.on).dropFirst().map { stripSGR(String($0.prefix { $0 != "\u{1B}" })) }
            }
            #expect(runs == [ambiguous == 1 ? "≒ םולש" : "≓ םולש"], "ambiguous \(ambiguous): \(runs)")
        }
    }

    /// Whatever is typed into a search, the status line shows it neutralised.
    @Test func searchTextIsNeutralisedOnTheStatusLine() {
        let screen = Self.screen(Self.models(50))
        for key in ["/", "a", "\u{202E}", "b", "\u{9B}"] { _ = screen.handle(.character(Character(key))) }
        let status = screen.frame().last!
        #expect(!status.unicodeScalars.contains { $0.value == 0x202E || $0.value == 0x9B })
        #expect(status.contains("<RLO>"))
    }

    /// A width change draws the same message at the top, at the new width, as a whole
    /// conversation laid out at that width draws it, having laid out only the window.
    @Test func resizeKeepsTheTopMessageAndReflows() {
        let models = Self.models(500)
        let screen = Self.screen(models)
        _ = screen.handle(.character("g"))
        for _ in 0..<37 { _ = screen.handle(.character(" ")) }
        _ = screen.handle(.character("j"))
        let top = screen.topRow
        screen.resize(rows: 30, columns: 44)
        #expect(screen.topRow == top)
        #expect(screen.topLine == 0)
        #expect(screen.window.messageCount <= 3 * (3 * screen.pageHeight + 2), "a window of a few pages, not the 500 messages")
        let lines = Self.plain(screen)
        #expect(lines.count == 30)
        for line in lines.dropLast() { #expect(CellWidth.of(line) <= 44) }
        let reference = Reference(models, columns: 44)
        #expect(Array(lines.prefix(29)) == reference.page(reference.top(screen), 29))
        // Keys after the resize walk the log at the new width.
        for _ in 0..<5 { _ = screen.handle(.character("d")) }
        #expect(Array(Self.plain(screen).prefix(29)) == reference.page(reference.top(screen), 29))
        // At the bottom, a resize stays at the bottom.
        _ = screen.handle(.character("G"))
        screen.resize(rows: 24, columns: 70)
        #expect(screen.isAtBottom)
        let wide = Reference(models, columns: 70)
        #expect(Array(Self.plain(screen).prefix(23)) == Array(wide.lines.suffix(23)))
    }

    @Test func followScrollsOnlyWhenAtTheBottom() {
        let models = Self.models(120)
        let source = ViewerMessages(Array(models.prefix(100)))
        let screen = ViewerScreen(source: source, engine: LayoutEngine(), decoration: DecorationOptions(timeZone: utc),
                                  title: "chat.jsonl", rows: 20, columns: 60, renderOptions: RenderOptions(width: 60, timeZone: utc))
        #expect(screen.isAtBottom)
        source.append(Array(models[100..<110]))
        screen.sourceDidGrow()
        #expect(screen.isAtBottom)
        let reference = Reference(Array(models.prefix(110)), columns: 60)
        #expect(Array(Self.plain(screen).prefix(19)) == Array(reference.lines.suffix(19)))
        _ = screen.handle(.character("g"))
        source.append(Array(models[110..<120]))
        screen.sourceDidGrow()
        #expect(screen.topRow == 0 && screen.topLine == 0)
        #expect(screen.count == 120)
        #expect(screen.frame().last!.contains("of 120"))
        _ = screen.handle(.character("G"))
        #expect(Array(Self.plain(screen).prefix(19)) == Array(Reference(models, columns: 60).lines.suffix(19)))
    }

    /// Rows are decorated from their real neighbours and the whole log's parties, wherever the
    /// window starts: two people in the whole log, one of them only far from the screen, still
    /// gives names.
    @Test func windowRowsAreDecoratedAsInTheWholeLog() {
        var models = Self.models(300).map { model -> any MessageModel in
            let note = model as! TextNote
            return TextNote(id: note.id, senderName: note.direction == .incoming ? "Bo" : note.senderName,
                            direction: note.direction, date: note.date, text: note.text)
        }
        models[3] = TextNote(id: "m3", senderName: "Zed", direction: .incoming, date: (models[3] as! TextNote).date, text: "hi")
        let screen = Self.screen(models)
        let reference = Reference(models, columns: 60)
        #expect(Array(Self.plain(screen).prefix(19)) == Array(reference.lines.suffix(19)))
        #expect(Self.plain(screen).contains { $0.contains("Bo") })
    }

    /// A second party arriving (`--follow`) among the first 32 messages puts names on every
    /// group, the first included, as `render` and `heights` of the whole file do; one arriving
    /// later leaves them off, as they do too (`PartyWindow`).
    @Test(arguments: [20, 200])
    func aNewPartyShowsNamesEverywhereOnlyWithinTheFirst32Messages(before: Int) {
        let models = Self.models(before).map { model -> any MessageModel in
            let note = model as! TextNote
            return TextNote(id: note.id, senderName: note.direction == .incoming ? "Bo" : note.senderName,
                            direction: note.direction, date: note.date, text: note.text)
        }
        let source = ViewerMessages(models)
        let screen = ViewerScreen(source: source, engine: LayoutEngine(), decoration: DecorationOptions(timeZone: utc),
                                  title: "chat.jsonl", rows: 20, columns: 60, renderOptions: RenderOptions(width: 60, timeZone: utc))
        _ = screen.handle(.character("g"))
        #expect(Array(Self.plain(screen).prefix(19)) == Reference(models, columns: 60).page(0, 19))
        #expect(!Self.plain(screen).contains { $0.contains("Bo") })
        let zed = TextNote(id: "zed", senderName: "Zed", direction: .incoming, date: may1.addingTimeInterval(400 * 1800), text: "hello")
        source.append([zed])
        screen.sourceDidGrow()
        #expect(Array(Self.plain(screen).prefix(19)) == Reference(models + [zed], columns: 60).page(0, 19))
        #expect(Self.plain(screen).contains { $0.contains("Bo") } == (before < PartyWindow.size))
    }

    /// The first group of a group chat is named on screen, above its first bubble, as in `render`.
    @Test func theFirstGroupOfAGroupChatIsNamed() throws {
        let models: [any MessageModel] = ["Ana", "Ana", "Ben", "Cy", "Ana"].enumerated().map { i, who in
            TextNote(id: "\(i)", senderName: who, date: may1.addingTimeInterval(Double(i) * 60), text: "text \(i)")
        }
        let screen = Self.screen(models, rows: 30, columns: 40)
        _ = screen.handle(.character("g"))
        let lines = Self.plain(screen)
        let first = try #require(lines.firstIndex { $0.contains("text 0") })
        #expect(lines[first - 2].trimmingCharacters(in: .whitespaces) == "Ana")
        #expect(lines.filter { $0.trimmingCharacters(in: .whitespaces) == "Ana" }.count == 2)
        #expect(Array(lines.prefix(29)) == Reference(models, columns: 40).page(0, 29))
    }

    /// A source whose messages can be swapped for others (a file read again), or that gives
    /// fewer than it counts (a file cut short under it, before anything looked).
    final class ChangingSource: ViewerSource {
        var models: [any MessageModel]
        var given: Int?
        init(_ models: [any MessageModel]) { self.models = models }
        var count: Int { models.count }
        var otherParties: Int { Set(models.filter { $0.direction == .incoming }.compactMap(\.senderName)).count }
        func messages(in range: Range<Int>) -> [any MessageModel] {
            Array(models[range].prefix(given.map { max(0, $0 - range.lowerBound) } ?? range.count))
        }
        func position(ofID id: String) -> Int? { models.firstIndex { $0.id == id } }
    }

    /// The end's place is worked out from a row per position even when the source gives fewer
    /// messages than it counts (its file was cut short): the missing ones are shown as such, and
    /// asking where the end is, far from the window, never traps.
    @Test func theEndOfASourceGivingFewerMessagesThanItCountsIsFoundWithoutTrapping() {
        let source = ChangingSource(Self.models(300))
        let screen = ViewerScreen(source: source, engine: LayoutEngine(), decoration: DecorationOptions(timeZone: utc),
                                  title: "chat.jsonl", rows: 20, columns: 60, renderOptions: RenderOptions(width: 60, timeZone: utc))
        _ = screen.handle(.character("g"))
        source.given = 280
        screen.resize(rows: 22, columns: 50)  // the end is worked out again, with the window at the start
        #expect(!screen.isAtBottom)
        _ = screen.handle(.character("G"))
        #expect(screen.isAtBottom)
        #expect(Self.plain(screen).contains { $0.contains("this message is no longer in") }, "\(Self.plain(screen))")
    }

    /// Read again (`--follow` on a file truncated or rewritten): other messages, more or fewer,
    /// shown from their end as a conversation of them draws it, wherever the view was.
    @Test func aSourceReadAgainShowsItsNewEnd() {
        let source = ChangingSource(Self.models(40))
        let screen = ViewerScreen(source: source, engine: LayoutEngine(), decoration: DecorationOptions(timeZone: utc),
                                  title: "chat.jsonl", rows: 20, columns: 60, renderOptions: RenderOptions(width: 60, timeZone: utc))
        for (count, seed, key) in [(120, UInt64(3), "g"), (3, 4, "G"), (0, 5, "k"), (30, 6, "k")] {
            _ = screen.handle(.character(Character(key)))
            source.models = Self.models(count, seed: seed).map { model in
                let note = model as! TextNote
                return TextNote(id: "s\(seed)-" + note.id, senderName: note.senderName, direction: note.direction, date: note.date, text: note.text)
            }
            screen.sourceWasReadAgain()
            #expect(screen.count == count)
            #expect(screen.isAtBottom)
            let lines = Self.plain(screen)
            let reference = Reference(source.models, columns: 60)
            let shown = Array(reference.lines.suffix(19))
            #expect(Array(lines.prefix(shown.count)) == shown, "\(count)")
            #expect(lines.last!.contains(count == 0 ? "no messages" : "message \(count) of \(count)"), "\(lines.last!)")
            #expect(!lines.contains { $0.contains("no longer in the file") })
        }
    }

    /// Counts are grouped as `bench` groups them; at the end the status names the last message.
    @Test func theStatusLineGroupsCountsAndNamesTheLastMessageAtTheEnd() {
        let screen = Self.screen(Self.models(1500), columns: 80)
        #expect(Self.plain(screen).last!.contains("message 1,500 of 1,500 │ (END)"))
        _ = screen.handle(.character("g"))
        #expect(Self.plain(screen).last!.contains("message 1 of 1,500"))
        _ = screen.handle(.character("k"))
        _ = screen.handle(.character("G"))
        _ = screen.handle(.character("k"))  // a line up: no longer at the end, the top message again
        #expect(!Self.plain(screen).last!.contains("(END)"))
        #expect(Self.plain(screen).last!.contains("message \(NumberText.grouped(screen.topRow + 1)) of 1,500"))
    }

    /// A source that refuses what a conversation would refuse: a repeated id, reported.
    @Test func aRepeatedIDIsRefusedBySource() {
        let models = Self.models(5)
        let source = ViewerMessages(models + [models[2]])
        #expect(source.count == 5)
        #expect(source.refused.map(\.id) == ["m2"])
    }

}
