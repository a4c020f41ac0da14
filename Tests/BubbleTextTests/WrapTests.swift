import Testing
@testable import BubbleText

/// The text of each wrapped line, and each line's width.
func wrappedLines(_ text: String, width: Int, options: TextOptions = TextOptions()) -> [String] {
    let layout = wrap(text, width: width, options: options)
    let bytes = Array(text.utf8)
    return layout.lines.map { String(decoding: bytes[$0.utf8Range], as: UTF8.self) }
}

func wrappedWidths(_ text: String, width: Int, options: TextOptions = TextOptions()) -> [Int] {
    wrap(text, width: width, options: options).lines.map(\.width)
}

@Suite struct WrapTests {
    @Test func emptyTextIsOneEmptyLine() {
        let layout = wrap("", width: 10)
        #expect(layout.lines == [TextLine(utf8Range: 0..<0, width: 0)])
        #expect(layout.widestLine == 0)
    }

    @Test func shortTextStaysOnOneLine() {
        #expect(wrappedLines("hello world", width: 20) == ["hello world"])
        #expect(wrappedWidths("hello world", width: 20) == [11])
    }

    @Test func firstFitBreaksAtSpaces() {
        #expect(wrappedLines("the quick brown fox", width: 10) == ["the quick", "brown fox"])
        #expect(wrappedLines("aa bb cc dd", width: 5) == ["aa bb", "cc dd"])
    }

    @Test func spacesBeforeABreakHang() {
        // "hello" plus its trailing spaces would be 8 cells; the spaces hang, so it fits in 5.
        let layout = wrap("hello   world", width: 5)
        #expect(layout.lines.map(\.width) == [5, 5])
        #expect(wrappedLines("hello   world", width: 5) == ["hello", "world"])
        #expect(layout.widestLine == 5)
    }

    @Test func spacesInsideALineCount() {
        #expect(wrappedWidths("a   b", width: 5) == [5])
        #expect(wrappedLines("a   b c", width: 5) == ["a   b", "c"])
    }

    @Test func trailingSpacesBeforeAMandatoryBreakAreLeftOut() {
        #expect(wrappedLines("abc   \ndef", width: 40) == ["abc", "def"])
        #expect(wrappedWidths("abc   \ndef", width: 40) == [3, 3])
    }

    @Test func everyMandatoryBreakEndsALine() {
        for separator in ["\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}", "\u{0B}", "\u{0C}"] {
            #expect(wrappedLines("one" + separator + "two", width: 40) == ["one", "two"], "separator \(separator.unicodeScalars.map(\.value))")
        }
    }

    @Test func crlfIsOneBreak() {
        #expect(wrappedLines("a\r\n\r\nb", width: 40) == ["a", "", "b"])
    }

    @Test func aTrailingMandatoryBreakAddsNoEmptyLine() {
        #expect(wrappedLines("a\n", width: 10) == ["a"])
        #expect(wrappedLines("a\n\n", width: 10) == ["a", ""])
        #expect(wrappedLines("\n", width: 10) == [""])
    }

    @Test func aWordWiderThanTheLineIsForceBrokenAtGraphemes() {
        #expect(wrappedLines("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
        // é as e + combining acute: three graphemes of two scalars each never split.
        let accented = "e\u{301}e\u{301}e\u{301}"
        #expect(wrappedLines(accented, width: 2) == ["e\u{301}e\u{301}", "e\u{301}"])
    }

    @Test func aWordOfTwoByteLettersIsForceBrokenBetweenLetters() {
        // Cyrillic, Greek and Hebrew letters are two bytes and one cell: no map, found by division.
        #expect(wrappedLines("Встречаемся", width: 4) == ["Встр", "ечае", "мся"])
        #expect(wrappedLines("ΑΒΓΔΕ ab", width: 2) == ["ΑΒ", "ΓΔ", "Ε", "ab"])
        #expect(wrappedLines("שלוםשלום", width: 3) == ["שלו", "םשל", "ום"])
        // A space that becomes content among two-byte letters (no break before "!", LB13).
        #expect(wrappedLines("Как !", width: 3) == ["Как", " !"])
        #expect(wrappedLines("Как ! да", width: 4) == ["Как ", "! да"])
    }

