/// GSUB and GPOS lookups read for shaping: the substitutions (single, multiple, ligature,
/// contextual and chained contextual) and the positionings that move advances (single, pair,
/// cursive, contextual and chained contextual). Mark attachments (GPOS 4–6) move marks off their
/// bases without changing any advance and are not read; nor are alternates (GSUB 3, chosen by the
/// user) or reverse chaining (GSUB 8, for Nastaliq-like fonts that none of ours needs).
struct LayoutLookup: Sendable {
    /// The lookup's flags: which glyph classes it skips (`GlyphDefinitions.base`...), whether it
    /// filters marks by a set (0x10) or by attachment class (high byte), right to left (0x1).
    var flags: UInt16
    /// The mark glyph set (with flag 0x10).
    var markFilteringSet: Int
    var subtables: [LayoutSubtable]
}

enum LayoutSubtable: Sendable {
    /// GSUB 1.
    case single([UInt16: UInt16])
    /// GSUB 2: a glyph into a sequence (empty deletes it).
    case multiple([UInt16: [UInt16]])
    /// GSUB 4: first glyph → its ligatures in the font's order.
    case ligature([UInt16: [(components: [UInt16], glyph: UInt16)]])
    /// GSUB 5/6, GPOS 7/8.
    case context(ContextSubtable)
    /// GPOS 1: placement and advance adjustments in font units.
    case adjust([UInt16: (placement: Int16, advance: Int16)])
    /// GPOS 2.
    case pair(PairSubtable)
    /// GPOS 3: entry and exit anchors' x in font units.
    case cursive([UInt16: (entry: Int32?, exit: Int32?)])
}

/// A contextual or chained contextual subtable, any of the three formats: rules matching glyphs
/// (format 1), classes (2) or coverages (3) before, at and after the position, and the lookups to
/// apply at the matched input's positions.
struct ContextSubtable: Sendable {
    enum Kind: Sendable { case glyphs, classes, coverages }
    struct Rule: Sendable {
        /// Glyphs or classes, the backtrack nearest first; `input` from the second glyph on
        /// (format 3: indices into `coverageSets`, the first glyph's included).
        var backtrack: [UInt16] = []
        var input: [UInt16] = []
        var lookahead: [UInt16] = []
        var records: [(sequenceIndex: Int, lookup: Int)] = []
    }
    var kind: Kind
    /// The glyphs a rule can start at, with their coverage indices (format 1's rule sets).
    var first: [UInt16: Int] = [:]
    /// Format 1: by coverage index; format 2: by the first glyph's input class; format 3: one.
    var ruleSets: [[Rule]] = []
    var backtrackClasses: ClassDefinition?
    var inputClasses: ClassDefinition?
    var lookaheadClasses: ClassDefinition?
    /// Format 3: the coverages, backtrack (nearest first), input, lookahead, in one list.
    var coverageSets: [GlyphSet] = []

    /// Reads a subtable of type 5/7 (`chained` false) or 6/8 (true).
    init(_ table: FontBytes, chained: Bool, glyphCount: Int, budget: inout ExpansionBudget) throws(FontError) {
        let format = try table.u16(0)
        switch format {
        case 1, 2:
            kind = format == 1 ? .glyphs : .classes
            guard let coverageTable = try table.subtable(at: 2) else { throw table.error(2, "context subtable has no coverage") }
            let coverage = try Coverage(coverageTable)
            try budget.spend(coverage.entries.count, table, 2)
            for (glyph, index) in coverage.entries where first[glyph] == nil { first[glyph] = index }
            var setsAt = 4
            if format == 2 {
                if chained {
                    backtrackClasses = try table.subtable(at: 4).map { t throws(FontError) in try ClassDefinition(t, glyphCount: glyphCount) }
                    inputClasses = try table.subtable(at: 6).map { t throws(FontError) in try ClassDefinition(t, glyphCount: glyphCount) }
                    lookaheadClasses = try table.subtable(at: 8).map { t throws(FontError) in try ClassDefinition(t, glyphCount: glyphCount) }
                    setsAt = 10
                } else {
                    inputClasses = try table.subtable(at: 4).map { t throws(FontError) in try ClassDefinition(t, glyphCount: glyphCount) }
                    setsAt = 6
                }
                try budget.spend((backtrackClasses?.storedCount ?? 0) + (inputClasses?.storedCount ?? 0)
                                 + (lookaheadClasses?.storedCount ?? 0), table, 4)
            }
            let setCount = Int(try table.u16(setsAt))
            try table.check(setsAt + 2, 2 * setCount)
            for s in 0..<setCount {
                var rules: [Rule] = []
                if let set = try table.subtable(at: setsAt + 2 + 2 * s) {
                    let ruleCount = Int(try set.u16(0))
                    for r in 0..<ruleCount {
                        guard let ruleTable = try set.subtable(at: 2 + 2 * r) else { continue }
                        rules.append(try Self.rule(ruleTable, chained: chained, budget: &budget))
                    }
                }
                ruleSets.append(rules)
            }
        case 3:
            kind = .coverages
            var rule = Rule()
            var at = 2
            func coverages(_ count: Int) throws(FontError) -> [UInt16] {
                try table.check(at, 2 * count)
                var indices: [UInt16] = []
                for c in 0..<count {
                    guard let coverageTable = try table.subtable(at: at + 2 * c) else { throw table.error(at + 2 * c, "null coverage") }
                    let coverage = try Coverage(coverageTable)
                    try budget.spend(coverage.entries.count + 1, table, at + 2 * c)
                    indices.append(UInt16(truncatingIfNeeded: coverageSets.count))
                    coverageSets.append(GlyphSet(coverage.entries.lazy.map(\.glyph)))
                }
                at += 2 * count
                return indices
            }
            if chained {
                let backtrackCount = Int(try table.u16(at)); at += 2
                rule.backtrack = try coverages(backtrackCount)
                let inputCount = Int(try table.u16(at)); at += 2
                rule.input = try coverages(inputCount)
                let lookaheadCount = Int(try table.u16(at)); at += 2
                rule.lookahead = try coverages(lookaheadCount)
                let recordCount = Int(try table.u16(at)); at += 2
                rule.records = try Self.records(table, at, recordCount)
            } else {
                let inputCount = Int(try table.u16(2)), recordCount = Int(try table.u16(4))
                at = 6
                rule.input = try coverages(inputCount)
                rule.records = try Self.records(table, at, recordCount)
            }
            guard !rule.input.isEmpty else { throw table.error(2, "a context rule with no input glyph") }
            ruleSets = [[rule]]
        default:
            throw table.error(0, "context format \(format) is not 1, 2 or 3")
        }
    }

