import Testing
@testable import BubbleText

/// One sequence of emoji-test.txt.
struct EmojiTestLine {
    var lineNumber: Int
    var scalars: [Unicode.Scalar]
    /// fully-qualified, minimally-qualified, unqualified or component.
    var status: Substring
    var text: String { String(String.UnicodeScalarView(scalars)) }

    static func load() -> [EmojiTestLine]? {
        guard let lines = UnicodeTablesCorpus.lines("emoji-test.txt", systemPath: "emoji/emoji-test.txt") else { return nil }
        var result: [EmojiTestLine] = []
        for (index, line) in lines.enumerated() {
            let content = line.prefix { $0 != "#" }
            let fields = content.split(separator: ";")
            guard fields.count == 2 else { continue }
            let scalars = fields[0].split(separator: " ").map { Unicode.Scalar(UInt32($0, radix: 16)!)! }
            let status = fields[1].filter { $0 != " " }
            result.append(EmojiTestLine(lineNumber: index + 1, scalars: scalars, status: Substring(status)))
        }
        return result
    }
}

@Suite struct EmojiTests {
    @Test func everyFullyQualifiedAndComponentEmojiMeasuresTwo() throws {
        guard let lines = EmojiTestLine.load() else {
            Issue.record("emoji-test.txt is in neither Corpora/unicode nor /usr/share/unicode/emoji")
            return
        }
        let measured = lines.filter { $0.status == "fully-qualified" || $0.status == "component" }
        for line in measured {
            // The five skin-tone components are grapheme Extend (GB9): alone, at a text's start,
            // they have nothing to modify and are not drawn (`GraphemeWidth.draws`). On a base
            // they measure as the emoji does.
            let text = UnicodeTables.info(line.scalars[0].value).isEmojiModifier ? "a" + line.text : line.text
            let scalars = Array(text.unicodeScalars)
            #expect(CellWidth.of(text) == 2, "emoji-test.txt:\(line.lineNumber)")
            #expect(CellWidth.ofGrapheme(scalars) == 2, "emoji-test.txt:\(line.lineNumber)")
        }
        #expect(measured.count == 3664)  // 3655 fully-qualified + 9 components in emoji-test.txt 15.0
    }

    @Test func everyEmojiSequenceIsOneGrapheme() throws {
        guard let lines = EmojiTestLine.load() else {
            Issue.record("emoji-test.txt is missing")
            return
        }
        for line in lines {
            #expect(graphemeBoundaries(of: line.text) == [0, line.text.utf8.count], "emoji-test.txt:\(line.lineNumber)")
        }
        #expect(lines.count == 4733)  // all four statuses
    }

    @Test func unqualifiedEmojiKeepTheirTextWidthUnlessTheyJoin() throws {
        guard let lines = EmojiTestLine.load() else {
            Issue.record("emoji-test.txt is missing")
            return
        }
        // An unqualified single pictograph (no VS16) is text presentation: East_Asian_Width decides.
        for line in lines where line.status == "unqualified" && line.scalars.count == 1 {
            let info = UnicodeTables.info(line.scalars[0].value)
            #expect(CellWidth.of(line.text) == (info.isEastAsianFullWideHalf ? 2 : 1), "emoji-test.txt:\(line.lineNumber)")
        }
    }

    @Test func flagsModifiersKeycapsAndTagsMeasureTwo() {
        #expect(CellWidth.of("🇯🇵") == 2)
        #expect(CellWidth.of("🇯🇵🇺🇸") == 4)
        #expect(CellWidth.of("🇯") == 2)  // a lone regional indicator is Emoji_Presentation
        #expect(CellWidth.of("👍🏽") == 2)
        #expect(CellWidth.of("#\u{FE0F}\u{20E3}") == 2)
        #expect(CellWidth.of("#\u{20E3}") == 2)  // unqualified keycap
        #expect(CellWidth.of("🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}") == 2)
        #expect(CellWidth.of("👨\u{200D}👩\u{200D}👧\u{200D}👦") == 2)
        #expect(CellWidth.of("❤\u{200D}🔥") == 2)
    }

    @Test func variationSelectorSixteenMakesAnyBaseWide() {
        #expect(CellWidth.of("❤") == 1)
        #expect(CellWidth.of("❤\u{FE0F}") == 2)
        #expect(CellWidth.of("a\u{FE0F}") == 2)
        #expect(CellWidth.of("\u{FE0F}") == 0)  // no base: nothing to present
    }

    @Test func emojiAddedAfterUnicode15StillMeasureTwo() {
        // U+1FAE9 (Unicode 16) and U+1FAF9 (reserved) are unassigned Extended_Pictographic in 15.0.
        #expect(CellWidth.ofScalar(0x1FAE9) == 2)
        #expect(CellWidth.ofScalar(0x1FAF9) == 2)
        #expect(CellWidth.of("🫩\u{1F3FD}") == 2)
    }
}
