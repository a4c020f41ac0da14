import BubbleText

/// Where a text with right-to-left characters changes bidi level, by grapheme: Chromium lays
/// each run of one level out as an item of its own (shaped apart, its width rounded up to a
/// LayoutUnit apart), so a Hebrew sentence ending in `?` (resolved left to right in a
/// left-to-right block) is two items, and its width two roundings.
struct BidiItems {
    /// Per grapheme, true when an item ends after it.
    let endsAfter: [Bool]

    /// The items of `text` (prepared as `prepared`) in a left-to-right block (CSS `direction:
    /// ltr`, no `dir`); nil when the text has no right-to-left character (one item per line).
    init?(_ text: String, prepared: PixelPreparedText) {
        guard text.unicodeScalars.contains(where: { Self.mayBeRightToLeft($0.value) }) else { return nil }
        let starts = prepared.starts
        var ends = [Bool](repeating: false, count: starts.count)
        // Scalar levels by paragraph (a newline ends one); each grapheme takes its first scalar's.
        var levelAtUTF8: [Int: UInt8] = [:]
        var offset = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let scalars = line.unicodeScalars.map(\.value)
            let levels = BidiParagraph(scalars: scalars, direction: .leftToRight).scalarLevels
            for (scalar, level) in zip(line.unicodeScalars, levels) {
                if level != BidiResolver.removed { levelAtUTF8[offset] = level }
                offset += scalar.utf8.count
            }
            offset += 1
        }
        var previous: UInt8?
        for g in starts.indices {
            guard let level = levelAtUTF8[Int(starts[g])] else { continue }
            if let previous, previous != level, g > 0 { ends[g - 1] = true }
            previous = level
        }
        endsAfter = ends
    }

    /// A quick test: blocks whose characters may be right to left (Hebrew, Arabic, Syriac,
    /// Thaana, N'Ko, Samaritan, Mandaic, their presentation forms, the RTL marks and overrides).
    static func mayBeRightToLeft(_ scalar: UInt32) -> Bool {
        (0x0590...0x08FF).contains(scalar) || (0xFB1D...0xFDFF).contains(scalar) || (0xFE70...0xFEFF).contains(scalar)
            || (0x10800...0x10FFF).contains(scalar) || (0x1E800...0x1EFFF).contains(scalar)
            || scalar == 0x200F || scalar == 0x202B || scalar == 0x202E || scalar == 0x2067
    }
}

extension PixelPreparedText {
    /// `naturalWidth` with each item of `items` rounded up on its own, and no kerning between
    /// two items (they are shaped apart).
    func naturalWidth(items: BidiItems) -> Int {
        if tabSpace1616 != nil { return naturalWidth }
        return withColumns { c in
            var widest = 0, line = 0, running = 0
            for g in 0..<graphemeCount {
                let hardBreak = c.breakAfter[g] & Self.breakMask == 2
                if !(hardBreak && c.isSpace[g]) { running &+= Int(c.advances[g]) }
                if hardBreak || g == graphemeCount - 1 {
                    widest = max(widest, line + FontScale.layoutUnits(running))
                    (line, running) = (0, 0)
                } else if items.endsAfter[g] {
                    line += FontScale.layoutUnits(running)
                    running = 0
                } else {
                    running &+= Int(c.kernAfter[g])
                }
            }
            return widest
        }
    }
}
