/// Grapheme_Cluster_Break property values (UAX #29), as stored in the generated tables.
package enum GraphemeBreakProperty: UInt8, Sendable, CaseIterable {
    case other, cr, lf, control, extend, zwj, regionalIndicator, prepend, spacingMark, l, v, t, lv, lvt
}

/// Line_Break classes (UAX #14) after rule LB1's resolution, as stored in the generated tables.
///
/// LB1 is applied by the table generator: AI, SG and XX become AL; CJ becomes NS; SA becomes CM
/// for General_Category Mn or Mc and AL otherwise. Those classes therefore never appear here.
@usableFromInline package enum LineBreakClass: UInt8, Sendable, CaseIterable {
    case bk, cr, lf, cm, nl, wj, zw, gl, sp, zwj
    case b2, ba, bb, hy, cb, cl, cp, ex, `in`, ns, op, qu, `is`, nu, po, pr, sy
    case al, eb, em, h2, h3, hl, id, jl, jv, jt, ri
}

/// Everything the hot path needs to know about one scalar, from a single table lookup.
///
/// Bit layout of `raw` (the generator writes these values; keep the two in step):
/// - bits 0–3: `GraphemeBreakProperty`
/// - bits 4–9: `LineBreakClass`
/// - bits 10–11: cell width of the scalar alone (0, 1 or 2) from East_Asian_Width and the
///   zero-width rule (Mn, Me, default-ignorables, Hangul V/T jamo, tab and the mandatory breaks);
///   unassigned Extended_Pictographic scalars are 2. A neutralised control (bit 13) holds 1 here:
///   it draws as `ControlNotation.visibleWidth(of:)` cells, which callers must use instead.
/// - bit 12: East_Asian_Width is Ambiguous
/// - bit 13: neutralised control (C0 less tab and breaks, DEL, C1 less NEL, bidi controls)
/// - bit 14: Extended_Pictographic
/// - bit 15: Emoji_Presentation
/// - bit 16: East_Asian_Width is F, W or H (UAX #14 LB30 excludes these from OP and CP)
/// - bit 17: Extended_Pictographic and unassigned (UAX #14 LB30b)
/// - bit 18: Emoji_Modifier
/// - bit 19: Grapheme_Cluster_Break is Prepend (the same as bits 0–3 say, as one bit, so that the
///   width reader's one-bit test sends these scalars off its common path)
/// - bit 20: Grapheme_Cluster_Break is Extend, ZWJ or SpacingMark: joins the scalar before it
///   (GB9, GB9a), so one that starts a grapheme has nothing of its own to modify
package struct ScalarInfo: Hashable, Sendable {
    package let raw: UInt32

    @inlinable package init(raw: UInt32) { self.raw = raw }

    @inlinable package var graphemeBreak: GraphemeBreakProperty {
        GraphemeBreakProperty(tableValue: UInt8(truncatingIfNeeded: raw & 0xF))
    }
    @inlinable package var lineBreak: LineBreakClass {
        LineBreakClass(tableValue: UInt8(truncatingIfNeeded: (raw >> 4) & 0x3F))
    }
    /// `lineBreak` without the checked enum conversion: the generated tables only hold valid
    /// classes, and the hot loop cannot afford a call per scalar.
    @inlinable @inline(__always)
    var lineBreakClass: LineBreakClass {
        LineBreakClass(tableValue: UInt8(truncatingIfNeeded: (raw >> 4) & 0x3F))
    }
    @inlinable package var width: Int { Int((raw >> 10) & 0x3) }
    @inlinable package var isAmbiguous: Bool { raw & (1 << 12) != 0 }
    @inlinable package var isNeutralisedControl: Bool { raw & (1 << 13) != 0 }
    @inlinable package var isExtendedPictographic: Bool { raw & (1 << 14) != 0 }
    @inlinable package var isEmojiPresentation: Bool { raw & (1 << 15) != 0 }
    @inlinable package var isEastAsianFullWideHalf: Bool { raw & (1 << 16) != 0 }
    @inlinable package var isUnassignedPictographic: Bool { raw & (1 << 17) != 0 }
    @inlinable package var isEmojiModifier: Bool { raw & (1 << 18) != 0 }
    @inlinable package var isPrepend: Bool { raw & (1 << 19) != 0 }
    /// Grapheme_Cluster_Break is Extend, ZWJ or SpacingMark (GB9, GB9a: it joins what is before it).
    @inlinable package var attachesToPrevious: Bool { raw & (1 << 20) != 0 }
}
