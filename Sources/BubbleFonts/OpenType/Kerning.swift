/// Pair kerning from `GPOS` (lookup type 2, formats 1 and 2, also behind type 9 extension lookups)
/// or, for fonts without `GPOS`, the old `kern` table (format 0). Only what changes advances is
/// kept: the first glyph's XAdvance plus the second's, in font units.
struct Kerning: Sendable {
    /// The lookups of the `kern` feature, in lookup-list order; each lookup's subtables in order.
    private(set) var lookups: [PairLookup] = []

    /// No kerning.
    init() {}

    /// The `kern` feature's pair lookups for `script` (an OpenType script tag such as `latn`), else
    /// for `DFLT`, else for the first script listed.
    init(gpos table: FontBytes, script: String, glyphCount: Int) throws(FontError) {
        guard let scripts = try table.subtable(at: 4), let features = try table.subtable(at: 6),
              let lookupList = try table.subtable(at: 8) else { return }
        let indices = try Self.kernLookupIndices(scripts: scripts, features: features, script: script)
        let lookupCount = Int(try lookupList.u16(0))
        var budget = ExpansionBudget(fontBytes: table.file.count)
        // A subtable named by several offsets (in one lookup or several) is read once and shared.
        var read: [Int: PairSubtable] = [:]
        for index in indices.sorted() where index < lookupCount {
            let lookup = try lookupList.from(Int(try lookupList.u16(2 + 2 * index)))
            var pair = PairLookup(flags: try lookup.u16(2))
            for subtable in try LookupSubtables(lookup, extensionType: 9, wanted: { $0 == 2 }).subtables {
                if let known = read[subtable.base] {
                    pair.subtables.append(known)
                    continue
                }
                let parsed = try PairSubtable(subtable, glyphCount: glyphCount, budget: &budget)
                read[subtable.base] = parsed
                pair.subtables.append(parsed)
            }
            if !pair.subtables.isEmpty { lookups.append(pair) }
        }
    }

    /// Horizontal format 0 subtables of the `kern` table (Microsoft version 0).
    init(kern table: FontBytes) throws(FontError) {
        guard try table.u16(0) == 0 else { return }  // Apple's version 1.0 kern is not read
        let count = Int(try table.u16(2))
        var offset = 4
        var pairs: [UInt32: Int16] = [:]
        for _ in 0..<count {
            let length = Int(try table.u16(offset + 2))
            let coverage = try table.u16(offset + 4)
            let format = coverage >> 8
            // Horizontal (bit 0), not minimum values (bit 1), not cross-stream (bit 2).
            if format == 0 && coverage & 0x7 == 0x1 {
                let pairCount = Int(try table.u16(offset + 6))
                try table.check(offset + 14, 6 * pairCount)
                for p in 0..<pairCount {
                    let at = offset + 14 + 6 * p
                    let key = UInt32(try table.u16(at)) << 16 | UInt32(try table.u16(at + 2))
                    let value = try table.i16(at + 4)
                    if coverage & 0x8 != 0 { pairs[key] = value } else { pairs[key, default: 0] &+= value }
                }
            }
            guard length >= 6 else { throw table.error(offset + 2, "subtable length \(length) is too short") }
            offset += length
        }
        // (Shapers apply the old table passing over marks.)
        if !pairs.isEmpty { lookups = [PairLookup(flags: GlyphDefinitions.mark, subtables: [.pairs(PairSet(map: pairs))])] }
    }

    /// The adjustment in font units between `left` and `right`: summed over lookups, the first
    /// subtable of each that applies.
    func adjustment(_ left: UInt16, _ right: UInt16) -> Int {
        var total = 0
        for lookup in lookups {
            for subtable in lookup.subtables {
                if let value = subtable.value(left, right) { total += value; break }
            }
        }
        return total
    }

    var isEmpty: Bool { lookups.isEmpty }

    /// Whether kerning passes over marks (pairs a base with the next base after them): every
    /// `kern` lookup ignores marks, and so does a shaper applying the old `kern` table.
    var ignoresMarks: Bool { lookups.allSatisfy { $0.flags & GlyphDefinitions.mark != 0 } }

