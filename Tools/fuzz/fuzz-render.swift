// libFuzzer harness: the renderer, over JSON Lines read as the CLI reads them, at a width, colour
// depth, border set, ambiguous width and width profile taken from the input's hash.
// Invariants: every row draws exactly its layout's height; a bubble's content lines end on its
// right border (as wide as measured); no line is wider than the width, by the engine's measure and
// by an independent count of what was written, made as the profile's terminals draw it without
// our tables: under `wcwidth` per code point (glibc's wcwidth, tmux 3.3a), under `unicode` per
// grapheme cluster as the standard library's `Character` segments the line, each cluster as wide
// as its widest scalar by glibc's wcwidth, with emoji presentation (the mode 2027 model: kitty
// 0.40+, WezTerm, foot's `max` method; README, "Fuzzing and sanitizers"), under `ghostty` per
// `Character` as Ghostty 1.3's `print` draws it (a later scalar that takes room widens the cell
// to 2); the only escape
// sequences are our SGR (none with colour off), and no control, C1 or bidi control is written raw.
import BubbleLayout
import BubbleLogs
import BubbleTerminal
import BubbleText
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// glibc's wcwidth (wchar_t is 32-bit on Linux), which the Glibc module does not export.
@_silgen_name("wcwidth") private func wcwidth(_ character: Int32) -> Int32

private let utc = TimeZone(identifier: "UTC")!
/// wcwidth needs a UTF-8 locale: glibc has C.UTF-8 built in since 2.35.
private let localeSet: Bool = setlocale(LC_CTYPE, "C.UTF-8") != nil || setlocale(LC_CTYPE, "en_US.UTF-8") != nil

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    require(localeSet, "the C.UTF-8 locale is needed for wcwidth")
    let raw = UnsafeRawBufferPointer(start: data, count: size)
    let hash = inputHash(raw)
    guard let reader = try? LogSource.open(bytes: Array(raw), name: "render.jsonl", format: .jsonl,
                                           options: LogReadOptions(timeZone: utc)) else { return 0 }
    let models: [any MessageModel] = reader.compactMap { $0.record }
    guard !models.isEmpty else { return 0 }
    let width = 1 + Int((hash >> 8) % 100)
    let depth: ColorDepth = [.none, .palette256, .trueColor, .none][Int(hash & 3)]
    // The three width profiles: `unicode` (graphemes, emoji presentation), `wcwidth` (per code
    // point, as tmux 3.3a draws) and `ghostty` (Ghostty 1.3's clusters), each checked against
    // the count below made the same way.
    let profile: WidthProfile = [.wcwidth, .unicode, .unicode, .ghostty][Int((hash >> 6) & 3)]
    let options = TextOptions(ambiguousWidth: (hash >> 2) & 7 == 0 ? 2 : 1, tabStop: (hash >> 5) & 1 == 0 ? 8 : 4,
                              widthProfile: profile)
    let engine = LayoutEngine(textOptions: options)
    guard let rows = try? engine.decorate(models, options: utcDecoration) else { return 0 }
    var renderer = TranscriptRenderer(engine: engine, options: RenderOptions(
        width: width, colorDepth: depth, asciiBorders: (hash >> 4) & 1 == 1, timeZone: utc))
    for (index, row) in rows.enumerated() {
        let layout = engine.layout(row, in: models, width: width)
        let lines = renderer.lines(for: row, model: row.isDateSeparator ? nil : models[row.messageIndex], layout: layout)
        require(lines.count == layout.height, "row \(index) drew \(lines.count) lines for height \(layout.height)")
        // Inside a bubble with side borders, each content line ends on the right border: as wide
        // as the bubble's right edge, so a cell drawn wider or narrower than measured shows here
        // even when the bubble is narrower than the width.
        var sided = 0..<0
        if !row.isDateSeparator && layout.alignment != .center && layout.parts.contains(.sideBorders) && layout.bubbleWidth >= 2 {
            let start = layout.spacingAbove + (layout.parts.contains(.nameLine) ? 1 : 0) + (layout.parts.contains(.topBorder) ? 1 : 0)
            let count = (layout.parts.contains(.replyQuote) ? 1 : 0) + layout.imageRows + layout.textLines
            sided = start..<min(lines.count, start + count)
        }
        for (number, line) in lines.enumerated() {
            let plain = withoutOurSGR(line, colorOn: depth != .none)
            let engineWidth = CellWidth.of(plain, options: options)
            require(engineWidth <= width, "row \(index): \(engineWidth) cells by the engine > \(width): \(line.debugDescription)")
            let counted = profile == .unicode ? perClusterWidth(plain, ambiguousWidth: options.ambiguousWidth)
                : profile == .ghostty ? ghosttyWidth(plain, ambiguousWidth: options.ambiguousWidth)
                : perCodePointWidth(plain)
            require(counted <= width, "row \(index): \(counted) cells by wcwidth > \(width): \(line.debugDescription)")
            if sided.contains(number) {
                let edge = layout.x + layout.bubbleWidth
                require(engineWidth == edge, "row \(index) line \(number): \(engineWidth) cells by the engine, the border is at \(edge): \(line.debugDescription)")
            }
        }
    }
    return 0
}

