import BubbleLayout
import BubbleSamples
import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal
import BubbleTestSupport

/// A search through a message taller than the screen reads its text for the places a line can
/// show the query (`TextLineSearch`) and draws only the lines there; what it finds is exactly
/// what drawing and reading every line finds (`ViewerScreen.drawnMatchingLine`), and a search
/// that finds nothing in a 15 MB message draws none of its text lines.
@Suite struct TextLineSearchTests {
    /// What random texts are made of: letters in both cases, words, spaces and line breaks,
    /// tabs, controls, letters a fold changes (É, ß, ﬁ, fullwidth, the Kelvin sign), marks,
    /// wide characters and emoji, and the glyphs chrome is drawn with.
    static let pieces = ["a", "b", "ab", "ba", "A", "B", "abc", "Abc", "x", " ", " ", " ", "  ", "\n", "\t", "é", "É", "e\u{301}",
                         "ß", "SS", "ﬁ", "fi", "Ａ", "\u{212A}", "k", "見", "😀", "👍🏽", "Ω", "\u{1}", "\u{7F}", "…", "...", "│",
                         "|", "-", ".", "^A", "=", "a\u{200D}"]
    /// Pieces that make a text be read line by line as drawn (kept rare).
    static let rarePieces = ["\u{200E}", "\u{301}", "\u{600}"]

    static func text(_ generator: inout SeededGenerator, length: Int, rare: Bool = false) -> String {
        var text = ""
        for _ in 0..<length {
            if rare && Int.random(in: 0..<200, using: &generator) == 0 {
                text += rarePieces.randomElement(using: &generator)!
            } else {
                text += pieces.randomElement(using: &generator)!
            }
        }
        return text
    }

