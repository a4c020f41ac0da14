/// What UAX #14 allows between two scalars.
package enum LineBreakOpportunity: UInt8, Sendable {
    /// The line must not break here.
    case prohibited
    /// The line may break here.
    case allowed
    /// The line must break here (after BK, CR, LF or NL: LB4, LB5).
    case mandatory
}

/// UAX #14 line breaking (Unicode 15.0) over a stream of scalars, one call per scalar.
///
/// Feed every scalar's `ScalarInfo` in order to `opportunity(before:)`; it answers whether a line
/// may break between the previous scalar and this one. The first scalar of a text never gets a
/// break (LB2) and the end of the text always breaks (LB3): the caller handles both ends.
///
/// Numbers follow the tailoring of UAX #14 section 8.2, example 7, which LineBreakTest.txt uses.
/// Its first rule, `(PR | PO) × (OP | HY)? NU`, looks one unit ahead: when `needsLookahead(for:)`
/// says so, the caller passes whether the next scalar that is not CM or ZWJ has class NU.
package struct LineBreaker: Sendable {
    /// Effective class of the last unit (after LB9 attachment and LB10).
    @usableFromInline var previous: LineBreakClass = .bk
    /// Effective class of the unit before the last one (LB21a).
    @usableFromInline var beforePrevious: LineBreakClass = .bk
    /// Effective class of the last unit before the current run of spaces (LB8, LB14–LB17).
    @usableFromInline var beforeSpaces: LineBreakClass = .bk
    @usableFromInline var atStart = true
    /// The previous scalar itself was a ZWJ (LB8a looks at the raw scalar).
    @usableFromInline var previousWasZWJ = false
    /// The last unit's base is an OP/CP/... of East Asian Width F, W or H (LB30).
    @usableFromInline var previousIsWide = false
    /// The last unit's base is an unassigned Extended_Pictographic code point (LB30b).
    @usableFromInline var previousIsUnassignedPictographic = false
    /// Regional indicators in the run ending at the last unit (LB30a).
    @usableFromInline var regionalIndicatorRun = 0
    /// The last unit ends `NU (NU | SY | IS)*` (LB25).
    @usableFromInline var inNumber = false
    /// The last unit ends `NU (NU | SY | IS)* (CL | CP)` (LB25).
    @usableFromInline var closedNumber = false

    @usableFromInline let pairs: LineBreakPairTable
    /// Blink's tailoring (`init(breaksAfterSpaces:)`).
    @usableFromInline let breaksAfterSpaces: Bool

    package init() {
        pairs = LineBreakPairTable.shared
        breaksAfterSpaces = false
    }

    /// A breaker that, with `breaksAfterSpaces`, tailors UAX #14 as Blink (Chromium's layout) does:
    /// a line may break after a run of spaces before anything but a space or a mandatory break,
    /// where UAX #14 forbids it before CL, CP, EX, IS and SY (LB13: `下午 ！`, `はい 」`), after OP, QU
    /// and B2 (LB14, LB15, LB17) and between CL or CP and NS (LB16). Blink's line breaker breaks
    /// after every run of breakable spaces before asking ICU about the rest. The pixel measurer
    /// uses it; terminal cells and the conformance tests use plain UAX #14 (`init()`).
    package init(breaksAfterSpaces: Bool) {
        pairs = LineBreakPairTable.shared
        self.breaksAfterSpaces = breaksAfterSpaces
    }

    /// A breaker over a pair table the caller has already fetched (`LineBreakPairTable.shared`),
    /// so that a loop preparing many texts pays its lazy-global check once per text, not twice.
    @usableFromInline
    init(pairs: LineBreakPairTable) {
        self.pairs = pairs
        breaksAfterSpaces = false
    }

    /// True when the LB25 lookahead matters for `info`: the caller then tells
    /// `opportunity(before:nextIsNumber:)` whether the next non-CM, non-ZWJ scalar has class NU.
    @inlinable @inline(__always)
    package func needsLookahead(for info: ScalarInfo) -> Bool {
        let current = info.lineBreakClass
        return (current == .op || current == .hy) && (previous == .pr || previous == .po) && !atStart
    }

    /// The break opportunity between the previous scalar and the one described by `info`,
    /// then advances past it.
    @inlinable @inline(always)
    package mutating func opportunity(before info: ScalarInfo, nextIsNumber: Bool = false) -> LineBreakOpportunity {
        let raw = info.lineBreakClass
        if atStart {
            atStart = false
            start(raw, info)
            return .prohibited
        }
        let result = decide(raw, info, nextIsNumber: nextIsNumber)
        advance(raw, info)
        return result
    }

    /// Fast path for an alphabetic scalar right after another one: AL × AL (LB28), and no rule
    /// before LB28 can apply. Advances exactly as `opportunity(before:)` would and returns true;
    /// returns false (without advancing) when the previous unit is not a plain AL.
    @inlinable @inline(__always)
    package mutating func continuesAlphabeticRun(_ info: ScalarInfo) -> Bool {
        guard (previous == .al || previous == .hl) && !previousWasZWJ && !atStart else { return false }
        beforePrevious = previous
        previous = info.lineBreakClass
        beforeSpaces = previous
        inNumber = false
        closedNumber = false
        regionalIndicatorRun = 0
        previousIsWide = info.isEastAsianFullWideHalf
        previousIsUnassignedPictographic = info.isUnassignedPictographic
        return true
    }

    /// Finishes a run of letters that `continuesAlphabeticRun(_:)` began and the caller read on
    /// (letters, and spaces between words, LB18): the last unit is a letter of raw class `last`
    /// (AL or HL) and the one before it of raw class `beforeLast` (AL, HL or SP).
    @inline(__always)
    mutating func endLetterRun(last: UInt32, beforeLast: UInt32) {
        // Both are classes read from the table (AL, HL or SP).
        let lastClass = LineBreakClass(tableValue: UInt8(truncatingIfNeeded: last))
        previous = lastClass
        beforeSpaces = lastClass
        beforePrevious = LineBreakClass(tableValue: UInt8(truncatingIfNeeded: beforeLast))
    }

    /// Fast path for a space (class SP, never wide or pictographic) after anything but the start
    /// of text or a mandatory break: no break before it (LB7). Advances exactly as
    /// `opportunity(before:)` would and returns true; returns false (without advancing) otherwise.
    @inline(always)
    mutating func continuesWithSpace(_ info: ScalarInfo) -> Bool {
        switch previous {
        case .bk, .cr, .lf, .nl: return false
        default: break
        }
        if atStart { return false }
        previousWasZWJ = false
        beginUnit(.sp, info)
        return true
    }

    /// Fast path for a scalar that is none of BK, CR, LF, NL, ZW, SP, CM and ZWJ, after a unit
    /// that is none of BK, CR, LF, NL and ZW: the pair table decides, directly (LB11–LB31) or
    /// across spaces (LB14–LB18). Advances exactly as `opportunity(before:)` would and returns the
    /// opportunity; returns nil, without advancing, where a rule needs context (the pair is
    /// flagged contextual, the last scalar was a ZWJ, or the text has just started).
    @inline(always)
    mutating func simpleOpportunity(before info: ScalarInfo) -> LineBreakOpportunity? {
        if atStart || previousWasZWJ { return nil }
        let right = info.lineBreakClass
        let result: LineBreakOpportunity
        switch previous {
        case .bk, .cr, .lf, .nl, .zw:
            return nil
        case .sp:
            if beforeSpaces == .zw { return nil }
            let entry = pairs.entry(beforeSpaces, right)
            result = entry & LineBreakPairTable.noBreakAcrossSpaces != 0 && !breaksAfterSpaces ? .prohibited : .allowed
        default:
            let entry = pairs.entry(previous, right)
            if entry & LineBreakPairTable.contextual != 0 { return nil }
            result = entry & LineBreakPairTable.noBreakAdjacent != 0 ? .prohibited : .allowed
        }
        beginUnit(right, info)
        return result
    }

    /// Advances as if a unit of `info`'s class had just been read after one of class `before`,
    /// for callers that checked a run of scalars themselves (neither CM nor ZWJ, nor SP).
    @inline(__always)
    mutating func assumeUnit(_ info: ScalarInfo, after before: LineBreakClass) {
        previous = before
        previousWasZWJ = false
        atStart = false
        beginUnit(info.lineBreakClass, info)
    }

    @inlinable @inline(__always)
    mutating func start(_ raw: LineBreakClass, _ info: ScalarInfo) {
        // LB10 at the start of text: a lone CM or ZWJ counts as AL.
        let effective: LineBreakClass = (raw == .cm || raw == .zwj) ? .al : raw
        beginUnit(effective, info)
        previousWasZWJ = raw == .zwj
    }

    @inlinable @inline(always)
    func decide(_ raw: LineBreakClass, _ info: ScalarInfo, nextIsNumber: Bool) -> LineBreakOpportunity {
        // LB4, LB5: after BK, CR, LF, NL (CR × LF).
        switch previous {
        case .bk, .lf, .nl: return .mandatory
        case .cr: return raw == .lf ? .prohibited : .mandatory
        default: break
        }
        switch raw {
        // LB6, LB7
        case .bk, .cr, .lf, .nl, .sp, .zw: return .prohibited
        default: break
        }
        // LB8: ZW SP* ÷
        if previous == .zw || (previous == .sp && beforeSpaces == .zw) { return .allowed }
        // LB8a
        if previousWasZWJ { return .prohibited }
        // LB9: X (CM | ZWJ)* keeps X's class; the left side here is never BK, CR, LF, NL or ZW.
        var right = raw
        if raw == .cm || raw == .zwj {
            if previous != .sp { return .prohibited }
            right = .al  // LB10
        }
        if previous == .sp {
            if breaksAfterSpaces { return .allowed }  // Blink: after a run of spaces
            let entry = pairs.entry(beforeSpaces, right)
            return entry & LineBreakPairTable.noBreakAcrossSpaces != 0 ? .prohibited : .allowed  // LB18
        }
        let left = previous
        let entry = pairs.entry(left, right)
        if entry & LineBreakPairTable.noBreakAdjacent != 0 { return .prohibited }
        if entry & LineBreakPairTable.contextual != 0
            && contextForbidsBreak(left: left, right: right, info: info, nextIsNumber: nextIsNumber) {
            return .prohibited
        }
        return .allowed
    }

    /// The contextual rules flagged by the pair table. Each is checked with its full condition,
    /// because one pair can be flagged by more than one rule.
    @inlinable
    func contextForbidsBreak(left: LineBreakClass, right: LineBreakClass, info: ScalarInfo, nextIsNumber: Bool) -> Bool {
        switch left {
        case .hy, .ba:
            // LB21a: HL (HY | BA) ×
            if beforePrevious == .hl { return true }
        case .pr, .po:
            // LB25: (PR | PO) × (OP | HY) NU
            if (right == .op || right == .hy) && nextIsNumber { return true }
        case .sy, .is:
            // LB25: NU (NU | SY | IS)* × NU and NU (NU | SY | IS)* × (PR | PO)
            if (right == .nu || right == .pr || right == .po) && inNumber { return true }
        case .cl:
            // LB25: NU (NU | SY | IS)* (CL | CP) × (PR | PO)
            if (right == .pr || right == .po) && closedNumber { return true }
        case .cp:
            if (right == .pr || right == .po) && closedNumber { return true }
            // LB30: CP × (AL | HL | NU) unless the CP is East Asian F, W or H.
            if (right == .al || right == .hl || right == .nu) && !previousIsWide { return true }
        case .al, .hl, .nu:
            // LB30: (AL | HL | NU) × OP unless the OP is East Asian F, W or H.
            if right == .op && !info.isEastAsianFullWideHalf { return true }
        case .ri:
            // LB30a: break between regional indicators only after an even number of them.
            if right == .ri && regionalIndicatorRun & 1 == 1 { return true }
        default:
            break
        }
        // LB30b: [\p{Extended_Pictographic} & \p{Cn}] × EM
        return right == .em && previousIsUnassignedPictographic
    }

    @inlinable @inline(__always)
    mutating func advance(_ raw: LineBreakClass, _ info: ScalarInfo) {
        defer { previousWasZWJ = raw == .zwj }
        if raw == .cm || raw == .zwj {
            switch previous {
            case .bk, .cr, .lf, .nl, .sp, .zw:
                beginUnit(.al, info)  // LB10
            default:
                break  // LB9: the mark joins the unit before it.
            }
            return
        }
        beginUnit(raw, info)
    }

    @inlinable @inline(__always)
    mutating func beginUnit(_ effective: LineBreakClass, _ info: ScalarInfo) {
        if effective == .sp {
            if previous != .sp { beforeSpaces = previous }
        } else {
            beforeSpaces = effective
        }
        switch effective {
        case .nu:
            inNumber = true
            closedNumber = false
        case .sy, .is:
            closedNumber = false
        case .cl, .cp:
            closedNumber = inNumber
            inNumber = false
        default:
            inNumber = false
            closedNumber = false
        }
        regionalIndicatorRun = effective == .ri ? regionalIndicatorRun &+ 1 : 0
        previousIsWide = info.isEastAsianFullWideHalf
        previousIsUnassignedPictographic = info.isUnassignedPictographic
        beforePrevious = previous
        previous = effective
    }
}

extension LineBreaker {
    /// The break opportunity before each scalar of `scalars` (the first is always `.prohibited`).
    /// A convenience for tests and tools; `PreparedText` runs the breaker inside its own pass.
    package static func opportunities(in scalars: [UInt32]) -> [LineBreakOpportunity] {
        var breaker = LineBreaker()
        var result: [LineBreakOpportunity] = []
        result.reserveCapacity(scalars.count)
        for (index, scalar) in scalars.enumerated() {
            let info = UnicodeTables.info(scalar)
            var nextIsNumber = false
            if breaker.needsLookahead(for: info) {
                var next = index + 1
                while next < scalars.count {
                    let nextClass = UnicodeTables.info(scalars[next]).lineBreak
                    if nextClass != .cm && nextClass != .zwj {
                        nextIsNumber = nextClass == .nu
                        break
                    }
                    next += 1
                }
            }
            result.append(breaker.opportunity(before: info, nextIsNumber: nextIsNumber))
        }
        return result
    }
}
