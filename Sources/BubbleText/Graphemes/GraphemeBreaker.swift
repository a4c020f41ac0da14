/// Finds extended grapheme cluster boundaries (UAX #29, Unicode 15.0 rules GB1–GB999) in a
/// stream of scalars fed one at a time, so a caller can segment inside its own scalar loop.
///
/// ```swift
/// var breaker = GraphemeBreaker()
/// for scalar in text.unicodeScalars {
///     let info = UnicodeTables.info(scalar.value)
///     if breaker.breaksBefore(info) { /* a new grapheme starts at this scalar */ }
/// }
/// ```
///
/// Unicode 15.0 has no Indic conjunct rule (GB9c, added in 15.1), so a virama followed by a
/// consonant is a boundary here.
package struct GraphemeBreaker: Hashable, Sendable {
    /// Bit `p` set: no boundary between the previous scalar and one of raw property `p` (GB3–GB9b).
    private var joinMask: UInt16 = 0  // GB1: nothing joins the start of text
    /// The previous scalar was a regional indicator ending an odd-length run (GB12, GB13).
    private var oddRegionalIndicators = false
    /// GB11 progress: 0 none, 1 after `ExtPict Extend*`, 2 after `ExtPict Extend* ZWJ`.
    private var emojiState: UInt8 = 0

    package init() {}

    /// Forgets everything fed so far: the next scalar starts a grapheme (GB1).
    package mutating func reset() { self = GraphemeBreaker() }

    /// Feeds the next scalar's table entry and says whether a grapheme boundary falls before it.
    /// The first scalar after `init()` or `reset()` always starts a grapheme.
    @inline(__always)
    package mutating func breaksBefore(_ info: ScalarInfo) -> Bool {
        step(info)
    }

    /// `breaksBefore(_:)` for the preparer's loop: guaranteed inline (the hint alone can be ignored
    /// in the large loop, costing a call per scalar).
    @inline(always)
    mutating func step(_ info: ScalarInfo) -> Bool {
        let property = UInt8(truncatingIfNeeded: info.raw & ScalarInfo.graphemeBreakMask)
        var joins = joinMask & Self.bit(value: property) != 0
        let pictographic = info.isExtendedPictographic
        if property == Self.regionalIndicator {
            // GB12, GB13: pair them from the start of the run (the flag is only set after an RI).
            if oddRegionalIndicators { joins = true }
            oddRegionalIndicators.toggle()
        } else {
            oddRegionalIndicators = false
            if emojiState == 2 && pictographic { joins = true }  // GB11
        }
        if pictographic {
            emojiState = 1
        } else if emojiState != 0 {
            emojiState = property == Self.extend && emojiState == 1 ? 1 : property == Self.zwj && emojiState == 1 ? 2 : 0
        }
        joinMask = Self.joinMask(after: property)
        return !joins
    }

    /// True when a scalar of property Other that is neither Extended_Pictographic nor a regional
    /// indicator would join the grapheme before it (only after Prepend, GB9b).
    @inline(always)
    var joinsOther: Bool { joinMask & Self.bit(.other) != 0 }

    /// True when `info`'s scalar would join the grapheme before it by GB3–GB9b (the pair rules;
    /// GB11–GB13 aside).
    @inline(always)
    func joins(_ info: ScalarInfo) -> Bool { joinMask & Self.bit(value: UInt8(truncatingIfNeeded: info.raw & ScalarInfo.graphemeBreakMask)) != 0 }

    /// Advances as `step(_:)` would for a scalar that is neither Extended_Pictographic nor a
    /// regional indicator, whose boundary the caller already knows.
    @inline(always)
    mutating func assume(_ info: ScalarInfo) {
        joinMask = Self.joinMask(after: UInt8(truncatingIfNeeded: info.raw & ScalarInfo.graphemeBreakMask))
        oddRegionalIndicators = false
        emojiState = 0
    }

    /// Advances as `step(_:)` would for a scalar of property Other that is neither
    /// Extended_Pictographic nor a regional indicator, whose boundary the caller already knows.
    @inline(always)
    mutating func assumeOther() {
        joinMask = Self.joinMask(after: GraphemeBreakProperty.other.rawValue)
        oddRegionalIndicators = false
        emojiState = 0
    }

    private static let regionalIndicator = GraphemeBreakProperty.regionalIndicator.rawValue
    private static let extend = GraphemeBreakProperty.extend.rawValue
    private static let zwj = GraphemeBreakProperty.zwj.rawValue

    /// Which properties join after a scalar of raw property `previous` (GB3–GB9b). GB11–GB13
    /// need state and are applied by `breaksBefore(_:)`.
    @inline(always)
    private static func joinMask(after previous: UInt8) -> UInt16 {
        let extending = bit(.extend) | bit(.zwj) | bit(.spacingMark)  // GB9, GB9a
        // The tables only hold valid properties.
        switch GraphemeBreakProperty(tableValue: previous) {
        case .cr: return bit(.lf)  // GB3, GB4
        case .lf, .control: return 0  // GB4
        case .prepend: return ~(bit(.cr) | bit(.lf) | bit(.control))  // GB9b, less GB5
        case .l: return extending | bit(.l) | bit(.v) | bit(.lv) | bit(.lvt)  // GB6
        case .lv, .v: return extending | bit(.v) | bit(.t)  // GB7
        case .lvt, .t: return extending | bit(.t)  // GB8
        case .other, .extend, .zwj, .regionalIndicator, .spacingMark: return extending
        }
    }

    @inline(__always)
    private static func bit(_ property: GraphemeBreakProperty) -> UInt16 {
        bit(value: property.rawValue)
    }

    /// The bit of a join mask for raw property `value`.
    @inline(__always)
    private static func bit(value: UInt8) -> UInt16 {
        1 << UInt16(value)
    }
}