    /// A query: a piece of the text (its case changed at times), a few random pieces, or one
    /// with chrome or spaces at its ends.
    static func query(_ text: String, _ generator: inout SeededGenerator) -> String {
        let characters = Array(text)
        switch Int.random(in: 0..<6, using: &generator) {
        case 0, 1:
            let start = Int.random(in: 0..<characters.count, using: &generator)
            let length = Int.random(in: 1...12, using: &generator)
            let piece = String(characters[start..<min(characters.count, start + length)])
            return Bool.random(using: &generator) ? piece.uppercased() : piece
        case 2:
            return (0..<Int.random(in: 1...3, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        case 3:
            return ["│ ", " ", "| ", ". ", "…"].randomElement(using: &generator)! + String(characters.prefix(Int.random(in: 1...4, using: &generator)))
        case 4:
            let start = Int.random(in: 0..<characters.count, using: &generator)
            return String(characters[start..<min(characters.count, start + 3)]) + [" ", " │", "..", " |"].randomElement(using: &generator)!
        default:
            return ["^a", "^?", "ab", "a b", "SS", "fi", "k", "é", " ", "│", "...", "x x"].randomElement(using: &generator)!
        }
    }

    struct Setup: CustomStringConvertible, Sendable {
        var colors: ColorDepth
        var ascii: Bool
        var kind: Int  // 0 incoming, 1 outgoing, 2 notice
        var hyperlinks = false
        var description: String { "colors \(colors), ascii \(ascii), kind \(kind), links \(hyperlinks)" }
    }

    static let setups = [Setup(colors: .none, ascii: false, kind: 0), Setup(colors: .trueColor, ascii: false, kind: 1),
                         Setup(colors: .palette256, ascii: true, kind: 0), Setup(colors: .none, ascii: true, kind: 2),
                         Setup(colors: .trueColor, ascii: false, kind: 2, hyperlinks: true)]

    static func screen(tall text: String, _ setup: Setup, columns: Int = 40, rows: Int = 12) -> ViewerScreen {
        let tall: any MessageModel = setup.kind == 2
            ? Notice(id: "tall", date: may1.addingTimeInterval(60), notice: text)
            : TextNote(id: "tall", senderName: "Bo", direction: setup.kind == 1 ? .outgoing : .incoming,
                       date: may1.addingTimeInterval(60), text: text)
        let models: [any MessageModel] = [TextNote(id: "before", senderName: "Ann", date: may1, text: "before"), tall,
                                          TextNote(id: "after", senderName: "Ann", date: may1.addingTimeInterval(120), text: "after")]
        var options = RenderOptions(width: columns, colorDepth: setup.colors, asciiBorders: setup.ascii, timeZone: utc)
        options.hyperlinks = setup.hyperlinks
        return ViewerScreen(source: ViewerMessages(models), engine: LayoutEngine(), decoration: DecorationOptions(timeZone: utc),
                            title: "chat.jsonl", rows: rows, columns: columns, renderOptions: options)
    }

    /// On seeded random texts and queries, every search within the tall row, forwards and
    /// backwards, from its ends and from lines inside it, finds the line reading every drawn
    /// line finds (a match a wrap splits is not on any line, for both); most are read from the
    /// text, not line by line.
    @Test(arguments: setups)
    func findsTheLineReadingEveryLineFinds(setup: Setup) throws {
        var generator = SeededGenerator(seed: 37)
        var searches = 0, queries = 0, read = 0, found = 0
        for round in 0..<24 {
            let text = Self.text(&generator, length: Int.random(in: 150...700, using: &generator), rare: round % 6 == 5)
                + (round % 4 == 0 ? " https://example.com/" + Self.text(&generator, length: 8) : "")
            let screen = Self.screen(tall: text, setup)
            let height = screen.height(ofRow: 1)
            guard height > screen.pageHeight else { continue }
            for _ in 0..<6 {
                let query = Self.query(text, &generator)
                queries += 1
                let matcher = SearchMatcher(query, options: screen.engine.texts.measurer.options)
                if TextLineSearch(matcher, text: text, chrome: ["│", "|", "-", "─", "=", "═", ".", " "], options: TextOptions()) != nil {
                    read += 1
                }
                let inside = Int.random(in: 0..<height, using: &generator)
                for (range, forward) in [(0..<Int.max, true), (0..<Int.max, false), (inside..<Int.max, true), (0..<inside, false)] {
                    let line = screen.matchingLine(ofRow: 1, in: range, forward: forward, matcher)
                    let reference = screen.drawnMatchingLine(ofRow: 1, in: range, forward: forward, matcher)
                    #expect(line == reference, "\(setup) round \(round): \(forward ? "/" : "?")\(query.debugDescription) in \(range) of \(height) lines")
                    searches += 1
                    if reference != nil { found += 1 }
                }
            }
        }
        #expect(searches > 400)
        #expect(found > searches / 4 && found < searches * 3 / 4, "\(found) of \(searches) found")
        #expect(read > queries / 2, "\(read) of \(queries) queries read from the text")
    }

    /// A key made of what only the text can show: chrome at the query's ends is left out, a
    /// query all chrome or a text with bidi controls is read line by line.
    @Test func theKeyLeavesOutChrome() {
        let chrome: Set<Character> = ["│", " ", "."]
        let options = TextOptions()
        let plain = "one two\nthree"
        #expect(TextLineSearch(SearchMatcher("│ two"), text: plain, chrome: chrome, options: options)?.next(from: 0) == 4)
        #expect(TextLineSearch(SearchMatcher("TWO "), text: plain, chrome: chrome, options: options)?.previous(before: 13) == 4)
        #expect(TextLineSearch(SearchMatcher("two\nthree"), text: plain, chrome: chrome, options: options) == nil, "a control in the query")
        #expect(TextLineSearch(SearchMatcher(" . "), text: plain, chrome: chrome, options: options) == nil, "all chrome")
        #expect(TextLineSearch(SearchMatcher("two"), text: "one \u{200F}two", chrome: chrome, options: options) == nil, "a bidi control")
        // Across a line break the text holds no key; a control shows as its visible form.
        #expect(TextLineSearch(SearchMatcher("owt"), text: "tw\nwo", chrome: chrome, options: options)?.next(from: 0) == nil)
        let control = TextLineSearch(SearchMatcher("x^a"), text: "éé x\u{1}", chrome: chrome, options: options)
        #expect(control?.next(from: 0) == 5)
        #expect(control?.previous(before: 7) == 5)
        #expect(control?.previous(before: 6) == nil)
        // With a tab in the text, the key is the longest run without a space.
        let tabbed = TextLineSearch(SearchMatcher("a bcd"), text: "a\tbcd", chrome: chrome, options: options)
        #expect(tabbed?.next(from: 0) == 2)
        // A folded key: the ligature and the Kelvin sign read as their letters.
        #expect(TextLineSearch(SearchMatcher("fik"), text: "xx ﬁ\u{212A}", chrome: chrome, options: options)?.next(from: 0) == 3)
        #expect(TextLineSearch(SearchMatcher("ik"), text: "xx ﬁ\u{212A}", chrome: chrome, options: options)?.previous(before: 9) == 3)
    }

    /// A one-word message of 15 MB: a search that finds nothing in it draws none of its text
    /// lines, forwards or backwards, and one for a word deep inside it draws about a page and
    /// lands on the word's line.
    @Test func aFifteenMegabyteWordIsSearchedWithoutDrawingIt() throws {
        let before = String(repeating: "a", count: 9_000_000), after = String(repeating: "a", count: 6_000_000)
        let word = before + " needle " + after
        let screen = Self.screen(tall: word, Setup(colors: .trueColor, ascii: false, kind: 0), columns: 80, rows: 24)
        for key in "2g" { _ = screen.handle(.character(key)) }
        _ = screen.frame()
        #expect(screen.topRow == 1 && screen.height(ofRow: 1) > 100_000)
        var drawn = screen.tallRowLinesDrawn
        for query in ["/lol", "?lol"] {
            for key in query { _ = screen.handle(.character(key)) }
            _ = screen.handle(.enter)
            _ = screen.handle(.character("n"))
            #expect(screen.search?.notFound == true, "\(query)")
            #expect(screen.tallRowLinesDrawn - drawn <= 2 * screen.pageHeight, "\(query): only the lines around its text drawn")
            drawn = screen.tallRowLinesDrawn
        }
        for key in "/needle" { _ = screen.handle(.character(key)) }
        _ = screen.handle(.enter)
        #expect(screen.search?.notFound == false)
        #expect(screen.tallRowLinesDrawn - drawn <= 4 * screen.pageHeight, "about a page to land on it")
        let top = ViewerScreenTests.plain(screen)[0]
        #expect(top.contains("needle"), "\(top)")
        #expect(screen.topLine > 100_000, "deep in the message: line \(screen.topLine)")
    }
}
