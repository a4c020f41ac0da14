/// Receives the lines of a layout as they are decided.
@usableFromInline
protocol LineSink {
    mutating func line(start: Int, end: Int, width: Int)
    /// Whether the walk may end before the text does (checked between segments, when `isDone`).
    /// False for sinks that take every line: the check then costs nothing.
    static var stopsEarly: Bool { get }
    /// Whether the sink has every line it wants (read only when `stopsEarly`).
    var isDone: Bool { get }
    /// Whether the walk tells the sink where a segment begins a line (`segmentStartsLine`).
    /// False for sinks that do not keep resume points: the calls then cost nothing.
    static var recordsResumePoints: Bool { get }
    /// Segment `segment` (its record at `position`, its map entries at `mapOffset`, its text at
    /// UTF-8 offset `start`) begins the line after those the sink has been given.
    mutating func segmentStartsLine(segment: Int, position: Int, mapOffset: Int, start: Int)
}

extension LineSink {
    @inlinable static var stopsEarly: Bool { false }
    @inlinable var isDone: Bool { false }
    @inlinable static var recordsResumePoints: Bool { false }
    @inlinable mutating func segmentStartsLine(segment: Int, position: Int, mapOffset: Int, start: Int) {}
}

/// Counts lines and keeps the widest: what `measure(width:)` needs, with no allocation.
@usableFromInline
struct MetricsSink: LineSink {
    @usableFromInline var lineCount = 0
    @usableFromInline var widestLine = 0

    @inlinable
    mutating func line(start: Int, end: Int, width: Int) {
        lineCount &+= 1
        if width > widestLine { widestLine = width }
    }
}

/// Collects the lines themselves.
@usableFromInline
struct LinesSink: LineSink {
    @usableFromInline var lines: [TextLine] = []
    @usableFromInline var widestLine = 0

    @inlinable
    mutating func line(start: Int, end: Int, width: Int) {
        lines.append(TextLine(utf8Range: start..<end, width: width))
        if width > widestLine { widestLine = width }
    }
}

extension PreparedText {
    /// First-fit over the prepared segments; see `layout(width:)` for the rules.
    @usableFromInline
    func layOut<Sink: LineSink>(width: Int, into sink: inout Sink) {
        layOut(width: width, from: nil, into: &sink)
    }

    /// The walk from `resume` (a segment that begins a line, as `segmentStartsLine` told a
    /// sink): the lines from there on, the same as the walk from the start gives them.
    func layOut<Sink: LineSink>(width: Int, from resume: WrapIndex.Point?, into sink: inout Sink) {
        let maxWidth = max(1, width)
        if storage.segmentCount == 0 {
            sink.line(start: 0, end: 0, width: 0)
            return
        }
        storage.withSegments { reader, _ in
            // A copy the optimiser keeps in registers: the parameter lives in memory, and
            // writing its fields back on every segment cost a third of the walk.
            var segments = reader
            var lineStart = 0
            var lineEnd = 0
            var lineWidth = 0
            var pendingHang = 0  // hang of the last segment on the line: counts only if more follows
            var lineOpen = false
            var segmentStart = 0
            var first = 0
            if let resume {
                segments.skip(to: resume.position, mapOffset: resume.mapOffset, segmentsRead: resume.segment)
                segmentStart = resume.start
                lineStart = resume.start
                first = resume.segment
            }
            for index in first..<segments.count {
                if Sink.stopsEarly && sink.isDone { return }
                // Where this record is, should it begin a line.
                let here = Sink.recordsResumePoints ? (segments.position, segments.nextMapOffset) : (0, 0)
                if Sink.recordsResumePoints && !lineOpen {
                    sink.segmentStartsLine(segment: index, position: here.0, mapOffset: here.1, start: segmentStart)
                }
                // The record's fields, read as they are stored: a segment is built only for
                // the rare records that need one (tabs, force-breaking).
                let record = segments.nextRecord()
                let flags = record.flags
                let contentEnd = segmentStart &+ record.contentLength
                let hangEnd = contentEnd &+ record.hangLength
                if _slowPath(flags & PreparedStorage.tabFlag != 0) {
                    // Tab widths depend on the column: place the segment by its width there.
                    let segment = record.segment(start: segmentStart)
                    let mapOffset = record.mapOffset
                    var column = lineWidth &+ pendingHang
                    var tabbed = tabbedWidths(segment, mapOffset: mapOffset, start: segmentStart, column: column)
                    if lineOpen && column &+ tabbed.content > maxWidth {
                        sink.line(start: lineStart, end: lineEnd, width: lineWidth)
                        if Sink.recordsResumePoints {
                            sink.segmentStartsLine(segment: index, position: here.0, mapOffset: here.1, start: segmentStart)
                        }
                        lineStart = segmentStart
                        lineWidth = 0
                        pendingHang = 0
                        lineOpen = false
                        column = 0
                        tabbed = tabbedWidths(segment, mapOffset: mapOffset, start: segmentStart, column: 0)
                    }
                    if !lineOpen && tabbed.content > maxWidth && !segment.isSingleGrapheme {
                        lineWidth = forceBreak(segment, mapOffset: mapOffset, start: segmentStart, end: contentEnd,
                                               maxWidth: maxWidth, lineStart: &lineStart, into: &sink)
                        pendingHang = tabbedWidths(segment, mapOffset: mapOffset, start: segmentStart, column: 0,
                                                   hangColumn: lineWidth).hang
                    } else {
                        lineWidth = column &+ tabbed.content
                        pendingHang = tabbed.hang
                    }
                } else if flags & PreparedStorage.runFlag != 0 {
                    // Units of two cells, each breakable from the next: fill lines by division.
                    if lineOpen && lineWidth &+ pendingHang &+ 2 > maxWidth {
                        sink.line(start: lineStart, end: lineEnd, width: lineWidth)
                        if Sink.recordsResumePoints {
                            sink.segmentStartsLine(segment: index, position: here.0, mapOffset: here.1, start: segmentStart)
                        }
                        lineStart = segmentStart
                        lineWidth = 0
                        pendingHang = 0
                        lineOpen = false
                    }
                    let unitLength = flags & PreparedStorage.bit7 != 0 ? 4 : 3
                    let perLine = max(1, maxWidth &>> 1)
                    var remaining = record.width &>> 1
                    var position = segmentStart
                    var taken = lineOpen ? min(remaining, (maxWidth &- lineWidth &- pendingHang) &>> 1) : min(remaining, perLine)
                    lineWidth = lineWidth &+ pendingHang &+ taken &* 2
                    while true {
                        remaining &-= taken
                        position &+= taken &* unitLength
                        if remaining == 0 { break }
                        sink.line(start: lineStart, end: position, width: lineWidth)
                        lineStart = position
                        taken = min(remaining, perLine)
                        lineWidth = taken &* 2
                    }
                    pendingHang = 0
                } else {
                    let contentWidth = record.width
                    let extended = lineWidth &+ pendingHang &+ contentWidth
                    if _fastPath(lineOpen && extended <= maxWidth) {
                        lineWidth = extended  // the usual case: it fits on the open line
                    } else {
                        if lineOpen {
                            sink.line(start: lineStart, end: lineEnd, width: lineWidth)
                            lineStart = segmentStart
                            if Sink.recordsResumePoints {
                                sink.segmentStartsLine(segment: index, position: here.0, mapOffset: here.1, start: segmentStart)
                            }
                        }
                        if contentWidth > maxWidth && flags & PreparedStorage.singleGraphemeFlag == 0 {
                            lineWidth = forceBreak(record.segment(start: segmentStart), mapOffset: record.mapOffset, start: segmentStart,
                                                   end: contentEnd, maxWidth: maxWidth, lineStart: &lineStart, into: &sink)
                        } else {
                            lineWidth = contentWidth
                        }
                    }
                    pendingHang = record.hangLength  // spaces only: one byte, one cell each
                }
                lineEnd = contentEnd
                lineOpen = true
                segmentStart = hangEnd &+ Int(flags & 3)
                if flags & PreparedStorage.mandatoryFlag != 0 {
                    sink.line(start: lineStart, end: lineEnd, width: lineWidth)
                    lineStart = segmentStart
                    lineWidth = 0
                    pendingHang = 0
                    lineOpen = false
                }
            }
            if lineOpen { sink.line(start: lineStart, end: lineEnd, width: lineWidth) }
        }
    }

