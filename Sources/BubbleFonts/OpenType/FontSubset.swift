/// A font cut down to the glyphs a document draws, as a standalone OpenType file a browser loads
/// with `@font-face`.
///
/// Glyph ids are kept: a dropped glyph stays in the font with no outline (an empty `glyf` entry,
/// an `endchar` charstring), so every table that names glyphs by id (`hmtx`, `GSUB`, `GPOS`,
/// `GDEF`, `kern`, `vmtx`) is copied as it is and stays valid, and the browser shapes and
/// advances the used text exactly as with the whole font. Kept: `.notdef`, the glyph of each
/// used code point, every glyph a `GSUB` lookup can make from kept glyphs (any feature, any
/// context: a superset of what the browser can substitute), and composite glyphs' components.
/// Rewritten: `cmap` (the used code points only, formats 4 and 12), `glyf`/`loca`, `CFF `'s
/// CharStrings, `post` (format 3, no glyph names), `head` (loca format, checksums). Dropped:
/// `DSIG` (it signs the whole font). Colour bitmaps (`CBDT`/`CBLC`) keep the used glyphs'
/// images only.
///
/// Hostile fonts: every read is bounds-checked (`FontBytes`); the glyph closure is bounded by the
/// font's own size (`ExpansionBudget`); a damaged table gives a `FontError`.
package struct FontSubset: Sendable {
    /// The subset font file (a single face: a collection's member comes out on its own).
    package let bytes: [UInt8]
    /// Glyphs that kept their outline or bitmap (`.notdef` included), of `glyphCount`.
    package let keptGlyphs: Int
    package let glyphCount: Int

    /// Cuts face `faceIndex` of `font` down to what `scalars` (code points) need.
    /// O(font size + scalars × log scalars).
    package init(font: [UInt8], faceIndex: Int = 0, scalars: some Sequence<UInt32>) throws(FontError) {
        let file = try FontFile(bytes: font, faceIndex: faceIndex)
        let glyphCount = try BubbleFonts.glyphCount(maxp: file.required("maxp"))
        self.glyphCount = glyphCount
        let cmap = try CmapTable(file.required("cmap"), glyphCount: glyphCount)
        var keep = [Bool](repeating: false, count: glyphCount)
        keep[0] = true
        var mapping: [(scalar: UInt32, glyph: UInt16)] = []
        for scalar in Set(scalars).sorted() {
            guard let glyph = cmap.glyph(scalar), glyph != 0, Int(glyph) < glyphCount else { continue }
            mapping.append((scalar, glyph))
            keep[Int(glyph)] = true
        }
        var budget = ExpansionBudget(fontBytes: font.count)
        if let gsub = file.tables["GSUB"] {
            try SubstitutionClosure(gsub: gsub, glyphCount: glyphCount, budget: &budget).close(&keep)
        }
        var tables: [String: [UInt8]] = [:]
        for (tag, table) in file.tables where tag != "DSIG" {
            tables[tag] = Array(table.file[table.base..<(table.base + table.count)])
        }
        let head = try file.required("head")
        guard head.count >= 54 else { throw head.error(0, "head is \(head.count) bytes, not 54") }
        if let glyf = file.tables["glyf"], let loca = file.tables["loca"], !file.isCFF {
            let longOffsets = try head.i16(50) != 0
            let outlines = try TrueTypeOutlines(glyf: glyf, loca: loca, longOffsets: longOffsets, glyphCount: glyphCount)
            try outlines.addComponents(to: &keep, budget: &budget)
            let (newGlyf, newLoca, long) = try outlines.subset(keep)
            tables["glyf"] = newGlyf
            tables["loca"] = newLoca
            tables["head"]![50] = 0
            tables["head"]![51] = long ? 1 : 0
        }
        if let cff = file.tables["CFF "] {
            tables["CFF "] = try CFFOutlines(cff, glyphCount: glyphCount).subset(keep)
        }
        if let cblc = file.tables["CBLC"], let cbdt = file.tables["CBDT"] {
            (tables["CBLC"], tables["CBDT"]) = try ColorBitmapSubset.subset(cblc: cblc, cbdt: cbdt, glyphCount: glyphCount, keep: keep)
        }
        tables["cmap"] = Self.cmap(mapping)
        tables["post"] = Self.post(file.tables["post"])
        keptGlyphs = keep.reduce(0) { $0 + ($1 ? 1 : 0) }
        bytes = Self.sfnt(tables, cff: file.isCFF)
    }

    // MARK: Writing

    /// `cmap` for `mapping` (sorted by code point): format 4 under (3,1) when it fits, format 12
    /// under (3,10) when a code point is past the BMP or format 4 does not fit.
    static func cmap(_ mapping: [(scalar: UInt32, glyph: UInt16)]) -> [UInt8] {
        // Runs of consecutive code points with consecutive glyphs.
        var runs: [(first: UInt32, last: UInt32, glyph: UInt32)] = []
        for (scalar, glyph) in mapping {
            if let last = runs.last, last.last + 1 == scalar, last.glyph + (scalar - last.first) == UInt32(glyph) {
                runs[runs.count - 1].last = scalar
            } else {
                runs.append((scalar, scalar, UInt32(glyph)))
            }
        }
        var format4: [UInt8]?
        let bmp = runs.compactMap { run -> (first: UInt32, last: UInt32, glyph: UInt32)? in
            run.first > 0xFFFF ? nil : (run.first, min(run.last, 0xFFFE), run.glyph)
        }.filter { $0.first <= $0.last }
        let segments = bmp.count + 1
        if 16 + 8 * segments <= 0xFFFF {
            var t = SfntBytes()
            t.u16(4); t.u16(UInt16(16 + 8 * segments)); t.u16(0)
            t.u16(UInt16(2 * segments))
            var power = 1, log = 0
            while power * 2 <= segments { power *= 2; log += 1 }
            t.u16(UInt16(2 * power)); t.u16(UInt16(log)); t.u16(UInt16(2 * segments - 2 * power))
            for run in bmp { t.u16(UInt16(run.last)) }
            t.u16(0xFFFF)
            t.u16(0)
            for run in bmp { t.u16(UInt16(run.first)) }
            t.u16(0xFFFF)
            for run in bmp { t.u16(UInt16(truncatingIfNeeded: run.glyph &- run.first)) }
            t.u16(1)
            for _ in 0..<segments { t.u16(0) }
            format4 = t.bytes
        }
        var format12: [UInt8]?
        if format4 == nil || runs.last.map({ $0.last > 0xFFFF }) == true {
            var t = SfntBytes()
            t.u16(12); t.u16(0); t.u32(UInt32(16 + 12 * runs.count)); t.u32(0); t.u32(UInt32(runs.count))
            for run in runs { t.u32(run.first); t.u32(run.last); t.u32(run.glyph) }
            format12 = t.bytes
        }
        let subtables = [(UInt16(1), format4), (UInt16(10), format12)].compactMap { encoding, bytes in bytes.map { (encoding, $0) } }
        var t = SfntBytes()
        t.u16(0); t.u16(UInt16(subtables.count))
        var offset = 4 + 8 * subtables.count
        for (encoding, bytes) in subtables {
            t.u16(3); t.u16(encoding); t.u32(UInt32(offset))
            offset += bytes.count
        }
        for (_, bytes) in subtables { t.bytes += bytes }
        return t.bytes
    }

    /// `post` format 3: the original's metrics (italic angle, underline, fixed pitch), no names.
    static func post(_ original: FontBytes?) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: 32)
        if let original, original.count >= 32 {
            for i in 0..<32 { bytes[i] = original.file[original.base + i] }
        }
        bytes[0] = 0; bytes[1] = 3; bytes[2] = 0; bytes[3] = 0
        return bytes
    }

    /// The file: directory sorted by tag, each table 4-byte aligned with its checksum, and
    /// `head.checkSumAdjustment` set so the whole file sums to 0xB1B0AFBA.
    static func sfnt(_ tables: [String: [UInt8]], cff: Bool) -> [UInt8] {
        var tables = tables
        if tables["head"] != nil { for i in 8..<12 { tables["head"]![i] = 0 } }
        let tags = tables.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        var t = SfntBytes()
        t.u32(cff ? 0x4F54_544F : 0x0001_0000)
        t.u16(UInt16(tags.count))
        var power = 1, log = 0
        while power * 2 <= tags.count { power *= 2; log += 1 }
        t.u16(UInt16(16 * power)); t.u16(UInt16(log)); t.u16(UInt16(16 * tags.count - 16 * power))
        var offset = 12 + 16 * tags.count
        for tag in tags {
            let table = tables[tag]!
            t.bytes += Array(tag.utf8)
            t.u32(checksum(table))
            t.u32(UInt32(offset))
            t.u32(UInt32(table.count))
            offset += (table.count + 3) & ~3
        }
        var headOffset: Int?
        for tag in tags {
            if tag == "head" { headOffset = t.bytes.count }
            t.bytes += tables[tag]!
            while t.bytes.count % 4 != 0 { t.bytes.append(0) }
        }
        if let headOffset {
            let adjustment = 0xB1B0_AFBA &- checksum(t.bytes)
            for i in 0..<4 { t.bytes[headOffset + 8 + i] = UInt8(truncatingIfNeeded: adjustment >> (24 - 8 * UInt32(i))) }
        }
        return t.bytes
    }

    /// The OpenType checksum: the sum of big-endian 32-bit words, the last padded with zeros.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var sum: UInt32 = 0
        var i = 0
        while i < bytes.count {
            var word: UInt32 = 0
            for k in 0..<4 { word = word << 8 | UInt32(i + k < bytes.count ? bytes[i + k] : 0) }
            sum &+= word
            i += 4
        }
        return sum
    }
}

