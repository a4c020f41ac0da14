/// `cmap`: code points to glyphs. Reads the best Unicode subtable (format 12 for the full range,
/// else format 4 for the BMP) and the format 14 variation-selector subtable. The BMP is unpacked at
/// load into a direct table, so a lookup there is one load; above the BMP it is a binary search.
struct CmapTable: Sendable {
    /// Glyph of each BMP code point (0: none).
    private let bmp: [UInt16]
    /// Format 12 groups above the BMP, sorted: first code point, last, glyph of the first.
    private let groups: [(first: UInt32, last: UInt32, glyph: UInt32)]
    private let glyphCount: Int
    /// Format 14: per variation selector, which sequences use the default glyph and which map to
    /// their own.
    private let variations: [UInt32: VariationSelectorRecord]

    init(_ table: FontBytes, glyphCount: Int) throws(FontError) {
        self.glyphCount = glyphCount
        let subtableCount = Int(try table.u16(2))
        var best: (rank: Int, offset: Int)?
        var variationOffset: Int?
        for i in 0..<subtableCount {
            let record = 4 + 8 * i
            let platform = try table.u16(record)
            let encoding = try table.u16(record + 2)
            let offset = Int(try table.u32(record + 4))
            let format = try table.u16(offset)
            if platform == 0 && encoding == 5 && format == 14 { variationOffset = offset; continue }
            // Full-range Unicode first, then BMP Unicode, then Windows symbol fonts.
            let rank: Int? = switch (platform, encoding, format) {
            case (3, 10, 12), (0, 4, 12), (0, 6, 12): 0
            case (3, 1, 4), (0, 3, 4), (0, 1, 4), (0, 0, 4), (0, 2, 4): 1
            case (3, 0, 4): 2
            default: nil
            }
            if let rank, best == nil || rank < best!.rank { best = (rank, offset) }
        }
        guard let best else { throw table.error(0, "no Unicode subtable of format 4 or 12") }
        var bmp = [UInt16](repeating: 0, count: 0x1_0000)
        var groups: [(first: UInt32, last: UInt32, glyph: UInt32)] = []
        let subtable = try table.from(best.offset)
        if try subtable.u16(0) == 12 {
            try Self.readFormat12(subtable, glyphCount: glyphCount, bmp: &bmp, groups: &groups)
        } else {
            try Self.readFormat4(subtable, glyphCount: glyphCount, bmp: &bmp, symbol: best.rank == 2)
        }
        self.bmp = bmp
        self.groups = groups
        variations = try variationOffset.map { offset throws(FontError) in try Self.readFormat14(table.from(offset)) } ?? [:]
    }

    /// The glyph for `scalar`, or nil when the font does not cover it.
    func glyph(_ scalar: UInt32) -> UInt16? {
        if scalar < 0x1_0000 {
            let glyph = bmp[Int(scalar)]
            return glyph == 0 ? nil : glyph
        }
        var low = 0, high = groups.count
        while low < high {
            let mid = (low + high) / 2
            if groups[mid].last < scalar { low = mid + 1 } else { high = mid }
        }
        guard low < groups.count, groups[low].first <= scalar else { return nil }
        let glyph = groups[low].glyph + (scalar - groups[low].first)
        return glyph == 0 || glyph >= UInt32(glyphCount) ? nil : UInt16(glyph)
    }

    /// The glyph for `scalar` followed by variation selector `selector`: its own glyph when the font
    /// maps the sequence, the default glyph when the font lists the sequence as default, nil when the
    /// font knows nothing of it (the caller then uses `glyph(scalar)` and ignores the selector).
    func glyph(_ scalar: UInt32, selector: UInt32) -> UInt16? {
        guard let record = variations[selector] else { return nil }
        if let glyph = record.mapped[scalar] { return glyph }
        for range in record.defaults where range.first <= scalar && scalar <= range.last { return glyph(scalar) }
        return nil
    }

    /// True when the font has a format 14 record for `selector`.
    func knowsSelector(_ selector: UInt32) -> Bool { variations[selector] != nil }

