/// What `GDEF` says about glyphs that lookup flags test: each glyph's class (base, ligature, mark,
/// component), a mark's attachment class, and the mark glyph sets that lookups may filter marks by.
struct GlyphDefinitions: Sendable {
    /// Glyph properties as lookup flags test them: `base`, `ligature` or `mark` (the flag bits
    /// that ignore each), with a mark's attachment class in the high byte.
    static let base: UInt16 = 0x02, ligature: UInt16 = 0x04, mark: UInt16 = 0x08

    private var classes: ClassDefinition?
    private var attachClasses: ClassDefinition?
    private var markSets: [GlyphSet] = []

    /// No `GDEF`: every glyph is a base.
    init() {}

    init(gdef table: FontBytes, glyphCount: Int) throws(FontError) {
        let major = try table.u16(0), minor = try table.u16(2)
        guard major == 1 else { throw table.error(0, "GDEF version \(major).\(minor) is not 1.x") }
        if let classTable = try table.subtable(at: 4) { classes = try ClassDefinition(classTable, glyphCount: glyphCount) }
        if let attachTable = try table.subtable(at: 10) { attachClasses = try ClassDefinition(attachTable, glyphCount: glyphCount) }
        if minor >= 2, let sets = try table.subtable(at: 12) {
            guard try sets.u16(0) == 1 else { throw sets.error(0, "mark glyph sets format is not 1") }
            let count = Int(try sets.u16(2))
            try sets.check(4, 4 * count)
            var budget = ExpansionBudget(fontBytes: table.file.count)
            for s in 0..<count {
                let coverage = try Coverage(try sets.from(Int(try sets.u32(4 + 4 * s))))
                try budget.spend(coverage.entries.count, sets, 4 + 4 * s)
                markSets.append(GlyphSet(coverage.entries.lazy.map(\.glyph)))
            }
        }
    }

    /// True when the font classes its glyphs (without classes, no glyph is a mark).
    var hasClasses: Bool { classes != nil }

    /// The properties of `glyph` (see `base`).
    func properties(_ glyph: UInt16) -> UInt16 {
        switch classes?.classOf(glyph) ?? 1 {
        case 2: return Self.ligature
        case 3: return Self.mark | UInt16(truncatingIfNeeded: (attachClasses?.classOf(glyph) ?? 0) << 8)
        default: return Self.base
        }
    }

    /// Whether mark glyph set `set` holds `glyph` (false for a set the font lacks).
    func markSet(_ set: Int, contains glyph: UInt16) -> Bool { set < markSets.count && markSets[set].contains(glyph) }
}