    /// Breaks the content of `segment` (`start..<end`, on a line of its own so far; its map
    /// entries, if it has any, at `mapOffset`) at grapheme boundaries. Emits every full line and
    /// returns the width of the last, still open.
    /// Out of line: it is rare, and inlined into `layOut` it crowded the walk's registers.
    @usableFromInline @inline(never)
    func forceBreak<Sink: LineSink>(_ segment: PreparedSegment, mapOffset: Int, start: Int, end: Int, maxWidth: Int,
                                    lineStart: inout Int, into sink: inout Sink) -> Int {
        guard segment.hasGraphemeMap else {
            // Graphemes of one cell and one length (one byte in ASCII, two in Cyrillic): plain
            // arithmetic.
            let unitLength = (end &- start) / max(1, segment.width)
            var remaining = segment.width
            while remaining > maxWidth {
                sink.line(start: lineStart, end: lineStart &+ maxWidth &* unitLength, width: maxWidth)
                lineStart &+= maxWidth &* unitLength
                remaining &-= maxWidth
            }
            return remaining
        }
        let tabStop = max(1, options.tabStop)
        return storage.withSegments { _, map in
            var cursor = mapOffset
            var position = start
            var column = 0
            while position < end {
                let (length, entryWidth) = GraphemeMap.read(map, at: &cursor)
                var width = entryWidth >= 0 ? entryWidth : tabStop &- column % tabStop
                if position > lineStart && column &+ width > maxWidth {
                    sink.line(start: lineStart, end: position, width: column)
                    lineStart = position
                    column = 0
                    if entryWidth < 0 { width = tabStop }
                }
                column &+= width
                position &+= length
            }
            return column
        }
    }

    /// Widths of `segment`, which holds tabs (and so map entries, at `mapOffset`), when its
    /// content starts at `column`: the content, and the hang after it (which starts at
    /// `hangColumn`, by default where the content ends).
    @usableFromInline
    func tabbedWidths(_ segment: PreparedSegment, mapOffset: Int, start: Int, column: Int, hangColumn: Int? = nil) -> (content: Int, hang: Int) {
        let tabStop = max(1, options.tabStop)
        return storage.withSegments { _, map in
            let contentEnd = Int(segment.contentEnd)
            let hangEnd = Int(segment.hangEnd)
            var cursor = mapOffset
            var position = start
            var current = column
            while position < contentEnd {
                let (length, width) = GraphemeMap.read(map, at: &cursor)
                current &+= width >= 0 ? width : tabStop &- current % tabStop
                position &+= length
            }
            let content = current &- column
            if let hangColumn { current = hangColumn }
            let hangStart = current
            while position < hangEnd {
                let (length, width) = GraphemeMap.read(map, at: &cursor)
                current &+= width >= 0 ? width : tabStop &- current % tabStop
                position &+= length
            }
            return (content, current &- hangStart)
        }
    }
}
