import BubbleLayout
import BubbleSamples
import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal

/// Right-to-left text on screen: visual order, right alignment, Arabic shaping, the same for
/// names, quotes and notices, and widths and heights unchanged.
@Suite struct BidiRenderTests {
    func rendered(_ models: [any MessageModel], width: Int = 40, bidi: BidiMode = .visual,
                  color: ColorDepth = .none) -> [[String]] {
        let engine = LayoutEngine()
        var options = RenderOptions(width: width, colorDepth: color, timeZone: utc)
        options.bidi = bidi
        var renderer = TranscriptRenderer(engine: engine, options: options)
        let rows = try! engine.decorate(models, options: DecorationOptions(timeZone: utc))
        return renderer.render(models, rows: rows)
    }

    func text(_ lines: [[String]]) -> String { lines.flatMap { $0 }.joined(separator: "\n") }

    /// Scalars as a string (presentation forms are easier to write as numbers).
    func scalars(_ values: UInt32...) -> String { String(String.UnicodeScalarView(values.map { Unicode.Scalar($0)! })) }

    @Test func aHebrewMessageReadsRightToLeftAndIsRightAligned() {
        let lines = text(rendered([TextNote(id: "1", text: "שלום 123 abc, מה נשמע?")]))
        // RTL paragraph: numbers and English keep their order, the rest reverses, "?" (level 1)
        // ends up on the far left.
        #expect(lines.contains("│ ?עמשנ המ ,abc 123 םולש │"), "\(lines)")
    }

    /// An image's file name is put in visual order as its caption, names and quotes are (a
    /// tester found `📷 مرحبا.png` left in logical order, its letters unjoined, under the caption
    /// drawn right); logical mode draws it as before, and the box keeps its width.
    @Test func anImageFileNameReadsRightToLeftAsItsCaptionDoes() {
        for name in ["مرحبا.png", "صورة العائلة في الحديقة الكبيرة.jpg", "שלום.jpg"] {
            let image = Picture(id: "1", pixelWidth: 1200, pixelHeight: 900, imageName: name)
            let visual = rendered([image]).flatMap { $0 }.first { $0.contains("📷") } ?? ""
            let logical = rendered([image], bidi: .logical).flatMap { $0 }.first { $0.contains("📷") } ?? ""
            #expect(logical.contains("📷 " + name.prefix(3)), "\(logical)")
            #expect(!visual.contains(String(name.prefix(3))), "\(visual)")
            #expect(visual.contains(" 📷"), "the icon ends the right-to-left line: \(visual)")
            #expect(CellWidth.of(visual) == CellWidth.of(logical), "\(visual) / \(logical)")
        }
        let hebrew = rendered([Picture(id: "1", pixelWidth: 1200, pixelHeight: 900, imageName: "שלום.jpg")]).flatMap { $0 }
        #expect(hebrew.contains { $0.contains("jpg.םולש 📷") }, "\(hebrew)")
    }