/// Big-endian bytes being written.
struct SfntBytes {
    var bytes: [UInt8] = []
    mutating func u16(_ value: UInt16) { bytes += [UInt8(value >> 8), UInt8(value & 0xFF)] }
    mutating func u32(_ value: UInt32) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}

/// Every glyph `GSUB` can produce from a set of glyphs, over all its lookups whatever their
/// feature, script or context: single (1), multiple (2), alternate (3), ligature (4, when all its
/// components are in the set) and reverse chaining (8) substitutions, behind extensions (7).
/// Contextual lookups (5, 6) only call these, so taking every lookup covers them.
struct SubstitutionClosure {
    /// Glyph in → glyphs out.
    private var produces: [(from: UInt16, to: [UInt16])] = []
    /// A ligature: its components (the first first) and the glyph they make.
    private var ligatures: [(components: [UInt16], glyph: UInt16)] = []

    init(gsub: FontBytes, glyphCount: Int, budget: inout ExpansionBudget) throws(FontError) {
        guard let lookupList = try gsub.subtable(at: 8) else { return }
        let lookupCount = Int(try lookupList.u16(0))
        var seen: Set<Int> = []
        for index in 0..<lookupCount {
            let lookup = try lookupList.from(Int(try lookupList.u16(2 + 2 * index)))
            let read = try LookupSubtables(lookup, extensionType: 7, wanted: { [1, 2, 3, 4, 8].contains($0) })
            for subtable in read.subtables where seen.insert(subtable.base).inserted {
                try self.read(subtable, type: read.type, glyphCount: glyphCount, budget: &budget)
            }
        }
    }