    private static func kernLookupIndices(scripts: FontBytes, features: FontBytes, script: String) throws(FontError) -> Set<Int> {
        try LayoutFeatures.lookupIndices(scripts: scripts, features: features, script: script, language: nil, tags: ["kern"])
    }
}

/// One pair-positioning lookup: its flags (which glyph classes it skips) and subtables.
struct PairLookup: Sendable {
    var flags: UInt16
    var subtables: [PairSubtable] = []
}

/// A pair-adjustment subtable, format 1 (glyph pairs) or format 2 (class pairs).
enum PairSubtable: Sendable {
    case pairs(PairSet)
    case classes(ClassPairs)

    init(_ table: FontBytes, glyphCount: Int, budget: inout ExpansionBudget) throws(FontError) {
        let format = try table.u16(0)
        guard let coverageTable = try table.subtable(at: 2) else { throw table.error(2, "pair subtable has no coverage") }
        let coverage = try Coverage(coverageTable)
        try budget.spend(coverage.entries.count, table, 2)
        let format1 = try table.u16(4), format2 = try table.u16(6)
        let size1 = ValueRecord.size(format1), size2 = ValueRecord.size(format2)
        switch format {
        case 1:
            let setCount = Int(try table.u16(8))
            var map: [UInt32: Int16] = [:]
            for (glyph, index) in coverage.entries where index < setCount {
                guard let set = try table.subtable(at: 10 + 2 * index) else { continue }
                let count = Int(try set.u16(0))
                let recordSize = 2 + size1 + size2
                try set.check(2, recordSize * count)
                guard map.count + count <= PairSubtable.maximumPairs else {
                    throw set.error(0, "more than \(PairSubtable.maximumPairs) kerning pairs")
                }
                try budget.spend(count, set, 0)
                for r in 0..<count {
                    let at = 2 + recordSize * r
                    let second = try set.u16(at)
                    let value = try ValueRecord.xAdvance(set, at + 2, format1) + ValueRecord.xAdvance(set, at + 2 + size1, format2)
                    let key = UInt32(glyph) << 16 | UInt32(second)
                    if map[key] == nil { map[key] = Int16(truncatingIfNeeded: value) }
                }
            }
            self = .pairs(PairSet(map: map))
        case 2:
            guard let def1 = try table.subtable(at: 8), let def2 = try table.subtable(at: 10) else {
                throw table.error(8, "class pair subtable lacks a class definition")
            }
            let class1Count = Int(try table.u16(12)), class2Count = Int(try table.u16(14))
            let recordSize = size1 + size2
            guard class1Count * class2Count <= PairSubtable.maximumPairs else {
                throw table.error(12, "\(class1Count) × \(class2Count) class pairs is more than \(PairSubtable.maximumPairs)")
            }
            try table.check(16, class1Count * class2Count * recordSize)
            // Value records without an XAdvance change no advance: every pair's value is 0, and
            // none is stored (an empty `values` reads as 0), however many classes are claimed.
            let advances = (format1 | format2) & 0x4 != 0
            let first = try ClassDefinition(def1, glyphCount: glyphCount)
            let second = try ClassDefinition(def2, glyphCount: glyphCount)
            try budget.spend(first.storedCount + second.storedCount + (advances ? class1Count * class2Count : 0), table, 12)
            var values: [Int16] = []
            if advances { values.reserveCapacity(class1Count * class2Count) }
            for c1 in 0..<(advances ? class1Count : 0) {
                for c2 in 0..<class2Count {
                    let at = 16 + (c1 * class2Count + c2) * recordSize
                    let value = try ValueRecord.xAdvance(table, at, format1) + ValueRecord.xAdvance(table, at + size1, format2)
                    values.append(Int16(truncatingIfNeeded: value))
                }
            }
            self = .classes(ClassPairs(coverage: GlyphSet(coverage.entries.lazy.map(\.glyph)),
                                       first: first, second: second,
                                       class1Count: class1Count, class2Count: class2Count, values: values))
        default:
            throw table.error(0, "pair positioning format \(format) is not 1 or 2")
        }
    }