    private static func readFormat4(_ table: FontBytes, glyphCount: Int, bmp: inout [UInt16], symbol: Bool) throws(FontError) {
        let length = Int(try table.u16(2))
        let sub = try table.slice(0, min(length, table.count))
        let segCountX2 = Int(try sub.u16(6))
        guard segCountX2 % 2 == 0 else { throw sub.error(6, "segCountX2 \(segCountX2) is odd") }
        let segments = segCountX2 / 2
        let ends = 14, starts = 16 + segCountX2, deltas = starts + segCountX2, rangeOffsets = deltas + segCountX2
        try sub.check(14, 4 * segCountX2 + 2)
        // Segments are sorted and disjoint, so unpacking them touches each code point once at most:
        // a hostile font cannot make loading quadratic.
        var previousEnd = -1
        for s in 0..<segments {
            let end = Int(try sub.u16(ends + 2 * s))
            let start = Int(try sub.u16(starts + 2 * s))
            let delta = Int(try sub.u16(deltas + 2 * s))
            let rangeOffset = Int(try sub.u16(rangeOffsets + 2 * s))
            guard start <= end else { continue }
            guard start > previousEnd else { throw sub.error(starts + 2 * s, "segment \(s) overlaps the one before") }
            previousEnd = end
            if start == 0xFFFF { continue }  // the required last segment
            for c in start...end {
                var glyph: Int
                if rangeOffset == 0 {
                    glyph = (c + delta) & 0xFFFF
                } else {
                    // idRangeOffset counts from its own field into glyphIdArray.
                    let at = rangeOffsets + 2 * s + rangeOffset + 2 * (c - start)
                    guard at + 2 <= sub.count else { throw sub.error(at, "glyphIdArray entry past the subtable") }
                    glyph = Int(try sub.u16(at))
                    if glyph != 0 { glyph = (glyph + delta) & 0xFFFF }
                }
                guard glyph > 0 && glyph < glyphCount else { continue }
                if bmp[c] == 0 { bmp[c] = UInt16(glyph) }
                // Symbol fonts map U+F020… : make them reachable from ASCII too, as renderers do.
                if symbol && c >= 0xF020 && c <= 0xF0FF && bmp[c - 0xF000] == 0 { bmp[c - 0xF000] = UInt16(glyph) }
            }
        }
    }

    private static func readFormat12(_ table: FontBytes, glyphCount: Int, bmp: inout [UInt16],
                                     groups: inout [(first: UInt32, last: UInt32, glyph: UInt32)]) throws(FontError) {
        let count = Int(try table.u32(12))
        try table.check(16, 12 * count)
        var previousLast: Int64 = -1
        for g in 0..<count {
            let record = 16 + 12 * g
            let first = try table.u32(record), last = try table.u32(record + 4), glyph = try table.u32(record + 8)
            guard first <= last, last <= 0x10_FFFF, Int64(first) > previousLast else {
                throw table.error(record, "group \(g) is out of order or outside Unicode")
            }
            previousLast = Int64(last)
            if first < 0x1_0000 {
                for c in first...min(last, 0xFFFF) {
                    let id = glyph + (c - first)
                    if id > 0 && id < UInt32(glyphCount) { bmp[Int(c)] = UInt16(id) }
                }
            }
            if last >= 0x1_0000 {
                let from = max(first, 0x1_0000)
                groups.append((from, last, glyph + (from - first)))
            }
        }
    }

    private static func readFormat14(_ table: FontBytes) throws(FontError) -> [UInt32: VariationSelectorRecord] {
        let count = Int(try table.u32(6))
        try table.check(10, 11 * count)
        var records: [UInt32: VariationSelectorRecord] = [:]
        // Lists named by several records are read once and shared; all the lists read together
        // hold at most as many entries as the subtable has bytes (each entry takes 4 or 5).
        var defaultLists: [Int: [(first: UInt32, last: UInt32)]] = [:]
        var mappedLists: [Int: [UInt32: UInt16]] = [:]
        var budget = table.count
        func spend(_ entries: Int, at offset: Int) throws(FontError) {
            budget -= entries
            guard budget >= 0 else { throw table.error(offset, "variation sequences overlap: more entries than the subtable has bytes") }
        }
        for r in 0..<count {
            let at = 10 + 11 * r
            let selector = try table.u24(at)
            var record = VariationSelectorRecord()
            let defaultOffset = Int(try table.u32(at + 3))
            let mappedOffset = Int(try table.u32(at + 7))
            if defaultOffset != 0 {
                if let known = defaultLists[defaultOffset] {
                    record.defaults = known
                } else {
                    let ranges = Int(try table.u32(defaultOffset))
                    try table.check(defaultOffset + 4, 4 * ranges)
                    try spend(ranges, at: defaultOffset)
                    for i in 0..<ranges {
                        let first = try table.u24(defaultOffset + 4 + 4 * i)
                        let extra = try table.u8(defaultOffset + 7 + 4 * i)
                        record.defaults.append((first, first + UInt32(extra)))
                    }
                    defaultLists[defaultOffset] = record.defaults
                }
            }
            if mappedOffset != 0 {
                if let known = mappedLists[mappedOffset] {
                    record.mapped = known
                } else {
                    let mappings = Int(try table.u32(mappedOffset))
                    try table.check(mappedOffset + 4, 5 * mappings)
                    try spend(mappings, at: mappedOffset)
                    for i in 0..<mappings {
                        record.mapped[try table.u24(mappedOffset + 4 + 5 * i)] = try table.u16(mappedOffset + 7 + 5 * i)
                    }
                    mappedLists[mappedOffset] = record.mapped
                }
            }
            records[selector] = record
        }
        return records
    }
}

/// One variation selector's sequences in a format 14 subtable.
struct VariationSelectorRecord: Sendable {
    var defaults: [(first: UInt32, last: UInt32)] = []
    var mapped: [UInt32: UInt16] = [:]
}
