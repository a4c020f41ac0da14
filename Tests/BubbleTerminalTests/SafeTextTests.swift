import BubbleSamples
import BubbleTestSupport
import BubbleText
import Testing
@testable import BubbleTerminal

@Suite struct SafeTextTests {
    let safe = SafeText(options: TextOptions(), sgr: SGR(depth: .none), ellipsis: "…")

    @Test func textThatFitsIsDrawnWhole() {
        let drawn = safe.draw("héllo 世界", limit: 10)
        #expect(drawn.text == "héllo 世界")
        #expect(drawn.width == 10)
    }

    @Test func truncationCutsAtGraphemeBoundariesAndEndsWithAnEllipsis() {
        #expect(safe.draw("abcdef", limit: 4).text == "abc…")
        // A ZWJ family is one grapheme: never split, dropped whole when it does not fit.
        #expect(safe.draw("ab👨‍👩‍👧‍👦cd", limit: 4).text == "ab…")
        #expect(safe.draw("ab👨‍👩‍👧‍👦cd", limit: 5).text == "ab👨‍👩‍👧‍👦…")
        // A wide character that would overhang is left out, so the result can be narrower.
        let drawn = safe.draw("世界世界", limit: 4)
        #expect(drawn.text == "世…")
        #expect(drawn.width == 3)
        // e + combining acute stays together.
        #expect(safe.draw("e\u{301}e\u{301}e\u{301}", limit: 2).text == "e\u{301}…")
    }

    @Test func roomNarrowerThanTheEllipsisGetsDots() {
        let ascii = SafeText(options: TextOptions(), sgr: SGR(depth: .none), ellipsis: "...")
        #expect(ascii.draw("abcdef", limit: 2).text == "..")
        #expect(ascii.draw("abcdef", limit: 5).text == "ab...")
        #expect(safe.draw("abc", limit: 0).text == "")
    }

    @Test func controlsAreDrawnInTheirVisibleFormAndCutInsideIt() {
        #expect(safe.draw("a\u{1B}[2Jb", limit: 20).text == "a^[[2Jb")
        #expect(safe.draw("x\u{202E}y", limit: 20).text == "x<RLO>y")
        #expect(safe.draw("x\u{202E}y", limit: 4).text == "x<R…")
        #expect(safe.draw("\r\n", limit: 20).text == "^M^J")
        #expect(safe.draw("\u{85}\u{2028}\u{2029}\u{9B}", limit: 20).text == "<85><LS><PS><9B>")
        #expect(safe.width(of: "a\u{1B}\u{202E}") == 1 + 2 + 5)
    }

    @Test func tabsExpandToTheEnginesTabStops() {
        #expect(safe.draw("a\tb", limit: 20).text == "a       b")
        let four = SafeText(options: TextOptions(tabStop: 4), sgr: SGR(depth: .none), ellipsis: "…")
        #expect(four.draw("ab\tc\td", limit: 20).text == "ab  c   d")
        #expect(four.draw("ab\tcdef", limit: 5).text == "ab  …")
    }

