import BubbleSamples
import Testing
@testable import BubbleText

@Suite struct CellWidthTests {
    // MARK: The rule over every code point

    /// Recomputes each scalar's width from the UCD files by the rule on `CellWidth`, for both
    /// ambiguous widths, and compares it with `CellWidth.ofScalar`. East_Asian_Width is Unicode
    /// 17.0's for the code points 15.0 assigns, as terminals draw them (Tools/fetch-ucd-17.sh):
    /// 188 symbols Unicode 16 made Wide, U+4DC0–4DFF among them, are 2 cells.
    @Test func everyCodePointMeasuresAsEastAsianWidthAndTheRuleSay() throws {
        let corpus = "ucd/"
        guard let laterEastAsian = UCDPropertyValues("ucd-17.0/EastAsianWidth.txt", systemPath: nil),
              let eastAsian = UCDPropertyValues(corpus + "DerivedEastAsianWidth.txt", systemPath: "extracted/DerivedEastAsianWidth.txt"),
              let categories = UCDPropertyValues(corpus + "DerivedGeneralCategory.txt", systemPath: "extracted/DerivedGeneralCategory.txt"),
              let graphemes = UCDPropertyValues(corpus + "GraphemeBreakProperty.txt", systemPath: "auxiliary/GraphemeBreakProperty.txt"),
              let lineBreaks = UCDPropertyValues(corpus + "DerivedLineBreak.txt", systemPath: "extracted/DerivedLineBreak.txt"),
              let ignorable = UCDPropertyValues.binary(corpus + "DerivedCoreProperties.txt", systemPath: "DerivedCoreProperties.txt",
                                                       property: "Default_Ignorable_Code_Point"),
              let bidiControl = UCDPropertyValues.binary(corpus + "PropList.txt", systemPath: "PropList.txt", property: "Bidi_Control"),
              let presentation = UCDPropertyValues.binary(corpus + "emoji-data.txt", systemPath: "emoji/emoji-data.txt",
                                                          property: "Emoji_Presentation"),
              let pictographic = UCDPropertyValues.binary(corpus + "emoji-data.txt", systemPath: "emoji/emoji-data.txt",
                                                          property: "Extended_Pictographic") else {
            Issue.record("a UCD file is in neither Corpora/unicode/ucd nor /usr/share/unicode")
            return
        }
        let longNames = ["Neutral": "N", "Wide": "W", "Ambiguous": "A", "Fullwidth": "F", "Halfwidth": "H", "Narrow": "Na"]
        let narrow = TextOptions(ambiguousWidth: 1)
        let wide = TextOptions(ambiguousWidth: 2)
        var mismatches = 0
        var counts = [0, 0, 0]
        var widenedLater = 0
        for cp in 0..<0x110000 {
            let gc = categories.values[cp] ?? "Cn"
            let earlier = eastAsian.values[cp].map { longNames[String($0)] ?? String($0) } ?? "N"
            let ea = gc == "Cn" ? earlier : laterEastAsian.values[cp].map(String.init) ?? "N"
            if ["W", "F"].contains(ea) && !["W", "F"].contains(earlier) { widenedLater += 1 }
            let gcb = graphemes.values[cp] ?? "Other"
            let lb = lineBreaks.values[cp] ?? ""
            let isLayout = cp == 0x09 || ["BK", "CR", "LF", "NL"].contains(lb)
            let expected: (Int, Int)
            if (gc == "Cc" && !isLayout) || bidiControl[cp] {
                let visible = ControlNotation.visibleWidth(of: UInt32(cp))
                expected = (visible, visible)
            } else if gcb == "Extend" || gcb == "ZWJ" || gcb == "SpacingMark" {
                expected = (0, 0)  // alone it has nothing to modify, and is not drawn
            } else if gc == "Mn" || gc == "Me" || (ignorable[cp] && cp != 0xAD) || gcb == "V" || gcb == "T" || isLayout {
                expected = (0, 0)
            } else if presentation[cp] || ea == "W" || ea == "F" || (pictographic[cp] && gc == "Cn") {
                expected = (2, 2)
            } else if ea == "A" {
                expected = (1, 2)
            } else {
                expected = (1, 1)
            }
            let actual = (CellWidth.ofScalar(UInt32(cp), options: narrow), CellWidth.ofScalar(UInt32(cp), options: wide))
            if actual != expected {
                mismatches += 1
                if mismatches <= 10 { Issue.record("U+\(String(cp, radix: 16)): expected \(expected), got \(actual)") }
            }
            if expected.0 <= 2 { counts[expected.0] += 1 }
        }
        #expect(mismatches == 0)
        #expect(counts.allSatisfy { $0 > 1000 })  // the files really were read
        #expect(widenedLater == 188)
    }

