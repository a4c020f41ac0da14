/// Keeps the lines of a layout whose indices fall in a window, and says when it has them all.
struct LineWindowSink: LineSink {
    let window: Range<Int>
    var index = 0
    var lines: [TextLine] = []

    static var stopsEarly: Bool { true }
    var isDone: Bool { index >= window.upperBound }

    init(window: Range<Int>) {
        self.window = window
        lines.reserveCapacity(min(window.count, 4_096))
    }

    mutating func line(start: Int, end: Int, width: Int) {
        if index >= window.lowerBound && index < window.upperBound {
            lines.append(TextLine(utf8Range: start..<end, width: width))
        }
        index &+= 1
    }
}

extension PreparedText {
    /// The lines at `window` (indices into `layout(width:).lines`, clamped to them) of the text
    /// wrapped at `width` cells: exactly those lines of the whole layout, without keeping the
    /// others. The walk over the segments stops at the window's end, so the lines of a very tall
    /// text near its start cost what they hold, and any window costs no more than measuring the
    /// text (`measure(width:)`); memory is the window's.
    public func lines(width: Int, in window: Range<Int>) -> [TextLine] {
        guard !window.isEmpty, window.upperBound > 0 else { return [] }
        if let line = onlyLine(width: width) { return window.contains(0) ? [line] : [] }
        var sink = LineWindowSink(window: max(0, window.lowerBound)..<window.upperBound)
        layOut(width: width, into: &sink)
        return sink.lines
    }
}
