import BubbleText

/// Shaping for the Khmer script as HarfBuzz's Khmer shaper does it, for what it changes in
/// advances: split vowels are split (a pre-base E and the vowel's other part), the text is cut
/// into syllables by the Khmer syllable grammar (`SyllabicCategory`), each consonant syllable is
/// reordered (COENG RO and a pre-base vowel move to its start) and its glyphs are marked for the
/// features that apply to them; then the font's GSUB features in two stages, the first confined
/// to each syllable (`locl`, `ccmp`, `pref`, `blwf`, `abvf`, `pstf`, `cfar`, masked), the second
/// over the whole run (`pres`, `abvs`, `blws`, `psts`, `rlig`, `calt`, `clig`, `rclt`), then
/// GPOS (`kern`, `dist`, `abvm`, `blwm` and the positionings they chain to). Marks keep the
/// advance the font gives them, as in HarfBuzz. Broken clusters get no dotted circle.
struct KhmerShaper: Sendable {
    private let definitions: GlyphDefinitions
    private let syllableStage: [(lookup: Int, mask: UInt8)]
    private let globalStage: [(lookup: Int, mask: UInt8)]
    private let positioning: [(lookup: Int, mask: UInt8)]
    private let substitutions: [Int: LayoutLookup]
    private let positionings: [Int: LayoutLookup]
    /// The glyph of U+17C1 KHMER VOWEL SIGN E, the first part of the split vowels.
    private let vowelE: UInt16?

    static let globalMask: UInt8 = 1
    static let prefMask: UInt8 = 2, blwfMask: UInt8 = 4, abvfMask: UInt8 = 8, pstfMask: UInt8 = 16, cfarMask: UInt8 = 32
    private static let syllableFeatures: [String: UInt8] = [
        "locl": globalMask, "ccmp": globalMask, "pref": prefMask, "blwf": blwfMask, "abvf": abvfMask, "pstf": pstfMask,
        "cfar": cfarMask,
    ]
    private static let globalFeatures = ["pres", "abvs", "blws", "psts", "rlig", "calt", "clig", "rclt"]
    private static let gposFeatures = ["kern", "dist", "abvm", "blwm", "mark", "mkmk"]

    /// The shaper for `language` (an OpenType language tag, nil for the default), nil when the
    /// font's GSUB has no `khmr` script with any of the Khmer features.
    init?(gsub: FontBytes?, gpos: FontBytes?, definitions: GlyphDefinitions, language: String?, glyphCount: Int,
          vowelE: UInt16?) throws(FontError) {
        guard let gsub, try LayoutFeatures.hasScript(gsub, "khmr") else { return nil }
        let features = try LayoutFeatures.featureLookups(gsub, script: "khmr", language: language)
        guard ["pref", "blwf", "abvf", "pstf", "pres", "abvs", "blws", "psts"].contains(where: { features[$0] != nil }) else { return nil }
        self.definitions = definitions
        self.vowelE = vowelE
        var masks: [Int: UInt8] = [:]
        for (tag, mask) in Self.syllableFeatures { for lookup in features[tag] ?? [] { masks[lookup, default: 0] |= mask } }
        syllableStage = masks.keys.sorted().map { ($0, masks[$0]!) }
        let global = Set(Self.globalFeatures.flatMap { features[$0] ?? [] }).sorted()
        globalStage = global.map { ($0, Self.globalMask) }
        var budget = ExpansionBudget(fontBytes: gsub.file.count)
        substitutions = try ArabicShaper.read(gsub, roots: syllableStage.map(\.lookup) + global, positioning: false,
                                              glyphCount: glyphCount, budget: &budget)
        if let gpos {
            let gposFeatures = try LayoutFeatures.featureLookups(gpos, script: "khmr", language: language)
            let lookups = Set(Self.gposFeatures.flatMap { gposFeatures[$0] ?? [] }).sorted()
            var gposBudget = ExpansionBudget(fontBytes: gpos.file.count)
            let read = try ArabicShaper.read(gpos, roots: lookups, positioning: true, glyphCount: glyphCount, budget: &gposBudget)
            positionings = read
            positioning = lookups.filter { read[$0] != nil }.map { ($0, Self.globalMask) }
        } else {
            positionings = [:]
            positioning = []
        }
    }

