/// Resolves whole texts and reorders their lines, as drawing in visual order does, without making
/// a `BidiParagraph` per text: the scratch space (classes, levels, a line's levels, the order)
/// grows to the longest text seen and is reused, so a text allocates nothing after that.
/// Not thread-safe: use one per thread.
package struct BidiLineOrdering {
    private let resolver = BidiResolver()
    private var classes: [UInt8] = []
    private var levels: [UInt8] = []
    private var lineLevels: [UInt8] = []
    private var order: [Int32] = []

    package init() {}

    /// Resolves `scalars` paragraph by paragraph (each ends after a paragraph separator, B;
    /// direction from its first strong character, with bracket pairs), then for each of `lines`
    /// (scalar ranges in logical order, as line breaking gives them) applies L1 and L2 to its part
    /// inside each paragraph. Returns the number of visual positions written over all lines.
    /// O(scalars + line lengths), except for the rare text with explicit embeddings.
    @discardableResult
    package mutating func orderLines(of scalars: [UInt32], lines: [Range<Int>]) -> Int {
        let count = scalars.count
        if classes.count < count {
            let capacity = max(count, classes.count * 2)
            classes = [UInt8](repeating: 0, count: capacity)
            levels = [UInt8](repeating: 0, count: capacity)
            lineLevels = [UInt8](repeating: 0, count: capacity)
            order = [Int32](repeating: 0, count: capacity)
        }
        let resolver = resolver
        var written = 0
        classes.withMutableElementsView { classes in
            levels.withMutableElementsView { levels in
                lineLevels.withMutableElementsView { lineLevels in
                    order.withMutableElementsView { order in
                        scalars.withElementsView { scalars in
                            written = Self.orderLines(scalars, lines: lines, resolver: resolver, classes: classes,
                                                      levels: levels, lineLevels: lineLevels, order: order)
                        }
                    }
                }
            }
        }
        return written
    }

    private static func orderLines(_ scalars: ElementsView<UInt32>, lines: [Range<Int>], resolver: BidiResolver,
                                   classes: MutableElementsView<UInt8>, levels: MutableElementsView<UInt8>,
                                   lineLevels: MutableElementsView<UInt8>, order: MutableElementsView<Int32>) -> Int {
        let count = scalars.count
        var seen: UInt32 = 0
        for i in 0..<count {
            let c = BidiTables.classValue(scalars[i])
            classes[i] = c
            seen |= 1 &<< UInt32(c)
        }
        let separated = seen & (1 << BidiClass.b.rawValue) != 0
        let readClasses = ElementsView(classes)
        var written = 0
        var start = 0
        var lineIndex = 0
        while start < count {
            var end = count
            if separated {
                end = start
                while end < count && classes[end] != BidiClass.b.rawValue { end &+= 1 }
                end = min(count, end &+ 1)
            }
            let length = end &- start
            let paragraph = resolver.resolve(classes: readClasses.slice(from: start, count: length),
                                             scalars: scalars.slice(from: start, count: length), direction: .auto,
                                             levels: levels.slice(from: start, count: length))
            let resolved = ElementsView(levels)
            while lineIndex < lines.count && lines[lineIndex].lowerBound < end {
                let line = lines[lineIndex].clamped(to: start..<end)
                let lineCount = line.count
                let lineBuffer = lineLevels.slice(from: 0, count: lineCount)
                lineBuffer.copy(from: resolved.slice(from: line.lowerBound, count: lineCount))
                BidiLine.resetWhitespace(classes: readClasses.slice(from: line.lowerBound, count: lineCount),
                                         levels: lineBuffer, paragraphLevel: paragraph)
                written &+= BidiLine.visualOrder(levels: ElementsView(lineBuffer), into: order.slice(from: 0, count: lineCount))
                lineIndex &+= 1
            }
            start = end
        }
        return written
    }
}