    @Test func reverseVideoMarksVisibleFormsWhenColourIsOn() {
        let coloured = SafeText(options: TextOptions(), sgr: SGR(depth: .palette256), ellipsis: "…")
        #expect(coloured.draw("a\u{7}\u{7}b", limit: 20).text == "a\u{1B}[7m^G^G\u{1B}[0mb")
        #expect(coloured.draw("a\u{7}b", limit: 20, style: .dim).text
                == "\u{1B}[2ma\u{1B}[0m\u{1B}[7m^G\u{1B}[0m\u{1B}[2mb\u{1B}[0m")
    }

    @Test func emojiModifiersAndVariationSelectorsPassIntact() {
        for text in ["👍🏽", "❤️", "🏳️‍🌈", "1️⃣", "🧑🏻‍🤝‍🧑🏾"] {
            let drawn = safe.draw(text, limit: 2)
            #expect(Array(drawn.text.utf8) == Array(text.utf8))
            #expect(drawn.width == 2)
        }
    }

    /// Found by the renderer fuzzer (issue 15): a variation selector or mark after a control was
    /// drawn raw after its visible form, so `^[` + VS16 showed two cells wider on screen than
    /// measured. An extender with nothing to modify is not drawn and measures nothing.
    @Test func extendersAfterAControlOrLineBreakAreNotDrawn() {
        let cases: [(String, String)] = [
            ("a\u{1B}\u{FE0F}b", "a^[b"),
            ("x\u{7}\u{FE0F}x\u{7}\u{FE0F}", "x^Gx^G"),
            ("\u{85}\u{FE0F}x", "<85>x"),
            ("\u{FE0F}x", "x"),
            ("\u{1B}\u{301}\u{200D}\u{E0061}y", "^[y"),
            ("\r\n\u{FE0E}z", "^M^Jz"),
        ]
        for (text, expected) in cases {
            let drawn = safe.draw(text, limit: 40)
            #expect(drawn.text == expected, "\(text.debugDescription)")
            // Line breaks are layout to the engine; a single-line field shows them (`<85>`).
            if !text.unicodeScalars.contains(where: { $0 == "\u{85}" || $0 == "\r" }) {
                #expect(drawn.width == CellWidth.of(text), "\(text.debugDescription)")
            }
            #expect(CellWidth.of(drawn.text) == drawn.width, "\(text.debugDescription)")
            #expect(safe.width(of: text) == drawn.width)
        }
        // Under `unicode` an extender that takes cells alone has nothing to modify there either (a
        // grapheme-clustering terminal joins it to what is before it): a skin tone after a lone
        // mark, U+302E HANGUL SINGLE DOT TONE MARK at the start or after a control (issue 15).
        // Under `wcwidth` tmux draws such a scalar in cells of its own, so it stays.
        let wcwidth = SafeText(options: TextOptions(widthProfile: .wcwidth), sgr: SGR(depth: .none), ellipsis: "…")
        for (text, unicodeDrawn, wcwidthDrawn) in [("\u{301}\u{1F3FD}", "", "\u{1F3FD}"), ("\u{302E}t", "t", "\u{302E}t"),
                                                   ("\u{1B}\u{302E}t", "^[t", "^[\u{302E}t"), ("\u{93F}t", "t", "\u{93F}t")] {
            let drawn = safe.draw(text, limit: 8), drawnPerCodePoint = wcwidth.draw(text, limit: 8)
            #expect(drawn.text == unicodeDrawn, "\(text.debugDescription)")
            #expect(drawn.width == CellWidth.of(unicodeDrawn) && drawn.width == CellWidth.of(text), "\(text.debugDescription)")
            #expect(drawnPerCodePoint.text == wcwidthDrawn, "\(text.debugDescription)")
            #expect(drawnPerCodePoint.width == CellWidth.of(text, options: TextOptions(widthProfile: .wcwidth)), "\(text.debugDescription)")
        }
        // Extenders on a base, a space included, are drawn as before.
        for text in ["e\u{301}", "\u{2764}\u{FE0F}", " \u{301}", "a\u{200D}b"] {
            #expect(safe.draw(text, limit: 4).text == text)
        }
    }

    /// The drawn width of every wrapped line equals the width the engine measured for it, which is
    /// why controls are measured by their visible form.
    @Test func drawnTextLinesAreAsWideAsTheEngineMeasured() {
        var generator = TimelineGenerator(random: SeededGenerator(seed: 99))
        for tabStop in [8, 3] {
            let options = TextOptions(ambiguousWidth: 1, tabStop: tabStop)
            let safe = SafeText(options: options, sgr: SGR(depth: .palette256), ellipsis: "…")
            for _ in 0..<300 {
                let text = generator.text() + "\t\u{1B}x\u{9B}\u{202E}\u{0}\u{7F}" + generator.text()
                let prepared = PreparedText(text, options: options)
                for width in [1, 3, 7, 16, 40, 200] {
                    for line in prepared.layout(width: width).lines {
                        let slice = Substring(text.unicodeScalars[
                            text.utf8.index(text.utf8.startIndex, offsetBy: line.utf8Range.lowerBound)
                                ..< text.utf8.index(text.utf8.startIndex, offsetBy: line.utf8Range.upperBound)])
                        let drawn = safe.draw(slice, limit: .max)
                        #expect(drawn.width == line.width, "\(slice.debugDescription) at \(width)")
                        #expect(CellWidth.of(stripSGR(drawn.text), options: options) == line.width,
                                "\(slice.debugDescription) at \(width)")
                    }
                }
            }
        }
    }
}

/// Benign invisible formatting is left out of what is drawn; the rest keeps its label, and
/// nothing raw reaches the terminal (issue 10 §3).
@Suite struct InvisibleFormattingDrawingTests {
    let safe = SafeText(options: TextOptions(), sgr: SGR(depth: .none), ellipsis: "…")

    @Test func whatsAppsPhoneNumbersAndMarksAreDrawnWithoutLabels() {
        let drawn = safe.draw("\u{200E}Call \u{202A}+51 989 383 357\u{202C}", limit: 40)
        #expect(drawn.text == "Call +51 989 383 357")
        #expect(drawn.width == 20)
        #expect(safe.width(of: "\u{200E}~\u{202F}Ana") == 5)
    }

    @Test func hostileFormattingKeepsItsLabelsAndWidthsAgree() {
        for (text, expected) in [("x\u{202E}gnp.exe", "x<RLO>gnp.exe"), ("a\u{202A}b", "a<LRE>b"),
                                 ("a\u{2069}b", "a<PDI>b"), ("\u{2066}a\u{202E}b\u{202C}\u{2069}", "<LRI>a<RLO>b<PDF><PDI>"),
                                 ("\u{200E}\u{202D}x\u{202C}", "<LRO>x<PDF>")] {
            let drawn = safe.draw(text, limit: 80)
            #expect(drawn.text == expected)
            #expect(drawn.width == safe.width(of: text))
            #expect(!drawn.text.unicodeScalars.contains { ControlNotation.isNeutralised($0.value) })
        }
    }
}