    private mutating func read(_ table: FontBytes, type: UInt16, glyphCount: Int, budget: inout ExpansionBudget) throws(FontError) {
        guard let coverageTable = try table.subtable(at: 2) else { return }
        var coverage = try Coverage(coverageTable)
        try budget.spend(coverage.entries.count, table, 2)
        coverage.entries.removeAll { Int($0.glyph) >= glyphCount }
        let format = try table.u16(0)
        func glyphs(_ list: FontBytes, countAt: Int) throws(FontError) -> [UInt16] {
            let count = Int(try list.u16(countAt))
            try list.check(countAt + 2, 2 * count)
            try budget.spend(count, list, countAt)
            var out: [UInt16] = []
            for i in 0..<count {
                let glyph = try list.u16(countAt + 2 + 2 * i)
                if Int(glyph) < glyphCount { out.append(glyph) }
            }
            return out
        }
        switch (type, format) {
        case (1, 1):
            let delta = try table.u16(4)
            for entry in coverage.entries {
                let to = entry.glyph &+ delta
                if Int(to) < glyphCount { produces.append((entry.glyph, [to])) }
            }
        case (1, 2):
            let substitutes = try glyphs(table, countAt: 4)
            for entry in coverage.entries where entry.index < substitutes.count {
                produces.append((entry.glyph, [substitutes[entry.index]]))
            }
        case (2, 1), (3, 1):
            let count = Int(try table.u16(4))
            for entry in coverage.entries where entry.index < count {
                guard let sequence = try table.subtable(at: 6 + 2 * entry.index) else { continue }
                produces.append((entry.glyph, try glyphs(sequence, countAt: 0)))
            }
        case (4, 1):
            let count = Int(try table.u16(4))
            for entry in coverage.entries where entry.index < count {
                guard let set = try table.subtable(at: 6 + 2 * entry.index) else { continue }
                let ligatureCount = Int(try set.u16(0))
                try budget.spend(ligatureCount, set, 0)
                for l in 0..<ligatureCount {
                    guard let ligature = try set.subtable(at: 2 + 2 * l) else { continue }
                    let glyph = try ligature.u16(0)
                    let componentCount = Int(try ligature.u16(2))
                    guard componentCount > 0, Int(glyph) < glyphCount else { continue }
                    try ligature.check(4, 2 * (componentCount - 1))
                    try budget.spend(componentCount, ligature, 2)
                    var components = [entry.glyph]
                    for c in 0..<(componentCount - 1) { components.append(try ligature.u16(4 + 2 * c)) }
                    ligatures.append((components, glyph))
                }
            }
        case (8, 1):
            let backtrack = Int(try table.u16(4))
            let lookaheadAt = 6 + 2 * backtrack
            let lookahead = Int(try table.u16(lookaheadAt))
            let substitutes = try glyphs(table, countAt: lookaheadAt + 2 + 2 * lookahead)
            for entry in coverage.entries where entry.index < substitutes.count {
                produces.append((entry.glyph, [substitutes[entry.index]]))
            }
        default:
            throw table.error(0, "GSUB lookup type \(type) subtable format \(format) is not known")
        }
    }

