/// A text with all its Unicode work done once, ready to be laid out at any width by arithmetic.
///
/// Preparing makes one pass over the scalars: it finds the UAX #14 break opportunities (never
/// inside a grapheme cluster), measures each grapheme in terminal cells, and stores the text as
/// segments between opportunities. Laying out at a width is first-fit over those segments and
/// never looks at Unicode data again.
///
/// Memory (`memoryFootprint`): a fixed part (the fields of this value), 2–5 bytes per segment
/// (about one per word or per CJK character; a run of ideographs is one record), plus, only for
/// segments with several graphemes that are not all one cell wide and of one UTF-8 length, one
/// byte per grapheme. All of it sits in one exact-size allocation, so a message costs at most one
/// allocation besides its string, and none when its segments fit in 11 bytes and need no map
/// ("ok", "sounds good", "👋", "好的"): those are kept inside this value.
public struct PreparedText: Sendable {
    /// The original text.
    public let text: String
    /// The options it was measured with.
    public let options: TextOptions
    /// Unicode scalars in the text.
    public var scalarCount: Int { Int(storedScalarCount) }
    let storedScalarCount: UInt32
    /// Where the last segment's content ends: the end of the only line when nothing wraps.
    let lastContentEnd: UInt32
    /// Width of the widest hard line when nothing wraps.
    public private(set) var naturalWidth: Int = 0

    @usableFromInline let storage: PreparedStorage
    /// No tab and no mandatory break: at any width of at least `naturalWidth` the layout is one
    /// line, known without walking the segments. (Declared after `storage`, it takes a byte of
    /// that field's tail padding instead of a word of its own.)
    @usableFromInline var isOneLineWithoutTabs = false

    /// Segments, measures and classifies `text`. The only step that looks at Unicode data.
    ///
    /// The text's UTF-8 form must be shorter than 4 GiB (offsets are stored in 32 bits).
    @inlinable
    public init(_ text: String, options: TextOptions = TextOptions()) {
        self = preparedText(text, options: options)
    }

    /// `allowASCIIPath: false` forces the general path, `allowRuns: false` makes that path feed
    /// every scalar to both machines, and `allowInlineStorage: false` puts even a one-segment
    /// text in an allocation, so tests can compare the fast paths and representations with them.
    @inline(__always)
    init(_ text: String, options: TextOptions, allowASCIIPath: Bool, allowRuns: Bool = true,
         allowInlineStorage: Bool = true) {
        var text = text
        var parts = Parts()
        // (Bridged or foreign strings are made contiguous UTF-8 once, first.)
        text.withUTF8Elements { bytes in
            Self.prepare(bytes, options: options, allowASCIIPath: allowASCIIPath, allowRuns: allowRuns,
                         allowInlineStorage: allowInlineStorage, into: &parts)
        }
        self.text = text
        self.options = options
        self.storedScalarCount = UInt32(truncatingIfNeeded: parts.scalarCount)
        self.storage = parts.storage
        lastContentEnd = UInt32(truncatingIfNeeded: parts.hardLines.lastContentEnd)
        naturalWidth = parts.hardLines.widest
        isOneLineWithoutTabs = parts.hardLines.oneLine && !parts.hardLines.hasTab
    }

    /// What the pass over a text produces.
    struct Parts {
        var storage = PreparedStorage()
        var scalarCount = 0
        var hardLines: HardLines = (0, true, false, 0)
    }

    /// Texts up to this many UTF-8 bytes prepare in 1 KiB of scratch space on the stack (the
    /// stack cannot be promised for more: a larger block may come from the heap): 640 bytes
    /// for records and 384 for the map, which chat text of that length stays well within (about
    /// one record byte for every two of text). A text that needs more moves that buffer onto
    /// the heap.
    static let stackScratchLimit = 640
    static let stackScratchBytes = 1024
    static let stackScratchRecordBytes = 640

    /// The one pass over `bytes`, with scratch space on the stack for a short text.
    static func prepare(_ bytes: ElementsView<UInt8>, options: TextOptions, allowASCIIPath: Bool,
                        allowRuns: Bool, allowInlineStorage: Bool, into parts: inout Parts) {
        precondition(bytes.count < Int(UInt32.max), "PreparedText: text of \(bytes.count) UTF-8 bytes exceeds the 4 GiB limit")
        func run(_ preparer: consuming TextPreparer) {
            let asciiPrefix = allowASCIIPath ? bytes.asciiPrefixLength() : 0
            if allowASCIIPath && asciiPrefix == bytes.count {
                preparer.prepareASCII(bytes)
            } else {
                preparer.prepare(bytes, asciiPrefix: asciiPrefix)
            }
            parts.hardLines = preparer.hardLines
            parts.scalarCount = preparer.scalarCount
            parts.storage = preparer.takeStorage(allowInline: allowInlineStorage)
        }
        if bytes.count <= stackScratchLimit {
            // Record bytes, then map bytes; a text that outgrows either grows it onto the heap.
            withStackScratch(recordBytes: stackScratchRecordBytes, mapBytes: stackScratchBytes - stackScratchRecordBytes) {
                records, graphemeMap in
                run(TextPreparer(options: options, allowRuns: allowRuns, records: records, graphemeMap: graphemeMap))
            }
            return
        }
        run(TextPreparer(options: options, utf8Count: bytes.count, allowRuns: allowRuns))
    }

