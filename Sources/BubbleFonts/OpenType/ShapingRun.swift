/// The glyphs of one run while GSUB and GPOS lookups apply to it, as an OpenType engine walks
/// them: a lookup visits each glyph its mask selects and its flags do not skip, tries its
/// subtables in order, and goes on after what the first one that applies consumed. Contextual
/// subtables match around the glyph (skipping what the lookup skips) and apply the lookups they
/// name at the matched positions. Bounded: at most `maximumNesting` lookups deep, the run at
/// most `maximumLength` glyphs, at most `maximumOperations` subtable applications.
struct ShapingRun {
    struct Slot {
        var glyph: UInt16
        /// `GlyphDefinitions.properties` of the glyph.
        var props: UInt16
        /// The features that apply to it (`ArabicShaper.globalMask`, its form's bit).
        var mask: UInt8
        var cluster: Int32
        /// The scalar it came from (a ligature: its first component's).
        var scalar: UInt32
        /// The syllable it belongs to (Khmer, Myanmar), for lookups confined to one.
        var syllable: Int32 = 0
    }

    let definitions: GlyphDefinitions
    var slots: [Slot] = []
    /// Per slot, after `position`: the advance and the placement in 16.16 px.
    var advances: [Int] = []
    var offsets: [Int] = []
    private var scale = FontScale(size: 0, unitsPerEm: 1)
    private let maximumLength: Int
    private var operations = 0
    private let maximumOperations: Int
    static let maximumNesting = 8
    /// When set, lookups match only within one syllable (`Slot.syllable`), as a shaper applies
    /// its per-syllable features.
    var perSyllable = false

    init(definitions: GlyphDefinitions, count: Int) {
        self.definitions = definitions
        slots.reserveCapacity(count)
        maximumLength = 8 * count + 64
        maximumOperations = 64 * count + 1024
    }

    mutating func setForm(_ index: Int, _ form: UInt8) {
        slots[index].mask &= ArabicShaper.globalMask
        if Int(form) < ArabicShaper.forms.count { slots[index].mask |= 2 << form }
    }

    /// Starts positioning: each glyph's advance from `advance` (16.16 px), no placement.
    mutating func position(scale: FontScale, advance: (UInt16) -> Int) {
        self.scale = scale
        advances = slots.map { advance($0.glyph) }
        offsets = [Int](repeating: 0, count: slots.count)
    }

    /// Applies `lookup` to the whole run, at the glyphs `mask` selects; `lookups` are the table's,
    /// for the ones contextual subtables name.
    mutating func apply(_ lookup: LayoutLookup, mask: UInt8, lookups: [Int: LayoutLookup]) {
        var i = 0
        while i < slots.count && operations < maximumOperations {
            let before = slots.count
            if slots[i].mask & mask != 0 && !skips(slots[i], lookup), let next = apply(lookup, at: i, mask: mask, lookups: lookups, depth: 0) {
                // (A glyph deleted at `i` leaves the next one there.)
                i = next > i ? next : slots.count < before ? i : i + 1
            } else {
                i += 1
            }
        }
    }

    /// Whether `lookup`'s flags pass over `slot`: its glyph class is ignored, or it is a mark
    /// outside the lookup's mark filtering set or of another attachment class.
    private func skips(_ slot: Slot, _ lookup: LayoutLookup) -> Bool {
        if slot.props & lookup.flags & 0x0E != 0 { return true }
        guard slot.props & GlyphDefinitions.mark != 0 else { return false }
        if lookup.flags & 0x10 != 0 { return !definitions.markSet(lookup.markFilteringSet, contains: slot.glyph) }
        if lookup.flags & 0xFF00 != 0 { return lookup.flags & 0xFF00 != slot.props & 0xFF00 }
        return false
    }

    /// The next glyph after `index` that `lookup` does not skip; with `mask`, nil when that glyph
    /// lacks it.
    private func next(_ index: Int, _ lookup: LayoutLookup, mask: UInt8?) -> Int? {
        var j = index + 1
        while j < slots.count {
            if perSyllable && slots[j].syllable != slots[index].syllable { return nil }
            if !skips(slots[j], lookup) { return mask.map { slots[j].mask & $0 != 0 } ?? true ? j : nil }
            j += 1
        }
        return nil
    }

    private func previous(_ index: Int, _ lookup: LayoutLookup) -> Int? {
        var j = index - 1
        while j >= 0 {
            if perSyllable && slots[j].syllable != slots[index].syllable { return nil }
            if !skips(slots[j], lookup) { return j }
            j -= 1
        }
        return nil
    }

    private mutating func replace(_ index: Int, with glyph: UInt16) {
        slots[index].glyph = glyph
        slots[index].props = definitions.properties(glyph)
    }

