/// The `halt` feature of `GPOS` (alternate half widths): single adjustments (lookup type 1,
/// formats 1 and 2, also behind type 9 extension lookups) that take the blank half off fullwidth
/// punctuation. CSS `text-spacing-trim` applies them; a glyph's adjustment also says where its ink
/// sits (a placement of 0 keeps the left half, a placement equal to the advance keeps the right).
struct AlternateHalfWidths: Sendable {
    /// Per glyph, the XPlacement and XAdvance adjustments in font units.
    private(set) var adjustments: [UInt16: (placement: Int16, advance: Int16)] = [:]

    init() {}

    /// The `halt` lookups of `script`'s `language` system (else the default one).
    init(gpos table: FontBytes, script: String, language: String?, glyphCount: Int) throws(FontError) {
        guard let scripts = try table.subtable(at: 4), let features = try table.subtable(at: 6),
              let lookupList = try table.subtable(at: 8) else { return }
        let indices = try LayoutFeatures.lookupIndices(scripts: scripts, features: features, script: script,
                                                       language: language, tags: ["halt"])
        let lookupCount = Int(try lookupList.u16(0))
        for index in indices.sorted() where index < lookupCount {
            let lookup = try lookupList.from(Int(try lookupList.u16(2 + 2 * index)))
            for subtable in try LookupSubtables(lookup, extensionType: 9, wanted: { $0 == 1 }).subtables {
                try read(subtable, glyphCount: glyphCount)
            }
        }
    }

    private mutating func read(_ table: FontBytes, glyphCount: Int) throws(FontError) {
        let format = try table.u16(0)
        guard let coverageTable = try table.subtable(at: 2) else { return }
        let coverage = try Coverage(coverageTable)
        let valueFormat = try table.u16(4)
        let size = ValueRecord.size(valueFormat)
        guard adjustments.count + coverage.entries.count <= PairSubtable.maximumPairs else {
            throw table.error(2, "more than \(PairSubtable.maximumPairs) adjusted glyphs")
        }
        for (glyph, index) in coverage.entries where Int(glyph) < glyphCount && adjustments[glyph] == nil {
            let at: Int
            switch format {
            case 1: at = 6
            case 2:
                guard index < Int(try table.u16(6)) else { continue }
                at = 8 + size * index
            default: throw table.error(0, "single positioning format \(format) is not 1 or 2")
            }
            let placement = valueFormat & 0x1 != 0 ? try table.i16(at) : 0
            let advance = Int16(truncatingIfNeeded: try ValueRecord.xAdvance(table, at, valueFormat))
            adjustments[glyph] = (placement, advance)
        }
    }
}