    // MARK: Units

    @Test func hangulSyllablesMeasureTwoWhetherPrecomposedOrBuiltFromJamo() {
        #expect(CellWidth.of("\u{AC00}") == 2)
        #expect(CellWidth.of("\u{1100}\u{1161}") == 2)
        #expect(CellWidth.of("\u{1100}\u{1161}\u{11A8}") == 2)
        #expect(CellWidth.of("\u{1100}\u{1161}\u{11A8}\u{1100}\u{1161}") == 4)
        #expect(CellWidth.of("한국어") == 6)
        #expect(CellWidth.of("\u{FFA1}") == 1)  // halfwidth jamo
    }

    @Test func combiningMarksAddNothing() {
        #expect(CellWidth.of("e\u{301}") == 1)
        #expect(CellWidth.of("e\u{301}\u{323}\u{20DD}") == 1)
        #expect(CellWidth.of("\u{301}") == 0)
        #expect(CellWidth.of("a\u{200C}b\u{200D}c") == 3)
        #expect(CellWidth.of("\u{0915}\u{093F}") == 1)  // consonant + spacing vowel sign: one grapheme, one cell
    }

    @Test func cjkAndFullwidthAreTwoHalfwidthIsOne() {
        #expect(CellWidth.of("日本語") == 6)
        #expect(CellWidth.of("Ａ") == 2)
        #expect(CellWidth.of("ｱ") == 1)
        #expect(CellWidth.of("中a文") == 5)
    }

    @Test func ambiguousCharactersFollowTheOption() {
        let wide = TextOptions(ambiguousWidth: 2)
        #expect(CellWidth.of("αβ…") == 3)
        #expect(CellWidth.of("αβ…", options: wide) == 6)
        #expect(CellWidth.of("e\u{301}", options: wide) == 1)  // U+0301 is Ambiguous but a mark
        #expect(CellWidth.of("\u{E000}", options: wide) == 2)  // private use is Ambiguous
    }

    @Test func controlsMeasureAsTheirVisibleForm() {
        #expect(CellWidth.of("\u{1B}") == 2)  // ^[
        #expect(CellWidth.of("\u{7F}") == 2)  // ^?
        #expect(CellWidth.of("\u{9B}") == 4)  // <9B>
        #expect(CellWidth.of("a\u{202E}b") == 7)  // a<RLO>b
        #expect(CellWidth.of("\u{200F}") == 5)  // <RLM>
        #expect(CellWidth.of("\u{1B}\u{301}") == 2)  // a mark after a control is its own zero-width grapheme
    }

    @Test func tabsAdvanceToTheNextStopAndLineBreaksMeasureNothing() {
        #expect(CellWidth.of("\t") == 8)
        #expect(CellWidth.of("a\tb") == 9)
        #expect(CellWidth.of("abcdefgh\t") == 16)
        #expect(CellWidth.of("日\t", options: TextOptions(tabStop: 4)) == 4)
        #expect(CellWidth.of("a\nb\r\nc\u{85}d\u{2028}") == 4)
    }

    // MARK: Properties