    private static func rule(_ table: FontBytes, chained: Bool, budget: inout ExpansionBudget) throws(FontError) -> Rule {
        var rule = Rule()
        var at = 0
        func values(_ count: Int) throws(FontError) -> [UInt16] {
            try table.check(at, 2 * count)
            try budget.spend(count + 1, table, at)
            var out: [UInt16] = []
            for v in 0..<count { out.append(try table.u16(at + 2 * v)) }
            at += 2 * count
            return out
        }
        if chained {
            let backtrackCount = Int(try table.u16(at)); at += 2
            rule.backtrack = try values(backtrackCount)
            let inputCount = Int(try table.u16(at)); at += 2
            guard inputCount >= 1 else { throw table.error(at - 2, "a context rule with no input glyph") }
            rule.input = try values(inputCount - 1)
            let lookaheadCount = Int(try table.u16(at)); at += 2
            rule.lookahead = try values(lookaheadCount)
            let recordCount = Int(try table.u16(at)); at += 2
            rule.records = try records(table, at, recordCount)
        } else {
            let inputCount = Int(try table.u16(0)), recordCount = Int(try table.u16(2))
            guard inputCount >= 1 else { throw table.error(0, "a context rule with no input glyph") }
            at = 4
            rule.input = try values(inputCount - 1)
            rule.records = try records(table, at, recordCount)
        }
        return rule
    }

    private static func records(_ table: FontBytes, _ at: Int, _ count: Int) throws(FontError) -> [(sequenceIndex: Int, lookup: Int)] {
        try table.check(at, 4 * count)
        var out: [(sequenceIndex: Int, lookup: Int)] = []
        for r in 0..<count { out.append((Int(try table.u16(at + 4 * r)), Int(try table.u16(at + 4 * r + 2)))) }
        return out
    }
}

