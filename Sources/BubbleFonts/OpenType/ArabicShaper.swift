import BubbleText

/// A column of the joining state machine: Unicode's Joining_Type from BubbleText's generated
/// tables (`BidiTables`, from ArabicShaping.txt; join-causing counted as dual-joining). Syriac's
/// joining groups ALAPH and DALATH RISH (its `fin2`, `fin3` and `med2` forms) are not in those
/// tables, so Syriac letters join as their Joining_Type says and those columns stay unused.
enum JoiningClass: UInt8, Sendable {
    case nonJoining, leftJoining, rightJoining, dualJoining, alaph, dalathRish, transparent

    static func of(_ scalar: UInt32) -> JoiningClass {
        switch BidiTables.properties(scalar).joiningType {
        case .u: .nonJoining
        case .t: .transparent
        case .d, .c: .dualJoining
        case .r: .rightJoining
        case .l: .leftJoining
        }
    }
}

/// Shaping for the Arabic script (Arabic, Syriac, N'Ko and the other joining scripts) as
/// HarfBuzz's Arabic shaper does it, for what it changes in advances: each letter's joining form
/// (`isol`, `fina`, `fin2`, `fin3`, `medi`, `med2`, `init`) from the joining types of it and its
/// neighbours (marks are transparent), then the font's GSUB features stage by stage (`ccmp`/`locl`,
/// the forms one at a time, `rlig`, `rclt`/`calt`, `liga`/`clig`/`mset`) with lookup flags, mark
/// filtering sets and contextual lookups, then GPOS `kern`, `curs` and `dist` (pair, single,
/// cursive and contextual positioning), and marks made zero-width by their GDEF class.
struct ArabicShaper: Sendable {
    private let definitions: GlyphDefinitions
    /// GSUB stages, each its lookups in lookup-list order with the mask of the features that
    /// hold them (`globalMask`, or the form's bit).
    private let substitutionStages: [[(lookup: Int, mask: UInt8)]]
    private let positioning: [(lookup: Int, mask: UInt8)]
    private let substitutions: [Int: LayoutLookup]
    private let positionings: [Int: LayoutLookup]

    static let globalMask: UInt8 = 1
    /// The forms, in the order a shaper applies them; form `i`'s mask is `2 << i`.
    static let forms = ["isol", "fina", "fin2", "fin3", "medi", "med2", "init"]
    private static let gsubStages: [[String]] = [["rvrn"], ["rtla"], ["ccmp", "locl"]] + forms.map { [$0] }
        + [["rlig"], ["rclt", "calt"], ["liga", "clig", "mset"]]
    private static let gposFeatures: Set<String> = ["kern", "curs", "dist"]

    /// The shaper for `language` (an OpenType language tag, nil for the default), nil when the
    /// font's GSUB has none of the joining forms for the Arabic script.
    init?(gsub: FontBytes?, gpos: FontBytes?, definitions: GlyphDefinitions, language: String?,
          glyphCount: Int) throws(FontError) {
        guard let gsub else { return nil }
        let gsubFeatures = try LayoutFeatures.featureLookups(gsub, script: "arab", language: language)
        guard Self.forms.contains(where: { gsubFeatures[$0] != nil }) else { return nil }
        self.definitions = definitions
        var budget = ExpansionBudget(fontBytes: gsub.file.count)
        var stages: [[(lookup: Int, mask: UInt8)]] = []
        for stage in Self.gsubStages {
            var masks: [Int: UInt8] = [:]
            for tag in stage {
                let mask = Self.forms.firstIndex(of: tag).map { UInt8(2 << $0) } ?? Self.globalMask
                for lookup in gsubFeatures[tag] ?? [] { masks[lookup, default: 0] |= mask }
            }
            if !masks.isEmpty { stages.append(masks.keys.sorted().map { ($0, masks[$0]!) }) }
        }
        substitutionStages = stages
        substitutions = try Self.read(gsub, roots: stages.flatMap { $0.map(\.lookup) }, positioning: false,
                                      glyphCount: glyphCount, budget: &budget)
        if let gpos {
            let gposFeatures = try LayoutFeatures.featureLookups(gpos, script: "arab", language: language)
            let lookups = Set(Self.gposFeatures.flatMap { gposFeatures[$0] ?? [] }).sorted()
            var gposBudget = ExpansionBudget(fontBytes: gpos.file.count)
            let read = try Self.read(gpos, roots: lookups, positioning: true, glyphCount: glyphCount, budget: &gposBudget)
            positionings = read
            positioning = lookups.filter { read[$0] != nil }.map { ($0, Self.globalMask) }
        } else {
            positionings = [:]
            positioning = []
        }
    }