    /// More pairs than any real font has (Noto Sans has about 60,000 in all): a file asking for more
    /// is hostile, and refusing it keeps loading bounded in time and memory.
    static let maximumPairs = 1 << 21

    /// The adjustment when this subtable applies to the pair, nil when it does not.
    func value(_ left: UInt16, _ right: UInt16) -> Int? {
        switch self {
        case .pairs(let set):
            return set.value(left, right)
        case .classes(let pairs):
            guard pairs.coverage.contains(left) else { return nil }
            let c1 = pairs.first.classOf(left), c2 = pairs.second.classOf(right)
            guard c1 < pairs.class1Count, c2 < pairs.class2Count, !pairs.values.isEmpty else { return 0 }
            return Int(pairs.values[c1 * pairs.class2Count + c2])
        }
    }
}

/// Glyph pairs and their adjustments, sorted: the pairs of a left glyph are a slice found by
/// index, searched by halving (no hashing in the measuring loop).
struct PairSet: Sendable {
    /// `firstPair[left] ..< firstPair[left + 1]` are the left glyph's pairs in `rights`/`values`.
    private var firstPair: [Int32] = [0]
    private var rights: [UInt16] = []
    private var values: [Int16] = []

    init(map: [UInt32: Int16]) {
        let keys = map.keys.sorted()
        rights.reserveCapacity(keys.count)
        values.reserveCapacity(keys.count)
        for key in keys {
            let left = Int(key >> 16)
            while firstPair.count <= left + 1 { firstPair.append(Int32(rights.count)) }
            rights.append(UInt16(truncatingIfNeeded: key))
            values.append(map[key]!)
            firstPair[left + 1] = Int32(rights.count)
        }
    }

    @inline(__always)
    func value(_ left: UInt16, _ right: UInt16) -> Int? {
        let l = Int(left)
        guard l + 1 < firstPair.count else { return nil }
        var low = Int(firstPair[l]), high = Int(firstPair[l + 1])
        while low < high {
            let mid = (low + high) >> 1
            if rights[mid] < right { low = mid + 1 } else { high = mid }
        }
        return low < Int(firstPair[l + 1]) && rights[low] == right ? Int(values[low]) : nil
    }
}

/// A set of glyphs as a bit per glyph: a lookup is a shift and a mask, not a hash.
struct GlyphSet: Sendable {
    private var bits: [UInt64]

    init(_ glyphs: some Sequence<UInt16>) {
        var bits: [UInt64] = []
        for glyph in glyphs {
            let word = Int(glyph) >> 6
            if word >= bits.count { bits += repeatElement(0, count: word + 1 - bits.count) }
            bits[word] |= 1 << UInt64(glyph & 63)
        }
        self.bits = bits
    }

    @inline(__always)
    func contains(_ glyph: UInt16) -> Bool {
        let word = Int(glyph) >> 6
        return word < bits.count && bits[word] & (1 << UInt64(glyph & 63)) != 0
    }
}

struct ClassPairs: Sendable {
    var coverage: GlyphSet
    var first: ClassDefinition
    var second: ClassDefinition
    var class1Count: Int
    var class2Count: Int
    var values: [Int16]
}

/// A GPOS value record: only XAdvance is read.
enum ValueRecord {
    static func size(_ format: UInt16) -> Int { 2 * (format & 0xFF).nonzeroBitCount }

    static func xAdvance(_ table: FontBytes, _ at: Int, _ format: UInt16) throws(FontError) -> Int {
        guard format & 0x4 != 0 else { return 0 }
        return Int(try table.i16(at + 2 * (format & 0x3).nonzeroBitCount))
    }
}

/// An OpenType coverage table: the glyphs it covers with their coverage indices.
struct Coverage: Sendable {
    var entries: [(glyph: UInt16, index: Int)] = []