    /// Adds to `keep` every glyph reachable from it, until nothing more is added.
    func close(_ keep: inout [Bool]) {
        var changed = true
        while changed {
            changed = false
            for (from, to) in produces where keep[Int(from)] {
                for glyph in to where !keep[Int(glyph)] {
                    keep[Int(glyph)] = true
                    changed = true
                }
            }
            for (components, glyph) in ligatures where !keep[Int(glyph)] && components.allSatisfy({ Int($0) < keep.count && keep[Int($0)] }) {
                keep[Int(glyph)] = true
                changed = true
            }
        }
    }
}

/// `glyf` and `loca`: each glyph's outline bytes.
struct TrueTypeOutlines {
    let glyf: FontBytes
    /// Each glyph's range in `glyf`.
    let ranges: [Range<Int>]

    init(glyf: FontBytes, loca: FontBytes, longOffsets: Bool, glyphCount: Int) throws(FontError) {
        self.glyf = glyf
        let step = longOffsets ? 4 : 2
        try loca.check(0, step * (glyphCount + 1))
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(glyphCount)
        func offset(_ g: Int) throws(FontError) -> Int {
            longOffsets ? Int(try loca.u32(4 * g)) : 2 * Int(try loca.u16(2 * g))
        }
        var start = try offset(0)
        for g in 0..<glyphCount {
            let end = try offset(g + 1)
            guard start <= end, end <= glyf.count else {
                throw loca.error(step * (g + 1), "glyph \(g)'s outline (\(start)…\(end)) is outside glyf (\(glyf.count) bytes)")
            }
            ranges.append(start..<end)
            start = end
        }
        self.ranges = ranges
    }

    /// Adds the components of every kept composite glyph (and theirs) to `keep`.
    func addComponents(to keep: inout [Bool], budget: inout ExpansionBudget) throws(FontError) {
        var work = keep.indices.filter { keep[$0] }
        while let g = work.popLast() {
            let range = ranges[g]
            guard range.count >= 10, try glyf.i16(range.lowerBound) < 0 else { continue }
            var at = range.lowerBound + 10
            while true {
                try budget.spend(1, glyf, at)
                guard at + 4 <= range.upperBound else { throw glyf.error(at, "glyph \(g)'s component runs past its outline") }
                let flags = try glyf.u16(at)
                let component = Int(try glyf.u16(at + 2))
                if component < keep.count && !keep[component] {
                    keep[component] = true
                    work.append(component)
                }
                at += 4 + (flags & 0x1 != 0 ? 4 : 2)
                if flags & 0x8 != 0 { at += 2 } else if flags & 0x40 != 0 { at += 4 } else if flags & 0x80 != 0 { at += 8 }
                guard flags & 0x20 != 0 else { break }
            }
        }
    }

    /// The kept glyphs' outlines (each padded to 4 bytes), the others empty; `loca` short when the
    /// offsets fit.
    func subset(_ keep: [Bool]) throws(FontError) -> (glyf: [UInt8], loca: [UInt8], long: Bool) {
        var glyfBytes: [UInt8] = []
        var offsets: [Int] = [0]
        for (g, range) in ranges.enumerated() {
            if keep[g] && !range.isEmpty {
                glyfBytes += glyf.file[(glyf.base + range.lowerBound)..<(glyf.base + range.upperBound)]
                while glyfBytes.count % 4 != 0 { glyfBytes.append(0) }
            }
            offsets.append(glyfBytes.count)
        }
        let long = glyfBytes.count > 0x1FFFE
        var loca = SfntBytes()
        for offset in offsets {
            if long { loca.u32(UInt32(offset)) } else { loca.u16(UInt16(offset / 2)) }
        }
        return (glyfBytes, loca.bytes, long)
    }
}

/// A CFF (version 1) table rebuilt with the kept glyphs' charstrings and an `endchar` for every
/// other glyph: the header, names, strings, global and local subroutines, charset, encoding,
/// FDSelect, FDArray and Private DICTs are copied; the DICTs' offsets are rewritten (as 5-byte
/// integers) for the new layout.
struct CFFOutlines {
    let table: FontBytes
    let glyphCount: Int

    init(_ table: FontBytes, glyphCount: Int) {
        self.table = table
        self.glyphCount = glyphCount
    }

    /// A DICT's entries: operator (12 x as 1200 + x) and its operands' bytes.
    typealias Dict = [(op: Int, operands: [UInt8], values: [Int])]

