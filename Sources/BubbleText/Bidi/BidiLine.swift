/// Rules L1 and L2 of UAX #9 on one line of a resolved paragraph: what runs after line breaking.
public enum BidiLine {
    /// L1: segment and paragraph separators, and the whitespace and isolate controls before them
    /// or at the end of the line, go back to the paragraph level. `classes` are the original
    /// Bidi_Class raw values of the line's characters; `levels` their resolved levels
    /// (`BidiResolver.removed` ones are left as they are).
    public static func resetWhitespace(classes: UnsafeBufferPointer<UInt8>, levels: UnsafeMutableBufferPointer<UInt8>,
                                       paragraphLevel: UInt8) {
        var trailing = true
        var i = classes.count
        while i > 0 {
            i &-= 1
            switch BidiClass(rawValue: classes[i]).unsafelyUnwrapped {
            case .s, .b:
                levels[i] = paragraphLevel
                trailing = true
            case .ws, .lri, .rli, .fsi, .pdi:
                if trailing { levels[i] = paragraphLevel }
            case .bn, .lre, .rle, .lro, .rlo, .pdf:
                // Removed by X9: they neither end nor join a run of whitespace, but a kept one
                // (a BN drawn with its neighbours) goes with the run it sits in.
                if trailing && levels[i] != BidiResolver.removed { levels[i] = paragraphLevel }
            default:
                trailing = false
            }
        }
    }

    /// L2: the positions of `levels` from left to right on screen, skipping
    /// `BidiResolver.removed` ones. From the highest level down to the lowest odd one, every run
    /// at that level or above is reversed. Writes to `order` (as long as `levels`) and returns
    /// how many positions it wrote.
    @discardableResult
    public static func visualOrder(levels: UnsafeBufferPointer<UInt8>, into order: UnsafeMutableBufferPointer<Int32>) -> Int {
        var count = 0
        var highest: UInt8 = 0
        var lowestOdd: UInt8 = 0xFF
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
}