extension LayoutLookup {
    /// Reads lookup `index` of `lookupList` in `GSUB` (`positioning` false) or `GPOS`; nil for a
    /// lookup type that is not read (see the type's note).
    static func read(_ lookupList: FontBytes, index: Int, positioning: Bool, glyphCount: Int,
                     budget: inout ExpansionBudget) throws(FontError) -> LayoutLookup? {
        let lookup = try lookupList.from(Int(try lookupList.u16(2 + 2 * index)))
        let flags = try lookup.u16(2)
        var markFilteringSet = 0
        if flags & 0x10 != 0 { markFilteringSet = Int(try lookup.u16(6 + 2 * Int(try lookup.u16(4)))) }
        let wanted: Set<UInt16> = positioning ? [1, 2, 3, 7, 8] : [1, 2, 4, 5, 6]
        let read = try LookupSubtables(lookup, extensionType: positioning ? 9 : 7, wanted: { wanted.contains($0) })
        guard wanted.contains(read.type) else { return nil }
        var subtables: [LayoutSubtable] = []
        for table in read.subtables {
            switch (positioning, read.type) {
            case (false, 1):
                var map: [UInt16: UInt16] = [:]
                var remaining = budget.remaining
                try Substitutions.readSingle(table, into: &map, glyphCount: glyphCount, budget: &remaining)
                try budget.spend(budget.remaining - remaining, table, 0)
                subtables.append(.single(map))
            case (false, 2):
                subtables.append(.multiple(try readMultiple(table, glyphCount: glyphCount, budget: &budget)))
            case (false, 4):
                var map: [UInt16: [(components: [UInt16], glyph: UInt16)]] = [:]
                var remaining = budget.remaining
                try Substitutions.readLigatures(table, into: &map, glyphCount: glyphCount, budget: &remaining)
                try budget.spend(budget.remaining - remaining, table, 0)
                subtables.append(.ligature(map))
            case (false, 5), (true, 7):
                subtables.append(.context(try ContextSubtable(table, chained: false, glyphCount: glyphCount, budget: &budget)))
            case (false, 6), (true, 8):
                subtables.append(.context(try ContextSubtable(table, chained: true, glyphCount: glyphCount, budget: &budget)))
            case (true, 1):
                subtables.append(.adjust(try readAdjustments(table, budget: &budget)))
            case (true, 2):
                subtables.append(.pair(try PairSubtable(table, glyphCount: glyphCount, budget: &budget)))
            case (true, 3):
                subtables.append(.cursive(try readCursive(table, budget: &budget)))
            default:
                break
            }
        }
        return LayoutLookup(flags: flags, markFilteringSet: markFilteringSet, subtables: subtables)
    }

    private static func readMultiple(_ table: FontBytes, glyphCount: Int, budget: inout ExpansionBudget) throws(FontError) -> [UInt16: [UInt16]] {
        guard try table.u16(0) == 1 else { throw table.error(0, "multiple substitution format is not 1") }
        guard let coverageTable = try table.subtable(at: 2) else { return [:] }
        let coverage = try Coverage(coverageTable)
        let count = Int(try table.u16(4))
        var map: [UInt16: [UInt16]] = [:]
        try coverage.read(into: &map, count: count) { (index) throws(FontError) -> [UInt16]? in
            guard let sequence = try table.subtable(at: 6 + 2 * index) else { return nil }
            let length = Int(try sequence.u16(0))
            try sequence.check(2, 2 * length)
            try budget.spend(length + 1, sequence, 0)
            var glyphs: [UInt16] = []
            for g in 0..<length {
                let out = try sequence.u16(2 + 2 * g)
                if Int(out) < glyphCount { glyphs.append(out) }
            }
            return glyphs
        }
        return map
    }

    private static func readAdjustments(_ table: FontBytes, budget: inout ExpansionBudget) throws(FontError) -> [UInt16: (placement: Int16, advance: Int16)] {
        let format = try table.u16(0)
        guard let coverageTable = try table.subtable(at: 2) else { return [:] }
        let coverage = try Coverage(coverageTable)
        try budget.spend(coverage.entries.count, table, 2)
        let valueFormat = try table.u16(4)
        let size = ValueRecord.size(valueFormat)
        func value(_ at: Int) throws(FontError) -> (placement: Int16, advance: Int16) {
            let placement = valueFormat & 0x1 != 0 ? try table.i16(at) : 0
            return (placement, Int16(truncatingIfNeeded: try ValueRecord.xAdvance(table, at, valueFormat)))
        }
        var map: [UInt16: (placement: Int16, advance: Int16)] = [:]
        switch format {
        case 1:
            let shared = try value(6)
            for (glyph, _) in coverage.entries where map[glyph] == nil { map[glyph] = shared }
        case 2:
            let count = Int(try table.u16(6))
            try table.check(8, size * count)
            try coverage.read(into: &map, count: count) { (index) throws(FontError) in try value(8 + size * index) }
        default:
            throw table.error(0, "single positioning format \(format) is not 1 or 2")
        }
        return map
    }

    private static func readCursive(_ table: FontBytes, budget: inout ExpansionBudget) throws(FontError) -> [UInt16: (entry: Int32?, exit: Int32?)] {
        guard try table.u16(0) == 1 else { throw table.error(0, "cursive attachment format is not 1") }
        guard let coverageTable = try table.subtable(at: 2) else { return [:] }
        let coverage = try Coverage(coverageTable)
        try budget.spend(coverage.entries.count, table, 2)
        let count = Int(try table.u16(4))
        try table.check(6, 4 * count)
        func anchorX(_ field: Int) throws(FontError) -> Int32? {
            guard let anchor = try table.subtable(at: field) else { return nil }
            return Int32(try anchor.i16(2))  // every anchor format has its x at 2
        }
        var map: [UInt16: (entry: Int32?, exit: Int32?)] = [:]
        try coverage.read(into: &map, count: count) { (index) throws(FontError) in (try anchorX(6 + 4 * index), try anchorX(8 + 4 * index)) }
        return map
    }
}
