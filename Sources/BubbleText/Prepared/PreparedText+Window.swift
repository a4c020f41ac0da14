/// Keeps the lines of a layout whose indices fall in a window, and says when it has them all.
struct LineWindowSink: LineSink {
    let window: Range<Int>
    var index = 0
    var lines: [TextLine] = []

    static var stopsEarly: Bool { true }
    var isDone: Bool { index >= window.upperBound }

    init(window: Range<Int>, firstIndex: Int = 0) {
        self.window = window
        index = firstIndex
        lines.reserveCapacity(min(window.count, 4_096))
    }

    mutating func line(start: Int, end: Int, width: Int) {
        if index >= window.lowerBound && index < window.upperBound {
            lines.append(TextLine(utf8Range: start..<end, width: width))
        }
        index &+= 1
    }
}

/// Counts the lines and keeps a resume point every `spacing` lines or more.
struct ResumePointSink: LineSink {
    let spacing: Int
    var index = 0
    var points: [WrapIndex.Point] = []

    static var recordsResumePoints: Bool { true }

    mutating func line(start: Int, end: Int, width: Int) { index &+= 1 }

    mutating func segmentStartsLine(segment: Int, position: Int, mapOffset: Int, start: Int) {
        guard points.last.map({ index >= $0.line + spacing }) ?? true else { return }
        points.append(WrapIndex.Point(line: index, segment: segment, position: position, mapOffset: mapOffset, start: start))
    }
}

/// Places in a text's layout at one width where the walk over its segments can start again:
/// segments that begin a line, every few hundred lines. With it, any window of a very tall
/// text's lines costs the window (plus at most the spacing), wherever it is in the text.
public struct WrapIndex: Sendable {
    /// A segment that begins line `line`: the walk from it, with a fresh line, gives the same
    /// lines from there as the walk from the start.
    struct Point: Sendable {
        var line: Int
        var segment: Int
        /// Where its record and its map entries are, and its UTF-8 start.
        var position: Int
        var mapOffset: Int
        var start: Int
    }

    /// The width it was made at.
    public let width: Int
    /// The layout's line count (`measure(width:).lineCount`).
    public let lineCount: Int
    let points: [Point]

    /// Bytes it holds.
    public var memoryFootprint: Int { MemoryLayout<WrapIndex>.size + points.capacity * MemoryLayout<Point>.stride }
}

extension PreparedText {
    /// The lines at `window` (indices into `layout(width:).lines`, clamped to them) of the text
    /// wrapped at `width` cells: exactly those lines of the whole layout, without keeping the
    /// others. The walk over the segments stops at the window's end, so the lines of a very tall
    /// text near its start cost what they hold, and any window costs no more than measuring the
    /// text (`measure(width:)`); with `index` (made at `width`), it starts at the last resume
    /// point before the window, so any window costs about what it holds. Memory is the window's.
    public func lines(width: Int, in window: Range<Int>, index: WrapIndex? = nil) -> [TextLine] {
        guard !window.isEmpty, window.upperBound > 0 else { return [] }
        if let line = onlyLine(width: width) { return window.contains(0) ? [line] : [] }
        let low = max(0, window.lowerBound)
        // The last resume point at or before the window's first line.
        var found: WrapIndex.Point?
        if let index, index.width == width {
            var lower = 0, upper = index.points.count
            while lower < upper {
                let middle = (lower + upper) / 2
                if index.points[middle].line <= low { lower = middle + 1 } else { upper = middle }
            }
            found = lower > 0 ? index.points[lower - 1] : nil
        }
        guard let point = found, point.line > 0 else {
            var sink = LineWindowSink(window: low..<window.upperBound)
            layOut(width: width, into: &sink)
            return sink.lines
        }
        var sink = LineWindowSink(window: low..<window.upperBound, firstIndex: point.line)
        layOut(width: width, from: point, into: &sink)
        return sink.lines
    }

    /// Resume points of the layout at `width`, one every `spacing` lines or more: one walk over
    /// the segments, keeping no lines.
    public func wrapIndex(width: Int, spacing: Int = 256) -> WrapIndex {
        if onlyLine(width: width) != nil {
            return WrapIndex(width: width, lineCount: 1, points: [])
        }
        var sink = ResumePointSink(spacing: max(1, spacing))
        layOut(width: width, into: &sink)
        return WrapIndex(width: width, lineCount: sink.index, points: sink.points)
    }
}
