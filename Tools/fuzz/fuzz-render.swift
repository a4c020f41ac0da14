// libFuzzer harness: the renderer, over JSON Lines read as the CLI reads them, at a width, colour
// depth, border set and ambiguous width taken from the input's hash.
// Invariants: every row draws exactly its layout's height; a bubble's content lines end on its
// right border (as wide as measured); no line is wider than the width, by
// the engine's measure and by an independent per-code-point count (glibc's wcwidth) of what was
// written; the only escape sequences are our SGR (none with colour off), and no control, C1 or
// bidi control is written raw.
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
    // Both width profiles: `unicode` (graphemes, emoji presentation) and `wcwidth` (per code
    // point, as tmux 3.3a draws), each checked against the count below made the same way.
    let profile: WidthProfile = (hash >> 6) & 3 == 0 ? .wcwidth : .unicode
    let options = TextOptions(ambiguousWidth: (hash >> 2) & 7 == 0 ? 2 : 1, tabStop: (hash >> 5) & 1 == 0 ? 8 : 4,
                              widthProfile: profile)
    let engine = LayoutEngine(textOptions: options)
    guard let rows = try? engine.decorate(models, options: utcDecoration) else { return 0 }
    var renderer = TranscriptRenderer(engine: engine, options: RenderOptions(
        width: width, colorDepth: depth, asciiBorders: (hash >> 4) & 1 == 1, timeZone: utc))
    let pool = CellPool()
    for (index, row) in rows.enumerated() {
        let layout = engine.layout(row, in: models, width: width, pool: pool)
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
            let counted = perCodePointWidth(plain, emojiPresentation: profile == .unicode,
                                            ambiguousWidth: profile == .unicode ? options.ambiguousWidth : nil)
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
private let ambiguousCodePoints: AmbiguousBits = {
    let path = #filePath.replacingOccurrences(of: "Tools/fuzz/fuzz-render.swift", with: "Corpora/unicode/ucd/DerivedEastAsianWidth.txt")
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        fputs("fuzz-render: cannot read \(path)\n", stderr)
        abort()
    }
    var values = AmbiguousBits()
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        let fields = line.split(separator: "#")[0].split(separator: ";")
        guard fields.count == 2, fields[1].trimmingCharacters(in: .whitespaces) == "A" else { continue }
        let range = fields[0].trimmingCharacters(in: .whitespaces).components(separatedBy: "..")
        guard let first = UInt32(range[0], radix: 16), let last = UInt32(range.last!, radix: 16) else { continue }
        for value in first...last { values.insert(value) }
    }
    return values
}()

/// A set of code points as bits.
private struct AmbiguousBits {
    private var words = [UInt64](repeating: 0, count: 0x110000 / 64)
    mutating func insert(_ value: UInt32) { words[Int(value >> 6)] |= 1 << UInt64(value & 63) }
    func contains(_ value: UInt32) -> Bool { value < 0x110000 && words[Int(value >> 6)] & (1 << UInt64(value & 63)) != 0 }
}

/// Cells by glibc's wcwidth, one code point at a time, with the few sequences a terminal draws as
/// one emoji: a scalar after ZWJ and a skin tone after a visible scalar add nothing, VS16 and a
/// keycap mark widen a one-cell scalar to two, and a second regional indicator pairs with the
/// first. Without `emojiPresentation` (a terminal such as tmux 3.3a, the `wcwidth` profile's),
/// only the ZWJ join is kept: the rest is glibc's count as it is.
/// With `ambiguousWidth` (the `unicode` profile, which follows the user's choice for East Asian
/// Ambiguous as terminals offer it), an Ambiguous code point glibc draws takes that many cells:
/// glibc's own choice differs by code point (U+324A CIRCLED NUMBER FIFTY ON BLACK SQUARE is 2,
/// U+2022 BULLET is 1), and a terminal set to narrow or wide ambiguous draws them all alike.
private func perCodePointWidth(_ text: String, emojiPresentation: Bool, ambiguousWidth: Int?) -> Int {
    var total = 0
    var previous: UInt32 = 0
    var base: UInt32 = 0  // the last scalar that took cells, and the cells it took
    var baseWidth = 0
    var unpairedIndicator = false
    for scalar in text.unicodeScalars {
        let value = scalar.value
        let indicator = (0x1F1E6...0x1F1FF).contains(value)
        var width = max(0, Int(wcwidth(Int32(bitPattern: value))))
        // The Hangul fillers are default-ignorable (0 here, by Unicode) yet glibc gives them cells;
        // terminals disagree with each other. The one disagreement left out of this count.
        if value == 0x115F || value == 0x3164 || value == 0xFFA0 { width = 0 }
        if let ambiguousWidth, width > 0, ambiguousCodePoints.contains(value) { width = ambiguousWidth }
        if !emojiPresentation {
            if previous == 0x200D && value >= 0x80 { width = 0 }
        } else if previous == 0x200D || ((0x1F3FB...0x1F3FF).contains(value) && baseWidth > 0) {
            width = 0
        } else if value == 0xFE0F || (value == 0x20E3 && (base == 0x23 || base == 0x2A || (0x30...0x39).contains(base))) {
            width = baseWidth == 1 ? 1 : 0
            baseWidth += width
        } else if indicator && unpairedIndicator {
            width = 0
        }
        unpairedIndicator = indicator && !unpairedIndicator
        if width > 0 && value != 0xFE0F && value != 0x20E3 {
            base = value
            baseWidth = width
        }
        total += width
        previous = value
    }
    return total
}