/// `line` without the SGR sequences we write (`ESC [ digits/semicolons m`); any other escape,
/// control, C1 or bidi control, or SGR with colour off, stops the run. Walks the scalars once,
/// and copies only a line that holds an escape.
private func withoutOurSGR(_ line: String, colorOn: Bool) -> String {
    let hasEscape = line.utf8.contains(0x1B)
    var out = String.UnicodeScalarView()
    var scalars = line.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
        let value = scalar.value
        if value == 0x1B {
            require(colorOn, "an escape with colour off: \(line.debugDescription)")
            require(scalars.next() == "[", "an escape that is not CSI: \(line.debugDescription)")
            var next = scalars.next()
            while let digit = next, ("0"..."9").contains(digit) || digit == ";" { next = scalars.next() }
            require(next == "m", "a CSI that is not SGR: \(line.debugDescription)")
            continue
        }
        require(value >= 0x20 && !(0x7F...0x9F).contains(value), "control U+\(String(value, radix: 16)) written raw: \(line.debugDescription)")
        require(!(0x202A...0x202E).contains(value) && !(0x2066...0x2069).contains(value) && value != 0x200E
                    && value != 0x200F && value != 0x061C && value != 0x2028 && value != 0x2029,
                "bidi control or separator U+\(String(value, radix: 16)) written raw: \(line.debugDescription)")
        if hasEscape { out.append(scalar) }
    }
    return hasEscape ? String(out) : line
}

/// East_Asian_Width Ambiguous code points, from the committed UCD extract
/// (Corpora/unicode/ucd/DerivedEastAsianWidth.txt), one bit per code point: looked up for every
/// scalar drawn, where hashing into a set cost more than the rest of the count.
private let ambiguousCodePoints = ucdCodePoints(in: "DerivedEastAsianWidth.txt", withValue: "A")

/// The code points a committed UCD file (Corpora/unicode/ucd, Unicode 15.0) gives `value` in its
/// second field.
private func ucdCodePoints(in file: String, withValue value: String) -> CodePointBits {
    let path = #filePath.replacingOccurrences(of: "Tools/fuzz/fuzz-render.swift", with: "Corpora/unicode/ucd/" + file)
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        fputs("fuzz-render: cannot read \(path)\n", stderr)
        abort()
    }
    var values = CodePointBits()
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        let fields = line.split(separator: "#")[0].split(separator: ";")
        guard fields.count == 2, fields[1].trimmingCharacters(in: .whitespaces) == value else { continue }
        let range = fields[0].trimmingCharacters(in: .whitespaces).components(separatedBy: "..")
        guard let first = UInt32(range[0], radix: 16), let last = UInt32(range.last!, radix: 16) else { continue }
        for codePoint in first...last { values.insert(codePoint) }
    }
    return values
}

