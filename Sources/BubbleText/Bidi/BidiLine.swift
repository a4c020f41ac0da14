/// Rules L1 and L2 of UAX #9 on one line of a resolved paragraph: what runs after line breaking.
package enum BidiLine {
    /// L1: segment and paragraph separators, and the whitespace and isolate controls before them
    /// or at the end of the line, go back to the paragraph level. `classes` are the original
    /// Bidi_Class raw values of the line's characters; `levels` their resolved levels
    /// (`BidiResolver.removed` ones are left as they are).
    package static func resetWhitespace(classes: ElementsView<UInt8>, levels: MutableElementsView<UInt8>,
                                       paragraphLevel: UInt8) {
        // Raw values (BidiClass's order): B 10, S 11; WS 12 and the isolate controls 19–22;
        // BN 9 and the embedding controls 14–18.
        let whitespace: UInt32 = 1 << 12 | 0x780000
        let removable: UInt32 = 1 << 9 | 0x7C000
        var i = classes.count
        while i > 0 {
            // Trailing: the run of whitespace before the end or before a separator.
            while i > 0 {
                let c = UInt32(classes[i &- 1])
                if c &- 10 <= 1 || (whitespace &>> c) & 1 != 0 {
                    levels[i &- 1] = paragraphLevel
                } else if (removable &>> c) & 1 != 0 {
                    // Removed by X9: they neither end nor join a run of whitespace, but a kept
                    // one (a BN drawn with its neighbours) goes with the run it sits in.
                    if levels[i &- 1] != BidiResolver.removed { levels[i &- 1] = paragraphLevel }
                } else {
                    break
                }
                i &-= 1
            }
            // Then nothing changes until the next separator to the left.
            i = lastSeparator(classes, before: i)
        }
    }

    /// The position after the last B or S in `classes[0..<end]`, or 0: eight classes at a time,
    /// since separators inside a line are rare (the first eight again, masked, when fewer are
    /// left and there are eight).
    @inline(__always)
    static func lastSeparator(_ classes: ElementsView<UInt8>, before end: Int) -> Int {
        guard classes.count > 0 else { return 0 }
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        // Bit 7 of each byte of the word at `at` that holds B (10) or S (11), exactly (no borrow
        // between bytes: all classes are below 32).
        @inline(__always) func separators(_ at: Int) -> UInt64 {
            let x = (classes.word(at: at) & 0xFEFE_FEFE_FEFE_FEFE) ^ 0x0A0A_0A0A_0A0A_0A0A
            return ~(((x & low) &+ low) | x) & ~low
        }
        var i = end
        while i >= 8 {
            let found = separators(i &- 8)
            if found != 0 { return i &- found.leadingZeroBitCount &>> 3 }
            i &-= 8
        }
        guard i > 0 else { return 0 }
        if end >= 8 {
            // Bytes i..<8 were read already.
            let found = separators(0) & (UInt64.max &>> UInt64(64 &- 8 &* i))
            return found == 0 ? 0 : 8 &- found.leadingZeroBitCount &>> 3
        }
        while i > 0 && classes[i &- 1] &- 10 > 1 { i &-= 1 }
        return i
    }

    /// L2: the positions of `levels` from left to right on screen, skipping
    /// `BidiResolver.removed` ones. From the highest level down to the lowest odd one, every run
    /// at that level or above is reversed. Writes to `order` (as long as `levels`) and returns
    /// how many positions it wrote.
    @discardableResult
    package static func visualOrder(levels: ElementsView<UInt8>, into order: MutableElementsView<Int32>) -> Int {
        // Written as reductions without early exit, so the compiler can vectorise them.
        var highest: UInt8 = 0
        var odd: UInt8 = 0
        for level in levels {
            highest = max(highest, level)
            odd |= level
        }
        if highest <= 2 {
            precondition(order.count >= levels.count)
            // Levels 0, 1 and 2 only, nothing removed: nearly every line of chat text.
            shallowOrder(levels: levels, into: order, reversed: odd & 1 == 1)
            return levels.count
        }
        var count = 0
        var lowestOdd: UInt8 = 0xFF
        highest = 0
        for (i, level) in levels.enumerated() where level != BidiResolver.removed {
            order[count] = Int32(truncatingIfNeeded: i)
            count &+= 1
            if level > highest { highest = level }
            if level & 1 == 1 && level < lowestOdd { lowestOdd = level }
        }
        guard lowestOdd != 0xFF else { return count }
        var level = highest
        while level >= lowestOdd {
            var j = 0
            while j < count {
                guard levels[Int(order[j])] >= level else { j &+= 1; continue }
                var end = j &+ 1
                while end < count && levels[Int(order[end])] >= level { end &+= 1 }
                var low = j
                var high = end &- 1
                while low < high {
                    order.swapAt(low, high)
                    low &+= 1
                    high &-= 1
                }
                j = end
            }
            level &-= 1
        }
        return count
    }

    /// L2 for levels of 0, 1 and 2 in one pass: a stretch of levels 1 and 2 is read from its
    /// end, each run at level 1 backwards and each run at level 2 as it stands (reversed twice).
    /// Without an odd level (`reversed` false) the order is the logical one. Runs are found
    /// eight levels at a time and written by loops the compiler vectorises.
    @inline(__always)
    static func shallowOrder(levels: ElementsView<UInt8>, into order: MutableElementsView<Int32>, reversed: Bool) {
        let count = levels.count
        let out = order
        guard reversed else {
            for i in 0..<count { out[i] = Int32(truncatingIfNeeded: i) }
            return
        }
        let level = levels
        let ones: UInt64 = 0x0101_0101_0101_0101
        @inline(__always) func word(_ at: Int) -> UInt64 { level.word(at: at) }
        var written = 0
        var j = 0
        while j < count {
            // Level 0: logical order.
            var end = j
            while end &+ 8 <= count && word(end) == 0 { end &+= 8 }
            while end < count && level[end] == 0 { end &+= 1 }
            for p in j..<end { out[written &+ p &- j] = Int32(truncatingIfNeeded: p) }
            written &+= end &- j
            j = end
            guard j < count else { break }
            // Levels 1 and 2 up to the next 0 (a word without a zero byte has none).
            while end &+ 8 <= count {
                let w = word(end)
                if (w &- ones) & ~w & (ones &<< 7) != 0 { break }
                end &+= 8
            }
            while end < count && level[end] != 0 { end &+= 1 }
            var k = end
            while k > j {
                var start = k &- 1
                if level[start] == 1 {
                    while start &- 8 >= j && word(start &- 8) == ones { start &-= 8 }
                    while start > j && level[start &- 1] == 1 { start &-= 1 }
                    // Backwards: k - 1 down to start.
                    let n = k &- start
                    for q in 0..<n { out[written &+ q] = Int32(truncatingIfNeeded: k &- 1 &- q) }
                    written &+= n
                } else {
                    while start &- 8 >= j && word(start &- 8) == ones &* 2 { start &-= 8 }
                    while start > j && level[start &- 1] == 2 { start &-= 1 }
                    for p in start..<k { out[written &+ p &- start] = Int32(truncatingIfNeeded: p) }
                    written &+= k &- start
                }
                k = start
            }
            j = end
        }
    }
}