    /// Whether `scalar` is Khmer (the Khmer and Khmer Symbols blocks).
    @inline(__always)
    static func shapes(_ scalar: UInt32) -> Bool { (0x1780...0x17FF).contains(scalar) || (0x19E0...0x19FF).contains(scalar) }

    /// Shapes a run of `count` glyphs of one face in logical order, as `ArabicShaper.shape` does
    /// (the same arguments and result). Time and output are bounded by a multiple of `count`.
    func shape(glyphs: ElementsView<UInt16>, clusters: ElementsView<Int32>, sources: ElementsView<Int32>, count: Int,
               scalars: ElementsView<UInt32>, scale: FontScale, advance: (UInt16) -> Int) -> [(glyph: UInt16, cluster: Int32, advance: Int)] {
        var run = ShapingRun(definitions: definitions, count: count + count / 2)
        var categories: [SyllabicCategory] = []
        categories.reserveCapacity(count)
        for i in 0..<count {
            let scalar = scalars[Int(sources[i])]
            let slot = ShapingRun.Slot(glyph: glyphs[i], props: definitions.properties(glyphs[i]), mask: Self.globalMask,
                                       cluster: clusters[i], scalar: scalar)
            // (Split only where the font has the vowel itself, as HarfBuzz's normalizer does.)
            if let vowelE, Self.splits(scalar), glyphs[i] != 0 {
                var first = slot
                first.glyph = vowelE
                first.props = definitions.properties(vowelE)
                first.scalar = 0x17C1
                run.slots.append(first)
                categories.append(.vPre)
            }
            run.slots.append(slot)
            categories.append(SyllabicCategory.of(scalar))
        }
        var start = 0, serial: Int32 = 1
        while start < run.slots.count {
            let (end, consonant) = Self.syllable(categories, from: start)
            for k in start..<end { run.slots[k].syllable = serial }
            if consonant { Self.reorder(&run, &categories, start, end) }
            serial += 1
            start = end
        }
        run.perSyllable = true
        for (index, mask) in syllableStage { if let lookup = substitutions[index] { run.apply(lookup, mask: mask, lookups: substitutions) } }
        run.perSyllable = false
        for (index, mask) in globalStage { if let lookup = substitutions[index] { run.apply(lookup, mask: mask, lookups: substitutions) } }
        run.position(scale: scale, advance: advance)
        for (index, mask) in positioning { if let lookup = positionings[index] { run.apply(lookup, mask: mask, lookups: positionings) } }
        var out: [(glyph: UInt16, cluster: Int32, advance: Int)] = []
        out.reserveCapacity(run.slots.count)
        for (i, slot) in run.slots.enumerated() {
            let ignorable = slot.scalar == 0x200C || slot.scalar == 0x200D || slot.scalar == 0x200B || slot.scalar == 0xFEFF
            out.append((slot.glyph, slot.cluster, ignorable ? 0 : run.advances[i]))
        }
        return out
    }

    /// The vowels that split into U+17C1 and a part of their own.
    private static func splits(_ scalar: UInt32) -> Bool {
        scalar == 0x17BE || scalar == 0x17BF || scalar == 0x17C0 || scalar == 0x17C4 || scalar == 0x17C5
    }

