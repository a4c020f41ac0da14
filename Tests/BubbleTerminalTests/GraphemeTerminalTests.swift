import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal

/// The cells real terminals advanced for the test clusters of Tools/terminals/cluster-widths.sh
/// (the cursor position asked after each, at the start of a line), measured headless by
/// Tools/terminals/measure.sh and committed in Tools/terminals/results/ with each terminal's
/// version and setting: a source nobody here wrote.
@Suite struct GraphemeTerminalTests {
    struct Row {
        var name: String
        var text: String
        var columns: Int
    }

    /// The rows of one results file, as the terminal started (mode 2027 as it was), or with
    /// `setting` "2027-set", after mode 2027 was set.
    static func rows(_ file: String, setting: String = "initial") throws -> [Row] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tools/terminals/results").appendingPathComponent(file)
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t")
            guard fields.count == 4, fields[0] == setting, let columns = Int(fields[3]) else { return nil }
            let scalars = fields[2].split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            return Row(name: String(fields[1]), text: String(String.UnicodeScalarView(scalars)), columns: columns)
        }
    }

    /// foot 1.13.1 with grapheme shaping and `grapheme-width-method=max` ("the width of the
    /// largest codepoint in the cluster", its manual) is the `unicode` profile's rule without
    /// emoji presentation: a spacing mark (`का`, U+0C01 after a Thai letter, U+0DD8 after a
    /// Sinhala letter) and a run of Hangul L jamo add nothing to their cluster. The engine
    /// measures every cluster as foot drew it, except where foot's per-code-point widths
    /// (glibc's, Unicode 14) lack emoji presentation: VS16, a keycap, a flag, or an emoji newer
    /// than Unicode 14 (the profile makes each 2, as mode 2027 asks).
    @Test func unicodeProfileMeasuresClustersAsFootsWidestScalarMethodDraws() throws {
        let rows = try Self.rows("foot-1.13.1-max.tsv")
        #expect(rows.count >= 15)
        for name in ["devanagari-ka-aa", "thai-ko-telugu-candrabindu", "leading-jamo-x6", "sinhala-ka-vowel-sign-r"] {
            #expect(rows.contains { $0.name == name }, "\(name)")
        }
        let options = TextOptions(widthProfile: .unicode)
        var compared = 0
        for row in rows {
            let scalars = row.text.unicodeScalars
            let flag = scalars.filter { (0x1F1E6...0x1F1FF).contains($0.value) }.count >= 2
            let newer = scalars.contains { ($0.properties.age.map { $0.major > 14 }) ?? true }
            if scalars.contains("\u{FE0F}") || scalars.contains("\u{20E3}") || flag || newer { continue }
            compared += 1
            #expect(CellWidth.of(row.text, options: options) == row.columns,
                    "\(row.name): foot drew \(row.columns) cells, the engine measures \(CellWidth.of(row.text, options: options))")
        }
        #expect(compared >= 10)
    }

    /// Ghostty's own terminal core (libghostty-vt from the `pyghostty` package, PyPI 0.1.3,
    /// measured by Tools/terminals/ghostty-vt-measure.py --clusters) with mode 2027 set draws
    /// every test cluster as the `ghostty` profile measures it (`का` 2, `क्षि` 2, U+1111 ×6 2,
    /// `👍🏽` 2, 🫨 2); the width probe, given its cursor reports and its mode report, picks
    /// `ghostty`. As the library starts, the mode is reset (2), and its reports are per code
    /// point: from them the probe picks `unicode` and turns the mode on (the Ghostty application
    /// sets the mode itself unless `grapheme-width-method = legacy`); its second round, measured
    /// with the mode set, picks `ghostty`.
    @Test func ghosttyProfileMeasuresClustersAsGhosttysTerminalCoreDraws() throws {
        let file = "libghostty-vt-pyghostty-0.1.3.tsv"
        let rows = try Self.rows(file, setting: "2027-set")
        #expect(rows.count >= 15)
        let options = TextOptions(widthProfile: .ghostty)
        for row in rows {
            #expect(CellWidth.of(row.text, options: options) == row.columns,
                    "\(row.name): Ghostty drew \(row.columns) cells, the engine measures \(CellWidth.of(row.text, options: options))")
        }
        let set: [Int?] = WidthProbe.graphemes.map { grapheme in rows.first { $0.text == grapheme }?.columns }
        #expect(!set.contains { $0 == nil }, "a probe grapheme was not measured")
        #expect(WidthProbe.choose(advances: set, graphemeClustering: 1, base: TextOptions()).options == options)
        let initial = try Self.rows(file)
        let reset: [Int?] = WidthProbe.graphemes.map { grapheme in initial.first { $0.text == grapheme }?.columns }
        let result = WidthProbe.choose(advances: reset, graphemeClustering: 2, base: TextOptions())
        #expect(result.options.widthProfile == .unicode)
        #expect(result.enableGraphemeClustering)
        let second: [Int?] = WidthProbe.clusterGraphemes.map { grapheme in rows.first { $0.text == grapheme }?.columns }
        let clustered = WidthProbe.chooseClustered(advances: second, graphemeClustering: 1, after: result)
        #expect(clustered.options == options)
        #expect(clustered.enableGraphemeClustering)
    }

    /// foot 1.13.1 with `grapheme-width-method=double-width` sums its code points' widths per
    /// cluster and caps the sum at 2: a spacing mark makes `का` 2, as in Ghostty 1.3. It is not
    /// Ghostty's rule: its clusters (utf8proc, Unicode 15.0) do not join conjuncts (GB9c), so
    /// `क्षि` is `क्` + `षि`, 1 + 2; and its code point widths are glibc's (Unicode 14), so an
    /// emoji newer than that is 0. Elsewhere the `ghostty` profile measures what foot drew, and
    /// the probe, which foot 1.13.1 answers without mode 2027, picks `ghostty` as the closest.
    @Test func ghosttyProfileIsTheClosestToFootsDoubleWidthMethod() throws {
        let rows = try Self.rows("foot-1.13.1-double-width.tsv")
        let options = TextOptions(widthProfile: .ghostty)
        var compared = 0
        for row in rows {
            let scalars = Array(row.text.unicodeScalars)
            let newer = scalars.contains { ($0.properties.age.map { $0.major > 14 }) ?? true }
            let conjunct = scalars.indices.dropLast().contains { GhosttyTable.entry(scalars[$0].value).isConjunctLinker
                && GhosttyTable.entry(scalars[$0 + 1].value).isConjunctConsonant }
            let measured = CellWidth.of(row.text, options: options)
            if newer || conjunct {
                #expect(measured != row.columns, "\(row.name): the rules part here, or the comment is wrong")
                continue
            }
            compared += 1
            #expect(measured == row.columns, "\(row.name): foot drew \(row.columns) cells, the engine measures \(measured)")
        }
        #expect(compared >= 12)
        let advances: [Int?] = WidthProbe.graphemes.map { grapheme in rows.first { $0.text == grapheme }?.columns }
        #expect(!advances.contains { $0 == nil }, "a probe grapheme was not measured")
        let result = WidthProbe.choose(advances: advances, graphemeClustering: 0, base: TextOptions())
        #expect(result.options == options)
    }

    /// foot 1.13.1 as it starts (`grapheme-width-method=wcswidth`) counts code points: the width
    /// probe's answers from it choose the `wcwidth` profile, whose predictions they match but
    /// for the ZWJ family (foot 6 cells, tmux's join 2).
    @Test func theProbeChoosesPerCodePointWidthsForFootAsItStarts() throws {
        for file in ["foot-1.13.1-default.tsv", "foot-1.13.1-wcswidth.tsv"] {
            let rows = try Self.rows(file)
            let advances: [Int?] = WidthProbe.graphemes.map { grapheme in rows.first { $0.text == grapheme }?.columns }
            #expect(!advances.contains { $0 == nil }, "\(file): a probe grapheme was not measured")
            let result = WidthProbe.choose(advances: advances, graphemeClustering: 0, base: TextOptions())
            #expect(result.options.widthProfile == .wcwidth, "\(file)")
            #expect(result.options.ambiguousWidth == 1, "\(file)")
        }
    }
}