/// A set of code points as bits (the Ambiguous ones, and the Unicode 15.0 properties below).
private struct CodePointBits {
    private var words = [UInt64](repeating: 0, count: 0x110000 / 64)
    mutating func insert(_ value: UInt32) { words[Int(value >> 6)] |= 1 << UInt64(value & 63) }
    func contains(_ value: UInt32) -> Bool { value < 0x110000 && words[Int(value >> 6)] & (1 << UInt64(value & 63)) != 0 }
}

/// One code point's cells by glibc's wcwidth (0 for what it does not know). The Hangul fillers
/// are default-ignorable (0 here, by Unicode) yet glibc gives them cells; terminals disagree with
/// each other: the one disagreement left out of both counts.
private func glibcWidth(_ value: UInt32) -> Int {
    if value == 0x115F || value == 0x3164 || value == 0xFFA0 { return 0 }
    return max(0, Int(wcwidth(Int32(bitPattern: value))))
}

/// One scalar's cells in a grapheme-clustering terminal (the `unicode` and `ghostty` counts):
/// glibc's wcwidth, but an East Asian Ambiguous scalar glibc draws takes `ambiguousWidth` cells
/// (a terminal set to narrow or wide ambiguous draws them all alike), and one that Unicode 16
/// made Wide takes 2: glibc 2.36 is on Unicode 14 (it widens U+4DC0–4DFF on its own, not
/// U+2630–2637 or U+1D300–1D356), and these terminals draw by Unicode 16 or later (Ghostty
/// does, measured: Tools/terminals/results/libghostty-vt-pyghostty-0.1.3-assigned.tsv).
private func clusteringTerminalWidth(_ value: UInt32, ambiguousWidth: Int) -> Int {
    let width = glibcWidth(value)
    if width > 0 && ambiguousCodePoints.contains(value) { return ambiguousWidth }
    return laterWideCodePoints.contains(value) ? 2 : width
}

/// The code points Unicode 15.0 assigns (Corpora/unicode/ucd) that became East Asian Wide or
/// Fullwidth later (Unicode 17.0, Corpora/unicode/ucd-17.0, Tools/fetch-ucd-17.sh): the 188 the
/// engine widens. Only those: the ones Wide in 15.0 already keep glibc's count, which is 0 for
/// the Wide marks (U+302A–302D…) and the Hangul filler U+3164 (the harness once gave every 17.0
/// Wide scalar 2 cells, and stopped on a line ending in U+3164:
/// Corpora/findings/render-hangul-filler-wide-in-17.jsonl).
private let laterWideCodePoints: CodePointBits = {
    let unassigned = ucdCodePoints(in: "DerivedGeneralCategory.txt", withValue: "Cn")
    let wide15 = ucdCodePoints(in: "DerivedEastAsianWidth.txt", withValue: "W")
    let full15 = ucdCodePoints(in: "DerivedEastAsianWidth.txt", withValue: "F")
    let wide = ucdCodePoints(in: "../ucd-17.0/EastAsianWidth.txt", withValue: "W")
    let full = ucdCodePoints(in: "../ucd-17.0/EastAsianWidth.txt", withValue: "F")
    var values = CodePointBits()
    var count = 0
    for value in UInt32(0)..<0x110000 where (wide.contains(value) || full.contains(value)) && !unassigned.contains(value)
        && !wide15.contains(value) && !full15.contains(value) {
        values.insert(value)
        count += 1
    }
    require(count == 188, "\(count) code points became Wide after Unicode 15.0, not 188")
    return values
}()

/// Cells by glibc's wcwidth, one code point at a time, as tmux 3.3a (the `wcwidth` profile's
/// terminal) draws them: glibc's count as it is, but a non-ASCII scalar after ZWJ adds nothing.
private func perCodePointWidth(_ text: String) -> Int {
    var total = 0
    var previous: UInt32 = 0
    for scalar in text.unicodeScalars {
        let value = scalar.value
        if !(previous == 0x200D && value >= 0x80) { total += glibcWidth(value) }
        previous = value
    }
    return total
}

