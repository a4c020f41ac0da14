import BubbleText

/// Shaping for the Myanmar script as HarfBuzz's Myanmar shaper does it, for what it changes in
/// advances: the text is cut into syllables by the Myanmar syllable grammar (`SyllabicCategory`),
/// `locl` and `ccmp` apply in each, then each consonant syllable is reordered (a kinzi after its
/// base, medial RA and the pre-base vowel E before it, below-base marks in their order); then
/// the font's GSUB features `rphf`, `pref`, `blwf`, `pstf` one at a time within each syllable,
/// then `pres`, `abvs`, `blws`, `psts`, `rlig`, `calt`, `clig`, `liga`, `rclt` over the run, then
/// GPOS (`kern`, `dist`, `abvm`, `blwm` and the positionings they chain to) after marks are made
/// zero-width by their GDEF class. Broken clusters get no dotted circle.
struct MyanmarShaper: Sendable {
    private let definitions: GlyphDefinitions
    /// GSUB stages: `locl`/`ccmp` before reordering, then each basic feature (both per
    /// syllable), then the rest.
    private let localStage: [Int]
    private let basicStages: [[Int]]
    private let globalStage: [Int]
    private let positioning: [Int]
    private let substitutions: [Int: LayoutLookup]
    private let positionings: [Int: LayoutLookup]
    /// The glyphs of U+1025 and U+102E, the parts of U+1026 (a canonical decomposition).
    private let decomposition: (UInt16, UInt16)?

    static let mask: UInt8 = 1
    private static let basicFeatures = ["rphf", "pref", "blwf", "pstf"]
    private static let globalFeatures = ["pres", "abvs", "blws", "psts", "rlig", "calt", "clig", "liga", "rclt"]
    private static let gposFeatures = ["kern", "dist", "abvm", "blwm", "mark", "mkmk"]

    /// The shaper for `language` (an OpenType language tag, nil for the default), nil when the
    /// font's GSUB has no `mym2` script.
    init?(gsub: FontBytes?, gpos: FontBytes?, definitions: GlyphDefinitions, language: String?, glyphCount: Int,
          decomposition: (UInt16, UInt16)?) throws(FontError) {
        guard let gsub, try LayoutFeatures.hasScript(gsub, "mym2") else { return nil }
        let features = try LayoutFeatures.featureLookups(gsub, script: "mym2", language: language)
        self.definitions = definitions
        self.decomposition = decomposition
        localStage = Set((features["locl"] ?? []) + (features["ccmp"] ?? [])).sorted()
        basicStages = Self.basicFeatures.compactMap { features[$0]?.sorted() }
        globalStage = Set(Self.globalFeatures.flatMap { features[$0] ?? [] }).sorted()
        var budget = ExpansionBudget(fontBytes: gsub.file.count)
        substitutions = try ArabicShaper.read(gsub, roots: localStage + basicStages.flatMap { $0 } + globalStage, positioning: false,
                                              glyphCount: glyphCount, budget: &budget)
        if let gpos {
            let gposFeatures = try LayoutFeatures.featureLookups(gpos, script: "mym2", language: language)
            let lookups = Set(Self.gposFeatures.flatMap { gposFeatures[$0] ?? [] }).sorted()
            var gposBudget = ExpansionBudget(fontBytes: gpos.file.count)
            let read = try ArabicShaper.read(gpos, roots: lookups, positioning: true, glyphCount: glyphCount, budget: &gposBudget)
            positionings = read
            positioning = lookups.filter { read[$0] != nil }
        } else {
            positionings = [:]
            positioning = []
        }
    }

    /// Whether `scalar` is Myanmar (Myanmar and its Extended-A and -B blocks).
    @inline(__always)
    static func shapes(_ scalar: UInt32) -> Bool {
        (0x1000...0x109F).contains(scalar) || (0xA9E0...0xA9FF).contains(scalar) || (0xAA60...0xAA7F).contains(scalar)
    }

