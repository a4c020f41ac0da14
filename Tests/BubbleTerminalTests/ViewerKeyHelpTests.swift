import BubbleLayout
import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal
import BubbleTestSupport

/// The viewer's help screen, counts, status line title and tall messages, key by key with no
/// terminal (the same in a real one: `TmuxViewerKeysTests`).
@Suite struct ViewerKeyHelpTests {
    func plain(_ screen: ViewerScreen) -> [String] { ViewerScreenTests.plain(screen) }

    @Test func f1DecodesInBothForms() {
        var decoder = ViewerKeyDecoder()
        #expect(decoder.decode(Array("\u{1B}OP".utf8)) == [.f1])
        #expect(decoder.decode(Array("\u{1B}[11~".utf8)) == [.f1])
        #expect(decoder.decode(Array("\u{1B}[1;2P".utf8)) != [.f1], "shift-F1 is another key")
    }

    /// The help screen holds every binding, whole, at a width where each fits; the status line
    /// says how to leave; any key leaves it and the log is as it was.
    @Test func theHelpScreenListsEveryBindingAndAnyKeyLeaves() {
        let screen = ViewerScreenTests.screen(ViewerScreenTests.models(200), rows: 40, columns: 120)
        _ = screen.handle(.character("g"))
        _ = screen.handle(.character(" "))
        let before = plain(screen)
        #expect(screen.handle(.character("h")) == .redraw)
        #expect(screen.showsHelp)
        let help = plain(screen)
        #expect(help.count == 40)
        for binding in ViewerKeyHelp.bindings {
            #expect(help.contains { $0.contains(binding.keys) && $0.contains(binding.action) }, "\(binding.keys)")
        }
        #expect(help.last!.contains("q returns"))
        #expect(screen.handle(.character("q")) == .redraw, "q leaves the help, not the viewer")
        #expect(!screen.showsHelp)
        #expect(plain(screen) == before)
        _ = screen.handle(.f1)
        #expect(screen.showsHelp)
        _ = screen.handle(.character("x"))
        #expect(plain(screen) == before)
    }

