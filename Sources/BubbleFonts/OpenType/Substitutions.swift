import BubbleText

/// Glyph substitutions from `GSUB` that change widths: single substitutions (type 1) and
/// ligatures (type 4), also behind extension lookups (type 7), of the features a browser applies by
/// default before positioning (`ccmp`, `locl`, `rlig`, `liga`, `clig`), for one script and
/// language system. Contextual lookups are not applied.
struct Substitutions: Sendable {
    enum Lookup: Sendable {
        case single([UInt16: UInt16])
        /// First glyph → ligatures starting with it, in the font's order: the rest of the
        /// components and the ligature glyph.
        case ligatures([UInt16: [(components: [UInt16], glyph: UInt16)]])
    }

    /// The lookups in lookup-list order.
    private(set) var lookups: [Lookup] = []
    /// Per lookup, a bit per glyph that starts one of its substitutions: most glyphs start none,
    /// and testing a bit is much cheaper than hashing the glyph.
    private var firstGlyphs: [[UInt64]] = []

    static let features: Set<String> = ["ccmp", "locl", "rlig", "liga", "clig"]

    init() {}

    /// The default features' substitutions for `script` (else `DFLT`, else the first script) and
    /// `language` (an OpenType language tag such as `KOR `, else the default language system).
    init(gsub table: FontBytes, script: String, language: String?, glyphCount: Int) throws(FontError) {
        guard let scripts = try table.subtable(at: 4), let features = try table.subtable(at: 6),
              let lookupList = try table.subtable(at: 8) else { return }
        let indices = try LayoutFeatures.lookupIndices(scripts: scripts, features: features, script: script,
                                                       language: language, tags: Self.features)
        let lookupCount = Int(try lookupList.u16(0))
        var budget = min(PairSubtable.maximumPairs, ExpansionBudget.perByte * table.file.count + ExpansionBudget.allowance)
        for index in indices.sorted() where index < lookupCount {
            let lookup = try lookupList.from(Int(try lookupList.u16(2 + 2 * index)))
            let read = try LookupSubtables(lookup, extensionType: 7, wanted: { $0 == 1 || $0 == 4 })
            let type = read.type
            var singles: [UInt16: UInt16] = [:]
            var ligatures: [UInt16: [(components: [UInt16], glyph: UInt16)]] = [:]
            for subtable in read.subtables {
                switch type {
                case 1: try Self.readSingle(subtable, into: &singles, glyphCount: glyphCount, budget: &budget)
                default: try Self.readLigatures(subtable, into: &ligatures, glyphCount: glyphCount, budget: &budget)
                }
            }
            if type == 1 && !singles.isEmpty { append(.single(singles), firsts: singles.keys) }
            if type == 4 && !ligatures.isEmpty { append(.ligatures(ligatures), firsts: ligatures.keys) }
        }
    }

    private mutating func append(_ lookup: Lookup, firsts: some Collection<UInt16>) {
        var bits = [UInt64](repeating: 0, count: 1024)
        for glyph in firsts { bits[Int(glyph) >> 6] |= 1 << UInt64(glyph & 63) }
        lookups.append(lookup)
        firstGlyphs.append(bits)
    }

    /// Applies every lookup to `glyphs`; `clusters` (one per glyph) keeps, for each glyph left, the
    /// cluster of its first component.
    func apply(_ glyphs: inout [UInt16], clusters: inout [Int]) {
        guard !lookups.isEmpty else { return }
        var count = glyphs.count
        var clusters32 = clusters.map { Int32(truncatingIfNeeded: $0) }
        glyphs.withMutableElementsView { glyphs in
            clusters32.withMutableElementsView { clusters in apply(glyphs, clusters: clusters, count: &count) }
        }
        glyphs.removeLast(glyphs.count - count)
        clusters = clusters32.prefix(count).map { Int($0) }
    }

    /// Applies every lookup to the first `count` glyphs of `glyphs` in place (a ligature shortens
    /// them and `count`); `clusters` (one per glyph) keeps, for each glyph left, the cluster of its
    /// first component. The preparer's form: its glyphs live in buffers it reuses.
    func apply(_ glyphs: MutableElementsView<UInt16>, clusters: MutableElementsView<Int32>, count: inout Int) {
        for (index, lookup) in lookups.enumerated() {
            let firsts = firstGlyphs[index]
            @inline(__always) func starts(_ glyph: UInt16) -> Bool { firsts[Int(glyph) >> 6] & (1 << UInt64(glyph & 63)) != 0 }
            var any = false
            for i in 0..<count where starts(glyphs[i]) { any = true; break }
            guard any else { continue }
            switch lookup {
            case .single(let map):
                for i in 0..<count where starts(glyphs[i]) { if let replacement = map[glyphs[i]] { glyphs[i] = replacement } }
            case .ligatures(let map):
                var i = 0
                while i < count {
                    if starts(glyphs[i]), let candidates = map[glyphs[i]] {
                        for candidate in candidates where i + candidate.components.count < count
                            && candidate.components.indices.allSatisfy({ glyphs[i + 1 + $0] == candidate.components[$0] }) {
                            // The ligature takes the first component's place and cluster; the rest go.
                            let taken = candidate.components.count, after = i + 1 + taken
                            glyphs[i] = candidate.glyph
                            glyphs.tail(from: i + 1).moveToStart(from: taken, count: count - after)
                            clusters.tail(from: i + 1).moveToStart(from: taken, count: count - after)
                            count -= taken
                            break
                        }
                    }
                    i += 1
                }
            }
        }
    }

