/// A `RowLayout` in 16 bytes instead of 24, as the cache stores it: the height is left out (it is
/// the sum of the other fields) and every field gets the bits real rows need. A layout that does
/// not fit (over 16M text lines, an image over 255 rows, unknown chrome bits) is not packed: the
/// cache keeps it out of line instead, so packing never changes a layout.
///
/// word0: text lines 24 bits | x 16 | bubble width 16 | image rows 8
/// word1: wrap width 16 | image columns 16 | spacing 8 | kind 8 | alignment 2 | compact level 2 |
///        footer 2 | chrome parts 7 | 3 flag bits the cache table uses.
struct PackedRowLayout {
    var word0: UInt64
    var word1: UInt64

    init(word0: UInt64, word1: UInt64) {
        self.word0 = word0
        self.word1 = word1
    }

    /// `layout` packed, or nil when it does not fit exactly.
    init?(_ layout: RowLayout) {
        guard layout.storedTextLines < 1 << 24, layout.storedImageRows < 1 << 8,
              layout.parts.rawValue < 1 << 7, layout.alignment.rawValue < 4,
              layout.compactLevel.rawValue < 4, layout.footer.rawValue < 4 else { return nil }
        word0 = UInt64(layout.storedTextLines) | UInt64(layout.storedX) << 24
            | UInt64(layout.storedBubbleWidth) << 40 | UInt64(layout.storedImageRows) << 56
        word1 = UInt64(layout.storedWrapWidth) | UInt64(layout.storedImageColumns) << 16
            | UInt64(layout.storedSpacingAbove) << 32 | UInt64(layout.kind.rawValue) << 40
            | UInt64(layout.alignment.rawValue) << 48 | UInt64(layout.compactLevel.rawValue) << 50
            | UInt64(layout.footer.rawValue) << 52 | UInt64(layout.parts.rawValue) << 54
        // The height is recomputed on unpacking; a layout whose stored height is not that sum
        // (only possible through release-build clamping, which debug builds refuse) stays unpacked.
        guard self.layout == layout else { return nil }
    }

    var layout: RowLayout {
        RowLayout(storedTextLines: UInt32(truncatingIfNeeded: word0 & 0xFF_FFFF),
                  x: UInt16(truncatingIfNeeded: word0 >> 24),
                  bubbleWidth: UInt16(truncatingIfNeeded: word0 >> 40),
                  wrapWidth: UInt16(truncatingIfNeeded: word1),
                  imageColumns: UInt16(truncatingIfNeeded: word1 >> 16),
                  imageRows: UInt16(truncatingIfNeeded: word0 >> 56),
                  kind: RowKind(rawValue: UInt8(truncatingIfNeeded: word1 >> 40)),
                  alignment: RowAlignment(rawValue: UInt8(truncatingIfNeeded: word1 >> 48) & 3) ?? .left,
                  compactLevel: CompactLevel(rawValue: UInt8(truncatingIfNeeded: word1 >> 50) & 3) ?? .full,
                  parts: ChromeParts(rawValue: UInt8(truncatingIfNeeded: word1 >> 54) & 0x7F),
                  footer: FooterPlacement(rawValue: UInt8(truncatingIfNeeded: word1 >> 52) & 3) ?? .none,
                  spacingAbove: UInt8(truncatingIfNeeded: word1 >> 32))
    }
}
