/// One paragraph resolved by the Unicode Bidirectional Algorithm, ready to give any of its lines
/// in visual order: lines are broken on the logical text first (widths never change), then each
/// is reordered (L1, L2) from the levels resolved here once.
package struct BidiParagraph {
    /// The paragraph's scalars (a paragraph separator may only come last).
    package let scalars: [UInt32]
    /// Bidi_Class raw values of `scalars`.
    let classes: [UInt8]
    /// Resolved levels (`BidiResolver.removed` for what X9 removes).
    let levels: [UInt8]
    /// 0 for a left-to-right paragraph, 1 for right-to-left.
    package let paragraphLevel: UInt8

    package var isRightToLeft: Bool { paragraphLevel & 1 == 1 }

    /// Each scalar's resolved level (`BidiResolver.removed` for what X9 removes), before the
    /// line rules L1–L2.
    package var scalarLevels: [UInt8] { levels }

    /// Resolves `scalars` in `direction` (`.auto`: from the first strong character, P2–P3),
    /// with bracket pairs. `resolver` lends its scratch space.
    /// `leftToRight`, when given, marks scalars to be taken as strong left-to-right whatever
    /// they are (a label such as `^[` that must read as drawn, never reversed or mirrored).
    package init(scalars: [UInt32], direction: BidiDirection, resolver: BidiResolver = BidiResolver(),
                leftToRight: [Bool]? = nil) {
        self.scalars = scalars
        var classes = [UInt8](repeating: 0, count: scalars.count)
        for (i, scalar) in scalars.enumerated() { classes[i] = BidiTables.classValue(scalar) }
        if let leftToRight {
            for (i, forced) in leftToRight.enumerated() where forced && i < classes.count { classes[i] = BidiClass.l.rawValue }
        }
        var levels = [UInt8](repeating: 0, count: scalars.count)
        paragraphLevel = classes.withElementsView { classBuffer in
            scalars.withElementsView { scalarBuffer in
                levels.withMutableElementsView { levelBuffer in
                    resolver.resolve(classes: classBuffer, scalars: scalarBuffer, direction: direction, levels: levelBuffer)
                }
            }
        }
        self.classes = classes
        self.levels = levels
    }

    /// A grapheme of a line, where it is in `scalars`, and its level (odd: drawn right to left).
    package struct VisualGrapheme: Hashable, Sendable {
        package var range: Range<Int>
        package var level: UInt8
    }

    /// The graphemes of `scalars[line]` from left to right on screen: L1 (trailing whitespace
    /// and separators to the paragraph level) on the line, then L2 over its graphemes. A
    /// grapheme moves whole, at the level of its first scalar that has one.
    package func visualGraphemes(in line: Range<Int>) -> [VisualGrapheme] {
        guard !line.isEmpty else { return [] }
        var lineLevels = Array(levels[line])
        classes.withElementsView { allClasses in
            lineLevels.withMutableElementsView { levelBuffer in
                let classBuffer = allClasses.slice(from: line.lowerBound, count: line.count)
                BidiLine.resetWhitespace(classes: classBuffer, levels: levelBuffer, paragraphLevel: paragraphLevel)
            }
        }
        var graphemes: [VisualGrapheme] = []
        var breaker = GraphemeBreaker()
        for offset in 0..<line.count {
            let position = line.lowerBound &+ offset
            let level = lineLevels[offset]
            if breaker.breaksBefore(UnicodeTables.info(scalars[position])) {
                graphemes.append(VisualGrapheme(range: position..<(position &+ 1),
                                                level: level == BidiResolver.removed ? BidiResolver.removed : level))
            } else {
                graphemes[graphemes.count &- 1].range = graphemes[graphemes.count &- 1].range.lowerBound..<(position &+ 1)
                if graphemes[graphemes.count &- 1].level == BidiResolver.removed { graphemes[graphemes.count &- 1].level = level }
            }
        }
        // A grapheme of removed scalars only (a lone ZWJ or soft hyphen) stays with the one before.
        var before = paragraphLevel
        for index in graphemes.indices {
            if graphemes[index].level == BidiResolver.removed { graphemes[index].level = before }
            before = graphemes[index].level
        }
        var order = [Int32](repeating: 0, count: graphemes.count)
        let graphemeLevels = graphemes.map(\.level)
        let count = graphemeLevels.withElementsView { levelBuffer in
            order.withMutableElementsView { BidiLine.visualOrder(levels: levelBuffer, into: $0) }
        }
        return (0..<count).map { graphemes[Int(order[$0])] }
    }
}

extension BidiParagraph {
    /// P2–P3 on `scalars`: the direction of the first strong character outside isolates, or nil
    /// when there is none (before a paragraph separator).
    package static func direction(of scalars: some Sequence<Unicode.Scalar>) -> BidiDirection? {
        let classes = scalars.map { BidiTables.classValue($0.value) }
        let level = classes.withElementsView {
            BidiResolver.firstStrongLevel($0, from: 0, to: $0.count, stopAtPDI: false)
        }
        return level.map { $0 == 1 ? .rightToLeft : .leftToRight }
    }
}