    var isEmpty: Bool { lookups.isEmpty }

    /// Whether some ligature has `glyph`, or a glyph that single substitutions can turn it into,
    /// among its glyphs (the first included). Conservative: every single substitution is followed,
    /// in any order.
    func ligatures(involve glyph: UInt16) -> Bool {
        var forms: Set<UInt16> = [glyph]
        var grew = true
        while grew {
            grew = false
            for case .single(let map) in lookups {
                for form in forms { if let image = map[form], forms.insert(image).inserted { grew = true } }
            }
        }
        for case .ligatures(let map) in lookups {
            for (first, candidates) in map {
                if forms.contains(first) || candidates.contains(where: { $0.components.contains(where: forms.contains) }) { return true }
            }
        }
        return false
    }

    static func readSingle(_ table: FontBytes, into map: inout [UInt16: UInt16], glyphCount: Int,
                                   budget: inout Int) throws(FontError) {
        let format = try table.u16(0)
        guard let coverageTable = try table.subtable(at: 2) else { return }
        let coverage = try Coverage(coverageTable)
        budget -= coverage.entries.count
        guard budget >= 0 else { throw table.error(0, "more substitutions than any real font has") }
        switch format {
        case 1:
            let delta = Int(try table.i16(4))
            for (glyph, _) in coverage.entries where map[glyph] == nil {
                let result = (Int(glyph) + delta) & 0xFFFF
                if result < glyphCount { map[glyph] = UInt16(result) }
            }
        case 2:
            let count = Int(try table.u16(4))
            try table.check(6, 2 * count)
            try coverage.read(into: &map, count: count) { (index) throws(FontError) -> UInt16? in
                let result = try table.u16(6 + 2 * index)
                return Int(result) < glyphCount ? result : nil
            }
        default:
            throw table.error(0, "single substitution format \(format) is not 1 or 2")
        }
    }

    static func readLigatures(_ table: FontBytes, into map: inout [UInt16: [(components: [UInt16], glyph: UInt16)]],
                                      glyphCount: Int, budget: inout Int) throws(FontError) {
        guard try table.u16(0) == 1 else { throw table.error(0, "ligature substitution format is not 1") }
        guard let coverageTable = try table.subtable(at: 2) else { return }
        let coverage = try Coverage(coverageTable)
        let setCount = Int(try table.u16(4))
        for (first, index) in coverage.entries where index < setCount {
            guard let set = try table.subtable(at: 6 + 2 * index) else { continue }
            let count = Int(try set.u16(0))
            for l in 0..<count {
                guard let ligature = try set.subtable(at: 2 + 2 * l) else { continue }
                let glyph = try ligature.u16(0)
                let componentCount = Int(try ligature.u16(2))
                guard componentCount >= 2, Int(glyph) < glyphCount else { continue }
                try ligature.check(4, 2 * (componentCount - 1))
                budget -= componentCount
                guard budget >= 0 else { throw table.error(0, "more substitutions than any real font has") }
                var components: [UInt16] = []
                for c in 0..<(componentCount - 1) { components.append(try ligature.u16(4 + 2 * c)) }
                map[first, default: []].append((components, glyph))
            }
        }
    }
}

/// Finding a feature's lookups through a `GSUB` or `GPOS` script list.
enum LayoutFeatures {
    /// Lookup indices of the features `tags` in the language system of `script` (else `DFLT`, else
    /// the first script) for `language` (else the script's default).
    static func lookupIndices(scripts: FontBytes, features: FontBytes, script: String, language: String?,
                              tags: Set<String>) throws(FontError) -> Set<Int> {
        let scriptCount = Int(try scripts.u16(0))
        var chosen: Int?
        for wanted in [script, "DFLT"] where chosen == nil {
            for i in 0..<scriptCount where try scripts.tag(2 + 6 * i) == wanted { chosen = i; break }
        }
        if chosen == nil && scriptCount > 0 { chosen = 0 }
        guard let chosen, let scriptTable = try scripts.subtable(at: 2 + 6 * chosen + 4) else { return [] }
        var langSys = try scriptTable.subtable(at: 0)
        if let language {
            let count = Int(try scriptTable.u16(2))
            for i in 0..<count where try scriptTable.tag(4 + 6 * i) == language {
                langSys = try scriptTable.subtable(at: 4 + 6 * i + 4) ?? langSys
                break
            }
        }
        guard let langSys else { return [] }
        let featureIndexCount = Int(try langSys.u16(4))
        let featureCount = Int(try features.u16(0))
        var lookups: Set<Int> = []
        var featureIndices = (0..<featureIndexCount).map { _ in 0 }
        for f in 0..<featureIndexCount { featureIndices[f] = Int(try langSys.u16(6 + 2 * f)) }
        // The required feature, when there is one, always applies.
        let required = Int(try langSys.u16(2))
        if required != 0xFFFF { featureIndices.append(required) }
        for index in featureIndices where index < featureCount {
            guard tags.contains(try features.tag(2 + 6 * index)) else { continue }
            let feature = try features.from(Int(try features.u16(2 + 6 * index + 4)))
            let count = Int(try feature.u16(2))
            for l in 0..<count { lookups.insert(Int(try feature.u16(4 + 2 * l))) }
        }
        return lookups
    }
}