    @Test func forceBrokenWordContinuesTheLine() {
        #expect(wrappedLines("abcdefg hi", width: 4) == ["abcd", "efg", "hi"])
        #expect(wrappedLines("abcdef g", width: 4) == ["abcd", "ef g"])
    }

    @Test func aGraphemeWiderThanTheLineTakesALineOfItsOwn() {
        #expect(wrappedLines("😀😀", width: 1) == ["😀", "😀"])
        #expect(wrappedWidths("😀😀", width: 1) == [2, 2])
        #expect(wrappedLines("a漢字b", width: 1) == ["a", "漢", "字", "b"])
    }

    @Test func wideCharactersMeasureTwoCells() {
        #expect(wrappedWidths("漢字かな", width: 40) == [8])
        #expect(wrappedLines("漢字かな", width: 5) == ["漢字", "かな"])
    }

    @Test func emojiSequencesStayWholeAndMeasureTwo() {
        let family = "👨‍👩‍👧‍👦"
        let flag = "🇫🇷"
        #expect(wrappedWidths(family + flag, width: 40) == [4])
        #expect(wrappedLines(family + flag + family, width: 3) == [family, flag, family])
    }

    @Test func tabsExpandToTheNextStopFromTheLineStart() {
        #expect(wrappedWidths("a\tb", width: 40) == [9])
        #expect(wrappedWidths("abcdefgh\tb", width: 40) == [17])
        #expect(wrappedWidths("a\tb", width: 40, options: TextOptions(tabStop: 4)) == [5])
    }

    @Test func aTabBeforeABreakHangs() {
        #expect(wrappedLines("col1\tcol2", width: 6) == ["col1", "col2"])
        #expect(wrappedWidths("col1\tcol2", width: 6) == [4, 4])
    }

    @Test func tabColumnsRestartOnEachLine() {
        #expect(wrappedWidths("xx\ty\nz\tw", width: 40) == [9, 9])
        // The tab after "bbbbbb" sits at column 6 of its own line, so it advances to 8, not 16.
        #expect(wrappedWidths("aaaa bbbbbb\tc", width: 9) == [4, 9])
        #expect(wrappedWidths("aaaa bbbbbb\tc", width: 8) == [4, 6, 1])
    }

    @Test func controlsMeasureAsTheirVisibleForm() {
        #expect(wrappedWidths("a\u{1B}b", width: 40) == [4])  // a ^[ b
        #expect(wrappedWidths("x\u{202E}y", width: 40) == [7])  // x <RLO> y
        #expect(wrappedWidths("\u{9B}", width: 40) == [4])  // <9B>
    }

    @Test func breaksFollowUAX14NotJustSpaces() {
        #expect(wrappedLines("well-known", width: 6) == ["well-", "known"])
        #expect(wrappedLines("(hello)", width: 3) == ["(he", "llo", ")"])
        #expect(wrappedLines("price: $100.00 total", width: 14) == ["price: $100.00", "total"])
    }

    @Test func noBreakBeforeClosingPunctuationAfterASpace() {
        // LB13: "word !" has no break opportunity, so it moves as one piece...
        #expect(wrappedLines("go word !", width: 6) == ["go", "word !"])
        // ...and is force-broken at graphemes only when it cannot fit on a line at all.
        #expect(wrappedLines("word !", width: 5) == ["word ", "!"])
    }

    @Test func leadingSpacesAreKeptOnTheirLine() {
        #expect(wrappedLines("  hi", width: 10) == ["  hi"])
        #expect(wrappedWidths("  hi", width: 10) == [4])
    }

    @Test func widestLineIsReported() {
        let layout = wrap("a bb ccc\ndddd", width: 40)
        #expect(layout.widestLine == 8)
        #expect(layout.lineCount == 2)
    }

    @Test func zeroOrNegativeWidthActsAsOne() {
        #expect(wrappedLines("ab", width: 0) == ["a", "b"])
        #expect(wrappedLines("ab", width: -3) == ["a", "b"])
    }
}
