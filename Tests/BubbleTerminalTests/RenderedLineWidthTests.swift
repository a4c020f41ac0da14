import BubbleLayout
import BubbleLogs
import BubbleText
import BubbleTestSupport
import Foundation
import Testing
@testable import BubbleTerminal
#if canImport(Glibc)
import Glibc

/// glibc's wcwidth (wchar_t is 32-bit on Linux), which the Glibc module does not export.
@_silgen_name("wcwidth") private func wcwidth(_ character: Int32) -> Int32
#endif

/// Every line the renderer draws, counted as real terminals count cells (glibc's `wcwidth` per
/// code point, tmux's joins after a ZWJ, Ghostty's clusters, a grapheme-clustering terminal's
/// clusters), ends on its bubble's border and fits the width: the renderer fuzzer's findings
/// (Corpora/findings) and the scripts and marks they stand for, at every width and profile.
@Suite struct RenderedLineWidthTests {
    #if canImport(Glibc)
    /// The renderer fuzzer's finding (issue 15), the input it saved
    /// (Corpora/findings/render-prepended-concatenation-mark.jsonl, UTF-16 with U+0600 ARABIC
    /// NUMBER SIGN in its texts): every content line of a bubble ends on its right border counted
    /// by glibc's `wcwidth`, one code point at a time, as terminals draw it, at every width and
    /// under both per-code-point-like profiles (`ghostty` counted as Ghostty clusters,
    /// `ghosttyCells`). The mark measured 0 beside its number and was drawn in a cell.
    @Test func prependedConcatenationMarksAreDrawnAsWideAsMeasured() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpora/findings/render-prepended-concatenation-mark.jsonl").path
        let reader = try LogSource.open(path: path, format: .jsonl, options: LogReadOptions(timeZone: utc))
        let models: [any MessageModel] = reader.compactMap { $0.record }
        #expect(models.count > 5)
        #expect(models.contains { (($0 as? any TextMessageModel)?.text ?? "").unicodeScalars.contains("\u{600}") })
        // wcwidth reads the thread's locale; C.UTF-8 is built into glibc since 2.35.
        guard let locale = UTF8Locale() else { return }
        defer { locale.restore() }
        for profile in WidthProfile.allCases {
            let engine = LayoutEngine(textOptions: TextOptions(widthProfile: profile))
            for width in 1...100 {
                let timeline = try render(models, width: width, engine: engine)
                if profile == .ghostty {
                    #expect(checkSidedLines(timeline, options: TextOptions(widthProfile: profile)) == 0, "ghostty width \(width)")
                    continue
                }
                for (r, lines) in timeline.lines.enumerated() {
                    let layout = timeline.layouts[r]
                    guard !timeline.rows[r].isDateSeparator, layout.alignment != .center,
                          layout.parts.contains(.sideBorders), layout.bubbleWidth >= 2 else { continue }
                    let start = layout.spacingAbove + (layout.parts.contains(.nameLine) ? 1 : 0) + (layout.parts.contains(.topBorder) ? 1 : 0)
                    let count = (layout.parts.contains(.replyQuote) ? 1 : 0) + layout.imageRows + layout.textLines
                    for line in lines[start..<min(lines.count, start + count)] {
                        // A code point glibc does not know (the damaged texts hold unassigned
                        // ones) has no width there: such a line is only checked not to overflow.
                        let (cells, complete) = glibcCells(line, emojiPresentation: profile == .unicode)
                        let edge = layout.x + layout.bubbleWidth
                        #expect(complete ? cells == edge : cells <= edge,
                                "\(profile) width \(width) row \(r): \(cells) cells by wcwidth, the border is at \(edge): \(line.debugDescription)")
                    }
                }
            }
        }
    }

    /// The renderer fuzzer's `wcwidth` ZWJ findings (issue 15), the inputs it saved
    /// (Corpora/findings/render-wcwidth-zwj-join-across-lines.jsonl, where a ZWJ after a space
    /// made a 🍁 lines later measure 0, and render-wcwidth-zwj-join-past-ascii.jsonl, where a ZWJ
    /// opening a text, not drawn, made an Arabic letter past ASCII words measure 0): at every
    /// width, the whole output counted as tmux 3.3a draws it (glibc's `wcwidth` per code point,
    /// and the first non-ASCII scalar written after a ZWJ joined to the cell before, however far
    /// after it: past ASCII and into the next lines) puts every content line's end on its right
    /// border, and no line leaves a join pending for the next.
    @Test func wcwidthJoinersNeverReachPastTheirLine() throws {
        let findings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpora/findings")
        guard let locale = UTF8Locale() else { return }
        defer { locale.restore() }
        let engine = LayoutEngine(textOptions: TextOptions(widthProfile: .wcwidth))
        for name in ["render-wcwidth-zwj-join-across-lines.jsonl", "render-wcwidth-zwj-join-past-ascii.jsonl"] {
            let reader = try LogSource.open(path: findings.appendingPathComponent(name).path, format: .jsonl,
                                            options: LogReadOptions(timeZone: utc))
            let models: [any MessageModel] = reader.compactMap { $0.record }
            #expect(models.contains { (($0 as? any TextMessageModel)?.text ?? "").unicodeScalars.contains("\u{200D}") })
            for width in 1...100 {
                let timeline = try render(models, width: width, engine: engine)
                var pending = false
                for (r, lines) in timeline.lines.enumerated() {
                    let layout = timeline.layouts[r]
                    let sided = !timeline.rows[r].isDateSeparator && layout.alignment != .center
                        && layout.parts.contains(.sideBorders) && layout.bubbleWidth >= 2
                    let start = layout.spacingAbove + (layout.parts.contains(.nameLine) ? 1 : 0) + (layout.parts.contains(.topBorder) ? 1 : 0)
                    let count = (layout.parts.contains(.replyQuote) ? 1 : 0) + layout.imageRows + layout.textLines
                    for (number, line) in lines.enumerated() {
                        let (cells, complete) = tmuxCells(stripSGR(line), pending: &pending)
                        #expect(!pending, "\(name) width \(width) row \(r): a ZWJ left pending: \(line.debugDescription)")
                        pending = false
                        guard sided, (start..<(start + count)).contains(number) else { continue }
                        let edge = layout.x + layout.bubbleWidth
                        #expect(complete ? cells == edge : cells <= edge,
                                "\(name) width \(width) row \(r): \(cells) cells in tmux, the border is at \(edge): \(line.debugDescription)")
                    }
                }
            }
        }
    }

    /// The renderer fuzzer's finding (issue 15), the input it saved
    /// (Corpora/findings/render-mirror-wider-than-measured.jsonl, UTF-16: an Arabic text
    /// holding `≓`, which a right-to-left line mirrors to `≒`, East Asian Ambiguous where `≓` is
    /// not): with ambiguous characters 2 cells wide, every content line ends on its right border
    /// at every width, by the engine's measure of the drawn line and as the grapheme-clustering
    /// profiles' terminals count it.
    @Test func mirroredGlyphsKeepTheirLineOnItsBorder() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpora/findings/render-mirror-wider-than-measured.jsonl").path
        let reader = try LogSource.open(path: path, format: .jsonl, options: LogReadOptions(timeZone: utc))
        let models: [any MessageModel] = reader.compactMap { $0.record }
        #expect(models.contains { (($0 as? any TextMessageModel)?.text ?? "").unicodeScalars.contains("\u{2253}") })
        guard let locale = UTF8Locale() else { return }
        defer { locale.restore() }
        for profile in [WidthProfile.unicode, .ghostty] {
            for ambiguous in [1, 2] {
                let options = TextOptions(ambiguousWidth: ambiguous, widthProfile: profile)
                let engine = LayoutEngine(textOptions: options)
                for width in 1...100 {
                    let timeline = try render(models, width: width, engine: engine)
                    #expect(checkSidedLines(timeline, options: options) == 0, "\(profile) ambiguous \(ambiguous) width \(width)")
                }
            }
        }
    }

    /// The renderer fuzzer's finding (issue 15), the input it saved
    /// (Corpora/findings/render-wide-extender-at-line-start.jsonl: a text `〮t`, U+302E HANGUL
    /// SINGLE DOT TONE MARK being grapheme Extend and East Asian Wide): the layout measured the
    /// mark as the text's first grapheme, 2 cells, and drew it after the bubble's padding, where a
    /// grapheme-clustering terminal joins it to the space. At every width and under both
    /// profiles, every content line ends on its right border, by the engine's measure of the
    /// drawn line and by glibc's `wcwidth` (per code point under `wcwidth`, per cluster under
    /// `unicode`); under `unicode` the mark is not drawn, under `wcwidth` it is, in the 2 cells
    /// tmux 3.3a gives it.
    @Test func wideExtenderAtALinesStartIsDrawnAsWideAsMeasured() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpora/findings/render-wide-extender-at-line-start.jsonl").path
        let reader = try LogSource.open(path: path, format: .jsonl, options: LogReadOptions(timeZone: utc))
        let models: [any MessageModel] = reader.compactMap { $0.record }
        #expect(models.count == 1)
        #expect(models.contains { (($0 as? any TextMessageModel)?.text ?? "") == "\u{302E}t" })
        guard let locale = UTF8Locale() else { return }
        defer { locale.restore() }
        for profile in WidthProfile.allCases {
            let options = TextOptions(widthProfile: profile)
            let engine = LayoutEngine(textOptions: options)
            for width in 1...100 {
                let timeline = try render(models, width: width, engine: engine)
                #expect(checkSidedLines(timeline, options: options) == 0,
                        "\(profile) width \(width)")
                let drawsMark = timeline.text.unicodeScalars.contains("\u{302E}")
                #expect(profile != .wcwidth ? !drawsMark : drawsMark || width < 20, "\(profile) width \(width)")
            }
        }
    }

    /// Every grapheme Extend scalar that takes cells alone in either profile (from the UCD file:
    /// the spacing Other_Grapheme_Extend marks, U+302E/F, the halfwidth voiced sound marks, the
    /// skin-tone modifiers), and every SpacingMark, which GB9a joins the same way: at a text's
    /// start, after a space, after a control, after a line break and inside a word, at several
    /// widths, under both profiles, every content line ends on its right border by the engine's
    /// measure of the drawn line, and as the profile's terminals draw it: per code point by
    /// glibc's `wcwidth` under `wcwidth`, per grapheme cluster (its widest scalar) under `unicode`.
    @Test func extendersThatTakeCellsAreDrawnAsWideAsMeasuredEverywhere() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpora/unicode/ucd/GraphemeBreakProperty.txt")
        let text = try (try? String(contentsOf: file, encoding: .utf8))
            ?? String(contentsOfFile: "/usr/share/unicode/auxiliary/GraphemeBreakProperty.txt", encoding: .utf8)
        var scalars: [UInt32] = []
        for line in text.split(separator: "\n") {
            let fields = line.prefix { $0 != "#" }.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 2, fields[1] == "Extend" || fields[1] == "SpacingMark" else { continue }
            let range = fields[0].components(separatedBy: "..")
            guard let first = UInt32(range[0], radix: 16), let last = UInt32(range.last!, radix: 16) else { continue }
            for value in first...last where fields[1] == "SpacingMark" || UnicodeTables.info(value).width > 0
                || CellWidth.ofScalar(value, options: TextOptions(widthProfile: .wcwidth)) > 0 {
                scalars.append(value)
            }
        }
        for value: UInt32 in [0x302E, 0x302F, 0x9BE, 0xFF9E, 0x1F3FB, 0x1F3FF, 0x93F] {
            #expect(scalars.contains(value), "U+\(String(value, radix: 16))")
        }
        #expect(scalars.count > 400)
        // Per scalar: at the start, after a control, after a line break; after a space and
        // inside a word (joined to a visible base).
        var models: [any MessageModel] = []
        for value in scalars {
            let mark = String(Unicode.Scalar(value)!)
            for (index, text) in [mark + "t", "a\u{1B}" + mark + "t", "a\n" + mark + "t", "a " + mark + "t", "a" + mark + "t"].enumerated() {
                models.append(TextNote(id: "\(String(value, radix: 16))-\(index)", text: text))
            }
        }
        guard let locale = UTF8Locale() else { return }
        defer { locale.restore() }
        for profile in WidthProfile.allCases {
            let options = TextOptions(widthProfile: profile)
            let engine = LayoutEngine(textOptions: options)
            for width in [3, 7, 30] {
                let timeline = try render(models, width: width, engine: engine)
                let failures = checkSidedLines(timeline, options: options)
                #expect(failures == 0, "\(profile) width \(width)")
            }
        }
    }

    /// The renderer fuzzer's `unicode` findings (issue 15), the inputs it saved
    /// (Corpora/findings/render-unicode-spacing-mark.jsonl: U+0C01 TELUGU SIGN CANDRABINDU, a
    /// spacing mark, after a Thai letter; render-unicode-leading-jamo-run.jsonl: U+1111 six times,
    /// one grapheme by L × L). The `unicode` profile promises what a grapheme-clustering terminal
    /// draws: a cluster in the cells of its widest scalar, spacing marks and further L jamo adding
    /// nothing. At every width from 1 to 100, every line drawn under `unicode`, counted per
    /// cluster as the standard library segments it with glibc's `wcwidth` for each scalar
    /// (`clusterCells`), is as wide as the engine measures it and no wider than the width; under
    /// `wcwidth` every line counted per code point, as tmux 3.3a draws it, fits the width and
    /// every content line ends on its border.
    @Test func spacingMarksAndJamoRunsAreDrawnInTheCellsOfTheirCluster() throws {
        try checkClusterCounts(finding: "render-unicode-spacing-mark.jsonl", holding: Unicode.Scalar(0x0C01)!)
        try checkClusterCounts(finding: "render-unicode-leading-jamo-run.jsonl", holding: Unicode.Scalar(0x1111)!)
    }

    /// A text of `😀`, ZWJ and `★` (U+2605, Extended_Pictographic but not an emoji) repeated
    /// (Corpora/findings/render-unicode-pictograph-after-zwj.jsonl, written by hand): Unicode
    /// 15.0 joins each triple into one cluster (GB11) and the engine measures it 2 cells, while
    /// Swift 6.3's `Character`s split `★` off. The renderer harness counted the split clusters
    /// (`88 cells by wcwidth > 82`) until it joined them again as 15.0 does; the counts here do
    /// the same, and must equal the engine's under `unicode` at every width.
    @Test func pictographsAfterAnEmojiAndZWJAreCountedInTheirCluster() throws {
        try checkClusterCounts(finding: "render-unicode-pictograph-after-zwj.jsonl", holding: Unicode.Scalar(0x2605)!)
    }

    /// The renderer fuzzer's finding of 23 Nov 2026 (issue 15; Corpora/findings/
    /// render-unicode16-wide-hexagram.jsonl, written by hand after its input): Yijing hexagrams
    /// (U+4DC0–4DFF) among CJK ideographs. Unicode 15.0 calls them Neutral and the engine measured
    /// them 1 cell, but Unicode 16 made them Wide, and glibc's `wcwidth`, Ghostty's terminal core
    /// (GhosttyProfileTests.everyAssignedCodePointMeasuresWhatGhosttysTerminalCoreDraws) and the
    /// grapheme-clustering terminals on Unicode 16 draw them in 2: the bubble's border went one
    /// cell past the width (`15 cells by wcwidth > 14`). Every profile now counts 2, at every width.
    @Test func yijingHexagramsAreDrawnInTwoCells() throws {
        try checkClusterCounts(finding: "render-unicode16-wide-hexagram.jsonl", holding: Unicode.Scalar(0x4DE5)!)
    }

    /// Renders the saved input `finding` (whose texts hold `scalar`) at widths 1–100 under both
    /// profiles: under `unicode` every line's cluster count equals the engine's measure and fits
    /// the width; under `wcwidth` the per-code-point count fits and each content line ends on its
    /// border.
    private func checkClusterCounts(finding name: String, holding scalar: Unicode.Scalar) throws {
        let findings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpora/findings")
        guard let locale = UTF8Locale() else { return }
        defer { locale.restore() }
        let reader = try LogSource.open(path: findings.appendingPathComponent(name).path, format: .jsonl,
                                        options: LogReadOptions(timeZone: utc))
        let models: [any MessageModel] = reader.compactMap { $0.record }
        #expect(models.contains { (($0 as? any TextMessageModel)?.text ?? "").unicodeScalars.contains(scalar) }, "\(name)")
        for profile in WidthProfile.allCases {
            let options = TextOptions(widthProfile: profile)
            let engine = LayoutEngine(textOptions: options)
            var failures = 0
            for width in 1...100 where failures < 10 {
                let timeline = try render(models, width: width, engine: engine)
                if profile == .wcwidth {
                    failures += checkSidedLines(timeline, options: options)
                }
                for lines in timeline.lines {
                    for line in lines {
                        let plain = stripSGR(line)
                        let measured = CellWidth.of(plain, options: options)
                        let counted = profile == .unicode ? clusterCells(plain, ambiguousWidth: 1).cells
                            : profile == .ghostty ? ghosttyCells(plain, ambiguousWidth: 1).cells
                            : glibcCells(plain, emojiPresentation: false).cells
                        let fits = counted <= width && measured <= width
                        if !fits || (profile != .wcwidth && counted != measured) {
                            failures += 1
                            Issue.record("\(name) \(profile) width \(width): \(counted) cells counted, \(measured) by the engine: \(line.debugDescription)")
                        }
                    }
                }
            }
            #expect(failures == 0, "\(name) \(profile)")
        }
    }

    /// Hindi, Bengali, Tamil, Thai, Korean (precomposed and in jamo), emoji sequences, skin tones
    /// after bases and after other pictographs, keycaps with and without VS16, flags and VS15,
    /// under `ghostty` at every width from 1 to 80: every content line ends on its right border
    /// by the engine's measure of the drawn line and as Ghostty counts it (`ghosttyCells`), and
    /// no line is wider than the width by either.
    @Test func ghosttyLinesEndOnTheirBorderAsGhosttyCountsThem() throws {
        let texts = ["नमस्ते दुनिया, क्षत्रिय स्त्री की किताब और विद्यार्थियों का स्वागत है",
                     "কক্ষ বাংলা ভাষায় স্বাগতম, ক্ষমা করো",
                     "தமிழ் க்ஷேத்திரம் வணக்கம் கொள்கை",
                     "สวัสดีครับ น้ำใจ กำลัง",
                     "한국어 \u{1100}\u{1161}\u{11A8}\u{1100}\u{1100} 안녕하세요",
                     "👨‍👩‍👧 ❤️‍🔥 ❤\u{200D}🔥 👍🏽 🚀🏽 a🏽 #️⃣ #\u{20E3} 🇫🇷🇩🇪 ⌚\u{FE0E} ☀️ ☀ ✌🏽",
                     "mixed का कि and क्षि with ASCII words and 中文 and ─── ؀١٢"]
        let models: [any MessageModel] = texts.enumerated().map { TextNote(id: "g\($0)", text: $1) }
        guard let locale = UTF8Locale() else { return }
        defer { locale.restore() }
        // The count parts from the `unicode` one where Ghostty does.
        for (text, cells) in [("का", 2), ("क्षि", 2), ("🚀🏽", 4), ("#\u{20E3}", 1), ("⌚\u{FE0E}", 1), ("؀一", 2)] {
            #expect(ghosttyCells(text, ambiguousWidth: 1).cells == cells, "\(text)")
        }
        let options = TextOptions(widthProfile: .ghostty)
        let engine = LayoutEngine(textOptions: options)
        var failures = 0
        for width in 1...80 where failures == 0 {
            let timeline = try render(models, width: width, engine: engine)
            failures += checkSidedLines(timeline, options: options)
            for line in timeline.lines.joined() {
                let plain = stripSGR(line)
                let counted = ghosttyCells(plain, ambiguousWidth: 1).cells
                if counted > width || CellWidth.of(plain, options: options) > width {
                    failures += 1
                    Issue.record("width \(width): \(counted) cells as Ghostty counts: \(line.debugDescription)")
                }
            }
        }
        #expect(failures == 0)
    }

    /// The independent counts lean on the standard library's `Character` segmentation (Unicode
    /// 16 in Swift 6.3, with the Indic conjunct rule GB9c of 15.1), while the engine follows
    /// Unicode 15.0. Where the library joins more, a cluster count can only be lower, which the
    /// `counted <= width` checks allow; it must never split what 15.0 joins. Swift 6.3 splits
    /// two things 15.0 joins (GB11 before an Extended_Pictographic scalar that is not an emoji,
    /// such as ★ after 😀 and ZWJ; GB9b after U+11A3A), which `graphemeClusters` joins again, as
    /// the renderer harness does. Checked on Unicode 15.0's own conformance file (every
    /// position it marks ×) and for every code point of each Grapheme_Cluster_Break class of
    /// 15.0's GraphemeBreakProperty.txt (and every Extended_Pictographic one), beside a
    /// representative neighbour that 15.0 joins it to.
    @Test func standardLibraryGraphemesJoinAllThatUnicode15Joins() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpora/unicode")
        let tests = try String(contentsOf: root.appendingPathComponent("GraphemeBreakTest.txt"), encoding: .utf8)
        #expect(tests.hasPrefix("# GraphemeBreakTest-15.0.0.txt"))
        var joins = 0
        for line in tests.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.prefix { $0 != "#" }.split { $0 == " " || $0 == "\t" }
            var scalars = String.UnicodeScalarView()
            var joined: Set<Int> = []  // scalar offsets 15.0 does not break before
            for field in fields {
                if field == "×" { joined.insert(scalars.count) } else if field != "÷", let value = UInt32(field, radix: 16) {
                    scalars.append(Unicode.Scalar(value)!)
                }
            }
            var offset = 0
            for cluster in graphemeClusters(String(scalars)) {
                if offset > 0 && joined.contains(offset) {
                    Issue.record("split where Unicode 15.0 joins: \(line)")
                }
                offset += cluster.count
            }
            joins += joined.count
        }
        #expect(joins > 400)

        let properties = try String(contentsOf: root.appendingPathComponent("ucd/GraphemeBreakProperty.txt"), encoding: .utf8)
        let emoji = try String(contentsOf: root.appendingPathComponent("ucd/emoji-data.txt"), encoding: .utf8)
        var classes: [String: [UInt32]] = [:]
        for (text, wanted) in [(properties, nil as String?), (emoji, "Extended_Pictographic")] {
            for line in text.split(separator: "\n") {
                let fields = line.prefix { $0 != "#" }.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                guard fields.count == 2, wanted == nil || fields[1] == wanted else { continue }
                let range = fields[0].components(separatedBy: "..")
                guard let first = UInt32(range[0], radix: 16), let last = UInt32(range.last!, radix: 16) else { continue }
                classes[fields[1], default: []].append(contentsOf: first...last)
            }
        }
        func one(_ values: [UInt32]) -> Bool {
            graphemeClusters(String(String.UnicodeScalarView(values.map { Unicode.Scalar($0)! }))).count == 1
        }
        let (l, v, t, lv, lvt): (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x1100, 0x1161, 0x11A8, 0xAC00, 0xAC01)
        var checked = 0
        var splits: [String] = []
        for (name, values) in classes {
            for value in values where Unicode.Scalar(value) != nil {
                // What UAX #29 (15.0) joins for a scalar of this class, each with a neighbour
                // whose class is not in doubt.
                let cases: [[UInt32]]
                switch name {
                case "Extend", "ZWJ", "SpacingMark": cases = [[0x61, value], [0x915, value], [lv, value]]  // GB9, GB9a
                case "Prepend": cases = [[value, 0x61], [value, 0x915]]  // GB9b
                case "L": cases = [[value, l], [value, v], [value, lv], [value, lvt], [l, value]]  // GB6
                case "V": cases = [[value, v], [value, t], [l, value], [lv, value], [v, value]]  // GB6, GB7
                case "T": cases = [[value, t], [v, value], [lv, value], [lvt, value], [t, value]]  // GB7, GB8
                case "LV": cases = [[value, v], [value, t], [l, value]]
                case "LVT": cases = [[value, t], [l, value]]
                case "Regional_Indicator": cases = [[value, 0x1F1E6], [0x1F1FF, value]]  // GB12
                case "Extended_Pictographic": cases = [[0x1F600, 0x200D, value], [value, 0x200D, 0x1F600], [value, 0x301, 0x200D, 0x2764]]  // GB11
                default: cases = []
                }
                for scalars in cases {
                    checked += 1
                    if !one(scalars) { splits.append(scalars.map { String($0, radix: 16) }.joined(separator: " ")) }
                }
            }
        }
        #expect(one([0x0D, 0x0A]))
        #expect(checked > 20_000)
        #expect(splits.isEmpty, "split by the standard library, joined by Unicode 15.0: \(splits.prefix(20))")
    }

    /// A new user's trial (lam.jsonl): words with lam followed by alef were drawn as two, a
    /// space in the alef's cell. Those words, the bundled sample's and the README's, with marks
    /// on the lam or the alef, ZWJ and ZWNJ between them, in left-to-right lines, names, quotes
    /// and notices: at every width from 1 to 60 and under every profile, every row draws its
    /// height in both `--bidi` modes, every content line ends on its right border by the
    /// engine's measure and as the profile's terminals count it (glibc's `wcwidth` per code point
    /// under `wcwidth`), and each visual line has as many words as the logical line it reorders.
    @Test func lamAlefLigaturesKeepEveryRowOnItsBorderAndEveryWordWhole() throws {
        let texts = ["سلام", "الأعلى", "لا لا لا", "فلسطين والإمارات", "Halal options in Osaka? حلال 🙏",
                     "مرحبا، الرابط https://example.com/a للاجتماع [غداً]", "إلّا أهلاً ومثلاً", "لَاً لّا لٌّاً",
                     "ل\u{200D}ا ل\u{200C}ا ل\u{2060}ا", "الله الأعلى لا إله إلا الله، السلام عليكم ورحمة الله",
                     "ok لا\tلا\nلا", "الإمارات", "مرحبا بالإمارات والسلام", "لالم لا فلّا"]
        var models: [any MessageModel] = texts.enumerated().map { index, text in
            TextNote(id: "l\(index)", senderName: index % 3 == 0 ? "علاء" : "Bob",
                     direction: index % 4 == 1 ? .outgoing : .incoming, date: may1,
                     replyToID: index > 0 && index % 2 == 0 ? "l\(index - 1)" : nil, text: text)
        }
        models.append(Notice(id: "n", date: may1, notice: "انضم علاء إلى السلام"))
        #expect(models.contains { (($0 as? any TextMessageModel)?.text ?? "").contains("سلام") })
        guard let locale = UTF8Locale() else { return }
        defer { locale.restore() }
        for profile in WidthProfile.allCases {
            let options = TextOptions(widthProfile: profile)
            let engine = LayoutEngine(textOptions: options)
            var failures = 0
            for width in 1...60 where failures == 0 {
                let timeline = try render(models, width: width, engine: engine, parties: 2)
                failures += checkSidedLines(timeline, options: options)
                var logicalOptions = RenderOptions(width: width, timeZone: utc)
                logicalOptions.bidi = .logical
                var logical = TranscriptRenderer(engine: engine, options: logicalOptions)
                for (r, lines) in timeline.lines.enumerated() {
                    let row = timeline.rows[r], layout = timeline.layouts[r]
                    let stored = logical.lines(for: row, model: row.isDateSeparator ? nil : models[row.messageIndex], layout: layout)
                    if lines.count != layout.height || stored.count != layout.height {
                        failures += 1
                        Issue.record("\(profile) width \(width) row \(r): \(lines.count) and \(stored.count) lines, height \(layout.height)")
                    }
                    for (line, storedLine) in zip(lines, stored) where line != storedLine {
                        let words = line.split(separator: " ").count, storedWords = storedLine.split(separator: " ").count
                        if words != storedWords {
                            failures += 1
                            Issue.record("\(profile) width \(width) row \(r): \(words) words drawn, \(storedWords) stored: \(line.debugDescription) vs \(storedLine.debugDescription)")
                        }
                    }
                }
            }
            #expect(failures == 0, "\(profile)")
        }
    }

    /// Checks every content line between a bubble's side borders: it ends on the right border by
    /// the engine's measure of the drawn line and as the profile's terminals draw it: per cluster
    /// under `unicode` (`clusterCells`), per code point under `wcwidth` (`glibcCells`). Returns
    /// the failures, each recorded.
    private func checkSidedLines(_ timeline: RenderedTimeline, options: TextOptions) -> Int {
        var failures = 0
        for (r, lines) in timeline.lines.enumerated() where failures < 10 {
            let layout = timeline.layouts[r]
            guard !timeline.rows[r].isDateSeparator, layout.alignment != .center,
                  layout.parts.contains(.sideBorders), layout.bubbleWidth >= 2 else { continue }
            let start = layout.spacingAbove + (layout.parts.contains(.nameLine) ? 1 : 0) + (layout.parts.contains(.topBorder) ? 1 : 0)
            let count = (layout.parts.contains(.replyQuote) ? 1 : 0) + layout.imageRows + layout.textLines
            let edge = layout.x + layout.bubbleWidth
            for line in lines[start..<min(lines.count, start + count)] {
                let plain = stripSGR(line)
                let measured = CellWidth.of(plain, options: options)
                if measured != edge {
                    failures += 1
                    Issue.record("\(options.widthProfile) row \(r): \(measured) cells by the engine, the border is at \(edge): \(line.debugDescription)")
                }
                let (cells, complete) = options.widthProfile == .unicode
                    ? clusterCells(plain, ambiguousWidth: options.ambiguousWidth)
                    : options.widthProfile == .ghostty ? ghosttyCells(plain, ambiguousWidth: options.ambiguousWidth)
                    : glibcCells(plain, emojiPresentation: false)
                if complete ? cells != edge : cells > edge {
                    failures += 1
                    Issue.record("\(options.widthProfile) row \(r): \(cells) cells by wcwidth, the border is at \(edge): \(line.debugDescription)")
                }
            }
        }
        return failures
    }

    /// Cells tmux 3.3a advances for `line` (no escapes in it), measured there with
    /// `display -p '#{cursor_x}'`: glibc's `wcwidth` per code point, except that the first
    /// non-ASCII scalar after a ZWJ (`pending`, carried from line to line) adds nothing, ASCII in
    /// between notwithstanding. `complete` is false when glibc knows some code point not.
    private func tmuxCells(_ line: String, pending: inout Bool) -> (cells: Int, complete: Bool) {
        var total = 0
        var complete = true
        for scalar in line.unicodeScalars {
            let value = scalar.value
            let known = Int(wcwidth(Int32(bitPattern: value)))
            if known < 0 { complete = false }
            if value >= 0x80 && pending {
                pending = value == 0x200D
                continue
            }
            if value == 0x200D { pending = true }
            total += max(0, known)
        }
        return (total, complete)
    }

    /// Cells by glibc's `wcwidth`, summed per code point, with what terminals join: a scalar
    /// after ZWJ, and, for terminals that draw emoji presentation (the `unicode` profile's; tmux
    /// 3.3a, the `wcwidth` profile's, does not), VS16 widening a one-cell base to two (the
    /// finding's texts hold ☀️ and ✈️).
    /// `complete` is false when glibc knows some code point of the line not.
    private func glibcCells(_ line: String, emojiPresentation: Bool) -> (cells: Int, complete: Bool) {
        var total = 0
        var complete = true
        var previous: UInt32 = 0
        var baseWidth = 0
        for scalar in line.unicodeScalars {
            let known = Int(wcwidth(Int32(bitPattern: scalar.value)))
            if known < 0 { complete = false }
            var cells = max(0, known)
            if previous == 0x200D {
                cells = 0
            } else if scalar.value == 0xFE0F {
                cells = emojiPresentation && baseWidth == 1 ? 1 : 0
            } else if cells > 0 {
                baseWidth = cells
            }
            total += cells
            previous = scalar.value
        }
        return (total, complete)
    }

    /// Cells as a grapheme-clustering terminal draws `line` (no escapes in it), the `unicode`
    /// profile's promise counted without our tables: the standard library's `Character`s are
    /// the clusters, each as wide as its widest scalar by glibc's `wcwidth` (an East Asian
    /// Ambiguous one that glibc draws taking `ambiguousWidth`), widened to two by emoji
    /// presentation: VS16 after a one-cell scalar, U+20E3 after a keycap base, a regional
    /// indicator pair. `complete` is false when glibc knows some code point of the line not.
    private func clusterCells(_ line: String, ambiguousWidth: Int) -> (cells: Int, complete: Bool) {
        var total = 0
        var complete = true
        for cluster in graphemeClusters(line) {
            var widest = 0
            var last = 0  // the cells of the last scalar that took any, and that scalar
            var lastValue: UInt32 = 0
            var indicators = 0
            var emoji = false
            for value in cluster {
                if value == 0xFE0F || value == 0x20E3 {
                    let keycapBase = lastValue == 0x23 || lastValue == 0x2A || (0x30...0x39).contains(lastValue)
                    emoji = emoji || (last == 1 && (value == 0xFE0F || keycapBase))
                    continue
                }
                if (0x1F1E6...0x1F1FF).contains(value) { indicators += 1 }
                let known = Int(wcwidth(Int32(bitPattern: value)))
                if known < 0 { complete = false }
                // The Hangul fillers: default-ignorable, no cells in any profile, yet glibc gives them one.
                var cells = value == 0x115F || value == 0x3164 || value == 0xFFA0 ? 0 : max(0, known)
                if cells > 0 && Self.ambiguousCodePoints.contains(value) { cells = ambiguousWidth }
                if cells > 0 {
                    last = cells
                    lastValue = value
                    widest = max(widest, cells)
                }
            }
            total += emoji || indicators >= 2 ? max(widest, 2) : widest
        }
        return (total, complete)
    }

    /// Cells as Ghostty 1.3 and later draws `line` with mode 2027 on (the `ghostty` profile's
    /// promise), counted from its `print` (src/terminal/Terminal.zig, src/unicode/grapheme.zig)
    /// without our tables: the clusters are the standard library's `Character`s (Unicode 16,
    /// which joins Indic conjuncts by GB9c as Ghostty's uucode does); a cluster starts at its
    /// first scalar's cells by glibc's `wcwidth` (a regional indicator 2, an Ambiguous one
    /// `ambiguousWidth`); VS16 makes it 2 and VS15 1 after a scalar with an emoji variation
    /// sequence (the committed emoji-variation-sequences.txt) and is ignored after any other; a
    /// scalar up to U+00FF, and a skin-tone modifier not right after an Emoji_Modifier_Base,
    /// take cells of their own; any other scalar that is not zero in a grapheme (glibc width 0,
    /// Mn, Me, Prepend, a modifier) makes the cell 2. `complete` is false when glibc knows some
    /// code point of the line not.
    private func ghosttyCells(_ line: String, ambiguousWidth: Int) -> (cells: Int, complete: Bool) {
        var total = 0
        var complete = true
        for cluster in graphemeClusters(line) {
            var cell = 0
            var last: UInt32 = 0
            for (index, value) in cluster.enumerated() {
                let scalar = Unicode.Scalar(value)!
                let known = Int(wcwidth(Int32(bitPattern: value)))
                if known < 0 { complete = false }
                var cells = value == 0x115F || value == 0x3164 || value == 0xFFA0 ? 0 : max(0, known)
                if cells == 1 && Self.ambiguousCodePoints.contains(value) { cells = ambiguousWidth }
                if (0x1F1E6...0x1F1FF).contains(value) { cells = 2 }
                let modifier = scalar.properties.isEmojiModifier
                if index == 0 || value <= 0xFF || cell == 0
                    || (modifier && !(Unicode.Scalar(last)?.properties.isEmojiModifierBase ?? false)) {
                    total += cell
                    cell = cells
                } else if value == 0xFE0F || value == 0xFE0E {
                    guard Self.variationBases.contains(last) else { continue }
                    cell = value == 0xFE0F ? 2 : min(cell, 1)
                } else {
                    let category = scalar.properties.generalCategory
                    let zero = cells == 0 || modifier || category == .nonspacingMark || category == .enclosingMark
                        || Self.prepend.contains(value)
                    if !zero { cell = 2 }
                }
                last = value
            }
            total += cell
        }
        return (total, complete)
    }

    /// The standard library's `Character`s of `line` as scalar values, joined again where Unicode
    /// 15.0 joins and Swift 6.3's library does not: after an emoji and ZWJ before any
    /// Extended_Pictographic scalar (GB11), and after a Prepend scalar (GB9b, U+11A3A).
    private func graphemeClusters(_ line: String) -> [[UInt32]] {
        var result: [[UInt32]] = []
        for character in line {
            let scalars = character.unicodeScalars.map(\.value)
            if let previous = result.last, let last = previous.last, let first = scalars.first {
                let afterPictograph = last == 0x200D && previous.contains { Self.pictographic.contains($0) }
                if (afterPictograph && Self.pictographic.contains(first))
                    || (Self.prepend.contains(last) && first >= 0x20 && !(0x7F...0x9F).contains(first)) {
                    result[result.count - 1].append(contentsOf: scalars)
                    continue
                }
            }
            result.append(scalars)
        }
        return result
    }

    /// Code points of a Unicode 15.0 property, from the committed UCD extract (Corpora/unicode/ucd).
    private static func ucd(_ file: String, _ property: String) -> Set<UInt32> {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpora/unicode/ucd").appendingPathComponent(file).path
        var values: Set<UInt32> = []
        for line in ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n") {
            let fields = line.prefix { $0 != "#" }.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 2, fields[1] == property else { continue }
            let range = fields[0].components(separatedBy: "..")
            guard let first = UInt32(range[0], radix: 16), let last = UInt32(range.last!, radix: 16) else { continue }
            values.formUnion(first...last)
        }
        return values
    }

    private static let ambiguousCodePoints = ucd("DerivedEastAsianWidth.txt", "A")
    private static let pictographic = ucd("emoji-data.txt", "Extended_Pictographic")
    private static let prepend = ucd("GraphemeBreakProperty.txt", "Prepend")
    /// The scalars with an emoji variation sequence (Corpora/unicode/ucd, Unicode 15.0): lines
    /// are "BASE SELECTOR ; style ; …".
    private static let variationBases: Set<UInt32> = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpora/unicode/ucd/emoji-variation-sequences.txt").path
        var bases: Set<UInt32> = []
        for line in ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n") where !line.hasPrefix("#") {
            if let first = line.split(separator: " ").first, let value = UInt32(first, radix: 16) { bases.insert(value) }
        }
        return bases
    }()
    #endif
}

/// glibc's `wcwidth` answers for the C.UTF-8 locale, which this thread uses from `init` until
/// `restore()`: the tests' independent count of what a terminal draws needs it. Records an issue
/// and is nil when the locale is missing.
private struct UTF8Locale {
    private let locale: locale_t
    private let previous: locale_t?

    init?() {
        guard let utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) else {
            Issue.record("no C.UTF-8 locale for wcwidth")
            return nil
        }
        locale = utf8
        previous = uselocale(utf8)
    }

    func restore() {
        uselocale(previous)
        freelocale(locale)
    }
}