    @Test func shorterLinesOfARightToLeftParagraphEndAtTheRightEdge() {
        let lines = rendered([TextNote(id: "1", text: "אחת שתיים שלוש ארבע חמש שש שבע שמונה תשע עשר")], width: 30)
        let bubble = lines.flatMap { $0 }.filter { $0.hasPrefix("│") }
        #expect(bubble.count >= 2)
        // Every content line ends at the same column: one space before the right border.
        for line in bubble { #expect(line.hasSuffix(" │") && !line.hasSuffix("  │"), "\(line)") }
        // And the last line, shorter, is padded on the left.
        #expect(bubble.last!.hasPrefix("│  "))
    }

    @Test func anArabicMessageWithAURLIsShapedAndKeepsTheURL() {
        let lines = text(rendered([TextNote(id: "1", text: "افتح https://example.com/a الآن")], width: 60))
        // الآن reversed: noon isolated, lam-alef-madda isolated, alef; the URL in order; افتح
        // reversed: hah final, teh medial, feh initial, alef. The cell the ligature frees is at
        // the line's left end: the right-to-left line stays against the right border.
        let expected = scalars(0xFEE5, 0xFEF5, 0xFE8D) + " https://example.com/a "
            + scalars(0xFEA2, 0xFE98, 0xFED3, 0xFE8D)
        #expect(lines.contains("│  " + expected + " │"), "\(lines)")
    }

    /// A new user's trial (lam.jsonl): every word with lam followed by alef was drawn as two,
    /// a space in the alef's cell (`ﻡ ﻼﺳ`). The ligature takes one cell and the word is whole;
    /// a lam joined to the letter before it gives its cell to a tatweel (`ﻡﻼـﺳ`), an isolated
    /// ligature's to a tatweel at the nearest joint of its word (`ﻰﻠـﻋﻷﺍ`), so the text still
    /// ends one cell before the right border and every row is as wide as the borders.
    @Test func wordsWithLamAlefAreDrawnWholeAndStayAgainstTheRightBorder() {
        let words: [(text: String, drawn: String)] = [
            // سلام: meem isolated, lam-alef final, a tatweel in the lam's cell, seen initial.
            ("سلام", scalars(0xFEE1, 0xFEFC, 0x640, 0xFEB3)),
            // الأعلى: alef maksura final, lam medial, a tatweel lengthening the ain-lam joint, ain
            // initial, lam-alef-hamza isolated, alef.
            ("الأعلى", scalars(0xFEF0, 0xFEE0, 0x640, 0xFECB, 0xFEF7, 0xFE8D)),
            ("لا لا لا", scalars(0xFEFB, 0x20, 0xFEFB, 0x20, 0xFEFB)),
            // والإمارات (its meem-alef joint lengthened) then فلسطين, each reversed.
            ("فلسطين والإمارات", scalars(0xFE95, 0xFE8D, 0xFEAD, 0xFE8E, 0x640, 0xFEE3, 0xFEF9, 0xFE8D, 0xFEED, 0x20,
                                          0xFEE6, 0xFEF4, 0xFEC4, 0xFEB4, 0xFEE0, 0xFED3)),
        ]
        for (index, word) in words.enumerated() {
            let lines = rendered([TextNote(id: "\(index)", text: word.text)]).flatMap { $0 }
            let content = lines.filter { $0.hasPrefix("│") }
            #expect(content.count == 1, "\(lines)")
            #expect(content.first?.hasSuffix(" " + word.drawn + " │") == true, "\(content)")
            let border = lines.first { $0.hasPrefix("╭") }
            #expect(content.first.map { CellWidth.of($0) } == border.map { CellWidth.of($0) }, "\(lines)")
        }
    }

    /// Left-to-right paragraphs are left-aligned: an isolated ligature's freed cell is at the
    /// line's right end, before the border.
    @Test func inALeftToRightLineTheFreedCellIsAtTheRightEnd() {
        let lines = text(rendered([TextNote(id: "1", text: "Halal options in Osaka? الآن 🙏")], width: 60))
        // الآن reversed: noon isolated, lam-alef-madda isolated, alef.
        #expect(lines.contains("│ Halal options in Osaka? " + scalars(0xFEE5, 0xFEF5, 0xFE8D) + " 🙏  │"), "\(lines)")
    }

    /// An isolated ligature (nothing joins before its lam) lengthens the nearest joint of its
    /// word with its spare cell: `الإمارات` alone in a bubble has one cell of padding on each
    /// side; each ligature takes its own joint; a word with no joint (`لا`) keeps the spare cell
    /// at the line's end, and so does a word whose joints are taken.
    @Test func anIsolatedLamAlefLengthensTheNearestJointOfItsWord() {
        for width in [20, 40, 80] {
            let bubble = rendered([TextNote(id: "1", text: "الإمارات")], width: width).flatMap { $0 }.filter { $0.hasPrefix("│") }
            // Teh, alef, reh, alef final, tatweel, meem initial, lam-alef-hamza-below, alef.
            #expect(bubble == ["│ " + scalars(0xFE95, 0xFE8D, 0xFEAD, 0xFE8E, 0x640, 0xFEE3, 0xFEF9, 0xFE8D) + " │"], "\(bubble)")
        }
        // بالإمارات: beh-alef, the joint nearest the ligature, is lengthened.
        let joined = text(rendered([TextNote(id: "2", text: "مرحبا بالإمارات")], width: 40))
        #expect(joined.contains(scalars(0xFEF9, 0xFE8E, 0x640, 0xFE91)), "\(joined)")
        // Two isolated ligatures and one joint: one tatweel, one spare cell at the line's end.
        let two = text(rendered([TextNote(id: "3", text: "لالم لا")], width: 40))
        #expect(two.unicodeScalars.filter { $0.value == 0x640 }.count == 1, "\(two)")
        #expect(text(rendered([TextNote(id: "4", text: "لا لا")], width: 40)).unicodeScalars.allSatisfy { $0.value != 0x640 })
    }

    /// A lam joined to the letter before it draws its cell as a tatweel, the kashida that
    /// lengthens the joint: no cell is freed, so a bubble holding one such word (the reported
    /// `السلام`) has one cell of padding on each side, and a left-to-right line (the bundled
    /// sample's `حلال`) ends against its border as an unshaped one does.
    @Test func aJoinedLamAlefFillsItsCellsWithATatweelSoThePaddingIsSymmetric() {
        let lines = text(rendered([TextNote(id: "1", text: "Halal options in Osaka? حلال 🙏")], width: 60))
        // حلال reversed: lam isolated, lam-alef final, tatweel, hah initial.
        #expect(lines.contains("│ Halal options in Osaka? " + scalars(0xFEDD, 0xFEFC, 0x640, 0xFEA3) + " 🙏 │"), "\(lines)")
        for width in [20, 40, 80] {
            let bubble = rendered([TextNote(id: "1", text: "السلام")], width: width).flatMap { $0 }.filter { $0.hasPrefix("│") }
            // Alef, lam initial, seen medial, tatweel, lam-alef final, meem isolated; reversed.
            #expect(bubble == ["│ " + scalars(0xFEE1, 0xFEFC, 0x640, 0xFEB4, 0xFEDF, 0xFE8D) + " │"], "\(bubble)")
        }
    }

    /// Marks on the lam (shadda in إلّا) and on the alef (fathatan in أهلاً) are drawn on the
    /// ligature, right after it.
    @Test func marksOnTheLamOrTheAlefAreDrawnOnTheLigature() {
        let lines = text(rendered([TextNote(id: "1", text: "إلّا أهلاً")]))
        let expected = scalars(0xFEFC, 0x64B, 0x640, 0xFEEB, 0xFE83, 0x20, 0xFEFB, 0x651, 0xFE87)
        #expect(lines.contains(" " + expected + " │"), "\(lines.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    /// A name, a reply quote and a notice with lam-alef: whole words, the notice centred as
    /// drawn.
    @Test func lamAlefInNamesQuotesAndNoticesIsDrawnWhole() {
        let models: [any MessageModel] = [
            TextNote(id: "1", senderName: "علاء", date: may1, text: "سلام"),
            TextNote(id: "2", senderName: "Bob", date: may1, replyToID: "1", text: "hi"),
            Notice(id: "3", date: may1, notice: "انضم علاء"),
        ]
        let lines = rendered(models).flatMap { $0 }
        // علاء reversed: hamza (it joins nothing), lam-alef final, tatweel, ain initial.
        let name = scalars(0x621, 0xFEFC, 0x640, 0xFECB)
        #expect(lines.contains(name), "\(lines)")
        #expect(lines.contains { $0.contains(scalars(0xFEE1, 0xFEFC, 0x640, 0xFEB3) + " :" + name + " ↩") }, "\(lines)")
        let notice = lines.first { $0.contains(name + " " + scalars(0xFEE2, 0xFEC0, 0xFEE7, 0xFE8D)) }
        #expect(notice != nil, "\(lines)")
        if let notice {
            // As much air between each rule and what is drawn, give or take one (every
            // character here is one cell).
            let cells = Array(notice)
            let leftRule = cells.firstIndex(of: "─")!, rightRule = cells.lastIndex(of: "─")!
            let leftEnd = cells[leftRule...].firstIndex { $0 != "─" }!
            let rightStart = cells[...rightRule].lastIndex { $0 != "─" }! + 1
            let textStart = cells[leftEnd...].firstIndex { $0 != " " }!
            let textEnd = cells[..<rightStart].lastIndex { $0 != " " }! + 1
            #expect(abs((textStart - leftEnd) - (rightStart - textEnd)) <= 1, "\(notice)")
        }
    }

    @Test func mirroredCharactersAndBracketsInRightToLeftText() {
        let lines = text(rendered([TextNote(id: "1", text: "א < ב (כן) [לא]")]))
        #expect(lines.contains("│ [אל] (ןכ) ב > א │"), "\(lines)")
    }

    @Test func emojiInARightToLeftMessageStayWhole() {
        let lines = text(rendered([TextNote(id: "1", text: "מעולה 👍🏽 נתראה 👨‍👩‍👧")]))
        #expect(lines.contains("👨‍👩‍👧 הארתנ 👍🏽 הלועמ"), "\(lines)")
    }

    @Test func anArabicNoticeIsShapedReorderedAndCentred() {
        let lines = rendered([Notice(id: "1", date: may1, notice: "عمر انضم")], width: 40).flatMap { $0 }
        let expected = scalars(0xFEE2, 0xFEC0, 0xFEE7, 0xFE8D) + " " + scalars(0xFEAE, 0xFEE4, 0xFECB)
        let line = lines.first { $0.contains(expected) }
        #expect(line != nil, "\(lines)")
        // Centred as before: the same place the logical text is drawn.
        let logical = rendered([Notice(id: "1", date: may1, notice: "عمر انضم")], width: 40, bidi: .logical).flatMap { $0 }
        let logicalLine = logical.first { $0.contains("عمر انضم") }
        #expect(line?.firstIndex(of: "─") != nil)
        #expect(line.map { CellWidth.of($0) } == logicalLine.map { CellWidth.of($0) })
    }

    @Test func rightToLeftNamesAndQuotesAreReorderedToo() {
        let models: [any MessageModel] = [
            TextNote(id: "1", senderName: "נועה", text: "שלום"),
            TextNote(id: "2", senderName: "Bob", replyToID: "1", text: "hi"),
        ]
        let lines = text(rendered(models))
        #expect(lines.contains("העונ"))                // the name
        #expect(lines.contains("םולש :העונ ↩"), "\(lines)")  // the quote: its own RTL paragraph
        #expect(!lines.contains("נועה"))
    }

    @Test func colouredRightToLeftTextKeepsItsStylesPerRun() {
        let lines = text(rendered([Notice(id: "1", date: may1, notice: "שלום \u{1B}x")], color: .palette256))
        // The visible form of ESC keeps reverse video after moving; every run is reset.
        #expect(lines.contains("\u{1B}[7m^[\u{1B}[0m"), "\(lines.debugDescription)")
        #expect(unsafeOutput(lines, colorOn: true).isEmpty)
    }

    @Test func logicalModeDrawsTheTextAsStored() {
        let lines = text(rendered([TextNote(id: "1", text: "שלום 123 abc")], bidi: .logical))
        #expect(lines.contains("│ שלום 123 abc │"))
    }

    @Test func noBidiControlReachesTheTerminalInVisualMode() {
        let models: [any MessageModel] = [
            TextNote(id: "1", senderName: "\u{202E}evil\u{2067}", text: "\u{202B}שלום\u{202C} \u{2068}abc\u{2069} \u{200F}x\u{061C}"),
            Notice(id: "2", date: may1, notice: "\u{202E}مرحبا\u{2066}"),
        ]
        for width in [5, 20, 60] {
            for color in [ColorDepth.none, .trueColor] {
                let output = text(rendered(models, width: width, color: color))
                #expect(unsafeOutput(output, colorOn: color != .none).isEmpty, "\(output.debugDescription)")
            }
        }
    }

    /// The render-versus-layout contract over timelines made mostly of right-to-left text:
    /// every row draws its height, every line fits and measures what the engine measured.
    @Test func rightToLeftTimelinesKeepTheRenderContract() throws {
        var random = SeededGenerator(seed: 0x51DE)
        let pieces = ["שלום", "עולם", "مرحبا", "بالعالم", "السلام عليكم", "لا", "لأ", "سلام", "پیام", "abc", "123",
                      "٤٥٦", "(", ")", "[x]", "«", "»", "<", ">", "👍🏽", "👨‍👩‍👧", "https://example.com/x?y=1", "\t",
                      "\u{200F}", "\u{202E}", "\u{2067}", "\u{2069}", "ﷺ", "\n", "   ", "e\u{301}", "\u{64E}"]
        var models: [any MessageModel] = []
        for i in 0..<120 {
            let text = (0..<Int.random(in: 1...16, using: &random)).map { _ in
                pieces.randomElement(using: &random)! + (Bool.random(using: &random) ? " " : "")
            }.joined()
            switch i % 4 {
            case 0: models.append(Notice(id: "m\(i)", date: may1, notice: text))
            case 1: models.append(TextNote(id: "m\(i)", senderName: "נועה", direction: .outgoing, date: may1, text: text))
            default: models.append(TextNote(id: "m\(i)", senderName: ["عمر", "Bob", "נועה"][i % 3], date: may1,
                                            replyToID: i > 2 ? "m\(i - 2)" : nil, text: text))
            }
        }
        let engine = LayoutEngine()
        for width in [1, 3, 8, 17, 40, 80] {
            for color in [ColorDepth.none, .palette256] {
                let visual = try render(models, width: width, color: color, engine: engine)
                var options = RenderOptions(width: width, colorDepth: color, timeZone: utc)
                options.bidi = .logical
                var logicalRenderer = TranscriptRenderer(engine: engine, options: options)
                for (r, lines) in visual.lines.enumerated() {
                    #expect(lines.count == visual.layouts[r].height)
                    let row = visual.rows[r]
                    let logical = logicalRenderer.lines(for: row, model: row.isDateSeparator ? nil : models[row.messageIndex],
                                                        layout: visual.layouts[r])
                    #expect(logical.count == lines.count)
                    for (line, logicalLine) in zip(lines, logical) {
                        let drawn = CellWidth.of(stripSGR(line))
                        #expect(drawn <= width, "\(line.debugDescription)")
                        // Reordering moves characters within a line: a bubble's row takes the
                        // same cells from border to border (outside bubbles, right alignment moves
                        // a line, so only the fit above is compared).
                        let plain = stripSGR(line), logicalPlain = stripSGR(logicalLine)
                        if plain.hasSuffix("│"), logicalPlain.hasSuffix("│") {
                            #expect(drawn == CellWidth.of(logicalPlain), "\(line.debugDescription) vs \(logicalLine.debugDescription)")
                        }
                        // A reordered line never ends in blanks (logical quotes may, as before).
                        if line != logicalLine {
                            #expect(line.unicodeScalars.last != " ", "\(line.debugDescription)")
                        }
                    }
                }
                #expect(unsafeOutput(visual.text, colorOn: color != .none).isEmpty)
            }
        }
    }

    /// The renderer fuzzer's finding (issue 15): a right-to-left line mirrored `≓` (U+2253,
    /// Neutral) to `≒` (U+2252, East Asian Ambiguous), two cells with `--ambiguous-wide`, and
    /// ran a cell past its border. Every scalar with a Bidi_Mirroring_Glyph, inside a Hebrew
    /// sentence, under each width profile and both ambiguous widths: each bubble line is as wide
    /// as the bubble's top border, and the glyph is mirrored exactly where the pair is as wide.
    @Test func aMirroredGlyphIsDrawnOnlyWhereItIsAsWideAsMeasured() {
        let mirrored = (UInt32(0x21)...0x10FFFF).compactMap { value in BidiTables.mirror(of: value).map { (value, $0) } }
        #expect(mirrored.count > 400)
        let wideAmbiguous = TextOptions(ambiguousWidth: 2)
        #expect(mirrored.contains { CellWidth.ofScalar($0.0, options: wideAmbiguous) != CellWidth.ofScalar($0.1, options: wideAmbiguous) },
                "some pairs differ in width (≓ and ≒)")
        for profile in WidthProfile.allCases {
            for ambiguous in [1, 2] {
                let textOptions = TextOptions(ambiguousWidth: ambiguous, widthProfile: profile)
                let engine = LayoutEngine(textOptions: textOptions)
                let models: [any MessageModel] = mirrored.map { pair in
                    TextNote(id: "m\(pair.0)", text: "שלום \(Unicode.Scalar(pair.0)!) עולם")
                }
                var renderer = TranscriptRenderer(engine: engine, options: RenderOptions(width: 30, colorDepth: .none, timeZone: utc))
                let rows = try! engine.decorate(models, options: DecorationOptions(timeZone: utc))
                for (row, lines) in zip(rows, renderer.render(models, rows: rows)) where !row.isDateSeparator {
                    let pair = mirrored[row.messageIndex]
                    guard let top = lines.firstIndex(where: { $0.hasPrefix("╭") || $0.hasPrefix("+") }) else {
                        Issue.record("no bubble for U+\(String(pair.0, radix: 16))")
                        continue
                    }
                    let edge = CellWidth.of(lines[top], options: textOptions)
                    for line in lines[(top + 1)..<(lines.count - 1)] {
                        #expect(CellWidth.of(line, options: textOptions) == edge,
                                "\(profile), ambiguous \(ambiguous): U+\(String(pair.0, radix: 16)): \(line.debugDescription)")
                    }
                    let drawn = lines[top + 1].unicodeScalars.map(\.value)
                    let sameWidth = CellWidth.ofScalar(pair.0, options: textOptions) == CellWidth.ofScalar(pair.1, options: textOptions)
                    #expect(drawn.contains(sameWidth ? pair.1 : pair.0),
                            "\(profile), ambiguous \(ambiguous): U+\(String(pair.0, radix: 16)): \(lines[top + 1].debugDescription)")
                }
            }
        }
    }
}