    /// Lookups `roots` of `table` and every lookup their contextual subtables name, by index.
    static func read(_ table: FontBytes, roots: [Int], positioning: Bool, glyphCount: Int,
                             budget: inout ExpansionBudget) throws(FontError) -> [Int: LayoutLookup] {
        guard let lookupList = try table.subtable(at: 8) else { return [:] }
        let count = Int(try lookupList.u16(0))
        var read: [Int: LayoutLookup] = [:]
        var seen: Set<Int> = []
        var pending = roots
        while let index = pending.popLast() {
            guard index < count, seen.insert(index).inserted else { continue }
            guard let lookup = try LayoutLookup.read(lookupList, index: index, positioning: positioning,
                                                     glyphCount: glyphCount, budget: &budget) else { continue }
            read[index] = lookup
            for case .context(let context) in lookup.subtables {
                for rules in context.ruleSets { for rule in rules { pending += rule.records.map(\.lookup) } }
            }
        }
        return read
    }

    /// Whether `scalar` is in a script this shaper shapes: Arabic, Syriac, Thaana, N'Ko and their
    /// supplements and presentation forms.
    @inline(__always)
    static func shapes(_ scalar: UInt32) -> Bool {
        (0x0600...0x08FF).contains(scalar) || (0xFB50...0xFDFF).contains(scalar) || (0xFE70...0xFEFF).contains(scalar)
            || (0x10EC0...0x10EFF).contains(scalar) || (0x1EE00...0x1EEFF).contains(scalar)
    }

    /// Shapes a run of `count` glyphs of one face in logical order: `glyphs` (from `cmap`), each
    /// one's grapheme (`clusters`) and the index in `scalars` of the scalar it stands for
    /// (`sources`; scalars between two sources, such as a ZWJ, have no glyph). Returns each
    /// shaped glyph, its grapheme and its advance in 16.16 px; `advance` gives a glyph's unadjusted
    /// advance. Time and output are bounded by a multiple of `count`, whatever the font says.
    func shape(glyphs: ElementsView<UInt16>, clusters: ElementsView<Int32>, sources: ElementsView<Int32>, count: Int,
               scalars: ElementsView<UInt32>, scale: FontScale, advance: (UInt16) -> Int) -> [(glyph: UInt16, cluster: Int32, advance: Int)] {
        var run = ShapingRun(definitions: definitions, count: count)
        // Joining: each glyph's form from the state machine over the joining types; a ZWJ between
        // two glyphs joins like a dual-joining letter without a glyph of its own.
        var joining: [(type: JoiningClass, glyph: Int)] = []
        joining.reserveCapacity(count)
        for i in 0..<count {
            let source = Int(sources[i])
            if i > 0 {
                for k in (Int(sources[i - 1]) + 1)..<max(Int(sources[i - 1]) + 1, source) where scalars[k] == 0x200D {
                    joining.append((.dualJoining, -1))
                }
            }
            let scalar = scalars[source]
            joining.append((JoiningClass.of(scalar), i))
            run.slots.append(ShapingRun.Slot(glyph: glyphs[i], props: definitions.properties(glyphs[i]), mask: Self.globalMask,
                                             cluster: clusters[i], scalar: scalar))
        }
        var state = 0, previous = -1
        for (type, glyph) in joining where type != .transparent {
            let entry = Self.stateTable[state][Int(type.rawValue)]
            if entry.previous != Self.none && previous >= 0 { run.setForm(previous, entry.previous) }
            if glyph >= 0 { run.setForm(glyph, entry.current) }
            previous = glyph
            state = entry.next
        }
        for stage in substitutionStages {
            for (index, mask) in stage { if let lookup = substitutions[index] { run.apply(lookup, mask: mask, lookups: substitutions) } }
        }
        run.position(scale: scale, advance: advance)
        for (index, mask) in positioning { if let lookup = positionings[index] { run.apply(lookup, mask: mask, lookups: positionings) } }
        var out: [(glyph: UInt16, cluster: Int32, advance: Int)] = []
        out.reserveCapacity(run.slots.count)
        for (i, slot) in run.slots.enumerated() {
            // Marks take no width (GDEF marks, zeroed after positioning), nor do default ignorables.
            let zero = slot.props & GlyphDefinitions.mark != 0 || Self.isDefaultIgnorable(slot.scalar)
            out.append((slot.glyph, slot.cluster, zero ? 0 : run.advances[i]))
        }
        return out
    }

