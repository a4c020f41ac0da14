/// Finds the first line that ends after a UTF-8 offset, and stops there.
struct OffsetLineSink: LineSink {
    let offset: Int
    var index: Int
    var found: (line: Int, utf8Range: Range<Int>)?

    static var stopsEarly: Bool { true }
    var isDone: Bool { found != nil }

    mutating func line(start: Int, end: Int, width: Int) {
        if found == nil && end > offset { found = (index, start..<end) }
        index &+= 1
    }
}

extension PreparedText {
    /// The line of the layout at `width` that holds UTF-8 offset `offset`, with its range: the
    /// first line that ends after the offset (so an offset between lines, in a line break or in
    /// spaces a wrap left out, gives the line after it); nil when no line ends after it. With
    /// `index` (made at `width`), the walk starts at the last resume point at or before the
    /// offset, so it costs at most about the index's spacing in lines; without, the walk from
    /// the start up to the offset.
    package func line(atUTF8Offset offset: Int, width: Int, index: WrapIndex? = nil) -> (line: Int, utf8Range: Range<Int>)? {
        if let line = onlyLine(width: width) { return line.utf8Range.upperBound > offset ? (0, line.utf8Range) : nil }
        var found: WrapIndex.Point?
        if let index, index.width == width {
            // Resume points are in text order: the last one starting at or before the offset.
            var lower = 0, upper = index.points.count
            while lower < upper {
                let middle = (lower + upper) / 2
                if index.points[middle].start <= offset { lower = middle + 1 } else { upper = middle }
            }
            found = lower > 0 ? index.points[lower - 1] : nil
        }
        var sink = OffsetLineSink(offset: offset, index: found?.line ?? 0)
        if let point = found, point.line > 0 {
            layOut(width: width, from: point, into: &sink)
        } else {
            sink.index = 0
            layOut(width: width, into: &sink)
        }
        return sink.found
    }
}