/// Cells as a grapheme-clustering terminal draws `text` (the `unicode` profile's promise): the
/// clusters are the standard library's `Character`s (its segmentation, not our tables), each as
/// wide as its widest scalar by glibc's wcwidth: spacing marks, a run of Hangul L jamo, skin
/// tones, the second regional indicator and what follows a ZWJ in the cluster add nothing.
/// Emoji presentation widens a one-cell cluster to two: VS16 after a scalar of one cell, U+20E3
/// after a keycap base (# * 0-9), and a regional indicator pair (a flag). An East Asian Ambiguous
/// scalar glibc draws takes `ambiguousWidth` cells: glibc's own choice differs by code point
/// (U+324A is 2, U+2022 is 1), and a terminal set to narrow or wide ambiguous draws them all alike.
/// The standard library segments by Unicode 16: it joins more than 15.0 (the Indic conjunct rule
/// GB9c), which only lowers this count, and splits two things 15.0 joins, which are joined again
/// here (see `ClusterWidth.joins`; `RenderedLineWidthTests.standardLibraryGraphemesJoinAllThatUnicode15Joins`).
/// A cluster's width is a fold over its scalars, so the clusters are measured as they are found,
/// without holding their scalars (an array per cluster was a fifth of the harness's time).
private func perClusterWidth(_ text: String, ambiguousWidth: Int) -> Int {
    var total = 0
    var cluster = ClusterWidth()
    for character in text {
        let scalars = character.unicodeScalars
        if !cluster.isEmpty && !cluster.joins(scalars.first!.value) {
            total += cluster.width
            cluster = ClusterWidth()
        }
        for scalar in scalars { cluster.add(scalar.value, ambiguousWidth: ambiguousWidth) }
    }
    return total + cluster.width
}

/// Cells as Ghostty 1.3 and later draws `text` with mode 2027 on (the `ghostty` profile's
/// promise), from its `print` (src/terminal/Terminal.zig, src/unicode/grapheme.zig), without
/// our tables: per cluster of `clusters`, the first scalar's cells by glibc's wcwidth (a
/// regional indicator 2, an Ambiguous one `ambiguousWidth`); VS16/VS15 make the cell 2/1 after
/// a scalar with an emoji variation sequence and are ignored after others; a scalar up to U+00FF
/// and a skin-tone modifier not right after an Emoji_Modifier_Base take cells of their own; any
/// other scalar that is not zero in a grapheme (glibc 0, Mn, Me, Prepend, a modifier) makes the
/// cell 2. The standard library joins Indic conjuncts (GB9c) for more scripts than our Unicode
/// 15.1 rule does, which only lowers this count.
private func ghosttyWidth(_ text: String, ambiguousWidth: Int) -> Int {
    var total = 0
    for cluster in clusters(text) {
        var cell = 0
        var last: UInt32 = 0
        for (index, value) in cluster.enumerated() {
            // Every Ambiguous scalar takes the width chosen, those glibc widens on its own too
            // (U+3248–324F): Ghostty draws them all in 1 cell (GhosttyProfileTests).
            var width = clusteringTerminalWidth(value, ambiguousWidth: ambiguousWidth)
            if (0x1F1E6...0x1F1FF).contains(value) { width = 2 }
            let properties = Unicode.Scalar(value)!.properties
            if index == 0 || value <= 0xFF || cell == 0
                || (properties.isEmojiModifier && !(Unicode.Scalar(last)?.properties.isEmojiModifierBase ?? false)) {
                total += cell
                cell = width
            } else if value == 0xFE0F || value == 0xFE0E {
                guard variationBases.contains(last) else { continue }
                cell = value == 0xFE0F ? 2 : min(cell, 1)
            } else if !(width == 0 || properties.isEmojiModifier || properties.generalCategory == .nonspacingMark
                        || properties.generalCategory == .enclosingMark || unicode15.prepend.contains(value)) {
                cell = 2
            }
            last = value
        }
        total += cell
    }
    return total
}

