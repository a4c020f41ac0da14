/// A text with all its Unicode work done once, ready to be laid out at any width by arithmetic.
///
/// Preparing makes one pass over the scalars: it finds the UAX #14 break opportunities (never
/// inside a grapheme cluster), measures each grapheme in terminal cells, and stores the text as
/// segments between opportunities. Laying out at a width is first-fit over those segments and
/// never looks at Unicode data again.
///
/// Memory (`memoryFootprint`): a fixed 72 bytes, 12 bytes per segment (about one per word or
/// per CJK character), plus, only for segments with several graphemes that are not all one byte
/// and one cell wide, one byte per grapheme and 8 bytes of index. The arrays hold no spare
/// capacity. On the benchmark's corpora that is 2.4 bytes per scalar for ASCII chat
/// (`asciiMessages`, 589 bytes per message of about 240 scalars) and 3.8 for multilingual chat
/// (`messages`, 825 bytes per message of about 215 scalars).
public struct PreparedText: Sendable {
    /// The original text.
    public let text: String
    /// The options it was measured with.
    public let options: TextOptions
    /// Unicode scalars in the text.
    public let scalarCount: Int
    /// Width of the widest hard line when nothing wraps.
    public private(set) var naturalWidth: Int = 0

    @usableFromInline let segments: [PreparedSegment]
    @usableFromInline let graphemeMap: [UInt8]
    @usableFromInline let graphemeMapIndex: [UInt32]

    /// Segments, measures and classifies `text`. The only step that looks at Unicode data.
    ///
    /// The text's UTF-8 form must be shorter than 4 GiB (offsets are stored in 32 bits).
    public init(_ text: String, options: TextOptions = TextOptions()) {
        self.init(text, options: options, allowASCIIPath: true)
    }

    /// `allowASCIIPath: false` forces the general path, and `allowRuns: false` makes that path
    /// feed every scalar to both machines, so tests can compare the fast paths with it.
    init(_ text: String, options: TextOptions, allowASCIIPath: Bool, allowRuns: Bool = true) {
        var text = text
        var preparer = TextPreparer(options: options, utf8Count: text.utf8.count, allowRuns: allowRuns)
        let prepared: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            precondition(bytes.count < Int(UInt32.max), "PreparedText: text of \(bytes.count) UTF-8 bytes exceeds the 4 GiB limit")
            if allowASCIIPath && isASCII(bytes) {
                preparer.prepareASCII(bytes)
            } else {
                preparer.prepare(bytes)
            }
        }
        if prepared == nil {
            // Bridged or foreign strings: make the UTF-8 contiguous once, then prepare.
            text.makeContiguousUTF8()
            text.utf8.withContiguousStorageIfAvailable { preparer.prepare($0) }
        }
        self.text = text
        self.options = options
        self.scalarCount = preparer.scalarCount
        (self.segments, self.graphemeMap, self.graphemeMapIndex) = preparer.takeResults()
        self.naturalWidth = widestHardLineWithoutTabs() ?? measure(width: Int.max).widestLine
    }

    /// `measure(width: Int.max).widestLine` in one light pass over the segments, or nil when a
    /// segment holds a tab (whose width depends on its column).
    private func widestHardLineWithoutTabs() -> Int? {
        segments.withUnsafeBufferPointer { segments in
            var widest = 0
            var lineWidth = 0
            var pendingHang = 0
            for segment in segments {
                if segment.hasTab { return nil }
                lineWidth &+= pendingHang &+ segment.width
                pendingHang = Int(segment.hangEnd &- segment.contentEnd)  // spaces: one byte, one cell
                if segment.isMandatory {
                    widest = max(widest, lineWidth)
                    lineWidth = 0
                    pendingHang = 0
                }
            }
            return max(widest, lineWidth)
        }
    }

    /// Line count and widest line at `width` cells. Arithmetic only; allocates nothing.
    public func measure(width: Int) -> TextMetrics {
        var sink = MetricsSink()
        layOut(width: width, into: &sink)
        return TextMetrics(lineCount: sink.lineCount, widestLine: sink.widestLine)
    }

    /// The wrapped lines at `width` cells (at least 1). Arithmetic over the prepared segments.
    ///
    /// First-fit over the break opportunities: a line takes segments while they fit. Spaces and
    /// tabs before a break hang (they never count against the width and are left out of the
    /// line's range). A segment wider than the line is force-broken at grapheme boundaries; a
    /// grapheme wider than the line gets a line of its own. Tabs advance to the next multiple of
    /// `options.tabStop` from the start of the line.
    ///
    /// Mandatory breaks (LF, CR, CRLF, NEL, VT, FF, LS, PS) end lines, and are left out of the
    /// line's range. Empty text gives one empty line; a mandatory break at the very end of the
    /// text ends the last line and does not start an empty one ("a\n" is one line, "a\n\n" two).
    public func layout(width: Int) -> TextLayout {
        var sink = LinesSink()
        sink.lines.reserveCapacity(segments.count < 8 ? segments.count + 1 : 8)
        layOut(width: width, into: &sink)
        return TextLayout(lines: sink.lines, widestLine: sink.widestLine)
    }

    /// Bytes the prepared form holds beyond the text itself: the segment, grapheme-map and index
    /// storage (by capacity) plus the fixed fields of this value.
    public var memoryFootprint: Int {
        MemoryLayout<PreparedText>.size
            + segments.capacity * MemoryLayout<PreparedSegment>.stride
            + graphemeMap.capacity
            + graphemeMapIndex.capacity * MemoryLayout<UInt32>.stride
    }

    /// Number of segments (runs between break opportunities).
    public var segmentCount: Int { segments.count }
}

/// Wraps `text` at `width` cells: first-fit over UAX #14 break opportunities.
/// See `PreparedText.layout(width:)` for the rules.
public func wrap(_ text: String, width: Int, options: TextOptions = TextOptions()) -> TextLayout {
    PreparedText(text, options: options).layout(width: width)
}