    /// The length of the INDEX at `at`.
    func indexLength(_ at: Int) throws(FontError) -> Int {
        let count = Int(try table.u16(at))
        guard count > 0 else { return 2 }
        let offSize = Int(try table.u8(at + 2))
        guard (1...4).contains(offSize) else { throw table.error(at + 2, "INDEX offSize \(offSize) is not 1…4") }
        let last = try offset(at + 3 + count * offSize, size: offSize)
        let length = 3 + (count + 1) * offSize + last - 1
        try table.check(at, length)
        return length
    }

    private func offset(_ at: Int, size: Int) throws(FontError) -> Int {
        var value = 0
        for i in 0..<size { value = value << 8 | Int(try table.u8(at + i)) }
        return value
    }

    /// The INDEX at `at`'s items as ranges of the table.
    func items(_ at: Int) throws(FontError) -> [Range<Int>] {
        let count = Int(try table.u16(at))
        guard count > 0 else { return [] }
        let offSize = Int(try table.u8(at + 2))
        guard (1...4).contains(offSize) else { throw table.error(at + 2, "INDEX offSize \(offSize) is not 1…4") }
        let data = at + 2 + (count + 1) * offSize
        var ranges: [Range<Int>] = []
        var previous = try offset(at + 3, size: offSize)
        for i in 1...count {
            let next = try offset(at + 3 + i * offSize, size: offSize)
            guard previous >= 1, next >= previous else { throw table.error(at + 3 + i * offSize, "INDEX offsets go backwards") }
            ranges.append((data + previous)..<(data + next))
            previous = next
        }
        try table.check(data, previous)
        return ranges
    }

    /// The DICT in `range`.
    func dict(_ range: Range<Int>) throws(FontError) -> Dict {
        var entries: Dict = []
        var operands: [UInt8] = []
        var values: [Int] = []
        var at = range.lowerBound
        while at < range.upperBound {
            let b0 = Int(try table.u8(at))
            let start = at
            switch b0 {
            case 0...21:
                var op = b0
                at += 1
                if b0 == 12 { op = 1200 + Int(try table.u8(at)); at += 1 }
                entries.append((op, operands, values))
                operands = []
                values = []
                continue
            case 28: values.append(Int(Int16(bitPattern: try table.u16(at + 1)))); at += 3
            case 29: values.append(Int(Int32(bitPattern: try table.u32(at + 1)))); at += 5
            case 30:
                at += 1
                while true {
                    let byte = try table.u8(at)
                    at += 1
                    if byte & 0x0F == 0x0F || byte >> 4 == 0x0F { break }
                }
                values.append(0)
            case 32...246: values.append(b0 - 139); at += 1
            case 247...250: values.append((b0 - 247) * 256 + Int(try table.u8(at + 1)) + 108); at += 2
            case 251...254: values.append(-(b0 - 251) * 256 - Int(try table.u8(at + 1)) - 108); at += 2
            default: throw table.error(at, "DICT byte \(b0) is not an operand or operator")
            }
            guard at <= range.upperBound else { throw table.error(start, "DICT operand runs past its DICT") }
            operands += table.file[(table.base + start)..<(table.base + at)]
        }
        return entries
    }