    /// Shapes a run of `count` glyphs of one face in logical order, as `ArabicShaper.shape` does
    /// (the same arguments and result). Time and output are bounded by a multiple of `count`.
    func shape(glyphs: ElementsView<UInt16>, clusters: ElementsView<Int32>, sources: ElementsView<Int32>, count: Int,
               scalars: ElementsView<UInt32>, scale: FontScale, advance: (UInt16) -> Int) -> [(glyph: UInt16, cluster: Int32, advance: Int)] {
        var run = ShapingRun(definitions: definitions, count: count + count / 2)
        var categories: [SyllabicCategory] = []
        categories.reserveCapacity(count)
        for i in 0..<count {
            let scalar = scalars[Int(sources[i])]
            var slot = ShapingRun.Slot(glyph: glyphs[i], props: definitions.properties(glyphs[i]), mask: Self.mask,
                                       cluster: clusters[i], scalar: scalar)
            if scalar == 0x1026, let (first, second) = decomposition {
                var head = slot
                head.glyph = first
                head.props = definitions.properties(first)
                head.scalar = 0x1025
                run.slots.append(head)
                categories.append(SyllabicCategory.of(0x1025))
                slot.glyph = second
                slot.props = definitions.properties(second)
                slot.scalar = 0x102E
            }
            run.slots.append(slot)
            categories.append(SyllabicCategory.of(slot.scalar))
        }
        // Syllables: a serial each, odd for consonant syllables and broken clusters (reordered).
        var start = 0, serial: Int32 = 0
        while start < run.slots.count {
            let (end, consonant) = Self.syllable(categories, from: start)
            serial += consonant ? (serial & 1 == 0 ? 1 : 2) : (serial & 1 == 0 ? 2 : 1)
            for k in start..<end { run.slots[k].syllable = serial }
            start = end
        }
        run.perSyllable = true
        for index in localStage { if let lookup = substitutions[index] { run.apply(lookup, mask: Self.mask, lookups: substitutions) } }
        categories = run.slots.map { SyllabicCategory.of($0.scalar) }
        start = 0
        while start < run.slots.count {
            var end = start + 1
            while end < run.slots.count && run.slots[end].syllable == run.slots[start].syllable { end += 1 }
            if run.slots[start].syllable & 1 == 1 { Self.reorder(&run, categories, start, end) }
            start = end
        }
        for stage in basicStages {
            for index in stage { if let lookup = substitutions[index] { run.apply(lookup, mask: Self.mask, lookups: substitutions) } }
        }
        run.perSyllable = false
        for index in globalStage { if let lookup = substitutions[index] { run.apply(lookup, mask: Self.mask, lookups: substitutions) } }
        run.position(scale: scale, advance: advance)
        for i in run.slots.indices where run.slots[i].props & GlyphDefinitions.mark != 0 { run.advances[i] = 0 }
        for index in positioning { if let lookup = positionings[index] { run.apply(lookup, mask: Self.mask, lookups: positionings) } }
        var out: [(glyph: UInt16, cluster: Int32, advance: Int)] = []
        out.reserveCapacity(run.slots.count)
        for (i, slot) in run.slots.enumerated() {
            let ignorable = slot.scalar == 0x200C || slot.scalar == 0x200D || slot.scalar == 0x200B || slot.scalar == 0xFEFF
            out.append((slot.glyph, slot.cluster, ignorable ? 0 : run.advances[i]))
        }
        return out
    }
}

extension MyanmarShaper {
    /// The end of the syllable that starts at `start` (the longest the grammar allows), and
    /// whether it is a consonant syllable or a broken cluster (reordered). The grammar, in
    /// HarfBuzz's terms (DB is `n`, GB a placeholder):
    ///
    ///     k = Ra As H;  c = C | Ra;  j = ZWJ | ZWNJ;  sm = SM | SMPst
    ///     medial_group = MY? As? MR? ((MW MH? ML? | MH ML? | ML) As?)?
    ///     main_vowel_group = (VPre VS?)* VAbv* VBlw* A* (DB As?)?
    ///     post_vowel_group = VPst MH? ML? As* VAbv* A* (DB As?)?
    ///     tone_group = sm | PT A* DB? As?
    ///     complex_syllable_tail = As* medial_group main_vowel_group post_vowel_group* tone_group* j?
    ///     syllable_tail = (H (c | IV) VS?)* (H | complex_syllable_tail)
    ///     consonant_syllable = (k | CS)? (c | IV | GB | DOTTEDCIRCLE) VS? syllable_tail
    ///     broken_cluster = k? VS? syllable_tail
    ///
    /// A joiner or an SMPst alone is another character.
    static func syllable(_ categories: [SyllabicCategory], from start: Int) -> (end: Int, consonant: Bool) {
        let n = categories.count
        func category(_ i: Int) -> SyllabicCategory? { i < n ? categories[i] : nil }
        func optional(_ i: Int, _ wanted: SyllabicCategory) -> Int { category(i) == wanted ? i + 1 : i }
        func many(_ i: Int, _ wanted: SyllabicCategory) -> Int {
            var at = i
            while category(at) == wanted { at += 1 }
            return at
        }
        func isBase(_ i: Int) -> Bool {
            switch category(i) {
            case .c, .ra, .v, .placeholder, .dottedCircle: true
            default: false
            }
        }
        func dotBelow(_ i: Int) -> Int { category(i) == .n ? optional(i + 1, .asat) : i }
        func complexTail(_ i: Int) -> Int {
            var at = many(i, .asat)
            at = optional(at, .my)
            at = optional(at, .asat)
            at = optional(at, .mr)
            if category(at) == .mw {
                at = optional(optional(at + 1, .mh), .ml)
                at = optional(at, .asat)
            } else if category(at) == .mh {
                at = optional(at + 1, .ml)
                at = optional(at, .asat)
            } else if category(at) == .ml {
                at = optional(at + 1, .asat)
            }
            while category(at) == .vPre { at = optional(at + 1, .vs) }
            at = many(many(many(at, .vAbv), .vBlw), .a)
            at = dotBelow(at)
            while category(at) == .vPst {
                at = optional(optional(at + 1, .mh), .ml)
                at = many(many(many(at, .asat), .vAbv), .a)
                at = dotBelow(at)
            }
            while true {
                if category(at) == .sm || category(at) == .smPst {
                    at += 1
                } else if category(at) == .pt {
                    at = many(at + 1, .a)
                    at = optional(at, .n)
                    at = optional(at, .asat)
                } else {
                    break
                }
            }
            if category(at) == .zwj || category(at) == .zwnj { at += 1 }
            return at
        }
        func tail(_ i: Int) -> Int {
            var at = i
            while category(at) == .h && (category(at + 1) == .c || category(at + 1) == .ra || category(at + 1) == .v) {
                at = optional(at + 2, .vs)
            }
            return category(at) == .h ? at + 1 : complexTail(at)
        }
        let kinzi = category(start) == .ra && category(start + 1) == .asat && category(start + 2) == .h
        var best = start
        var consonant = false
        // A consonant syllable, with a kinzi or a stacker first or without.
        for head in [start, kinzi ? start + 3 : start, category(start) == .cs ? start + 1 : start] where isBase(head) {
            let end = tail(optional(head + 1, .vs))
            if end > best { (best, consonant) = (end, true) }
        }
        if best == start {
            if category(start) == .zwj || category(start) == .zwnj || category(start) == .smPst { return (start + 1, false) }
            let broken = tail(optional(kinzi ? start + 3 : start, .vs))
            if broken > start { return (broken, true) }
            return (start + 1, false)
        }
        return (best, consonant)
    }

