import BubbleText
import Foundation
import Testing
@testable import BubbleLayout

/// A text's language (`LanguageTaggedMessage`) is part of what a layout depends on: the cache and
/// the prepared-text store key on it; a measurer that does not depend on it measures alike.
@Suite struct TextLanguageTests {
    struct Tagged: TextMessageModel, LanguageTaggedMessage {
        var id: String
        var text: String
        var textLanguage: String?
        var senderName: String? { "Yuki" }
        var direction: MessageDirection { .incoming }
        var date: Date { Date(timeIntervalSince1970: 0) }
    }

    /// Counts preparations per language: a measurer whose widths depend on the language.
    struct LanguageWidths: LanguagePreparingMeasurer {
        let cells = CellMeasurer()
        func prepare(_ text: String) -> PreparedText { cells.prepare(text) }
        /// Japanese texts measure as if doubled, so a cached layout of the other language would show.
        func prepare(_ text: String, inLanguage tag: String) -> PreparedText { cells.prepare(tag == "ja" ? text + text : text) }
        func measure(_ prepared: PreparedText, width: Int) -> TextMetrics { cells.measure(prepared, width: width) }
        func layout(_ prepared: PreparedText, width: Int) -> TextLayout { cells.layout(prepared, width: width) }
        func width(of text: String) -> Int { cells.width(of: text) }
    }

    @Test func theCacheKeyDiffersByLanguage() throws {
        let engine = LayoutEngine(measurer: LanguageWidths())
        let decoration = RowDecoration(rawValue: 0)
        let ja = Tagged(id: "1", text: "了解です", textLanguage: "ja")
        let ko = Tagged(id: "1", text: "了解です", textLanguage: "ko")
        let none = Tagged(id: "1", text: "了解です", textLanguage: nil)
        #expect(engine.key(for: ja, decoration: decoration, width: 60) != engine.key(for: ko, decoration: decoration, width: 60))
        #expect(engine.key(for: ko, decoration: decoration, width: 60) != engine.key(for: none, decoration: decoration, width: 60))
        #expect(engine.key(for: ja, decoration: decoration, width: 60) == engine.key(for: ja, decoration: decoration, width: 60))
        // Same id, text and revision in turn: each language gets its own layout, never the other's.
        let japanese = try engine.layout(ja, decoration: decoration, width: 60)
        let korean = try engine.layout(ko, decoration: decoration, width: 60)
        #expect(japanese.bubbleWidth > korean.bubbleWidth)
        #expect(try engine.layout(ja, decoration: decoration, width: 60) == japanese)
        #expect(try engine.layout(none, decoration: decoration, width: 60) == korean)
    }

    @Test func contentCarriesTheLanguageAndTerminalCellsIgnoreIt() throws {
        let ja = Tagged(id: "1", text: "了解です…また明日ね", textLanguage: "ja")
        let none = Tagged(id: "1", text: "了解です…また明日ね", textLanguage: nil)
        #expect(TextBubbleCell.content(of: ja).language == "ja")
        #expect(TextBubbleCell.content(of: none).language == nil)
        #expect(TextBubbleCell.content(of: ja) != TextBubbleCell.content(of: none))
        let cells = LayoutEngine(measurer: CellMeasurer())
        let decoration = RowDecoration(rawValue: 0)
        for width in [12, 20, 40] {
            #expect(try cells.layout(ja, decoration: decoration, width: width) == cells.layout(none, decoration: decoration, width: width))
        }
    }

    @Test(arguments: [("ja", true), ("zh-Hant", true), ("zh_TW", true), ("sr-Latn-RS", true), ("x", false), ("japanese!", false),
                      ("ja-", false), ("-ja", false), ("12", false), ("ja-toolongsubtag", false), ("", false), ("ja--JP", false)])
    func wellFormedTags(tag: String, wellFormed: Bool) {
        #expect(LanguageTag.isWellFormed(tag) == wellFormed)
    }
}
