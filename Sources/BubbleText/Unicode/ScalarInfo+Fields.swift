/// The fields of `ScalarInfo.raw` (laid out as `ScalarInfo` documents) as masks, so that a test
/// of several fields at once is one AND and one compare that still names what it looks at. The
/// single-field accessors of `ScalarInfo` agree with them (`PreparerInvariantTests`).
extension ScalarInfo {
    static let graphemeBreakMask: UInt32 = 0xF
    static let lineBreakMask: UInt32 = 0x3F << 4
    static let widthMask: UInt32 = 0x3 << 10
    static let ambiguousBit: UInt32 = 1 << 12
    static let neutralisedControlBit: UInt32 = 1 << 13
    static let extendedPictographicBit: UInt32 = 1 << 14
    static let emojiPresentationBit: UInt32 = 1 << 15
    static let eastAsianFullWideHalfBit: UInt32 = 1 << 16
    static let unassignedPictographicBit: UInt32 = 1 << 17
    static let emojiModifierBit: UInt32 = 1 << 18
    /// Grapheme_Cluster_Break=Prepend, which a grapheme's width must count (see `isPrepend`).
    static let prependBit: UInt32 = 1 << 19
    /// Grapheme_Cluster_Break=Extend, ZWJ or SpacingMark (see `attachesToPrevious`).
    static let attachingBit: UInt32 = 1 << 20
    /// Every flag bit: those above, and any the generator adds later (above the width), so a
    /// test that wants a scalar with no flag set also turns away one with a flag it has not met.
    static let flagsMask: UInt32 = ~(graphemeBreakMask | lineBreakMask | widthMask)

    /// The bits of `raw` that hold grapheme-break property `value`.
    @inline(__always)
    static func field(graphemeBreak value: GraphemeBreakProperty) -> UInt32 { UInt32(value.rawValue) }

    /// The bits of `raw` that hold line-break class `value`.
    @inline(__always)
    static func field(lineBreak value: LineBreakClass) -> UInt32 { UInt32(value.rawValue) << 4 }

    /// The bits of `raw` that hold a width of `cells` (0, 1 or 2).
    @inline(__always)
    static func field(width cells: UInt32) -> UInt32 { cells << 10 }
}