    /// A narrow help screen wraps each action under itself and never draws past the width.
    @Test func aNarrowHelpScreenWrapsWithinTheWidth() {
        let screen = ViewerScreenTests.screen(ViewerScreenTests.models(20), rows: 100, columns: 40)
        _ = screen.handle(.character("h"))
        let options = TextOptions()
        for line in plain(screen) { #expect(CellWidth.of(line, options: options) <= 40, "\(line)") }
        let words = plain(screen).joined(separator: " ").split(separator: " ").map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
        #expect(words.contains("conversation") && words.contains("quit"))
    }

    /// A count repeats the key that follows it, shows on the status line while typed, and goes
    /// with that key; `g` and `G` with a count go to that message.
    @Test func aCountRepeatsTheNextKey() {
        let one = ViewerScreenTests.screen(ViewerScreenTests.models(300))
        let other = ViewerScreenTests.screen(ViewerScreenTests.models(300))
        for screen in [one, other] { _ = screen.handle(.character("g")) }
        for _ in 0..<7 { _ = one.handle(.character("j")) }
        #expect(other.handle(.character("7")) == .redraw)
        #expect(other.pendingCount == 7)
        #expect(plain(other).last!.contains(":7"))
        _ = other.handle(.character("j"))
        #expect(other.pendingCount == nil)
        #expect((one.topRow, one.topLine) == (other.topRow, other.topLine))
        #expect(!plain(other).last!.contains(":7"))
        for _ in 0..<3 { _ = one.handle(.character(" ")) }
        for key in "3 " { _ = other.handle(.character(key)) }
        #expect((one.topRow, one.topLine) == (other.topRow, other.topLine))
        for key in "12g" { _ = other.handle(.character(key)) }
        #expect(other.topRow == 11 && other.topLine == 0)
        for key in "40G" { _ = other.handle(.character(key)) }
        #expect(other.topRow == 39)
        // A leading 0 is no count; Esc drops one being typed.
        #expect(other.handle(.character("0")) == .none)
        _ = other.handle(.character("5"))
        _ = other.handle(.escape)
        #expect(other.pendingCount == nil && other.topRow == 39)
        // A huge count stops at the log's end.
        for key in "99999999999j" { _ = other.handle(.character(key)) }
        #expect(other.isAtBottom)
    }

    /// The title keeps its file name: a long path loses folders from its start, a long name
    /// its start, always within the room given.
    @Test func theTitleIsShortenedFromItsStart() {
        let models = ViewerScreenTests.models(5)
        func screen(_ title: String) -> ViewerScreen {
            ViewerScreen(source: ViewerMessages(models), engine: LayoutEngine(), decoration: DecorationOptions(timeZone: utc),
                         title: title, rows: 20, columns: 60, renderOptions: RenderOptions(width: 60, timeZone: utc))
        }
        let path = screen("/home/someone/Downloads/exports/chat.txt")
        #expect(path.titleText(limit: 100) == "/home/someone/Downloads/exports/chat.txt")
        #expect(path.titleText(limit: 20) == "…/exports/chat.txt")
        #expect(path.titleText(limit: 10) == "…/chat.txt")
        #expect(path.titleText(limit: 6) == "…t.txt")
        let hostile = screen("/tmp/\u{1B}[31mred\u{7}/a-very-long-name-\u{1B}]8;;x\u{7}.jsonl")
        for limit in [4, 9, 15, 30] {
            let drawn = hostile.titleText(limit: limit)
            #expect(!drawn.unicodeScalars.contains { $0.value == 0x1B || $0.value == 7 }, "\(drawn)")
            #expect(CellWidth.of(stripSGR(drawn), options: TextOptions()) <= limit, "\(limit): \(drawn)")
            #expect(stripSGR(drawn).hasSuffix(String("jsonl".suffix(limit - 1))), "\(drawn)")
        }
        // The status line gives the name its room before the date and the note.
        let noted = screen("/a/long/folder/path/that/goes/on/and/on/chat-export.txt")
        noted.note = "dates read as day first (--date-order)"
        let status = stripSGR(noted.statusLine())
        #expect(status.contains("chat-export.txt") && status.contains("dates read as"), "\(status)")
    }

    /// A message taller than the screen is drawn a page at a time, never whole (not even for a
    /// search, which reads it a block at a time), and the lines shown are those of the whole
    /// message drawn apart.
    @Test func aTallMessageIsDrawnAPageAtATime() {
        let word = String(repeating: "abcdefghij", count: 5_000)  // one word of 50,000 letters
        var models = ViewerScreenTests.models(3)
        models.append(TextNote(id: "tall", senderName: "Bo", direction: .incoming, date: may1.addingTimeInterval(9000), text: word))
        models += ViewerScreenTests.models(3, seed: 9).map {
            TextNote(id: "after-" + $0.id, senderName: $0.senderName, direction: $0.direction, date: may1.addingTimeInterval(9600), text: "after")
        }
        let screen = ViewerScreenTests.screen(models, rows: 20, columns: 60)
        let reference = ViewerScreenTests.Reference(models, columns: 60)
        for key in "4g" { _ = screen.handle(.character(key)) }
        _ = screen.frame()
        let drawn = screen.rowsDrawn
        let tallLines = screen.tallRowLinesDrawn
        for step in 1...200 {
            _ = screen.handle(.character("j"))
            let page = Array(plain(screen).prefix(screen.pageHeight))
            if step % 50 == 0 { #expect(page == reference.page(reference.top(screen), screen.pageHeight), "\(step)") }
        }
        #expect(screen.topRow == 3, "still inside the tall message")
        #expect(screen.rowsDrawn == drawn, "no row drawn again while scrolling inside the tall one")
        #expect(screen.tallRowLinesDrawn - tallLines <= 200 * screen.pageHeight, "a page of it at a time")
        // A search reads it a block at a time; the pages shown are still the reference's.
        let height = screen.height(ofRow: 3)
        let beforeSearch = screen.tallRowLinesDrawn
        for key in "/abcdefghij" { _ = screen.handle(.character(key)) }
        _ = screen.handle(.enter)
        _ = screen.handle(.character("n"))
        _ = screen.handle(.character("n"))
        #expect(screen.search?.notFound == false)
        #expect(height > 1_000)
        #expect(screen.tallRowLinesDrawn - beforeSearch <= 3 * 512 + 4 * screen.pageHeight, "a block per search, never the whole message")
        #expect(Array(plain(screen).prefix(screen.pageHeight)).map { stripSGR($0) }
                == reference.page(reference.top(screen), screen.pageHeight).map { $0 })
    }

    // MARK: The list is the keys the screen acts on

    /// The keys a binding's name stands for, as the decoder delivers them; nil for a name the
    /// help should not use.
    static func keys(named name: String) -> [ViewerKey]? {
        switch name {
        case "Space": return [.character(" ")]
        case "Enter": return [.enter]
        case "Esc": return [.escape]
        case "Backspace": return [.backspace]
        case "Up": return [.up]
        case "Down": return [.down]
        case "PgUp": return [.pageUp]
        case "PgDn": return [.pageDown]
        case "Home": return [.home]
        case "End": return [.end]
        case "Mouse wheel": return [.wheelUp, .wheelDown]
        case "F1": return [.f1]
        case "0-9": return (0...9).map { .character(Character(String($0))) }
        default:
            if name.hasPrefix("Ctrl-"), name.count == 6, let letter = name.last?.asciiValue, (65...90).contains(letter) {
                var decoder = ViewerKeyDecoder()
                let keys = decoder.decode([letter & 0x1F])
                return keys.isEmpty ? nil : keys
            }
            if name.count == 1, let scalar = name.unicodeScalars.first, (0x21...0x7E).contains(scalar.value) {
                return [.character(Character(name))]
            }
            return nil
        }
    }

    static var listed: [ViewerKey] {
        ViewerKeyHelp.bindings.flatMap { binding in
            binding.keys.components(separatedBy: ", ").flatMap { keys(named: $0) ?? [] }
        }
    }

    @Test func everyKeyNamedIsAKeyTheDecoderMakes() {
        for binding in ViewerKeyHelp.bindings {
            #expect(!binding.action.isEmpty)
            for name in binding.keys.components(separatedBy: ", ") {
                #expect(Self.keys(named: name) != nil, "'\(name)' in '\(binding.keys)' is no key name")
            }
        }
        let names = ViewerKeyHelp.bindings.flatMap { $0.keys.components(separatedBy: ", ") }
        #expect(Set(names).count == names.count, "a key is listed twice: \(names)")
    }

    /// A screen of 300 messages scrolled to the middle, with a search done: a state where every
    /// scrolling key moves it and the search keys act.
    static func screenInTheMiddleWithASearch() -> ViewerScreen {
        let screen = ViewerScreenTests.screen(ViewerScreenTests.models(300))
        _ = screen.handle(.character("/"))
        for character in "needle" { _ = screen.handle(.character(character)) }
        _ = screen.handle(.enter)
        _ = screen.handle(.character("g"))
        for _ in 0..<8 { _ = screen.handle(.character("d")) }
        return screen
    }

    @Test func everyKeyTheScreenActsOnIsListed() {
        let listed = Set(Self.listed)
        var candidates: [ViewerKey] = [.up, .down, .pageUp, .pageDown, .home, .end, .enter, .escape, .backspace,
                                       .wheelUp, .wheelDown, .interrupt, .suspend, .redraw]
        candidates += (0x20...0x7E).map { ViewerKey.character(Character(Unicode.Scalar(UInt8($0)))) }
        // Control bytes, as the decoder reads them (ctrl-F is a page down, ctrl-D is d).
        candidates += (UInt8(0x00)...0x1F).flatMap { byte in
            var decoder = ViewerKeyDecoder()
            return decoder.decode([byte])
        }
        for key in candidates {
            let screen = Self.screenInTheMiddleWithASearch()
            let before = (screen.topRow, screen.topLine)
            #expect(before.0 > 0)
            let action = screen.handle(key)
            if action != .none || (screen.topRow, screen.topLine) != before {
                let isListed = listed.contains(key)
                #expect(isListed, "the viewer acts on \(key), which its key help does not list")
            }
        }
    }

    @Test func everyKeyListedActs() {
        // [ and ] move between conversations: this screen shows one.
        let needsSections: Set<ViewerKey> = [.character("["), .character("]")]
        for key in Self.listed where !needsSections.contains(key) {
            let screen = Self.screenInTheMiddleWithASearch()
            if case .character(let c) = key, c.isASCII, c.isNumber {
                // A digit is a count: it acts through the key after it (`aCountRepeatsTheNextKey`).
                let before = (screen.topRow, screen.topLine)
                _ = screen.handle(key)
                _ = screen.handle(.character("j"))
                #expect((screen.topRow, screen.topLine) != before, "the count \(c) then j did not move")
                continue
            }
            #expect(screen.handle(key) != .none, "\(key) is listed but does nothing")
        }
    }
}
