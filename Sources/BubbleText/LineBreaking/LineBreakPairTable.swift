/// The stateless part of UAX #14 (Unicode 15.0) as a table over pairs of line-break classes.
///
/// The table is built once by walking the rules LB11–LB31 in their order for every pair of
/// classes, so each entry holds the answer of the first rule that matches. Rules that need more
/// than the pair (LB21a, LB25's number context, LB30's East Asian Width test, LB30a's RI parity
/// and LB30b's unassigned pictographs) set the `contextual` bit instead: the breaker checks that
/// context, and falls back to the table's answer when the context does not hold.
///
/// Rules LB4–LB10 (mandatory breaks, spaces, ZW, ZWJ and combining marks) are not pair rules;
/// `LineBreaker` applies them before it consults this table.
@usableFromInline
struct LineBreakPairTable: Sendable {
    /// No break between the two classes when they are adjacent.
    @usableFromInline static let noBreakAdjacent: UInt8 = 1
    /// No break when one or more spaces stand between them (LB11, LB13–LB17).
    @usableFromInline static let noBreakAcrossSpaces: UInt8 = 2
    /// A contextual rule may forbid the break when adjacent; see `LineBreaker`.
    @usableFromInline static let contextual: UInt8 = 4

    /// The number of classes: `ri` is the last case. A constant the compiler folds, so `entry`
    /// costs one multiply-add and a load (a `static let` needed a once-check per call).
    @inlinable static var classCount: Int { Int(LineBreakClass.ri.rawValue) + 1 }

    /// Entry for (left, right) at `left.rawValue * classCount + right.rawValue`. Built once for
    /// the process (`shared`) and never freed, so the hot loop reads it through a plain pointer.
    @usableFromInline let entries: TableMemory<UInt8>

    @usableFromInline static let shared = LineBreakPairTable()

    init() {
        var entries = [UInt8](repeating: 0, count: Self.classCount * Self.classCount)
        for left in LineBreakClass.allCases {
            for right in LineBreakClass.allCases {
                var entry: UInt8 = 0
                let adjacent = Self.resolveAdjacent(left, right)
                if adjacent.noBreak { entry |= Self.noBreakAdjacent }
                if adjacent.contextual { entry |= Self.contextual }
                if Self.noBreakAcrossSpaces(before: left, after: right) { entry |= Self.noBreakAcrossSpaces }
                entries[Int(left.rawValue) * Self.classCount + Int(right.rawValue)] = entry
            }
        }
        self.entries = TableMemory(entries)
    }

    @inlinable @inline(__always)
    func entry(_ left: LineBreakClass, _ right: LineBreakClass) -> UInt8 {
        entries[Int(left.rawValue) &* Self.classCount &+ Int(right.rawValue)]
    }