    /// The segments, as a copy, for tests.
    var segments: [PreparedSegment] {
        storage.withSegments { reader, _ in (0..<reader.count).map { _ in reader.next().segment } }
    }
    /// The grapheme map, as a copy, for tests.
    var graphemeMap: [UInt8] { storage.withSegments { _, map in map.elements } }
    /// Pairs (segment index, offset of its entries in `graphemeMap`) for the segments that have
    /// entries, as the preparer recorded them, for tests.
    var graphemeMapIndex: [UInt32] {
        storage.withSegments { reader, _ in
            (0..<reader.count).flatMap { index -> [UInt32] in
                let (segment, offset) = reader.next()
                return segment.hasGraphemeMap ? [UInt32(index), UInt32(offset)] : []
            }
        }
    }

    typealias HardLines = (widest: Int, oneLine: Bool, hasTab: Bool, lastContentEnd: Int)

    /// Line count and widest line at `width` cells. Arithmetic only; allocates nothing.
    ///
    /// Inlinable, so a caller in another module (the benchmarks, the layout cache) tests the
    /// one-line case where the value lies, in its array, instead of copying the value (a
    /// retain and a release) into an out-of-line call for every text. The walk stays out of
    /// line.
    /// (The one-line test is `onlyLine(width:)`'s, spelled out with fields a client may read.)
    @inlinable
    public func measure(width: Int) -> TextMetrics {
        if isOneLineWithoutTabs && naturalWidth <= max(1, width) {
            return TextMetrics(lineCount: 1, widestLine: naturalWidth)
        }
        return measureWalkingSegments(width: width)
    }

    /// `measure(width:)` when the segments must be walked. It reads the value and writes and
    /// releases nothing outside its own frame; saying so (`readonly`) lets a caller in another
    /// module pass the value where it lies instead of copying it (a retain and a release) first.
    @usableFromInline @_effects(readonly)
    func measureWalkingSegments(width: Int) -> TextMetrics {
        var sink = MetricsSink()
        layOut(width: width, into: &sink)
        return TextMetrics(lineCount: sink.lineCount, widestLine: sink.widestLine)
    }

    /// The one line of a text with no tab and no mandatory break that fits in `width` cells,
    /// where first-fit never breaks: from the start to the end of the last content, as wide as
    /// the text. Nil when the segments must be walked.
    @inline(__always)
    func onlyLine(width: Int) -> TextLine? {
        guard isOneLineWithoutTabs && naturalWidth <= max(1, width) else { return nil }
        return TextLine(utf8Range: 0..<Int(lastContentEnd), width: naturalWidth)
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
        if let line = onlyLine(width: width) { return TextLayout(lines: [line], widestLine: line.width) }
        var sink = LinesSink()
        let segmentCount = Int(storage.segmentCount)
        sink.lines.reserveCapacity(segmentCount < 8 ? segmentCount + 1 : 8)
        layOut(width: width, into: &sink)
        return TextLayout(lines: sink.lines, widestLine: sink.widestLine)
    }

    /// Bytes the prepared form holds beyond the text itself: the segment, grapheme-map and index
    /// storage (by capacity) plus the fixed fields of this value.
    public var memoryFootprint: Int {
        MemoryLayout<PreparedText>.size + storage.byteCount
    }

    /// Number of segments (runs between break opportunities).
    package var segmentCount: Int { Int(storage.segmentCount) }
}

/// `PreparedText(text, options:)`, out of line. A free function, because the compiler gives an
/// initializer a thunk (its metatype argument is unused) that copies the result a second time,
/// right after it was written field by field: a store-forwarding stall on every text.
@usableFromInline
func preparedText(_ text: String, options: TextOptions) -> PreparedText {
    PreparedText(text, options: options, allowASCIIPath: true)
}

/// Wraps `text` at `width` cells: first-fit over UAX #14 break opportunities.
/// See `PreparedText.layout(width:)` for the rules.
public func wrap(_ text: String, width: Int, options: TextOptions = TextOptions()) -> TextLayout {
    PreparedText(text, options: options).layout(width: width)
}