    init(_ table: FontBytes) throws(FontError) {
        let format = try table.u16(0)
        let count = Int(try table.u16(2))
        switch format {
        case 1:
            try table.check(4, 2 * count)
            for i in 0..<count { entries.append((try table.u16(4 + 2 * i), i)) }
        case 2:
            try table.check(4, 6 * count)
            var total = 0
            for r in 0..<count {
                let start = try table.u16(4 + 6 * r), end = try table.u16(6 + 6 * r)
                let first = Int(try table.u16(8 + 6 * r))
                guard start <= end else { continue }
                total += Int(end - start) + 1
                guard total <= 0x1_0000 else { throw table.error(4 + 6 * r, "coverage ranges overlap past 65,536 glyphs") }
                for g in start...end { entries.append((g, first + Int(g - start))) }
            }
        default:
            throw table.error(0, "coverage format \(format) is not 1 or 2")
        }
    }

    /// Reads an array indexed by coverage (a subtable's records, one per covered glyph) into
    /// `map`: each covered glyph not yet in `map` whose index is below `count` (the array's
    /// length) gets `read(index)`, unless that is nil. The first listing of a glyph wins.
    func read<Value>(into map: inout [UInt16: Value], count: Int,
                     _ read: (_ index: Int) throws(FontError) -> Value?) throws(FontError) {
        for (glyph, index) in entries where index < count && map[glyph] == nil {
            if let value = try read(index) { map[glyph] = value }
        }
    }
}

/// An OpenType class definition: glyph to class, 0 for glyphs it does not list.
struct ClassDefinition: Sendable {
    /// Class by glyph, up to the last glyph listed (a flat array: classes are read per glyph pair).
    private var classes: [UInt16] = []

    init(_ table: FontBytes, glyphCount: Int) throws(FontError) {
        let format = try table.u16(0)
        switch format {
        case 1:
            let start = Int(try table.u16(2)), count = Int(try table.u16(4))
            try table.check(6, 2 * count)
            for i in 0..<count where start + i < glyphCount {
                let value = try table.u16(6 + 2 * i)
                if value != 0 { set(UInt16(start + i), value) }
            }
        case 2:
            let count = Int(try table.u16(2))
            try table.check(4, 6 * count)
            var total = 0
            for r in 0..<count {
                let start = try table.u16(4 + 6 * r), end = try table.u16(6 + 6 * r), value = try table.u16(8 + 6 * r)
                guard start <= end, value != 0 else { continue }
                total += Int(end - start) + 1
                guard total <= 0x1_0000 else { throw table.error(4 + 6 * r, "class ranges overlap past 65,536 glyphs") }
                for g in start...end where classOf(g) == 0 { set(g, value) }
            }
        default:
            throw table.error(0, "class definition format \(format) is not 1 or 2")
        }
    }

    private mutating func set(_ glyph: UInt16, _ value: UInt16) {
        if Int(glyph) >= classes.count { classes += repeatElement(0, count: Int(glyph) + 1 - classes.count) }
        classes[Int(glyph)] = value
    }

    @inline(__always)
    func classOf(_ glyph: UInt16) -> Int { Int(glyph) < classes.count ? Int(classes[Int(glyph)]) : 0 }

    /// Entries held: one per glyph up to the last one listed.
    var storedCount: Int { classes.count }
}

/// How many entries the tables of one font may unpack to, together: at most
/// `PairSubtable.maximumPairs`, and at most `perByte` per byte of the font file plus
/// `allowance`. An honest table unpacks to fewer entries than it has bytes (a kerning pair or a
/// class pair takes at least 2); a hostile one that points many offsets at one list, or claims
/// classes without values, stops here with an error instead of taking gigabytes.
struct ExpansionBudget {
    static let perByte = 4
    static let allowance = 1 << 18
    private(set) var remaining: Int

    init(fontBytes: Int) {
        remaining = min(PairSubtable.maximumPairs, Self.perByte * fontBytes + Self.allowance)
    }

    /// Takes `entries` from what is left, or throws naming `table` at `offset`.
    mutating func spend(_ entries: Int, _ table: FontBytes, _ offset: Int) throws(FontError) {
        remaining -= entries
        guard remaining >= 0 else {
            throw table.error(offset, "the font's tables unpack to more entries than a font of its size can hold (a hostile font?)")
        }
    }
}
