import BubbleSamples
import Foundation
import Testing
@testable import BubbleText

/// The `ghostty` width profile against widths nobody here computed: Python's `wcwidth` package
/// (jquast, PyPI, 0.9.4), which models Ghostty's grapheme widths (`term_program='ghostty'`), over
/// the corpus of Tools/terminals/wcwidth-fixture.py (Devanagari, Bengali, Tamil, Gujarati,
/// Telugu, Malayalam, Thai, Hangul jamo, every emoji-test.txt sequence, variation sequences,
/// keycaps, flags, skin tones, prepended marks), committed in Tools/terminals/results/.
@Suite struct GhosttyProfileTests {
    static let ghostty = TextOptions(widthProfile: .ghostty)

    /// A measurement committed in Tools/terminals/results/.
    static func result(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tools/terminals/results/" + name)
        return try String(contentsOf: url, encoding: .utf8)
    }

    struct Row {
        var scalars: [Unicode.Scalar]
        var text: String { String(String.UnicodeScalarView(scalars)) }
        var ghostty: Int
        var name: String
        var hex: String { scalars.map { String($0.value, radix: 16) }.joined(separator: " ") }
    }

    static func fixture() throws -> [Row] {
        let text = try Self.result("python-wcwidth-0.9.4.tsv")
        #expect(text.hasPrefix("# python wcwidth 0.9.4"))
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t")
            guard !line.hasPrefix("#"), fields.count == 4, let ghostty = Int(fields[1]) else { return nil }
            let scalars = fields[0].split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            return Row(scalars: scalars, ghostty: ghostty, name: String(fields[3]))
        }
    }

    /// Every grapheme of the fixture measures what Python's `wcwidth` says Ghostty draws, but
    /// for five rules where Python's model and Ghostty's source (src/terminal/Terminal.zig
    /// `print` and src/unicode/grapheme.zig after ghostty-org/ghostty#10465, with uucode's
    /// grapheme breaks) part; there the source is followed, and each row is checked to part as
    /// its rule says:
    /// - A run of Hangul L jamo is one cluster in Ghostty (GB6), wide once: 2; Python sums it.
    /// - After a killer that is no Indic_Conjunct_Break linker (Tamil's pulli, Thai's phinthu,
    ///   Malayalam's vertical-bar virama) or after a ZWJ, a consonant starts a new cluster in
    ///   Ghostty (no GB9c, no GB11); Python joins it: we measure more.
    /// - A ZWJ sequence whose first pictograph is one cell without VS16 (`❤‍🔥`): the pictograph
    ///   after the ZWJ takes room, so Ghostty widens the cell to 2; Python keeps 1.
    /// - A skin-tone modifier after a pictograph that is no Emoji_Modifier_Base (`🚀🏽`): uucode
    ///   breaks before it, a cell of 2 of its own: 2 more than Python.
    /// - A prepended mark before a wide character (`؀一`): one cluster (GB9b) in Ghostty, widened
    ///   to 2; Python adds 1 + 2.
    /// Graphemes that begin with an Extend, ZWJ or SpacingMark scalar (a lone U+0E33 THAI
    /// CHARACTER SARA AM) are left out: we never draw such a scalar (`GraphemeWidth.draws`),
    /// since Ghostty would join it to the cell before it.
    @Test func ghosttyProfileMeasuresWhatPythonWcwidthSaysGhosttyDraws() throws {
        let rows = try Self.fixture()
        #expect(rows.count > 14_000)
        var agreed = 0
        var parted: [String: Int] = [:]
        var unexplained: [String] = []
        for row in rows {
            let ours = CellWidth.of(row.text, options: Self.ghostty)
            #expect(PreparedText(row.text, options: Self.ghostty).naturalWidth == ours, "\(row.hex)")
            let first = UnicodeTables.info(row.scalars[0].value)
            if [.extend, .zwj, .spacingMark].contains(first.graphemeBreak) && !first.isEmojiModifier {
                parted["starts with an extender", default: 0] += 1
                continue
            }
            if ours == row.ghostty {
                agreed += 1
                continue
            }
            let values = row.scalars.map(\.value)
            let infos = values.map(UnicodeTables.info)
            let rule: String
            let holds: Bool
            if infos.allSatisfy({ $0.graphemeBreak == .l }) {
                (rule, holds) = ("Hangul L run", ours == 2 && row.ghostty == 2 * values.count)
            } else if values.indices.dropLast().contains(where: { i in
                (values[i] == 0x200D && !infos[i + 1].isExtendedPictographic)
                    || (row.scalars[i].properties.canonicalCombiningClass == .virama
                        && !GhosttyTable.entry(values[i]).isConjunctLinker && row.scalars[(i + 1)...].contains { $0.properties.isAlphabetic && $0.properties.generalCategory == .otherLetter })
            }) {
                (rule, holds) = ("no conjunct join", ours > row.ghostty)
            } else if values.contains(0x200D) && infos[0].isExtendedPictographic && !values.contains(0xFE0F) {
                (rule, holds) = ("narrow ZWJ sequence", ours == 2 && row.ghostty == 1)
            } else if values.count == 2 && infos[1].isEmojiModifier && infos[0].isExtendedPictographic
                        && !row.scalars[0].properties.isEmojiModifierBase {
                (rule, holds) = ("modifier after a non-base", ours == row.ghostty + 2)
            } else if values.count == 2 && infos[0].graphemeBreak == .prepend && infos[1].width == 2 {
                (rule, holds) = ("prepended mark before a wide character", ours == row.ghostty - 1)
            } else {
                (rule, holds) = ("", false)
            }
            if holds {
                parted[rule, default: 0] += 1
            } else {
                unexplained.append("\(row.hex) (\(row.name)): Python \(row.ghostty), ours \(ours)")
            }
        }
        #expect(unexplained.isEmpty, "\(unexplained.count) unexplained: \(unexplained.prefix(20))")
        #expect(agreed > 13_500, "\(agreed) agree; parted: \(parted)")
    }

    /// Every grapheme of the same corpus measures what Ghostty's own terminal core drew:
    /// libghostty-vt as the `pyghostty` package (PyPI, 0.1.3) ships it, fed each grapheme after
    /// a line's first cell with mode 2027 on, the cursor read after it
    /// (Tools/terminals/ghostty-vt-measure.py; Tools/terminals/results/libghostty-vt-pyghostty-0.1.3-corpus.tsv).
    /// Left out as above: graphemes that begin with an Extend, ZWJ or SpacingMark scalar, which we
    /// never draw (after the `|` Ghostty joins them to it, and widens it).
    @Test func ghosttyProfileMeasuresWhatGhosttysTerminalCoreDraws() throws {
        let text = try Self.result("libghostty-vt-pyghostty-0.1.3-corpus.tsv")
        #expect(text.hasPrefix("# libghostty-vt from pyghostty 0.1.3"))
        var compared = 0
        var skipped = 0
        var mismatches: [String] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t")
            guard fields.count == 3, let columns = Int(fields[1]) else { continue }
            let scalars = fields[0].split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            let first = UnicodeTables.info(scalars[0].value)
            if [.extend, .zwj, .spacingMark].contains(first.graphemeBreak) && !first.isEmojiModifier {
                skipped += 1
                continue
            }
            compared += 1
            let ours = CellWidth.of(String(String.UnicodeScalarView(scalars)), options: Self.ghostty)
            if ours != columns { mismatches.append("\(fields[0]) (\(fields[2])): Ghostty \(columns), ours \(ours)") }
        }
        #expect(compared > 14_000)
        #expect(skipped < 300)
        #expect(mismatches.isEmpty, "\(mismatches.count) differ: \(mismatches.prefix(20))")
    }

    /// Every East Asian Ambiguous character that draws a glyph (902 of Unicode 15.0; made by
    /// Tools/terminals/ambiguous-corpus.py) takes 1 cell in Ghostty's own terminal core, as the
    /// `ghostty` profile measures it with narrow ambiguous characters, including U+3248–324F,
    /// which glibc's `wcwidth` widens to 2 (the renderer harness counted them so under `ghostty`,
    /// a harness mistake: Corpora/findings/render-ghostty-ambiguous-glibc-wide.jsonl).
    @Test func ambiguousCharactersMeasureWhatGhosttysTerminalCoreDraws() throws {
        let text = try Self.result("libghostty-vt-pyghostty-0.1.3-ambiguous.tsv")
        #expect(text.hasPrefix("# libghostty-vt from pyghostty 0.1.3"))
        var compared = 0
        var mismatches: [String] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t")
            guard fields.count == 3, let columns = Int(fields[1]), let value = UInt32(fields[0], radix: 16),
                  let scalar = Unicode.Scalar(value) else { continue }
            compared += 1
            let ours = CellWidth.of(String(Character(scalar)), options: Self.ghostty)
            if ours != columns { mismatches.append("\(fields[0]) (\(fields[2])): Ghostty \(columns), ours \(ours)") }
        }
        #expect(compared == 902)
        #expect(text.contains("\n324A\t1\t"))
        #expect(mismatches.isEmpty, "\(mismatches.count) differ: \(mismatches.prefix(20))")
    }

    /// Every code point Unicode 15.0 assigns (149,186 of them, less controls, surrogates and
    /// private use: Tools/terminals/assigned-corpus.py), written alone after a `|` in Ghostty's own
    /// terminal core, advances the cursor as far as the `ghostty` profile measures it there: the
    /// whole table against the terminal, not a sample. Among them are the 188 symbols Unicode 16
    /// made East Asian Wide (U+2630–2637, U+268A–268F, U+4DC0–4DFF, U+1D300–1D356,
    /// U+1D360–1D376), which Ghostty draws in 2 cells (found by the renderer harness:
    /// Corpora/findings/render-unicode16-wide-hexagram.jsonl).
    @Test func everyAssignedCodePointMeasuresWhatGhosttysTerminalCoreDraws() throws {
        let text = try Self.result("libghostty-vt-pyghostty-0.1.3-assigned.tsv")
        #expect(text.contains("\n# libghostty-vt from pyghostty 0.1.3"))
        var compared = 0
        var neutralised = 0
        var mismatches: [String] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t")
            let bounds = fields.first?.split(separator: ".", omittingEmptySubsequences: true) ?? []
            guard fields.count == 2, bounds.count == 2, let columns = Int(fields[1]),
                  let first = UInt32(bounds[0], radix: 16), let last = UInt32(bounds[1], radix: 16), first <= last else {
                Issue.record("not a run: \(line)")
                continue
            }
            for value in first...last {
                guard let scalar = Unicode.Scalar(value) else { continue }
                compared += 1
                // The bidi controls are never written raw: we draw their visible notation,
                // which Ghostty's count of the raw scalar cannot say anything about.
                if UnicodeTables.info(value).isNeutralisedControl {
                    neutralised += 1
                    continue
                }
                var drawn = "|".unicodeScalars
                drawn.append(scalar)
                let ours = CellWidth.of(String(drawn), options: Self.ghostty) - 1
                if ours != columns { mismatches.append("U+\(String(value, radix: 16, uppercase: true)): Ghostty \(columns), ours \(ours)") }
            }
        }
        #expect(compared == 149_186)
        #expect(neutralised == 12)
        #expect(mismatches.isEmpty, "\(mismatches.count) differ: \(mismatches.prefix(20))")
    }

    /// Ghostty's rule on the graphemes its own pull request names: a spacing mark (`का`), the
    /// second consonant of a conjunct (`क्ष`, which Ghostty's clusters join by GB9c and our
    /// Unicode 15.0 graphemes split) and a vowel sign after it (`क्षि`) make the cluster 2, where
    /// the `unicode` profile counts its widest scalar; a grapheme that goes on such a conjunct
    /// counts only what it adds.
    @Test func laterCodePointsThatTakeRoomMakeTheClusterWide() {
        let unicode = TextOptions()
        for (text, ghostty, widest) in [("\u{915}\u{93E}", 2, 1), ("\u{915}\u{94D}\u{937}", 2, 2), ("\u{915}\u{94D}\u{937}\u{93F}", 2, 2),
                                        ("\u{915}\u{94D}\u{200D}\u{937}", 2, 2), ("\u{995}\u{9CD}\u{9B7}\u{9BE}", 2, 2),
                                        ("\u{B95}\u{BBE}", 2, 1), ("\u{E01}\u{E33}", 2, 1), ("\u{E01}\u{E34}", 1, 1)] {
            #expect(CellWidth.of(text, options: Self.ghostty) == ghostty, "\(text)")
            #expect(CellWidth.of(text, options: unicode) == widest, "\(text)")
        }
        #expect(CellWidth.of("\u{915}\u{94D}", options: Self.ghostty) == 1)
        #expect(CellWidth.ofGrapheme("\u{937}\u{93F}".unicodeScalars, options: Self.ghostty) == 2)
    }

    /// The preparer joins a conjunct that Ghostty joins into one grapheme, so layout never breaks
    /// a line inside it (apart, its parts would take 1 + 2 cells where together they take 2):
    /// at every width each line measures, alone, what the layout says it does, and the lines add
    /// up to the words' widths (spaces aside).
    @Test func conjunctsAreNeverBrokenAcrossLines() {
        let word = "\u{915}\u{94D}\u{937}\u{93F}\u{938}\u{94D}\u{924}\u{94D}\u{930}\u{940}\u{915}\u{93E}"  // क्षिस्त्रीका
        let text = word + word + " " + word
        let prepared = PreparedText(text, options: Self.ghostty)
        #expect(prepared.naturalWidth == CellWidth.of(text, options: Self.ghostty))
        for width in 1...20 {
            let lines = prepared.layout(width: width).lines
            var sum = 0
            for line in lines {
                let utf8 = Array(text.utf8)[line.utf8Range]
                let slice = String(decoding: utf8, as: UTF8.self)
                #expect(CellWidth.of(slice, options: Self.ghostty) == line.width, "width \(width): \(slice)")
                #expect(slice.unicodeScalars.last!.value != 0x94D, "width \(width): a line ends inside a conjunct")
                sum += line.width - slice.unicodeScalars.filter { $0 == " " }.count
            }
            #expect(sum == CellWidth.of(word, options: Self.ghostty) * 3, "width \(width)")
        }
    }

    /// Random mixes of Indic letters, marks, viramas, ZWJ, Hangul jamo, emoji, modifiers,
    /// variation selectors and ASCII: the preparer (which joins conjuncts into one grapheme) and
    /// `CellWidth.of` (which splits them and counts the second part's addition) agree, and a text
    /// measures the sum of its parts cut anywhere outside a Ghostty cluster (at a space).
    @Test func thePreparerAndTheWidthReaderAgreeOnRandomText() {
        var generator = SeededGenerator(seed: 0x6057)
        let pool: [ClosedRange<UInt32>] = [0x915...0x939, 0x93E...0x94D, 0x94D...0x94D, 0x995...0x9B9, 0x9BE...0x9CD,
                                           0xB95...0xBB9, 0xBBE...0xBCD, 0xE01...0xE3A, 0x200D...0x200D, 0x1100...0x11FF,
                                           0x1F300...0x1F6FF, 0x1F3FB...0x1F3FF, 0xFE0E...0xFE0F, 0x61...0x7A, 0x600...0x605,
                                           0x4E00...0x4E10, 0x2600...0x26FF]
        for _ in 0..<3000 {
            var parts: [String] = []
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                var scalars = String.UnicodeScalarView()
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    let range = pool[Int.random(in: 0..<pool.count, using: &generator)]
                    if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) { scalars.append(scalar) }
                }
                parts.append(String(scalars))
            }
            let text = parts.joined(separator: " ")
            let measured = CellWidth.of(text, options: Self.ghostty)
            #expect(PreparedText(text, options: Self.ghostty).naturalWidth == measured, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            // A part that starts with an extender is not drawn alone, and joins the space before
            // it in the whole text: only the others add up.
            let joinsTheSpace = parts.contains { part in
                let info = UnicodeTables.info(part.unicodeScalars.first!.value)
                return [.extend, .zwj, .spacingMark].contains(info.graphemeBreak) && !info.isEmojiModifier
            }
            if !joinsTheSpace {
                #expect(parts.map { CellWidth.of($0, options: Self.ghostty) }.reduce(parts.count - 1, +) == measured,
                        "\(parts)")
            }
        }
    }
}