    /// LB11–LB31 for `left right` with nothing between them. `left` and `right` are classes after
    /// LB9/LB10 (never CM, ZWJ or SP on the left; never SP on the right).
    static func resolveAdjacent(_ left: LineBreakClass, _ right: LineBreakClass) -> (noBreak: Bool, contextual: Bool) {
        var contextual = false
        func answer(_ noBreak: Bool) -> (noBreak: Bool, contextual: Bool) { (noBreak, contextual) }

        // LB11
        if left == .wj || right == .wj { return answer(true) }
        // LB12
        if left == .gl { return answer(true) }
        // LB12a: [^SP BA HY] × GL
        if right == .gl && left != .sp && left != .ba && left != .hy { return answer(true) }
        // LB13
        if [.cl, .cp, .ex, .is, .sy].contains(right) { return answer(true) }
        // LB14–LB17 (with zero spaces)
        if left == .op { return answer(true) }
        if left == .qu && right == .op { return answer(true) }
        if (left == .cl || left == .cp) && right == .ns { return answer(true) }
        if left == .b2 && right == .b2 { return answer(true) }
        // LB19
        if left == .qu || right == .qu { return answer(true) }
        // LB20
        if left == .cb || right == .cb { return answer(false) }
        // LB21
        if right == .ba || right == .hy || right == .ns || left == .bb { return answer(true) }
        // LB21a: HL (HY | BA) × — needs the class before `left`.
        if left == .hy || left == .ba { contextual = true }
        // LB21b
        if left == .sy && right == .hl { return answer(true) }
        // LB22
        if right == .in { return answer(true) }
        // LB23
        let alphabetic: Set<LineBreakClass> = [.al, .hl]
        if alphabetic.contains(left) && right == .nu { return answer(true) }
        if left == .nu && alphabetic.contains(right) { return answer(true) }
        // LB23a
        let ideographic: Set<LineBreakClass> = [.id, .eb, .em]
        if left == .pr && ideographic.contains(right) { return answer(true) }
        if ideographic.contains(left) && right == .po { return answer(true) }
        // LB24
        let prefixPostfix: Set<LineBreakClass> = [.pr, .po]
        if prefixPostfix.contains(left) && alphabetic.contains(right) { return answer(true) }
        if alphabetic.contains(left) && prefixPostfix.contains(right) { return answer(true) }
        // LB25, tailored as in UAX #14 section 8.2 example 7 (what LineBreakTest.txt uses):
        //   (PR | PO) × (OP | HY)? NU
        //   (OP | HY) × NU
        //   NU × (NU | SY | IS)
        //   NU (NU | SY | IS)* × (NU | SY | IS | CL | CP)
        //   NU (NU | SY | IS)* (CL | CP)? × (PR | PO)
        if prefixPostfix.contains(left) && right == .nu { return answer(true) }
        if prefixPostfix.contains(left) && (right == .op || right == .hy) { contextual = true }
        if (left == .op || left == .hy) && right == .nu { return answer(true) }
        if left == .nu && (right == .nu || right == .sy || right == .is) { return answer(true) }
        if (left == .sy || left == .is) && right == .nu { contextual = true }
        if left == .nu && prefixPostfix.contains(right) { return answer(true) }
        if [.sy, .is, .cl, .cp].contains(left) && prefixPostfix.contains(right) { contextual = true }
        // LB26
        if left == .jl && [.jl, .jv, .h2, .h3].contains(right) { return answer(true) }
        if (left == .jv || left == .h2) && (right == .jv || right == .jt) { return answer(true) }
        if (left == .jt || left == .h3) && right == .jt { return answer(true) }
        // LB27
        let korean: Set<LineBreakClass> = [.jl, .jv, .jt, .h2, .h3]
        if korean.contains(left) && right == .po { return answer(true) }
        if left == .pr && korean.contains(right) { return answer(true) }
        // LB28
        if alphabetic.contains(left) && alphabetic.contains(right) { return answer(true) }
        // LB29
        if left == .is && alphabetic.contains(right) { return answer(true) }
        // LB30: (AL | HL | NU) × OP and CP × (AL | HL | NU), for OP/CP not East Asian F/W/H.
        if (left == .al || left == .hl || left == .nu) && right == .op { contextual = true }
        if left == .cp && (right == .al || right == .hl || right == .nu) { contextual = true }
        // LB30a: RI pairs.
        if left == .ri && right == .ri { contextual = true }
        // LB30b: EB × EM; [ExtPict & Cn] × EM.
        if left == .eb && right == .em { return answer(true) }
        if right == .em { contextual = true }
        // LB31
        return answer(false)
    }

    /// LB8 aside (handled by the breaker), the rules that hold across `left SP+ right`:
    /// LB11 × WJ, LB13, LB14 OP SP* ×, LB15 QU SP* × OP, LB16 (CL | CP) SP* × NS, LB17 B2 SP* × B2.
    /// Everything else breaks by LB18.
    static func noBreakAcrossSpaces(before left: LineBreakClass, after right: LineBreakClass) -> Bool {
        if right == .wj { return true }
        if [.cl, .cp, .ex, .is, .sy].contains(right) { return true }
        if left == .op { return true }
        if left == .qu && right == .op { return true }
        if (left == .cl || left == .cp) && right == .ns { return true }
        if left == .b2 && right == .b2 { return true }
        return false
    }
}
