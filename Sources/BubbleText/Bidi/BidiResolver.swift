/// The paragraph direction asked for: found from the text (rules P2 and P3), or given.
package enum BidiDirection: Sendable, Hashable {
    case auto, leftToRight, rightToLeft
}

/// Resolves the embedding levels of one paragraph by the Unicode Bidirectional Algorithm
/// (UAX #9, Unicode 15.0): P2–P3, X1–X10, W1–W7, N0–N2 and I1–I2. Lines are then reordered with
/// `BidiLine` (L1–L2).
///
/// It works on bidi classes (from `BidiTables.properties`), plus the scalars when bracket pairs
/// (N0) should be found. The scratch space is kept between calls, so a resolver reused for many
/// paragraphs allocates only when a paragraph is longer than any before it. Not thread-safe:
/// use one per thread.
package struct BidiResolver {
    /// Removed by rule X9 (embedding and override controls, PDF, BN): it gets no level.
    package static let removed: UInt8 = 0xFF
    /// The deepest explicit level (BD2).
    static let maxDepth = 125

    final class Scratch {
        var capacity = 0
        /// Compacted (X9-retained) positions to original positions.
        var retained: MutableElementsView<Int32> = .allocate(capacity: 1)
        var types: MutableElementsView<UInt8> = .allocate(capacity: 1)
        var original: MutableElementsView<UInt8> = .allocate(capacity: 1)
        var levels: MutableElementsView<UInt8> = .allocate(capacity: 1)
        /// For an isolate initiator, its matching PDI; for a PDI, its initiator; else -1.
        var match: MutableElementsView<Int32> = .allocate(capacity: 1)
        var sequence: MutableElementsView<Int32> = .allocate(capacity: 1)
        var runStarts: MutableElementsView<Int32> = .allocate(capacity: 1)
        var runOf: MutableElementsView<Int32> = .allocate(capacity: 1)
        var pairs: MutableElementsView<Int64> = .allocate(capacity: 1)
        /// BD9's open isolates and BD16's open brackets (key, position), as stacks.
        var isolates: MutableElementsView<Int32> = .allocate(capacity: 1)
        var openerKeys: MutableElementsView<UInt32> = .allocate(capacity: 1)
        var openerPositions: MutableElementsView<Int32> = .allocate(capacity: 1)
        /// The directional status stack of X1–X8: level, override (0 none, 1 L, 2 R), isolate.
        let stackLevel = MutableElementsView<UInt8>.allocate(capacity: BidiResolver.maxDepth + 2)
        let stackOverride = MutableElementsView<UInt8>.allocate(capacity: BidiResolver.maxDepth + 2)
        let stackIsolate = MutableElementsView<Bool>.allocate(capacity: BidiResolver.maxDepth + 2)

        func reserve(_ count: Int) {
            guard count > capacity else { return }
            deallocateAll()
            capacity = max(count, capacity * 2, 64)
            retained = .allocate(capacity: capacity)
            types = .allocate(capacity: capacity)
            original = .allocate(capacity: capacity)
            levels = .allocate(capacity: capacity)
            match = .allocate(capacity: capacity)
            sequence = .allocate(capacity: capacity)
            runStarts = .allocate(capacity: capacity + 1)
            runOf = .allocate(capacity: capacity)
            pairs = .allocate(capacity: capacity)
            isolates = .allocate(capacity: capacity)
            openerKeys = .allocate(capacity: 64)
            openerPositions = .allocate(capacity: 64)
        }

        private func deallocateAll() {
            retained.deallocate(); types.deallocate(); original.deallocate(); levels.deallocate()
            match.deallocate(); sequence.deallocate(); runStarts.deallocate(); runOf.deallocate()
            pairs.deallocate(); isolates.deallocate(); openerKeys.deallocate(); openerPositions.deallocate()
        }

        deinit {
            deallocateAll()
            stackLevel.deallocate(); stackOverride.deallocate(); stackIsolate.deallocate()
        }
    }

    let scratch = Scratch()
    /// False sends every paragraph through the general passes (for tests comparing the two).
    var wholeParagraphPath = true

    package init() {}

    /// Resolves one paragraph: `classes` are the Bidi_Class raw values of its characters (a
    /// paragraph separator may only come last), `scalars` the characters themselves when bracket
    /// pairs should be resolved (nil: none are). Writes each character's level to `levels`
    /// (`removed` for the characters X9 removes) and returns the paragraph level.
    @discardableResult
    package func resolve(classes: ElementsView<UInt8>, scalars: ElementsView<UInt32>?,
                        direction: BidiDirection, levels: MutableElementsView<UInt8>) -> UInt8 {
        let count = classes.count
        precondition(levels.count >= count && (scalars == nil || scalars!.count >= count))
        let paragraphLevel: UInt8
        switch direction {
        case .leftToRight: paragraphLevel = 0
        case .rightToLeft: paragraphLevel = 1
        case .auto: paragraphLevel = Self.firstStrongLevel(classes, from: 0, to: count, stopAtPDI: false) ?? 0
        }
        guard count > 0 else { return paragraphLevel }
        scratch.reserve(count)
        // Local copies of the buffers: reading a class's stored property is an exclusivity
        // check each time in a debug build.
        let s = scratch
        let retained = s.retained, types = s.types, original = s.original, compactLevels = s.levels
        let match = s.match, runStarts = s.runStarts, runOf = s.runOf, sequence = s.sequence, isolates = s.isolates
        let base = classes
        let out = levels

        // X1–X8: explicit levels (and overrides applied to the types), or the paragraph level
        // everywhere when the paragraph has no explicit formatting character.
        let LRE = BidiClass.lre.rawValue, PDF = BidiClass.pdf.rawValue, BN = BidiClass.bn.rawValue
        let LRI = BidiClass.lri.rawValue, FSI = BidiClass.fsi.rawValue, PDI = BidiClass.pdi.rawValue
        // The common paragraph has no explicit embedding, override or isolate: one level, one
        // isolating run sequence, positions as they are. It gets its own passes (`resolveWhole`).
        if wholeParagraphPath, resolveWhole(base, count: count, paragraphLevel: paragraphLevel, scalars: scalars, levels: out) {
            return paragraphLevel
        }
        var explicit = false
        for i in 0..<count where base[i] >= LRE {
            explicit = true
            break
        }
        if explicit {
            explicitLevels(base, count: count, paragraphLevel: paragraphLevel, levels: out)
        } else {
            for i in 0..<count {
                out[i] = paragraphLevel
                types[i] = base[i]
            }
        }

        // X9: drop embedding controls, PDF and BN; work on the compacted positions from here.
        var m = 0
        for i in 0..<count {
            let c = base[i]
            if c == BN || (c >= LRE && c <= PDF) {
                out[i] = Self.removed
                continue
            }
            retained[m] = Int32(truncatingIfNeeded: i)
            types[m] = types[i]
            original[m] = c
            compactLevels[m] = out[i]
            m &+= 1
        }
        guard m > 0 else { return paragraphLevel }

        // BD9: matching isolate initiators and PDIs.
        for k in 0..<m { match[k] = -1 }
        if explicit {
            var open = 0
            for k in 0..<m {
                let c = original[k]
                if c >= LRI && c <= FSI {
                    isolates[open] = Int32(truncatingIfNeeded: k)
                    open &+= 1
                } else if c == PDI && open > 0 {
                    open &-= 1
                    let initiator = isolates[open]
                    match[Int(initiator)] = Int32(truncatingIfNeeded: k)
                    match[k] = initiator
                }
            }
        }

        // X10: level runs, joined into isolating run sequences.
        var runCount = 0
        for k in 0..<m where k == 0 || compactLevels[k] != compactLevels[k &- 1] {
            runStarts[runCount] = Int32(k)
            runCount &+= 1
        }
        runStarts[runCount] = Int32(m)
        if runCount > 1 || explicit {
            for r in 0..<runCount {
                for k in Int(runStarts[r])..<Int(runStarts[r &+ 1]) { runOf[k] = Int32(r) }
            }
        }
        for r in 0..<runCount {
            let start = Int(runStarts[r])
            // A run starting with a matched PDI continues the sequence of its initiator.
            if original[start] == PDI && match[start] >= 0 { continue }
            var length = 0
            var run = r
            while true {
                let runStart = Int(runStarts[run])
                let runEnd = Int(runStarts[run &+ 1])
                for k in runStart..<runEnd {
                    sequence[length] = Int32(k)
                    length &+= 1
                }
                let last = runEnd &- 1
                let c = original[last]
                guard c >= LRI && c <= FSI, match[last] >= 0 else { break }
                run = Int(runOf[Int(match[last])])
            }
            resolveSequence(length: length, compactedCount: m, paragraphLevel: paragraphLevel, scalars: scalars,
                            identity: false, original: ElementsView(original), levels: compactLevels)
        }
        implicitLevels(count: m, levels: compactLevels)

        for k in 0..<m { out[Int(retained[k])] = compactLevels[k] }
        return paragraphLevel
    }

    /// The whole paragraph as one isolating run sequence at the paragraph level, for a
    /// paragraph without explicit embeddings, overrides and isolates (nearly every chat
    /// message): X1–X8 and X10 have nothing to do. Until a number the paragraph's direction
    /// does not absorb or a bracket turns up, one pass does all the rest (W1–W7, N1–N2, I1–I2,
    /// with BN left out as X9 says); from there on, W1–W3 run to the end, then W4–W7 (numbers),
    /// N0 (brackets) and N1–N2 with I1–I2 over what is left (BN left out). Returns false,
    /// having written nothing that counts, when the paragraph is not one of these.
    func resolveWhole(_ classes: ElementsView<UInt8>, count: Int, paragraphLevel: UInt8,
                      scalars: ElementsView<UInt32>?, levels out: MutableElementsView<UInt8>) -> Bool {
        let types = scratch.types
        let L = BidiClass.l.rawValue, R = BidiClass.r.rawValue, AL = BidiClass.al.rawValue
        let EN = BidiClass.en.rawValue, AN = BidiClass.an.rawValue, ON = BidiClass.on.rawValue
        let NSM = BidiClass.nsm.rawValue, BN = BidiClass.bn.rawValue
        let removed = Self.removed
        // LRE…PDI rule this path out (raw values in BidiClass's order).
        let explicitControls: UInt32 = 0x7FC000
        let odd = paragraphLevel & 1
        let sos = odd == 0 ? L : R
        let rightToLeft = odd == 1
        let levelL = paragraphLevel &+ odd
        let levelR = paragraphLevel &+ (1 &- odd)
        // Letters against the paragraph's direction (R and AL in a left-to-right paragraph, L
        // in a right-to-left one) resolve one level up (I1–I2).
        let raised = paragraphLevel &+ 1
        // What leaves a stretch that agrees with the paragraph's direction (its last strong
        // type is the paragraph's, or sos) at the paragraph level, and in agreement: its own
        // letters; ES, ET, CS, NSM, B, S and WS (neutrals between the paragraph's direction and
        // anything resolve to it; NSM takes the type before it); and in a left-to-right
        // paragraph EN too, which W7 makes L there (with the separators and terminators W4 and
        // W5 join to it). Raw values in BidiClass's order.
        let neutralOrMark: UInt32 = 1 << 4 | 1 << 5 | 1 << 7 | 1 << 8 | 1 << 10 | 1 << 11 | 1 << 12
        let agreeing = neutralOrMark | (rightToLeft ? 1 << 1 | 1 << 2 : 1 << 0 | 1 << 3)

        // Two states. Agreeing (`lastIsR == rightToLeft`): a tight loop writes the paragraph
        // level and stops at anything else. Against (the last strong type is the other
        // direction): letters of that direction are raised; a run of neutrals (`pending`) is
        // raised when the next strong type is that direction again (N1), else stays at the
        // paragraph level (N2; eos is the paragraph's direction). `previous` is the type after
        // W1 there (an NSM takes it). `types` is not written: only the passes after a number
        // or a bracket read it, from `resume` on.
        var previous = sos
        var lastIsR = rightToLeft
        var pending = -1
        var i = 0
        scan: while i < count {
            if lastIsR == rightToLeft {
                while i < count && (agreeing &>> UInt32(classes[i])) & 1 != 0 {
                    out[i] = paragraphLevel
                    i &+= 1
                }
                guard i < count else { break scan }
                let c = classes[i]
                if c <= AL {
                    // A letter of the other direction.
                    out[i] = raised
                    lastIsR = !rightToLeft
                    previous = c
                    pending = -1
                    i &+= 1
                    continue scan
                }
                if c == ON {
                    if let scalars, BidiTables.classAndBracket(scalars[i]) & 0x60 != 0 { break scan }
                    out[i] = paragraphLevel
                    i &+= 1
                    continue scan
                }
                if c == BN {
                    // Removed by X9: the rules see the text as if it were not there.
                    out[i] = removed
                    i &+= 1
                    continue scan
                }
                if (explicitControls &>> UInt32(c)) & 1 != 0 { return false }
                // A number that needs W4–W7: EN in a right-to-left paragraph, AN.
                break scan
            }
            var t = classes[i]
            if t > AL {
                if (explicitControls &>> UInt32(t)) & 1 != 0 { return false }
                if t == BN {
                    out[i] = removed
                    i &+= 1
                    continue
                }
                if t == NSM { t = previous }
                if t > AL {
                    if t == EN || t == AN { break scan }
                    if t == ON, let scalars, BidiTables.classAndBracket(scalars[i]) & 0x60 != 0 { break scan }
                    // A neutral (ES, ET and CS too: without a number, W6 makes them ON).
                    previous = t
                    out[i] = paragraphLevel
                    if pending < 0 { pending = i }
                    i &+= 1
                    continue
                }
            }
            // A letter (or a mark on one).
            if (t != L) == lastIsR {
                if pending >= 0 {
                    for x in pending..<i where out[x] != removed { out[x] = raised }
                    pending = -1
                }
                out[i] = raised
            } else {
                // Back to the paragraph's direction: the neutrals before stay where they are.
                out[i] = paragraphLevel
                lastIsR = rightToLeft
            }
            previous = t
            i &+= 1
        }
        if i >= count { return true }

        // A number or a bracket at `i`. Everything before the run of neutrals that leads up to
        // it is resolved for good: W4 and W5 only change separators and terminators next to a
        // number, and no bracket came before. The rest starts at `resume`, after the last
        // letter or number (and the marks on it).
        let neutralBefore = neutralOrMark | 1 << 9 | 1 << 13  // and BN, ON
        var resume = i
        while resume > 0 && (neutralBefore &>> UInt32(classes[resume &- 1])) & 1 != 0 { resume &-= 1 }
        while resume < i && (classes[resume] == NSM || classes[resume] == BN) { resume &+= 1 }
        // W2 reads the last strong type before: L, R or AL.
        var lastStrong = sos
        var back = resume
        while back > 0 {
            let c = classes[back &- 1]
            if c <= AL {
                lastStrong = c
                break
            }
            back &-= 1
        }

        // W1–W3 from `resume` to the end, on the positions X9 keeps (BN left out): their types,
        // classes and positions go to the scratch arrays, so that the passes below see the
        // text as if no BN were there.
        let original = scratch.original, retained = scratch.retained, sequence = scratch.sequence
        var numbers = false
        var brackets = false
        var m = 0
        previous = ON  // (the first position kept is a neutral, a number or a bracket)
        for p in resume..<count {
            let c = classes[p]
            if c == BN {
                out[p] = removed
                continue
            }
            if (explicitControls &>> UInt32(c)) & 1 != 0 { return false }
            var t = c == NSM ? previous : c
            if t <= AL {
                lastStrong = t
            } else if t == EN {
                if lastStrong == AL { t = AN }
                numbers = true
            } else if t == AN {
                numbers = true
            } else if c == ON, !brackets, let scalars, BidiTables.classAndBracket(scalars[p]) & 0x60 != 0 {
                brackets = true
            }
            previous = t
            types[m] = t &- (t == AL ? 1 : 0)
            original[m] = c
            retained[m] = Int32(truncatingIfNeeded: p)
            sequence[m] = Int32(truncatingIfNeeded: m)
            m &+= 1
        }
        // The strong type before `resume` stands for sos from there (W7, N0 and N1 read it).
        let before = lastIsR ? R : L
        if numbers { weakNumbers(length: m, sos: before, identity: false) }
        if brackets, let scalars {
            resolveBrackets(length: m, level: paragraphLevel, sos: before, scalars: scalars, identity: false, original: ElementsView(original))
        }

        // N1–N2 and I1–I2 as above, with numbers (which count as R for the neutrals). Neutral
        // here: ES, ET, CS (W6 made them ON where a number left them), B, S, WS, ON.
        let neutral: UInt32 = 1 << 4 | 1 << 5 | 1 << 7 | 0x3C00
        let levelNumber = paragraphLevel &+ 2 &- odd
        // Levels by type after the W rules: L 0, R 1, EN 3, AN 6.
        let levelOf = UInt64(levelL) | UInt64(levelR) &<< 8 | UInt64(levelNumber) &<< 24 | UInt64(levelNumber) &<< 48
        pending = -1
        for k in 0..<m {
            let t = types[k]
            let p = Int(retained[k])
            if (neutral &>> UInt32(t)) & 1 != 0 {
                out[p] = paragraphLevel
                if pending < 0 { pending = k }
                continue
            }
            let isR = t != L
            if pending >= 0 {
                if isR == lastIsR && (isR ? levelR : levelL) != paragraphLevel {
                    for x in pending..<k { out[Int(retained[x])] = raised }
                }
                pending = -1
            }
            out[p] = UInt8(truncatingIfNeeded: levelOf &>> (UInt64(t) &<< 3))
            lastIsR = isR
        }
        return true
    }

    /// P2–P3 over `classes[from..<to]`: 0 or 1 for the first strong character outside isolates,
    /// nil when there is none (or, with `stopAtPDI`, none before the PDI closing the text).
    static func firstStrongLevel(_ classes: ElementsView<UInt8>, from: Int, to: Int, stopAtPDI: Bool) -> UInt8? {
        var depth = 0
        var i = from
        while i < to {
            switch BidiClass(rawValue: classes[i]).unsafelyUnwrapped {
            case .l: if depth == 0 { return 0 }
            case .r, .al: if depth == 0 { return 1 }
            case .lri, .rli, .fsi: depth &+= 1
            case .pdi:
                if depth > 0 { depth &-= 1 } else if stopAtPDI { return nil }
            case .b: return nil
            default: break
            }
            i &+= 1
        }
        return nil
    }

    /// X1–X8: the explicit embedding levels, written to `levels`; `scratch.types` gets the
    /// classes with overrides applied.
    func explicitLevels(_ classes: ElementsView<UInt8>, count: Int, paragraphLevel: UInt8,
                        levels: MutableElementsView<UInt8>) {
        let types = scratch.types
        // The directional status stack: level, override (0 none, 1 L, 2 R), isolate.
        let stackLevel = scratch.stackLevel, stackOverride = scratch.stackOverride, stackIsolate = scratch.stackIsolate
        var depth = 1
        stackOverride[0] = 0
        stackIsolate[0] = false
        stackLevel[0] = paragraphLevel
        var overflowIsolates = 0
        var overflowEmbeddings = 0
        var validIsolates = 0
        let buffer = classes.slice(from: 0, count: count)

        for i in 0..<count {
            let c = classes[i]
            types[i] = c
            let top = depth &- 1
            let type = BidiClass(rawValue: c).unsafelyUnwrapped
            switch type {
            case .rle, .lre, .rlo, .lro:
                // X2–X5
                let current = stackLevel[top]
                let rtl = type == .rle || type == .rlo
                let next = rtl ? (current &+ 1) | 1 : (current &+ 2) & ~1
                levels[i] = current
                if next <= Self.maxDepth && overflowIsolates == 0 && overflowEmbeddings == 0 {
                    stackLevel[depth] = next
                    stackOverride[depth] = type == .rlo ? 2 : type == .lro ? 1 : 0
                    stackIsolate[depth] = false
                    depth &+= 1
                } else if overflowIsolates == 0 {
                    overflowEmbeddings &+= 1
                }
            case .rli, .lri, .fsi:
                // X5a–X5c
                let current = stackLevel[top]
                levels[i] = current
                if stackOverride[top] != 0 { types[i] = stackOverride[top] == 1 ? 0 : 1 }
                var rtl = type == .rli
                if type == .fsi {
                    rtl = Self.firstStrongLevel(buffer, from: i &+ 1, to: count, stopAtPDI: true) == 1
                }
                let next = rtl ? (current &+ 1) | 1 : (current &+ 2) & ~1
                if next <= Self.maxDepth && overflowIsolates == 0 && overflowEmbeddings == 0 {
                    validIsolates &+= 1
                    stackLevel[depth] = next
                    stackOverride[depth] = 0
                    stackIsolate[depth] = true
                    depth &+= 1
                } else {
                    overflowIsolates &+= 1
                }
            case .pdi:
                // X6a
                if overflowIsolates > 0 {
                    overflowIsolates &-= 1
                } else if validIsolates > 0 {
                    overflowEmbeddings = 0
                    while !stackIsolate[depth &- 1] { depth &-= 1 }
                    depth &-= 1
                    validIsolates &-= 1
                }
                let newTop = depth &- 1
                levels[i] = stackLevel[newTop]
                if stackOverride[newTop] != 0 { types[i] = stackOverride[newTop] == 1 ? 0 : 1 }
            case .pdf:
                // X7
                levels[i] = stackLevel[top]
                if overflowIsolates > 0 {
                } else if overflowEmbeddings > 0 {
                    overflowEmbeddings &-= 1
                } else if !stackIsolate[top] && depth >= 2 {
                    depth &-= 1
                }
            case .b:
                // X8: the paragraph ends.
                levels[i] = paragraphLevel
            case .bn:
                levels[i] = stackLevel[top]
            default:
                // X6 (an override gives L, raw value 0, or R, 1)
                levels[i] = stackLevel[top]
                if stackOverride[top] != 0 { types[i] = stackOverride[top] == 1 ? 0 : 1 }
            }
        }
    }

    /// W1–W7, N0–N2 and I1–I2 on the isolating run sequence in `scratch.sequence[0..<length]`.
    /// With `identity`, the sequence is the whole paragraph, position for position (no
    /// `scratch.sequence` to go through). `original` and `levels` are the classes and embedding
    /// levels by (compacted) position.
    func resolveSequence(length: Int, compactedCount m: Int, paragraphLevel: UInt8, scalars: ElementsView<UInt32>?,
                         identity: Bool, original: ElementsView<UInt8>, levels: MutableElementsView<UInt8>) {
        let s = scratch
        let seq = s.sequence, types = s.types
        @inline(__always) func at(_ j: Int) -> Int { identity ? j : Int(seq[j]) }
        let first = at(0)
        let last = at(length &- 1)
        let level = levels[first]

        // sos and eos (X10): the higher of this level and the adjacent one, or the paragraph's.
        let before = first > 0 ? levels[first &- 1] : paragraphLevel
        let lastClass = original[last]
        let isolateOpen = lastClass >= BidiClass.lri.rawValue && lastClass <= BidiClass.fsi.rawValue
        let after = (last &+ 1 < m && !isolateOpen) ? levels[last &+ 1] : paragraphLevel
        let L = BidiClass.l.rawValue, R = BidiClass.r.rawValue, AL = BidiClass.al.rawValue
        let EN = BidiClass.en.rawValue, AN = BidiClass.an.rawValue, ON = BidiClass.on.rawValue
        let CS = BidiClass.cs.rawValue, NSM = BidiClass.nsm.rawValue, LRI = BidiClass.lri.rawValue
        let sos = max(level, before) & 1 == 0 ? L : R
        let eos = max(level, after) & 1 == 0 ? L : R

        // W1–W3 in one pass: NSM takes the previous type, EN after AL becomes AN, AL becomes R.
        var previous = sos
        var previousIsIsolateControl = false
        var lastStrong = sos
        var sawNumberOrSeparator = false
        for j in 0..<length {
            let k = at(j)
            var t = types[k]
            if t == NSM { t = previousIsIsolateControl ? ON : previous }
            // (A whole paragraph without explicit controls has no isolate control.)
            previousIsIsolateControl = !identity && original[k] >= LRI
            if t == L || t == R || t == AL {
                lastStrong = t
            } else if t == EN && lastStrong == AL {
                t = AN
            }
            previous = t
            if t == AL { t = R }
            if t >= EN && t <= CS { sawNumberOrSeparator = true }
            types[k] = t
        }

        if sawNumberOrSeparator { weakNumbers(length: length, sos: sos, identity: identity) }

        if let scalars { resolveBrackets(length: length, level: level, sos: sos, scalars: scalars, identity: identity, original: original) }

        // N1–N2: runs of neutrals take the direction around them, else the embedding direction.
        // For a whole paragraph (`identity`) I1–I2 are applied in the same pass: no other
        // sequence reads its levels.
        let embedding = level & 1 == 0 ? L : R
        let raise: (UInt8, UInt8, UInt8) = level & 1 == 0 ? (1, 2, 0) : (0, 1, 1)  // R, EN/AN, L
        var j = 0
        while j < length {
            let t = types[at(j)]
            guard Self.isNeutral(t) else {
                if identity {
                    levels[j] = level &+ (t == R ? raise.0 : t == L ? raise.2 : (t == EN || t == AN) ? raise.1 : 0)
                }
                j &+= 1
                continue
            }
            var end = j
            while end < length && Self.isNeutral(types[at(end)]) { end &+= 1 }
            let leading = j == 0 ? sos : Self.strongDirection(types[at(j &- 1)])
            let trailing = end == length ? eos : Self.strongDirection(types[at(end)])
            let resolved = leading == trailing ? leading : embedding
            for x in j..<end { types[at(x)] = resolved }
            if identity {
                let raised = level &+ (resolved == R ? raise.0 : raise.2)
                for x in j..<end { levels[x] = raised }
            }
            j = end
        }
    }

    /// W4–W7 on the isolating run sequence in `scratch.sequence[start..<length]` (positions
    /// of the whole paragraph with `identity`), after W1–W3, `sos` standing for the strong type
    /// before `start`: separators between numbers, terminators next to
    /// European numbers, the rest of the separators and terminators to ON, and European numbers
    /// after L to L.
    @inline(__always)
    func weakNumbers(from start: Int = 0, length: Int, sos: UInt8, identity: Bool) {
        let seq = scratch.sequence, types = scratch.types
        @inline(__always) func at(_ j: Int) -> Int { identity ? j : Int(seq[j]) }
        let L = BidiClass.l.rawValue, R = BidiClass.r.rawValue, EN = BidiClass.en.rawValue
        let AN = BidiClass.an.rawValue, ON = BidiClass.on.rawValue, ES = BidiClass.es.rawValue
        let ET = BidiClass.et.rawValue, CS = BidiClass.cs.rawValue
        // W4 and W5 in one pass: one separator between two numbers of the kind it joins
        // becomes that number; terminators next to European numbers become numbers. W4
        // comes first, so a separator's left neighbour is read as it was before W5
        // (`beforeW5`): "1$,2" keeps its comma.
        var j = start
        var beforeW5: UInt8 = ON
        while j < length {
            let k = at(j)
            let t = types[k]
            if t == ES || t == CS {
                var result = t
                if j > start && j &+ 1 < length {
                    let n = types[at(j &+ 1)]
                    if beforeW5 == EN && n == EN {
                        result = EN
                    } else if t == CS && beforeW5 == AN && n == AN {
                        result = AN
                    }
                    types[k] = result
                }
                beforeW5 = result
                j &+= 1
            } else if t == ET {
                var end = j &+ 1
                while end < length && types[at(end)] == ET { end &+= 1 }
                let touches = (j > start && types[at(j &- 1)] == EN) || (end < length && types[at(end)] == EN)
                if touches { for x in j..<end { types[at(x)] = EN } }
                beforeW5 = ET
                j = end
            } else {
                beforeW5 = t
                j &+= 1
            }
        }
        // W6 and W7.
        var strong = sos
        for j in start..<length {
            let k = at(j)
            let t = types[k]
            if t == ES || t == ET || t == CS {
                types[k] = ON
            } else if t == L || t == R {
                strong = t
            } else if t == EN && strong == L {
                types[k] = L
            }
        }
    }

    /// I1–I2 over all retained positions, once every sequence is resolved (sos and eos read the
    /// embedding levels of neighbouring sequences, so none may change before).
    func implicitLevels(count m: Int, levels: MutableElementsView<UInt8>) {
        let types = scratch.types
        let L = BidiClass.l.rawValue, R = BidiClass.r.rawValue
        let EN = BidiClass.en.rawValue, AN = BidiClass.an.rawValue
        for k in 0..<m {
            let t = types[k]
            let level = levels[k]
            if level & 1 == 0 {
                if t == R { levels[k] = level &+ 1 } else if t == AN || t == EN { levels[k] = level &+ 2 }
            } else if t == L || t == EN || t == AN {
                levels[k] = level &+ 1
            }
        }
    }

    /// N0: paired brackets take the direction of the strong text inside them (or around them),
    /// in `scratch.sequence[start..<length]` (positions with `identity`), `sos` standing for the
    /// strong type before `start`.
    func resolveBrackets(from start: Int = 0, length: Int, level: UInt8, sos: UInt8, scalars: ElementsView<UInt32>,
                         identity: Bool, original: ElementsView<UInt8>) {
        let s = scratch
        let seq = s.sequence, types = s.types, retained = s.retained
        @inline(__always) func at(_ j: Int) -> Int { identity ? j : Int(seq[j]) }
        let openerKeys = s.openerKeys, openerPositions = s.openerPositions, pairStore = s.pairs
        let ON = BidiClass.on.rawValue, L = BidiClass.l.rawValue, R = BidiClass.r.rawValue
        let NSM = BidiClass.nsm.rawValue
        // BD16: a stack of 63 openers; pairs as (opener << 32 | closer), positions in `seq`.
        var openCount = 0
        var pairCount = 0
        scan: for j in start..<length {
            let k = at(j)
            guard types[k] == ON else { continue }
            let scalar = scalars[identity ? k : Int(retained[k])]
            let properties = BidiTables.properties(scalar)
            guard properties.isBracket, let bracket = BidiTables.bracket(of: scalar) else { continue }
            if properties.isOpeningBracket {
                if openCount == 63 { break scan }
                openerKeys[openCount] = bracket.key
                openerPositions[openCount] = Int32(truncatingIfNeeded: j)
                openCount &+= 1
            } else {
                var index = openCount &- 1
                while index >= 0 && openerKeys[index] != bracket.key { index &-= 1 }
                guard index >= 0 else { continue }
                pairStore[pairCount] = Int64(openerPositions[index]) << 32 | Int64(j)
                pairCount &+= 1
                openCount = index
            }
        }
        guard pairCount > 0 else { return }
        pairStore.sortPrefix(pairCount)

        let embedding = level & 1 == 0 ? L : R
        let opposite = embedding == L ? R : L
        for k in 0..<pairCount {
            let pair = pairStore[k]
            let open = Int(pair >> 32)
            let close = Int(pair & 0xFFFF_FFFF)
            var foundEmbedding = false
            var foundOpposite = false
            for j in (open &+ 1)..<close {
                let d = Self.strongDirection(types[at(j)])
                if d == embedding { foundEmbedding = true; break }
                if d == opposite { foundOpposite = true }
            }
            let resolved: UInt8
            if foundEmbedding {
                resolved = embedding
            } else if foundOpposite {
                var context = sos
                var j = open &- 1
                while j >= start {
                    let d = Self.strongDirection(types[at(j)])
                    if d == L || d == R { context = d; break }
                    j &-= 1
                }
                resolved = context == opposite ? opposite : embedding
            } else {
                continue
            }
            for side in 0..<2 {
                let end = side == 0 ? open : close
                types[at(end)] = resolved
                // Marks that followed the bracket (NSM before W1) take its new type.
                var j = end &+ 1
                while j < length && original[at(j)] == NSM {
                    types[at(j)] = resolved
                    j &+= 1
                }
            }
        }
    }

    /// B, S, WS, ON and the isolate controls (after W rules, nothing else is neutral).
    @inline(__always)
    static func isNeutral(_ t: UInt8) -> Bool {
        // B, S, WS, ON are 10...13; LRI, RLI, FSI, PDI 19...22 (BidiClass's order).
        (t &- 10) <= 3 || t >= 19
    }

    /// L for L; R for R, AL, EN and AN (numbers count as R in N0–N1); ON for the rest.
    @inline(__always)
    static func strongDirection(_ t: UInt8) -> UInt8 {
        // L 0; R 1, AL 2, EN 3, AN 6; ON 13 (BidiClass's order).
        t == 0 ? 0 : (t <= 3 || t == 6) ? 1 : 13
    }
}
