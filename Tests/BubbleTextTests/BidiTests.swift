import BubbleSamples
import Testing
@testable import BubbleText

/// Lines in visual order, Arabic shaping and the preparer's right-to-left flag. The expected
/// orders here are worked out by hand from UAX #9's rules (each test says how); the algorithm
/// itself is checked against Unicode's files in BidiConformanceTests.
@Suite struct BidiTests {
    /// `text` as one paragraph, its only line in visual order, as a string.
    func visual(_ text: String, _ direction: BidiDirection = .auto) -> String {
        let paragraph = BidiParagraph(scalars: text.unicodeScalars.map(\.value), direction: direction)
        var out = String.UnicodeScalarView()
        for grapheme in paragraph.visualGraphemes(in: 0..<paragraph.scalars.count) {
            for position in grapheme.range {
                var value = paragraph.scalars[position]
                if position == grapheme.range.lowerBound && grapheme.level & 1 == 1 { value = BidiTables.mirror(of: value) ?? value }
                out.append(Unicode.Scalar(value)!)
            }
        }
        return String(out)
    }

    @Test func hebrewInsideEnglishKeepsItsNumberToItsRight() {
        // LTR paragraph; "123" follows R (W7 leaves it EN, level 2) and the space between is R
        // (N1: R and a number on both sides), so "שלום 123" reverses as one run of level ≥ 1.
        #expect(visual("I said שלום 123 to her") == "I said 123 םולש to her")
    }

    @Test func englishAndNumbersInsideHebrewReadLeftToRight() {
        // RTL paragraph (first strong is R): "123" and "abc" are level 2 and keep their order;
        // the line as a whole reverses.
        #expect(visual("שלום 123 abc") == "abc 123 םולש")
        #expect(visual("שלום 123 abc").unicodeScalars.count == "שלום 123 abc".unicodeScalars.count)
    }

    @Test func bracketsPairAndMirrorInRightToLeftText() {
        // N0: the pair holds strong R, the embedding direction: both brackets are R, level 1;
        // reversed, then mirrored by L4.
        #expect(visual("שלום (עולם)") == "(םלוע) םולש")
        #expect(visual("א < ב") == "ב > א")
        #expect(visual("«ציטוט» [כן]") == "[ןכ] «טוטיצ»")
    }

    @Test func bracketsAroundEnglishInHebrewStayWithTheirText() {
        // The pair holds only L, opposite to the embedding; the context before the opener is R,
        // so the brackets are R (N0 c.2) and the English inside keeps its order.
        #expect(visual("כתוב (hello) כאן") == "ןאכ (hello) בותכ")
    }

    @Test func aURLInArabicStaysWholeAndInOrder() {
        // Inside the URL the separators sit between L letters (N1: L), so it is one level-2 run.
        let line = visual("افتح https://example.com/a?b=1 الآن")
        #expect(line.contains("https://example.com/a?b=1"))
        #expect(line.hasPrefix("ن"))  // the last Arabic letter is on the far left
    }

    @Test func emojiGraphemesMoveWhole() {
        // The emoji with its skin tone is one grapheme: it moves, its scalars keep their order.
        #expect(visual("מעולה 👍🏽 נתראה") == "הארתנ 👍🏽 הלועמ")
        #expect(visual("אבא 👨‍👩‍👧 כאן") == "ןאכ 👨‍👩‍👧 אבא")
    }

    @Test func explicitDirectionOverridesTheFirstStrongCharacter() {
        #expect(visual("abc אב", .rightToLeft) == "בא abc")
        #expect(BidiParagraph(scalars: Array("abc".unicodeScalars.map(\.value)), direction: .rightToLeft).isRightToLeft)
        #expect(BidiParagraph.direction(of: "123 שלום".unicodeScalars) == .rightToLeft)
        #expect(BidiParagraph.direction(of: "\u{2067}שלום\u{2069} ok".unicodeScalars) == .leftToRight)  // P2 skips isolates
        #expect(BidiParagraph.direction(of: "123 !?".unicodeScalars) == nil)
    }

    @Test func trailingWhitespaceGoesToTheParagraphLevel() {
        // L1: the trailing spaces of an RTL line are level 1 like the paragraph, so they end up on
        // the left; in an LTR paragraph after Hebrew they stay on the right.
        #expect(visual("שלום  ") == "  םולש")
        #expect(visual("ok שלום  ") == "ok םולש  ")
    }