    private static func isDefaultIgnorable(_ scalar: UInt32) -> Bool {
        scalar == 0xAD || scalar == 0x061C || (0x200B...0x200F).contains(scalar) || (0x202A...0x202E).contains(scalar)
            || (0x2060...0x206F).contains(scalar) || scalar == 0xFEFF
    }

    private static let none: UInt8 = 7
    private struct Transition { var previous: UInt8; var current: UInt8; var next: Int }
    /// The joining state machine: [state][joining type U, L, R, D, ALAPH, DALATH RISH] → the form
    /// for the previous joining letter (`none` keeps it), the form for this one, the next state.
    /// Forms are indices into `forms`. States: 0 after a non-joining character; 1 after a letter
    /// that joins nothing on its left (R, an isolated ALAPH); 2 after a D/L letter in isolated
    /// form, 3 after D in final form (both willing to join); 4 after a final ALAPH; 5 after a
    /// fin2/fin3 ALAPH; 6 after DALATH or RISH.
    private static let stateTable: [[Transition]] = {
        let (isol, fina, fin2, fin3, medi, med2, initial, n): (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 1, 2, 3, 4, 5, 6, 7)
        func t(_ p: UInt8, _ c: UInt8, _ s: Int) -> Transition { Transition(previous: p, current: c, next: s) }
        return [
            [t(n, n, 0), t(n, isol, 2), t(n, isol, 1), t(n, isol, 2), t(n, isol, 1), t(n, isol, 6)],
            [t(n, n, 0), t(n, isol, 2), t(n, isol, 1), t(n, isol, 2), t(n, fin2, 5), t(n, isol, 6)],
            [t(n, n, 0), t(n, isol, 2), t(initial, fina, 1), t(initial, fina, 3), t(initial, fina, 4), t(initial, fina, 6)],
            [t(n, n, 0), t(n, isol, 2), t(medi, fina, 1), t(medi, fina, 3), t(medi, fina, 4), t(medi, fina, 6)],
            [t(n, n, 0), t(n, isol, 2), t(med2, isol, 1), t(med2, isol, 2), t(med2, fin2, 5), t(med2, isol, 6)],
            [t(n, n, 0), t(n, isol, 2), t(isol, isol, 1), t(isol, isol, 2), t(isol, fin2, 5), t(isol, isol, 6)],
            [t(n, n, 0), t(n, isol, 2), t(n, isol, 1), t(n, isol, 2), t(n, fin3, 5), t(n, isol, 6)],
        ]
    }()
}

extension LayoutFeatures {
    /// The lookups of each feature of `script`'s `language` system (else its default) in a GSUB
    /// or GPOS `table`, the required feature included; empty when the font has neither the script
    /// nor `DFLT`.
    static func featureLookups(_ table: FontBytes, script: String, language: String?) throws(FontError) -> [String: [Int]] {
        guard let scripts = try table.subtable(at: 4), let features = try table.subtable(at: 6) else { return [:] }
        let scriptCount = Int(try scripts.u16(0))
        var chosen: Int?
        for wanted in [script, "DFLT"] where chosen == nil {
            for i in 0..<scriptCount where try scripts.tag(2 + 6 * i) == wanted { chosen = i; break }
        }
        guard let chosen, let scriptTable = try scripts.subtable(at: 2 + 6 * chosen + 4) else { return [:] }
        var langSys = try scriptTable.subtable(at: 0)
        if let language {
            let count = Int(try scriptTable.u16(2))
            for i in 0..<count where try scriptTable.tag(4 + 6 * i) == language {
                langSys = try scriptTable.subtable(at: 4 + 6 * i + 4) ?? langSys
                break
            }
        }
        guard let langSys else { return [:] }
        let featureCount = Int(try features.u16(0))
        var indices: [Int] = []
        let required = Int(try langSys.u16(2))
        if required != 0xFFFF { indices.append(required) }
        for f in 0..<Int(try langSys.u16(4)) { indices.append(Int(try langSys.u16(6 + 2 * f))) }
        var lookups: [String: [Int]] = [:]
        for index in indices where index < featureCount {
            let tag = try features.tag(2 + 6 * index)
            let feature = try features.from(Int(try features.u16(2 + 6 * index + 4)))
            let count = Int(try feature.u16(2))
            try feature.check(4, 2 * count)
            for l in 0..<count { lookups[tag, default: []].append(Int(try feature.u16(4 + 2 * l))) }
        }
        return lookups
    }
}