    /// Reorders the consonant syllable `start..<end` as HarfBuzz's Myanmar shaper does: each glyph
    /// gets a position (a kinzi after the main consonant, medial RA before the base, the vowel
    /// E before that, below-base vowels and the marks after them in order), a stable sort by
    /// position, then a run of pre-base vowels is put back in their logical order.
    static func reorder(_ run: inout ShapingRun, _ categories: [SyllabicCategory], _ start: Int, _ end: Int) {
        let preM = 2, preC = 3, baseC = 4, afterMain = 5, beforeSub = 7, belowC = 8, afterSub = 9
        func isConsonant(_ c: SyllabicCategory) -> Bool {
            switch c {
            case .c, .cs, .ra, .v, .placeholder, .dottedCircle: true
            default: false
            }
        }
        var base = end
        var limit = start
        let hasReph = start + 3 <= end && categories[start] == .ra && categories[start + 1] == .asat && categories[start + 2] == .h
        if hasReph {
            limit += 3
            base = start
        } else {
            base = limit
        }
        for i in limit..<end where isConsonant(categories[i]) {
            base = i
            break
        }
        var positions = [Int](repeating: 0, count: end - start)
        var i = start
        while i < start + (hasReph ? 3 : 0) { positions[i - start] = afterMain; i += 1 }
        while i < base { positions[i - start] = preC; i += 1 }
        if i < end { positions[i - start] = baseC; i += 1 }
        var position = afterMain
        while i < end {
            let c = categories[i]
            defer { i += 1 }
            if c == .mr { positions[i - start] = preC; continue }
            if c == .vPre { positions[i - start] = preM; continue }
            if c == .vs { positions[i - start] = positions[i - 1 - start]; continue }
            if position == afterMain && c == .vBlw { position = belowC; positions[i - start] = position; continue }
            if position == belowC && c == .a { positions[i - start] = beforeSub; continue }
            if position == belowC && c == .vBlw { positions[i - start] = position; continue }
            if position == belowC && c != .a { position = afterSub; positions[i - start] = position; continue }
            positions[i - start] = position
        }
        // A stable sort by position.
        let order = positions.indices.sorted { positions[$0] != positions[$1] ? positions[$0] < positions[$1] : $0 < $1 }
        let slots = order.map { run.slots[start + $0] }, sortedCategories = order.map { categories[start + $0] }
        run.slots.replaceSubrange(start..<end, with: slots)
        let sortedPositions = order.map { positions[$0] }
        // A run of pre-base vowels keeps their logical order (each with its variation selector).
        guard let first = sortedPositions.firstIndex(of: preM), let last = sortedPositions.lastIndex(of: preM), first < last else { return }
        run.slots[(start + first)...(start + last)].reverse()
        var reversedCategories = Array(sortedCategories[first...last].reversed())
        var from = first
        for j in first...last where reversedCategories[j - first] == .vPre {
            run.slots[(start + from)...(start + j)].reverse()
            reversedCategories[(from - first)...(j - first)].reverse()
            from = j + 1
        }
    }
}