    /// Reordering a line is a permutation of its graphemes: nothing lost, nothing twice, and
    /// each grapheme intact, over random mixed-direction texts broken into random lines.
    @Test func reorderingIsAPermutationOfTheLinesGraphemes() {
        let pieces = ["שלום", "עולם", "مرحبا", "بالعالم", "abc", "Hello", "123", "٤٥٦", " ", "  ", "(", ")", "[", "]",
                      "«", "»", "<", ">", "-", ",", ".", ":", "/", "$", "%", "+", "👍🏽", "👨‍👩‍👧", "e\u{301}",
                      "\u{5B4}", "\u{64B}", "\u{200D}", "\u{AD}", "\t", "\u{2067}", "\u{2069}", "\u{202B}", "\u{202C}",
                      "\u{200F}", "ﷺ", "ﻻ", "你好", "x"]
        var random = SeededGenerator(seed: 0xB1D1)
        let resolver = BidiResolver()
        var lines = 0
        for _ in 0..<2000 {
            let count = Int.random(in: 1...24, using: &random)
            let text = (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
            let scalars = text.unicodeScalars.map(\.value)
            let direction = [BidiDirection.auto, .leftToRight, .rightToLeft].randomElement(using: &random)!
            let paragraph = BidiParagraph(scalars: scalars, direction: direction, resolver: resolver)
            var start = 0
            while start < scalars.count {
                let end = min(scalars.count, start + Int.random(in: 1...12, using: &random))
                let visual = paragraph.visualGraphemes(in: start..<end)
                // The logical graphemes of the line, found independently.
                var logical: [Range<Int>] = []
                var breaker = GraphemeBreaker()
                for position in start..<end {
                    if breaker.breaksBefore(UnicodeTables.info(scalars[position])) {
                        logical.append(position..<(position + 1))
                    } else {
                        logical[logical.count - 1] = logical[logical.count - 1].lowerBound..<(position + 1)
                    }
                }
                #expect(visual.map(\.range).sorted { $0.lowerBound < $1.lowerBound } == logical, "\(text.debugDescription) \(start)..<\(end)")
                lines += 1
                start = end
            }
        }
        #expect(lines > 2000)
    }

    @Test func arabicLettersTakeTheirContextualForms() {
        func shaped(_ text: String) -> [UInt32] {
            var scalars = text.unicodeScalars.map(\.value)
            ArabicShaping.shape(&scalars)
            return scalars
        }
        // عمر: ain initial, meem medial (reh joins back), reh final.
        #expect(shaped("عمر") == [0xFECB, 0xFEE4, 0xFEAE])
        // افتح: alef never joins forward, so feh starts: initial, medial, final.
        #expect(shaped("افتح") == [0xFE8D, 0xFED3, 0xFE98, 0xFEA2])
        // A letter alone, and one after a space, are isolated.
        #expect(shaped("ب ب") == [0xFE8F, 0x20, 0xFE8F])
        // Marks are transparent: beh with a fatha still joins the teh after it.
        #expect(shaped("بَت") == [0xFE91, 0x64E, 0xFE96])
        // Tatweel (join-causing) makes the letters around it join it.
        #expect(shaped("بـب") == [0xFE91, 0x640, 0xFE90])
        // Persian peh has forms only in Forms-A.
        #expect(shaped("پپ") == [0xFB58, 0xFB57])
        // Hebrew and Latin are left alone.
        #expect(shaped("שלום abc") == "שלום abc".unicodeScalars.map(\.value))
    }

    @Test func lamAlefBecomesOneLigatureInTheAlefsPlaceAndTheLamATatweelOrNothing() {
        func shaped(_ text: String) -> [UInt32] {
            var scalars = text.unicodeScalars.map(\.value)
            ArabicShaping.shape(&scalars)
            return scalars
        }
        let lam = ArabicShaping.ligated
        #expect(shaped("لا") == [lam, 0xFEFB])                       // isolated lam-alef
        // Final lam-alef after seen: the lam joined to it lengthens the joint (tatweel).
        #expect(shaped("سلام") == [0xFEB3, 0x640, 0xFEFC, 0xFEE1])
        #expect(shaped("الآن") == [0xFE8D, lam, 0xFEF5, 0xFEE5])     // lam with alef madda
        #expect(shaped("لأ") == [lam, 0xFEF7])
        #expect(shaped("لإ") == [lam, 0xFEF9])
        // Marks: the lam's (shadda in إلّا) and the alef's (fathatan in أهلاً) stay where they
        // are; the ligature is drawn with both.
        #expect(shaped("إلّا") == [0xFE87, lam, 0x651, 0xFEFB])
        #expect(shaped("أهلاً") == [0xFE83, 0xFEEB, 0x640, 0xFEFC, 0x64B])
        // Joints a tatweel may lengthen: letter pairs only, a ligature's own joint not counted.
        var scalars = "الإمارات".unicodeScalars.map(\.value), joints: [Bool] = []
        ArabicShaping.shape(&scalars, joints: &joints)
        #expect(joints.indices.filter { joints[$0] } == [4])  // the alef after meem
        scalars = "ل\u{200D}ا ملا".unicodeScalars.map(\.value)
        ArabicShaping.shape(&scalars, joints: &joints)
        #expect(joints.indices.filter { joints[$0] } == [])  // after a ZWJ: no letter pair
        // A joined lam with a mark of its own keeps it on the ligature: no tatweel to carry it.
        #expect(shaped("فلّا") == [0xFED3, lam, 0x651, 0xFEFC])
        #expect(shaped("لَاً") == [lam, 0x64E, 0xFEFB, 0x64B])
        // The letter after the alef starts afresh: alef never joins forward.
        #expect(shaped("لاب") == [lam, 0xFEFB, 0xFE8F])
        // ZWNJ between them asks for no joining, ZWJ for joining without the ligature.
        #expect(shaped("ل\u{200C}ا") == [0xFEDD, 0x200C, 0xFE8D])
        #expect(shaped("ل\u{200D}ا") == [0xFEDF, 0x200D, 0xFE8E])
        // A lam ending a line and an alef starting the next are shaped apart: no ligature.
        #expect(shaped("سل") == [0xFEB3, 0xFEDE])
        #expect(shaped("ام") == [0xFE8D, 0xFEE1])
        // Cells: every other form is one cell like its letter, the tatweel too; an isolated
        // ligature draws two letters' cells as one (U+FEF5–FEFC are one cell wide).
        for (text, count) in [("سلام", 0), ("الآن", 1), ("مرحبا بالعالم", 0), ("لا لا لا", 3), ("پیام", 0),
                              ("فلسطين والإمارات", 1), ("أهلاً", 0), ("السلام عليكم", 0), ("فلّا", 1)] {
            var scalars = text.unicodeScalars.map(\.value)
            ArabicShaping.shape(&scalars)
            #expect(scalars.filter { $0 == lam }.count == count, "\(text)")
            let drawn = String(String.UnicodeScalarView(scalars.filter { $0 != lam }.map { Unicode.Scalar($0)! }))
            #expect(CellWidth.of(drawn) == CellWidth.of(text) - count, "\(text)")
        }
    }

    @Test func textsThatMayHoldRightToLeftCharactersAreFound() {
        #expect(!PreparedText("hello, world").mayContainRightToLeft)
        #expect(!PreparedText("Привет, 你好, 👋🏽, café — naïve").mayContainRightToLeft)
        #expect(PreparedText("ok שלום").mayContainRightToLeft)
        #expect(PreparedText("مرحبا").mayContainRightToLeft)
        #expect(PreparedText("see \u{200F}this").mayContainRightToLeft)  // RLM
        #expect(PreparedText("\u{202E}x").mayContainRightToLeft)          // RLO
        #expect(PreparedText("ﻻ").mayContainRightToLeft)                 // presentation form
        #expect(PreparedText("𐤀").mayContainRightToLeft)                 // Phoenician, beyond the BMP
        // Every R, AL and AN scalar in the tables is flagged, and the UTF-8 scan agrees with the
        // scalar test on each of them.
        for scalar in UInt32(0)...0x10FFFF where !(0xD800...0xDFFF).contains(scalar) {
            let bidiClass = BidiTables.properties(scalar).bidiClass
            guard bidiClass == .r || bidiClass == .al || bidiClass == .an else { continue }
            #expect(BidiTables.mayBeRightToLeft(scalar))
            let text = String(Unicode.Scalar(scalar)!)
            // Alone, and inside longer text at several offsets (read eight bytes at a time).
            #expect(BidiTables.mayContainRightToLeft(text))
            #expect(BidiTables.mayContainRightToLeft("abc" + text + "defghijklm"))
            #expect(BidiTables.mayContainRightToLeft("你好abcdefg" + text + "你好"))
        }
        // Texts without: every other scalar of a few scripts, in words of eight bytes and more.
        for text in ["Привет мир, как дела сегодня?", "今日は本当にありがとうございました。", "สวัสดีครับ วันนี้อากาศดีมาก",
                     "Ελληνικά κείμενα εδώ", "नमस्ते दुनिया", "😀😂🤣 that's hilarious 👨‍👩‍👧‍👦", "ＡＢＣ１２３ｆｕｌｌ"] {
            #expect(!BidiTables.mayContainRightToLeft(text), "\(text)")
        }
    }
}