    /// The end of the syllable that starts at `start` (the longest the grammar allows), and
    /// whether it is a consonant syllable or a broken cluster (reordered) rather than another
    /// character. The grammar, in HarfBuzz's terms:
    ///
    ///     c = C | Ra | V;  cn = c ((ZWJ|ZWNJ)? Robatic)?;  xgroup = ((ZWJ|ZWNJ)* Xgroup)*
    ///     matra_group = VPre? xgroup VBlw? xgroup ((ZWJ|ZWNJ)? VAbv)? xgroup VPst?
    ///     syllable_tail = xgroup matra_group xgroup (H c)? Ygroup*
    ///     broken_cluster = Robatic? (H cn)* (H | syllable_tail)
    ///     consonant_syllable = (cn | PLACEHOLDER | DOTTEDCIRCLE) broken_cluster
    static func syllable(_ categories: [SyllabicCategory], from start: Int) -> (end: Int, consonant: Bool) {
        let n = categories.count
        func category(_ i: Int) -> SyllabicCategory? { i < n ? categories[i] : nil }
        func isConsonant(_ i: Int) -> Bool { category(i) == .c || category(i) == .ra || category(i) == .v }
        func isJoiner(_ i: Int) -> Bool { category(i) == .zwj || category(i) == .zwnj }
        /// After a `c`: its optional joiner and Robatic.
        func consonantTail(_ i: Int) -> Int {
            if category(i) == .robatic { return i + 1 }
            if isJoiner(i) && category(i + 1) == .robatic { return i + 2 }
            return i
        }
        func xgroup(_ i: Int) -> Int {
            var at = i
            while true {
                var j = at
                while isJoiner(j) { j += 1 }
                guard category(j) == .xGroup else { return at }
                at = j + 1
            }
        }
        func optional(_ i: Int, _ wanted: SyllabicCategory) -> Int { category(i) == wanted ? i + 1 : i }
        func brokenCluster(_ i: Int) -> Int {
            var at = optional(i, .robatic)
            while category(at) == .h && isConsonant(at + 1) { at = consonantTail(at + 2) }
            if category(at) == .h { return at + 1 }
            at = xgroup(at)
            at = optional(at, .vPre)
            at = xgroup(at)
            at = optional(at, .vBlw)
            at = xgroup(at)
            if category(at) == .vAbv { at += 1 } else if isJoiner(at) && category(at + 1) == .vAbv { at += 2 }
            at = xgroup(at)
            at = optional(at, .vPst)
            at = xgroup(at)
            if category(at) == .h && isConsonant(at + 1) { at += 2 }
            while category(at) == .yGroup { at += 1 }
            return at
        }
        if isConsonant(start) { return (brokenCluster(consonantTail(start + 1)), true) }
        if category(start) == .placeholder || category(start) == .dottedCircle { return (brokenCluster(start + 1), true) }
        let broken = brokenCluster(start)
        return broken > start ? (broken, true) : (start + 1, false)
    }

    /// Reorders the syllable `start..<end` and sets its masks: every glyph after the first gets
    /// `blwf`, `abvf` and `pstf`; the first COENG RO (within two COENGs) moves to the start with
    /// `pref`, what follows it gets `cfar`; a pre-base vowel moves to the start.
    static func reorder(_ run: inout ShapingRun, _ categories: inout [SyllabicCategory], _ start: Int, _ end: Int) {
        for i in (start + 1)..<max(start + 1, end) { run.slots[i].mask |= blwfMask | abvfMask | pstfMask }
        var coengs = 0
        var i = start + 1
        while i < end {
            if categories[i] == .h && coengs <= 2 && i + 1 < end {
                coengs += 1
                if categories[i + 1] == .ra {
                    run.slots[i].mask |= prefMask
                    run.slots[i + 1].mask |= prefMask
                    move(&run, &categories, from: i, count: 2, to: start)
                    for j in (i + 2)..<max(i + 2, end) { run.slots[j].mask |= cfarMask }
                    coengs = 2
                }
            } else if categories[i] == .vPre {
                move(&run, &categories, from: i, count: 1, to: start)
            }
            i += 1
        }
    }

    /// Moves `count` slots at `from` to `to` (before them), the slots between shifting up.
    private static func move(_ run: inout ShapingRun, _ categories: inout [SyllabicCategory], from: Int, count: Int, to: Int) {
        let slots = Array(run.slots[from..<(from + count)]), moved = Array(categories[from..<(from + count)])
        run.slots.removeSubrange(from..<(from + count))
        run.slots.insert(contentsOf: slots, at: to)
        categories.removeSubrange(from..<(from + count))
        categories.insert(contentsOf: moved, at: to)
    }
}

extension LayoutFeatures {
    /// Whether a GSUB or GPOS `table` lists `script`.
    static func hasScript(_ table: FontBytes, _ script: String) throws(FontError) -> Bool {
        guard let scripts = try table.subtable(at: 4) else { return false }
        for i in 0..<Int(try scripts.u16(0)) where try scripts.tag(2 + 6 * i) == script { return true }
        return false
    }
}