/// The scalars with an emoji variation sequence, from the committed
/// Corpora/unicode/ucd/emoji-variation-sequences.txt ("BASE SELECTOR ; style ; …" lines).
private let variationBases: CodePointBits = {
    let path = #filePath.replacingOccurrences(of: "Tools/fuzz/fuzz-render.swift",
                                              with: "Corpora/unicode/ucd/emoji-variation-sequences.txt")
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        fputs("fuzz-render: cannot read \(path)\n", stderr)
        abort()
    }
    var bases = CodePointBits()
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        if let first = line.split(separator: " ").first, let value = UInt32(first, radix: 16) { bases.insert(value) }
    }
    return bases
}()

/// The standard library's `Character`s of `text` as scalar values, joined again where Unicode
/// 15.0 joins and the library does not (`ClusterWidth.joins`, the one statement of that rule).
private func clusters(_ text: String) -> [[UInt32]] {
    var result: [[UInt32]] = []
    var joiner = ClusterWidth()
    for character in text {
        let scalars = character.unicodeScalars.map(\.value)
        if !joiner.joins(scalars.first!) {
            result.append([])
            joiner = ClusterWidth()
        }
        for value in scalars { joiner.add(value, ambiguousWidth: 1) }
        result[result.count - 1].append(contentsOf: scalars)
    }
    return result
}

/// One cluster's width, folded over its scalars in order.
private struct ClusterWidth {
    private var widest = 0
    private var last = 0  // the cells of the cluster's last scalar that took any
    private var lastValue: UInt32 = 0  // that scalar
    private var indicators = 0
    private var emoji = false
    private var pictographic = false  // the cluster holds an Extended_Pictographic scalar (15.0)
    private var final: UInt32? = nil  // the cluster's last scalar, nil while it is empty

    var isEmpty: Bool { final == nil }

    var width: Int { emoji || indicators >= 2 ? max(widest, 2) : widest }

    /// Whether Unicode 15.0 joins a character starting with `first` to this cluster where the
    /// standard library (Swift 6.3) does not: GB11 after a ZWJ when the pictograph is an
    /// Extended_Pictographic scalar that is not an emoji (★ U+2605, ✁ U+2701, the mahjong and
    /// chess symbols: 689 of them), and GB9b after U+11A3A, Prepend in 15.0. The two properties
    /// are read from the committed UCD extract, Unicode 15.0.
    func joins(_ first: UInt32) -> Bool {
        guard let final else { return false }
        return (final == 0x200D && pictographic && unicode15.pictographic.contains(first))
            || (unicode15.prepend.contains(final) && first >= 0x20 && !(0x7F...0x9F).contains(first))
    }

    mutating func add(_ value: UInt32, ambiguousWidth: Int) {
        final = value
        if unicode15.pictographic.contains(value) { pictographic = true }
        if value == 0xFE0F {
            emoji = emoji || last == 1
            return
        }
        if value == 0x20E3 {
            emoji = emoji || (last == 1 && (lastValue == 0x23 || lastValue == 0x2A || (0x30...0x39).contains(lastValue)))
            return
        }
        if (0x1F1E6...0x1F1FF).contains(value) { indicators += 1 }
        let width = clusteringTerminalWidth(value, ambiguousWidth: ambiguousWidth)
        if width > 0 {
            last = width
            lastValue = value
            widest = max(widest, width)
        }
    }
}

/// Extended_Pictographic (emoji-data.txt) and Grapheme_Cluster_Break Prepend
/// (GraphemeBreakProperty.txt), Unicode 15.0, from Corpora/unicode/ucd.
private let unicode15 = (pictographic: ucdCodePoints(in: "emoji-data.txt", withValue: "Extended_Pictographic"),
                         prepend: ucdCodePoints(in: "GraphemeBreakProperty.txt", withValue: "Prepend"))
