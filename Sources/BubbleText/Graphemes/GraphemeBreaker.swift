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
public struct GraphemeBreaker: Hashable, Sendable {
    /// Raw `GraphemeBreakProperty` of the previous scalar, or `startOfText` before the first.
    private var previous: UInt8 = Self.startOfText
    /// GB11 progress: 0 none, 1 after `ExtPict Extend*`, 2 after `ExtPict Extend* ZWJ`.
    private var emojiState: UInt8 = 0
    /// The regional indicators just before this scalar form an odd-length run (GB12, GB13).
    private var oddRegionalIndicators = false

    private static let startOfText: UInt8 = 14

    public init() {}

    /// Forgets everything fed so far: the next scalar starts a grapheme (GB1).
    public mutating func reset() { self = GraphemeBreaker() }

    /// Feeds the next scalar's table entry and says whether a grapheme boundary falls before it.
    /// The first scalar after `init()` or `reset()` always starts a grapheme.
    public mutating func breaksBefore(_ info: ScalarInfo) -> Bool {
        let current = UInt8(truncatingIfNeeded: info.raw & 0xF)
        let regionalIndicator = GraphemeBreakProperty.regionalIndicator.rawValue
        var joins = Self.joinMask(after: previous) & (1 << UInt16(current)) != 0
        if current == regionalIndicator && previous == regionalIndicator {
            joins = oddRegionalIndicators  // GB12, GB13: pair them from the start of the run
        } else if emojiState == 2 && info.isExtendedPictographic {
            joins = true  // GB11: ExtPict Extend* ZWJ × ExtPict
        }

        if info.isExtendedPictographic {
            emojiState = 1
        } else if emojiState == 1 && current == GraphemeBreakProperty.extend.rawValue {
            emojiState = 1
        } else if emojiState == 1 && current == GraphemeBreakProperty.zwj.rawValue {
            emojiState = 2
        } else {
            emojiState = 0
        }
        oddRegionalIndicators = current == regionalIndicator
            && !(previous == regionalIndicator && oddRegionalIndicators)
        previous = current
        return !joins
    }

    /// Bit `p` set: no boundary between a scalar of property `previous` and one of raw property `p`.
    /// Covers GB3–GB9b; GB11–GB13 need state and are applied by `breaksBefore(_:)`.
    private static func joinMask(after previous: UInt8) -> UInt16 {
        let extending = bit(.extend) | bit(.zwj) | bit(.spacingMark)  // GB9, GB9a
        switch GraphemeBreakProperty(rawValue: previous) {
        case nil: return 0  // GB1: start of text
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
        1 << UInt16(property.rawValue)
    }
}