    /// On random strings, the streaming accumulator agrees with measuring each grapheme alone,
    /// and a text's width is the sum of its graphemes' widths.
    @Test func widthOfATextIsTheSumOfItsGraphemes() {
        var random = SeededGenerator(seed: 0xB0B_B1E5)
        let pool: [UInt32] = [0x41, 0x301, 0x200D, 0xFE0F, 0x20E3, 0x23, 0x1F1EF, 0x1F1F5, 0x1F468, 0x1F3FD, 0x2764,
                              0x1100, 0x1161, 0x11A8, 0xAC00, 0x4E00, 0x3B1, 0x1B, 0x202E, 0x0600, 0x0915, 0x094D, 0x093F,
                              0xE0067, 0x1FAE9, 0x20, 0xA, 0xD, 0xFF21]
        for _ in 0..<2000 {
            let length = Int.random(in: 1...10, using: &random)
            var text = ""
            for _ in 0..<length {
                text.unicodeScalars.append(Unicode.Scalar(pool[Int.random(in: 0..<pool.count, using: &random)])!)
            }
            for options in [TextOptions(ambiguousWidth: 1), TextOptions(ambiguousWidth: 2)] {
                let bounds = graphemeBoundaries(of: text)
                let utf8 = Array(text.utf8)
                var sum = 0
                for index in 0..<(bounds.count - 1) {
                    let grapheme = String(decoding: utf8[bounds[index]..<bounds[index + 1]], as: UTF8.self)
                    let width = CellWidth.ofGrapheme(grapheme.unicodeScalars, options: options)
                    #expect((0...5).contains(width))
                    sum += width
                }
                #expect(CellWidth.of(text, options: options) == sum, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            }
        }
    }

    /// Issue 15: an extender with no visible scalar before it in its grapheme (after a control,
    /// a line break or at the start) is not drawn and measures nothing; the first visible scalar
    /// after it is the grapheme's base, which VS16 may widen.
    @Test func extendersWithNothingToModifyAreNotDrawnAndMeasureNothing() {
        #expect(drawn("a\u{1B}\u{FE0F}b") == [0x61, 0x1B, 0x62])
        #expect(CellWidth.of("a\u{1B}\u{FE0F}b") == 4)
        #expect(drawn("\u{85}\u{FE0F}") == [0x85])
        #expect(drawn("\u{FE0F}\u{301}\u{200D}") == [])
        #expect(CellWidth.of("\u{FE0F}\u{301}\u{200D}") == 0)
        #expect(drawn("e\u{301}\u{FE0F}") == [0x65, 0x301, 0xFE0F])
        #expect(drawn(" \u{FE0F}") == [0x20, 0xFE0F])
        // A spacing extender (Bengali AA) after a lone mark has nothing to modify either: a
        // grapheme-clustering terminal joins all three to what is before them.
        #expect(drawn("\u{301}\u{9BE}\u{FE0F}") == [])
        #expect(CellWidth.ofGrapheme("\u{301}\u{9BE}\u{FE0F}".unicodeScalars) == 0)
    }

    /// Issue 15, the renderer fuzzer's finding (Corpora/findings/render-wide-extender-at-line-start.jsonl):
    /// U+302E HANGUL SINGLE DOT TONE MARK, grapheme Extend and East Asian Wide, opened a text.
    /// Measured alone it took 2 cells, but drawn after a bubble's padding it joins the space
    /// (GB9), so the line measured a cell narrower than drawn. Under `unicode` every Extend, ZWJ
    /// and SpacingMark scalar that starts a grapheme (a text's start, after a control or a line
    /// break) is not drawn and measures nothing, whatever its width alone; under `wcwidth` one
    /// with cells of its own is drawn in them, as tmux 3.3a draws it (cursor after `〮t` at 3,
    /// after `a〮t` at 4, after `│ 〮t` at 5). Inside a grapheme nothing changes.
    @Test func extendersThatTakeCellsAreNotDrawnWhereTheyStartAGrapheme() throws {
        let graphemes = try #require(UCDPropertyValues("ucd/GraphemeBreakProperty.txt", systemPath: "auxiliary/GraphemeBreakProperty.txt"))
        let unicode = TextOptions(), wcwidth = TextOptions(widthProfile: .wcwidth)
        var wide: [UInt32] = []
        for value in 0..<0x110000 {
            let property = graphemes.values[value] ?? "Other"
            let info = UnicodeTables.info(UInt32(value))
            let attaching = property == "Extend" || property == "ZWJ" || property == "SpacingMark"
            #expect(info.attachesToPrevious == attaching, "U+\(String(value, radix: 16)) \(property)")
            if property == "Extend" && (info.width > 0
                                        || CellWidth.ofScalar(UInt32(value), options: wcwidth) > 0) {
                wide.append(UInt32(value))
            }
        }
        // The spacing Other_Grapheme_Extend marks (U+09BE…, U+302E/F, U+1D165…), the halfwidth
        // voiced sound marks and the skin-tone modifiers.
        for value: UInt32 in [0x9BE, 0x1B35, 0x302E, 0x302F, 0xFF9E, 0xFF9F, 0x1D165, 0x1F3FB, 0x1F3FF] {
            #expect(wide.contains(value), "U+\(String(value, radix: 16))")
        }
        #expect(wide.count == 35, "\(wide.map { String($0, radix: 16) })")
        for value in wide {
            let mark = String(Unicode.Scalar(value)!)
            let name = "U+\(String(value, radix: 16))"
            let alone = CellWidth.ofGrapheme(("a" + mark).unicodeScalars, options: unicode) // its cells on a base
            let perCodePoint = CellWidth.ofScalar(value, options: wcwidth)
            for text in [mark + "t", "\u{1B}" + mark + "t", "\u{301}" + mark + "t", mark + mark + "\u{FE0F}t"] {
                let ahead = text.hasPrefix("\u{1B}") ? 2 : 0
                #expect(drawn(text, unicode) == (ahead > 0 ? [0x1B, 0x74] : [0x74]), "\(name) \(text.debugDescription)")
                #expect(CellWidth.of(text, options: unicode) == ahead + 1, "\(name) \(text.debugDescription)")
                #expect(PreparedText(text, options: unicode).naturalWidth == ahead + 1, "\(name) \(text.debugDescription)")
            }
            #expect(CellWidth.of("a\n" + mark + "t", options: unicode) == 2, "\(name)")
            #expect(drawn(mark + "t", wcwidth) == (perCodePoint > 0 ? [value, 0x74] : [0x74]), "\(name)")
            #expect(CellWidth.of(mark + "t", options: wcwidth) == perCodePoint + 1, "\(name)")
            #expect(PreparedText(mark + "t", options: wcwidth).naturalWidth == perCodePoint + 1, "\(name)")
            // Inside a word each profile counts as before: the widest scalar, or every scalar.
            #expect(drawn("a" + mark + "t", unicode) == [0x61, value, 0x74], "\(name)")
            #expect(alone == max(1, UnicodeTables.info(value).isEmojiPresentation ? 2 : UnicodeTables.info(value).width), "\(name)")
            #expect(CellWidth.of("a" + mark + "t", options: unicode) == alone + 1, "\(name)")
            #expect(PreparedText("a" + mark + "t", options: unicode).naturalWidth == alone + 1, "\(name)")
            #expect(CellWidth.of("a" + mark + "t", options: wcwidth) == 2 + perCodePoint, "\(name)")
        }
        // A spacing mark that starts a grapheme joins what is before it too (GB9a).
        #expect(drawn("\u{93F}t", unicode) == [0x74])
        #expect(CellWidth.of("\u{93F}t", options: unicode) == 1)
        #expect(drawn("\u{93F}t", wcwidth) == [0x93F, 0x74])
        // After a Prepend scalar it is part of its grapheme and keeps its cells.
        #expect(drawn("\u{600}\u{93F}", unicode) == [0x600, 0x93F])
        #expect(CellWidth.of("\u{600}\u{93F}", options: unicode) == 2)
        // What tmux 3.3a drew (`display -p '#{cursor_x}'` after printing each text).
        for (text, cells) in [("\u{302E}t", 3), ("a\u{302E}t", 4), ("^[\u{302E}t", 5), ("\u{2502} \u{302E}t", 5),
                              ("\u{2502} \u{1F3FD}t", 5), ("\u{2502} \u{9BE}t", 4), ("a\u{9BE}t", 3), ("\u{2502} \u{FF9E}t", 4)] {
            #expect(CellWidth.of(text, options: wcwidth) == cells, "\(text.debugDescription)")
        }
    }

    /// Found by the renderer fuzzer (issue 15): U+00AD SOFT HYPHEN is default-ignorable, but
    /// terminals draw it as a hyphen in a cell (glibc's wcwidth says 1), so measured as 0 it
    /// pushed a bubble's right border one cell out. Reproducer: a bubble holding "hotel, \u{AD}".
    @Test func softHyphenTakesTheCellTerminalsDrawItIn() {
        #expect(CellWidth.ofScalar(0xAD) == 1)
        #expect(CellWidth.of("hotel, \u{AD}") == 8)
        #expect(PreparedText("Silben\u{AD}trennung").naturalWidth == 15)
        // Ambiguous (East Asian Width A): two cells where ambiguous characters take two.
        #expect(CellWidth.ofScalar(0xAD, options: TextOptions(ambiguousWidth: 2)) == 2)
    }

    /// Found by the renderer fuzzer (issue 15, Corpora/findings/render-prepended-concatenation-mark.jsonl):
    /// a Prepended_Concatenation_Mark (U+0600 ARABIC NUMBER SIGN …, read from PropList.txt) joins
    /// the scalar after it into one grapheme (GB9b), and the grapheme measured as its widest
    /// scalar, one cell; glibc's wcwidth gives the mark 1 and tmux 3.3a draws it in a cell of its
    /// own with the next scalar in the next cell, so a full line holding one was a cell too wide.
    /// The figures below are tmux's cursor column after printing each text (`display -p
    /// '#{cursor_x}'`): "\u{600}b" 2, "\u{600}\u{600}b" 3, "\u{600}\u{301}b" 2, "\u{600}😀" 3,
    /// "\u{600}一" 3, "\u{D4E}b" 2, "\u{110BD}b" 2.
    @Test func prependedScalarsTakeTheCellTerminalsDrawThemIn() throws {
        let marks = try #require(UCDPropertyValues.binary("ucd/PropList.txt", systemPath: "PropList.txt",
                                                          property: "Prepended_Concatenation_Mark"))
        let values = (0..<0x110000).filter { marks[$0] }
        #expect(values.count == 13)  // U+0600–0605, 06DD, 070F, 0890–0891, 08E2, 110BD, 110CD
        let tmux: [(String, Int)] = [("\u{600}b", 2), ("\u{600}\u{600}b", 3), ("\u{600}\u{301}b", 2),
                                     ("\u{600}😀", 3), ("\u{600}一", 3), ("\u{D4E}b", 2), ("\u{110BD}b", 2)]
        for profile in [WidthProfile.unicode, .wcwidth] {
            let options = TextOptions(widthProfile: profile)
            for value in values {
                let mark = String(Unicode.Scalar(UInt32(value))!)
                #expect(CellWidth.ofScalar(UInt32(value), options: options) == 1, "U+\(String(value, radix: 16)) \(profile)")
                let text = "a" + mark + "b"
                #expect(CellWidth.of(text, options: options) == 3, "U+\(String(value, radix: 16)) \(profile)")
                #expect(PreparedText(text, options: options).naturalWidth == 3, "U+\(String(value, radix: 16)) \(profile)")
                // Two marks and a number, as U+0601 ARABIC SIGN SANAH is written before a year.
                let year = mark + mark + "1445"
                #expect(CellWidth.of(year, options: options) == 6, "U+\(String(value, radix: 16)) \(profile)")
                #expect(PreparedText(year, options: options).naturalWidth == 6, "U+\(String(value, radix: 16)) \(profile)")
            }
            for (text, cells) in tmux {
                #expect(CellWidth.of(text, options: options) == cells, "\(text.debugDescription) \(profile)")
                #expect(PreparedText(text, options: options).naturalWidth == cells, "\(text.debugDescription) \(profile)")
            }
        }
        // Still one grapheme: a line never breaks between the marks and the digit they join, and
        // a line holding that grapheme alone is as wide as it is drawn.
        let lines = PreparedText("\u{600}\u{600}1445").layout(width: 1).lines
        #expect(lines.first?.utf8Range.upperBound ?? 0 >= 5, "\(lines)")
        #expect(lines.map(\.width).reduce(0, +) == 6, "\(lines)")
    }

    /// Issue 15, the renderer fuzzer's `wcwidth` ZWJ findings: tmux 3.3a joins the first
    /// non-ASCII scalar written after a ZWJ to the cell before, past ASCII and line ends. Under
    /// `wcwidth` a ZWJ is drawn, and joins, only inside its grapheme (the scalar after it there
    /// is non-ASCII and wraps and moves with it); one that ends its grapheme is not drawn and the
    /// next grapheme keeps its cells. (tmux's own count of the drawn lines: `TmuxViewerTests`.)
    @Test func wcwidthJoinersJoinOnlyInsideTheirGrapheme() {
        let wcwidth = TextOptions(widthProfile: .wcwidth)
        /// The scalars drawn, as `SafeText` keeps them, and the cells measured.
        func drawn(_ text: String, _ options: TextOptions = wcwidth) -> (String, Int) {
            var breaker = GraphemeBreaker()
            var grapheme = GraphemeWidth(options: options)
            var out = String.UnicodeScalarView()
            var kept = String.UnicodeScalarView()
            var cells = 0
            var started = false
            for scalar in text.unicodeScalars {
                let info = UnicodeTables.info(scalar.value)
                let starts = breaker.breaksBefore(info)
                if starts && started {
                    if grapheme.endsInJoiner { while kept.last == "\u{200D}" { kept.removeLast() } }
                    out.append(contentsOf: kept)
                    kept = String.UnicodeScalarView()
                    cells += grapheme.width
                }
                if grapheme.draws(scalar.value, info, startsGrapheme: starts) { kept.append(scalar) }
                if starts { grapheme.start(scalar.value, info) } else { grapheme.extend(scalar.value, info) }
                started = true
            }
            if started {
                if grapheme.endsInJoiner { while kept.last == "\u{200D}" { kept.removeLast() } }
                out.append(contentsOf: kept)
                cells += grapheme.width
            }
            #expect(cells == CellWidth.of(text, options: options), "\(text.debugDescription)")
            return (String(out), cells)
        }
        // Emoji ZWJ sequences keep their joiners and measure as tmux draws them (cursor after
        // each in tmux 3.3a: 👩‍💻 2, 🏳️‍🌈 1, 👩🏽‍💻 4, 😀‍◌́ 2).
        #expect(drawn("\u{1F469}\u{200D}\u{1F4BB}") == ("\u{1F469}\u{200D}\u{1F4BB}", 2))
        #expect(drawn("\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}") == ("\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}", 1))
        #expect(drawn("\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}") == ("\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}", 4))
        #expect(drawn("\u{1F600}\u{200D}\u{301}x") == ("\u{1F600}\u{200D}\u{301}x", 3))
        // A ZWJ before ASCII, before a scalar of another grapheme, at the end, after a
        // control's visible form or at the start: not drawn, and what follows keeps its cells.
        #expect(drawn("a\u{200D} b\u{2502}") == ("a b\u{2502}", 4))
        #expect(drawn("a\u{200D}\u{E9}") == ("a\u{E9}", 2))
        #expect(drawn("\u{4E00}\u{200D}\u{4E00}") == ("\u{4E00}\u{4E00}", 4))
        #expect(drawn("\u{1F600}\u{200D}\u{200D}\u{1F600}") == ("\u{1F600}\u{1F600}", 4))
        #expect(drawn("ok\u{1F44D}\u{200D}") == ("ok\u{1F44D}", 4))
        #expect(drawn("\u{1B}\u{200D}\u{1F600}") == ("\u{1B}\u{1F600}", 4))
        #expect(drawn("\u{200D}r \u{631}") == ("r \u{631}", 3))
        // A ZWJ whose base glibc does not know (🫨, new in Unicode 15: 0 cells) modifies nothing.
        #expect(drawn("\u{1FAE8}\u{200D}\u{1F600}") == ("\u{1FAE8}\u{1F600}", 2))
        // `unicode` is unchanged: ZWJs are drawn, and a grapheme is its widest scalar.
        #expect(drawn("a\u{200D}\u{E9}", TextOptions()) == ("a\u{200D}\u{E9}", 2))

        // The findings' texts: every line measures as its text alone does (so as drawn), at every
        // width; the 🍁 that ended a line of its own measured 0 (the ZWJ's join, far back).
        let texts = ["Autumn \u{200D} are best in November, but October is nice too \u{1F341}",
                     "\u{200D}r works for me. \u{631}\u{645}\u{636}\u{627}\u{646} is long over by then \u{1F604}"]
        for text in texts {
            let prepared = PreparedText(text, options: wcwidth)
            #expect(prepared.naturalWidth == CellWidth.of(text, options: wcwidth))
            for width in 1...60 {
                for line in prepared.layout(width: width).lines {
                    let slice = String(decoding: Array(text.utf8)[line.utf8Range], as: UTF8.self)
                    #expect(line.width == CellWidth.of(slice, options: wcwidth), "\(slice.debugDescription) at \(width)")
                }
            }
        }
        let leaf = PreparedText(texts[0], options: wcwidth).layout(width: 1).lines.last
        #expect(leaf?.width == 2)
        #expect(CellWidth.of(texts[1], options: wcwidth) == CellWidth.of(String(texts[1].dropFirst()), options: wcwidth))
    }
}

/// The scalars of `text` that `GraphemeWidth.draws` keeps, read grapheme by grapheme as the
/// engine reads them.
private func drawn(_ text: String, _ options: TextOptions = TextOptions()) -> [UInt32] {
    var breaker = GraphemeBreaker()
    var grapheme = GraphemeWidth(options: options)
    var kept: [UInt32] = []
    for scalar in text.unicodeScalars {
        let info = UnicodeTables.info(scalar.value)
        let starts = breaker.breaksBefore(info)
        if grapheme.draws(scalar.value, info, startsGrapheme: starts) { kept.append(scalar.value) }
        if starts { grapheme.start(scalar.value, info) } else { grapheme.extend(scalar.value, info) }
    }
    return kept
}