    /// Applies the first of `lookup`'s subtables that applies at `index`; the index to go on
    /// from, nil when none applied.
    private mutating func apply(_ lookup: LayoutLookup, at index: Int, mask: UInt8, lookups: [Int: LayoutLookup], depth: Int) -> Int? {
        guard index >= 0, index < slots.count, operations < maximumOperations else { return nil }
        operations += 1
        let glyph = slots[index].glyph
        for subtable in lookup.subtables {
            switch subtable {
            case .single(let map):
                if let replacement = map[glyph] { replace(index, with: replacement); return index + 1 }
            case .multiple(let map):
                guard let sequence = map[glyph], slots.count - 1 + sequence.count <= maximumLength else { continue }
                let template = slots[index]
                slots.replaceSubrange(index...index, with: sequence.map { out in
                    var slot = template
                    slot.glyph = out
                    slot.props = definitions.properties(out)
                    return slot
                })
                if !advances.isEmpty {
                    advances.replaceSubrange(index...index, with: repeatElement(0, count: sequence.count))
                    offsets.replaceSubrange(index...index, with: repeatElement(0, count: sequence.count))
                }
                return index + sequence.count
            case .ligature(let map):
                guard let candidates = map[glyph] else { continue }
                candidateLoop: for candidate in candidates {
                    var positions: [Int] = []
                    var at = index
                    for component in candidate.components {
                        guard let j = next(at, lookup, mask: mask), slots[j].glyph == component else { continue candidateLoop }
                        positions.append(j)
                        at = j
                    }
                    // The ligature takes the first component's place; the other components go, and
                    // the marks between them stay, after it.
                    replace(index, with: candidate.glyph)
                    for j in positions.reversed() { slots.remove(at: j) }
                    return at + 1 - positions.count
                }
            case .context(let context):
                if let end = applyContext(context, lookup, at: index, mask: mask, lookups: lookups, depth: depth) { return end }
            case .adjust(let map):
                guard let value = map[glyph], !advances.isEmpty else { continue }
                advances[index] += scale.pixels1616(units: Int(value.advance))
                offsets[index] += scale.pixels1616(units: Int(value.placement))
                return index + 1
            case .pair(let pairs):
                guard !advances.isEmpty, let j = next(index, lookup, mask: mask) else { return nil }
                if let value = pairs.value(glyph, slots[j].glyph) {
                    advances[index] += scale.pixels1616(units: value)
                    return j
                }
            case .cursive(let anchors):
                guard !advances.isEmpty, let this = anchors[glyph], let entry = this.entry,
                      let p = previous(index, lookup), let exit = anchors[slots[p].glyph]?.exit else { continue }
                let exitX = anchorPixels(exit), entryX = anchorPixels(entry)
                // Right to left (the runs shaped here are): the previous glyph, on the right, ends at
                // its exit anchor; this one's advance runs to its entry anchor.
                let d = exitX + offsets[p]
                advances[p] -= d
                offsets[p] -= d
                advances[index] = entryX + offsets[index]
                return index + 1
            }
        }
        return nil
    }

    /// An anchor's x (font units) in 16.16 px, rounded as a shaper rounds anchors.
    private func anchorPixels(_ units: Int32) -> Int {
        Int((Double(units) * Double(scale.size64) * 1024 / Double(scale.unitsPerEm)).rounded())
    }

    private func matches(_ glyph: UInt16, _ value: UInt16, _ context: ContextSubtable, _ classes: ClassDefinition?) -> Bool {
        switch context.kind {
        case .glyphs: glyph == value
        case .classes: (classes?.classOf(glyph) ?? 0) == Int(value)
        case .coverages: Int(value) < context.coverageSets.count && context.coverageSets[Int(value)].contains(glyph)
        }
    }

    private mutating func applyContext(_ context: ContextSubtable, _ lookup: LayoutLookup, at index: Int, mask: UInt8,
                                       lookups: [Int: LayoutLookup], depth: Int) -> Int? {
        let glyph = slots[index].glyph
        let rules: [ContextSubtable.Rule]
        switch context.kind {
        case .glyphs:
            guard let coverageIndex = context.first[glyph], coverageIndex < context.ruleSets.count else { return nil }
            rules = context.ruleSets[coverageIndex]
        case .classes:
            guard context.first[glyph] != nil else { return nil }
            let inputClass = context.inputClasses?.classOf(glyph) ?? 0
            guard inputClass < context.ruleSets.count else { return nil }
            rules = context.ruleSets[inputClass]
        case .coverages:
            guard let rule = context.ruleSets.first?.first, matches(glyph, rule.input[0], context, nil) else { return nil }
            rules = [rule]
        }
        ruleLoop: for rule in rules {
            var positions = [index]
            var at = index
            for value in context.kind == .coverages ? rule.input.dropFirst() : rule.input[...] {
                guard let j = next(at, lookup, mask: mask), matches(slots[j].glyph, value, context, context.inputClasses) else { continue ruleLoop }
                positions.append(j)
                at = j
            }
            var back = index
            for value in rule.backtrack {
                guard let j = previous(back, lookup), matches(slots[j].glyph, value, context, context.backtrackClasses) else { continue ruleLoop }
                back = j
            }
            var ahead = at
            for value in rule.lookahead {
                guard let j = next(ahead, lookup, mask: nil), matches(slots[j].glyph, value, context, context.lookaheadClasses) else { continue ruleLoop }
                ahead = j
            }
            var end = at + 1
            for record in rule.records where depth < Self.maximumNesting {
                guard record.sequenceIndex < positions.count, let nested = lookups[record.lookup] else { continue }
                let position = positions[record.sequenceIndex]
                let before = slots.count
                _ = apply(nested, at: position, mask: mask, lookups: lookups, depth: depth + 1)
                let delta = slots.count - before
                if delta != 0 {
                    end += delta
                    for k in positions.indices where positions[k] > position { positions[k] += delta }
                }
            }
            return max(end, index + 1)
        }
        return nil
    }
}
