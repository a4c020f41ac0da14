import Testing
@testable import BubbleTerminal

/// The key help is the keys the viewer handles: each key it names is one `ViewerKeyDecoder` makes,
/// and every key the screen acts on is named.
@Suite struct ViewerKeyHelpTests {
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
            #expect(screen.handle(key) != .none, "\(key) is listed but does nothing")
        }
    }
}