    static func encode(_ dict: Dict, replacing: [Int: [Int]]) -> [UInt8] {
        var out: [UInt8] = []
        for entry in dict {
            if let values = replacing[entry.op] {
                for value in values {
                    let v = UInt32(bitPattern: Int32(truncatingIfNeeded: value))
                    out += [29, UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
                }
            } else {
                out += entry.operands
            }
            if entry.op >= 1200 { out += [12, UInt8(entry.op - 1200)] } else { out.append(UInt8(entry.op)) }
        }
        return out
    }

    static func index(_ items: [[UInt8]]) -> [UInt8] {
        guard !items.isEmpty else { return [0, 0] }
        let total = items.reduce(1) { $0 + $1.count }
        let offSize = total <= 0xFF ? 1 : total <= 0xFFFF ? 2 : total <= 0xFF_FFFF ? 3 : 4
        var out: [UInt8] = [UInt8(items.count >> 8), UInt8(items.count & 0xFF), UInt8(offSize)]
        var offset = 1
        func put(_ value: Int) { for i in stride(from: offSize - 1, through: 0, by: -1) { out.append(UInt8((value >> (8 * i)) & 0xFF)) } }
        put(offset)
        for item in items { offset += item.count; put(offset) }
        for item in items { out += item }
        return out
    }

    func bytes(_ range: Range<Int>) throws(FontError) -> [UInt8] {
        try table.check(range.lowerBound, range.count)
        return Array(table.file[(table.base + range.lowerBound)..<(table.base + range.upperBound)])
    }

    /// The length of the charset at `at` for `glyphCount` glyphs.
    func charsetLength(_ at: Int) throws(FontError) -> Int {
        let format = try table.u8(at)
        switch format {
        case 0: return 1 + 2 * (glyphCount - 1)
        case 1, 2:
            var covered = 1, length = 1
            let step = format == 1 ? 3 : 4
            while covered < glyphCount {
                let left = format == 1 ? Int(try table.u8(at + length + 2)) : Int(try table.u16(at + length + 2))
                covered += left + 1
                length += step
            }
            return length
        default: throw table.error(at, "charset format \(format) is not 0, 1 or 2")
        }
    }

    func encodingLength(_ at: Int) throws(FontError) -> Int {
        let format = try table.u8(at)
        var length = switch format & 0x7F {
        case 0: 2 + Int(try table.u8(at + 1))
        case 1: 2 + 2 * Int(try table.u8(at + 1))
        default: throw table.error(at, "encoding format \(format & 0x7F) is not 0 or 1")
        }
        if format & 0x80 != 0 { length += 1 + 3 * Int(try table.u8(at + length)) }
        return length
    }

    func fdSelectLength(_ at: Int) throws(FontError) -> Int {
        let format = try table.u8(at)
        switch format {
        case 0: return 1 + glyphCount
        case 3: return 5 + 3 * Int(try table.u16(at + 1))
        default: throw table.error(at, "FDSelect format \(format) is not 0 or 3")
        }
    }

    /// A Private DICT and its local subroutines, the Subrs offset rewritten to follow the DICT.
    func privateBlock(size: Int, offset: Int) throws(FontError) -> [UInt8] {
        let dict = try self.dict(offset..<(offset + size))
        guard let subrs = dict.first(where: { $0.op == 19 })?.values.last else { return try bytes(offset..<(offset + size)) }
        let subrsLength = try indexLength(offset + subrs)
        let rewritten = Self.encode(dict, replacing: [19: [0]])
        return Self.encode(dict, replacing: [19: [rewritten.count]]) + (try bytes((offset + subrs)..<(offset + subrs + subrsLength)))
    }

    func subset(_ keep: [Bool]) throws(FontError) -> [UInt8] {
        guard try table.u8(0) == 1 else { throw table.error(0, "CFF major version \(try table.u8(0)) is not 1") }
        let headerSize = Int(try table.u8(2))
        let nameLength = try indexLength(headerSize)
        let topAt = headerSize + nameLength
        let tops = try items(topAt)
        guard tops.count == 1 else { throw table.error(topAt, "the CFF holds \(tops.count) fonts, not 1") }
        let stringAt = topAt + (try indexLength(topAt))
        let globalAt = stringAt + (try indexLength(stringAt))
        let globalEnd = globalAt + (try indexLength(globalAt))
        let top = try dict(tops[0])
        func value(_ op: Int) -> [Int]? { top.first(where: { $0.op == op })?.values }
        guard let charStringsAt = value(17)?.last else { throw table.error(topAt, "the Top DICT has no CharStrings") }
        let charStrings = try items(charStringsAt)
        guard charStrings.count == glyphCount else {
            throw table.error(charStringsAt, "\(charStrings.count) charstrings for \(glyphCount) glyphs")
        }
        var newCharStrings: [[UInt8]] = []
        newCharStrings.reserveCapacity(glyphCount)
        for (g, range) in charStrings.enumerated() { newCharStrings.append(keep[g] ? try bytes(range) : [14]) }
        // The blocks after the global subroutines, in this order; each offset operand is 5 bytes.
        var blocks: [(op: Int, bytes: [UInt8])] = []
        if let at = value(15)?.last, at > 2 { blocks.append((15, try bytes(at..<(at + charsetLength(at))))) }
        if let at = value(16)?.last, at > 1 { blocks.append((16, try bytes(at..<(at + encodingLength(at))))) }
        if let at = value(1237)?.last { blocks.append((1237, try bytes(at..<(at + fdSelectLength(at))))) }
        blocks.append((17, Self.index(newCharStrings)))
        var privateBlocks: [[UInt8]] = []
        var fontDicts: [Dict] = []
        if let at = value(1236)?.last {
            for range in try items(at) {
                let fd = try dict(range)
                fontDicts.append(fd)
                if let p = fd.first(where: { $0.op == 18 })?.values, p.count == 2 {
                    privateBlocks.append(try privateBlock(size: p[0], offset: p[1]))
                    // Font DICTs sharing one Private DICT: the copies stay within the table's size.
                    guard privateBlocks.reduce(0, { $0 + $1.count }) <= 2 * table.count + 4 else {
                        throw table.error(at, "Private DICTs add up to more than the CFF holds (a hostile font?)")
                    }
                } else {
                    privateBlocks.append([])
                }
            }
        }
        var topPrivate: [UInt8]?
        if let p = value(18), p.count == 2 { topPrivate = try privateBlock(size: p[0], offset: p[1]) }
        // The Top DICT's size does not depend on the offsets (all 5 bytes), so lay out once.
        var replacing: [Int: [Int]] = [:]
        for block in blocks { replacing[block.op] = [0] }
        if !fontDicts.isEmpty { replacing[1236] = [0] }
        if topPrivate != nil { replacing[18] = [0, 0] }
        let topSize = Self.encode(top, replacing: replacing).count
        let topIndexSize = Self.index([[UInt8](repeating: 0, count: topSize)]).count
        var at = globalEnd - stringAt + headerSize + nameLength + topIndexSize
        for block in blocks {
            replacing[block.op] = [at]
            at += block.bytes.count
        }
        // FDArray: font DICTs whose Private offsets follow it.
        var fdArray: [UInt8] = []
        if !fontDicts.isEmpty {
            replacing[1236] = [at]
            let sized = fontDicts.map { Self.encode($0, replacing: [18: [0, 0]]) }
            var privateAt = at + Self.index(sized).count
            var rewritten: [[UInt8]] = []
            for (fd, block) in zip(fontDicts, privateBlocks) {
                let size = privateBlockDictSize(block, fd)
                rewritten.append(Self.encode(fd, replacing: [18: [size, privateAt]]))
                privateAt += block.count
            }
            fdArray = Self.index(rewritten)
            at += fdArray.count + privateBlocks.reduce(0) { $0 + $1.count }
        }
        if let topPrivate {
            replacing[18] = [privateDictSize(topPrivate), at]
        }
        var out = try bytes(0..<(headerSize + nameLength))
        out += Self.index([Self.encode(top, replacing: replacing)])
        out += try bytes(stringAt..<globalEnd)
        for block in blocks { out += block.bytes }
        out += fdArray
        for block in privateBlocks { out += block }
        if let topPrivate { out += topPrivate }
        return out
    }

    /// The Private DICT's own size in a block `privateBlock` made (the Subrs INDEX follows it).
    private func privateDictSize(_ block: [UInt8]) -> Int {
        // The block is DICT + Subrs: the DICT ends where its Subrs operand says, else at the end.
        var at = 0
        var lastValue = 0
        while at < block.count {
            let b0 = Int(block[at])
            switch b0 {
            case 19: return lastValue
            case 12: at += 2
            case 0...21: at += 1
            case 28: at += 3
            case 29:
                if at + 4 < block.count {
                    lastValue = Int(Int32(bitPattern: UInt32(block[at + 1]) << 24 | UInt32(block[at + 2]) << 16 | UInt32(block[at + 3]) << 8 | UInt32(block[at + 4])))
                }
                at += 5
            case 30:
                at += 1
                while at < block.count {
                    let byte = block[at]
                    at += 1
                    if byte & 0x0F == 0x0F || byte >> 4 == 0x0F { break }
                }
            case 247...254: at += 2
            default: at += 1
            }
        }
        return block.count
    }

    private func privateBlockDictSize(_ block: [UInt8], _ fd: Dict) -> Int { block.isEmpty ? 0 : privateDictSize(block) }
}

/// `CBLC`/`CBDT` (colour bitmap glyphs, as in Noto Color Emoji) with the kept glyphs' images only:
/// each strike keeps its index subtables and their glyph ranges; an offset-listed subtable
/// (index formats 1, 3, 4) becomes format 1 with dropped glyphs empty, a constant-size one
/// (2, 5: metrics in the index) becomes format 5 listing the kept glyphs. Image data is copied
/// as it is (the PNGs and their metrics).
enum ColorBitmapSubset {
    static func subset(cblc: FontBytes, cbdt: FontBytes, glyphCount: Int, keep: [Bool]) throws(FontError) -> ([UInt8], [UInt8]) {
        let sizeCount = Int(try cblc.u32(4))
        try cblc.check(8, 48 * sizeCount)
        var data = SfntBytes()
        data.u16(3); data.u16(0)
        var strikes: [(record: [UInt8], array: [UInt8], count: Int)] = []
        var visited = 0
        for s in 0..<sizeCount {
            let size = 8 + 48 * s
            let arrayOffset = Int(try cblc.u32(size))
            let subtableCount = Int(try cblc.u32(size + 8))
            let array = try cblc.from(arrayOffset)
            try array.check(0, 8 * subtableCount)
            var kept: [(first: Int, last: Int, body: [UInt8])] = []
            for i in 0..<subtableCount {
                let first = Int(try array.u16(8 * i)), last = Int(try array.u16(8 * i + 2))
                guard first <= last, last < glyphCount else { throw array.error(8 * i, "glyph range \(first)…\(last) is outside the font") }
                visited += last - first + 1
                guard visited <= 4 * glyphCount + 4 else { throw array.error(8 * i, "index subtables list glyphs many times over") }
                let header = try array.from(Int(try array.u32(8 * i + 4)))
                let indexFormat = try header.u16(0), imageFormat = try header.u16(2)
                let imageData = Int(try header.u32(4))
                var body = SfntBytes()
                let dataStart = data.bytes.count
                func copy(_ from: Int, _ to: Int) throws(FontError) {
                    guard from <= to else { throw header.error(8, "image offsets go backwards") }
                    try cbdt.check(imageData + from, to - from)
                    // Images shared by many glyphs: the subset stays within the table's own size.
                    guard data.bytes.count + (to - from) <= 2 * cbdt.count + 4 else {
                        throw header.error(8, "glyph images add up to more than CBDT holds (a hostile font?)")
                    }
                    data.bytes += cbdt.file[(cbdt.base + imageData + from)..<(cbdt.base + imageData + to)]
                }
                switch indexFormat {
                case 1, 3, 4:
                    var ranges: [Int: Range<Int>] = [:]
                    if indexFormat == 4 {
                        let count = Int(try header.u32(8))
                        try header.check(12, 4 * (count + 1))
                        for k in 0..<count {
                            let glyph = Int(try header.u16(12 + 4 * k))
                            ranges[glyph] = Int(try header.u16(14 + 4 * k))..<Int(try header.u16(18 + 4 * k))
                        }
                    } else {
                        let step = indexFormat == 1 ? 4 : 2
                        try header.check(8, step * (last - first + 2))
                        for g in first...last {
                            let at = 8 + step * (g - first)
                            let from = Int(step == 4 ? try header.u32(at) : UInt32(try header.u16(at)))
                            let to = Int(step == 4 ? try header.u32(at + step) : UInt32(try header.u16(at + step)))
                            ranges[g] = from..<max(from, to)
                        }
                    }
                    guard (first...last).contains(where: { keep[$0] && ranges[$0].map { !$0.isEmpty } == true }) else { continue }
                    body.u16(1); body.u16(imageFormat); body.u32(UInt32(dataStart))
                    body.u32(0)
                    for g in first...last {
                        if keep[g], let range = ranges[g] { try copy(range.lowerBound, range.upperBound) }
                        body.u32(UInt32(data.bytes.count - dataStart))
                    }
                case 2, 5:
                    let imageSize = Int(try header.u32(8))
                    let metrics = try (12..<20).map { (at) throws(FontError) in try header.u8(at) }
                    var glyphs: [Int]
                    if indexFormat == 2 {
                        glyphs = Array(first...last)
                    } else {
                        let count = Int(try header.u32(20))
                        try header.check(24, 2 * count)
                        glyphs = try (0..<count).map { (k) throws(FontError) in Int(try header.u16(24 + 2 * k)) }
                    }
                    var keptGlyphs: [Int] = []
                    for (k, g) in glyphs.enumerated() where g < glyphCount && keep[g] {
                        try copy(k * imageSize, (k + 1) * imageSize)
                        keptGlyphs.append(g)
                    }
                    guard !keptGlyphs.isEmpty else { continue }
                    body.u16(5); body.u16(imageFormat); body.u32(UInt32(dataStart))
                    body.u32(UInt32(imageSize)); body.bytes += metrics
                    body.u32(UInt32(keptGlyphs.count))
                    for g in keptGlyphs { body.u16(UInt16(g)) }
                default:
                    throw header.error(0, "index subtable format \(indexFormat) is not 1…5")
                }
                while body.bytes.count % 4 != 0 { body.bytes.append(0) }
                kept.append((first, last, body.bytes))
            }
            // Index subtables with no glyph left are dropped.
            var headers = SfntBytes()
            var bodies: [UInt8] = []
            for subtable in kept {
                headers.u16(UInt16(subtable.first)); headers.u16(UInt16(subtable.last)); headers.u32(UInt32(8 * kept.count + bodies.count))
                bodies += subtable.body
            }
            let record = Array(cblc.file[(cblc.base + size)..<(cblc.base + size + 48)])
            strikes.append((record, headers.bytes + bodies, kept.count))
        }
        var index = SfntBytes()
        index.u16(3); index.u16(0); index.u32(UInt32(sizeCount))
        var at = 8 + 48 * sizeCount
        for strike in strikes {
            index.u32(UInt32(at)); index.u32(UInt32(strike.array.count)); index.u32(UInt32(strike.count))
            index.bytes += strike.record[12...]
            at += strike.array.count
        }
        for strike in strikes { index.bytes += strike.array }
        return (index.bytes, data.bytes)
    }
}
