/// The one pass over a text's scalars that `PreparedText` is built from.
///
/// It decodes UTF-8 by hand, looks each scalar up once, and runs three machines side by side:
/// grapheme boundaries (UAX #29), grapheme widths, and line breaking (UAX #14). A line-break
/// opportunity that falls inside a grapheme cluster is dropped (the tailoring UAX #14 suggests),
/// so a line never splits a cluster. Completed graphemes are folded into the segment being built.
@usableFromInline
struct TextPreparer {
    enum GraphemeKind { case content, space, tab, lineBreak }

    let options: TextOptions
    var segments: PreparerBuffer<PreparedSegment>
    var graphemeMap: PreparerBuffer<UInt8>
    /// Pairs (segment index, offset of its entries in `graphemeMap`), by segment index.
    var graphemeMapIndex: PreparerBuffer<UInt32>
    var scalarCount = 0

    // The segment being built.
    var contentWidth = 0
    var hangStart = -1
    var hangWidth = 0
    var breakLength = 0
    var hasTab = false
    var graphemeCount = 0
    /// Every grapheme so far is one byte and one cell (no map entries written yet).
    var simple = true
    var segmentMapStart = 0
    // The same three, as they were where the hang began (the hang is not content).
    var contentGraphemeCount = 0
    var contentSimple = true
    var contentMapEnd = 0

    // The grapheme being read.
    var graphemeStart = 0
    var graphemeKind = GraphemeKind.content
    var graphemeWidth = GraphemeWidth()

    /// A preparer for a text of `utf8Count` bytes. Call `takeResults()` once it is done.
    init(options: TextOptions, utf8Count: Int) {
        self.options = options
        self.graphemeWidth = GraphemeWidth(options: options)
        // Sized so that ideographic text (3 bytes and one segment per character) and non-Latin
        // letters (2 bytes and one map entry each) rarely grow; the final arrays are exact.
        segments = PreparerBuffer(capacity: utf8Count / 3 + 4)
        graphemeMap = PreparerBuffer(capacity: utf8Count / 2 + 8)
        graphemeMapIndex = PreparerBuffer(capacity: utf8Count / 8 + 4)
    }

    /// The segments, grapheme map and its index as exact-size arrays; frees the scratch storage.
    mutating func takeResults() -> (segments: [PreparedSegment], graphemeMap: [UInt8], graphemeMapIndex: [UInt32]) {
        (segments.takeArray(), graphemeMap.takeArray(), graphemeMapIndex.takeArray())
    }

    // MARK: The general path

    mutating func prepare(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let count = bytes.count
        let asciiInfos = ASCIIInfo.table
        var lineBreaker = LineBreaker()
        var graphemeBreaker = GraphemeBreaker()
        var index = 0
        var previousWasPlainLetter = false
        while index < count {
            let (scalar, length) = decodeScalar(base, at: index)
            let info = scalar < 0x80 ? asciiInfos[Int(scalar)] : UnicodeTables.info(scalar)
            let plainLetter = Self.isPlainLetter(info)
            if plainLetter && previousWasPlainLetter && lineBreaker.continuesAlphabeticRun(info) {
                // A letter after a letter: a new grapheme, no break opportunity, and the grapheme
                // machine's state is the same after any plain letter, so it need not be fed.
                finishGrapheme(end: index)
                graphemeStart = index
                graphemeKind = .content
                graphemeWidth.start(scalar, info)
                scalarCount &+= 1
                index &+= length
                continue
            }
            previousWasPlainLetter = plainLetter
            let startsGrapheme = graphemeBreaker.step(info)
            var nextIsNumber = false
            if lineBreaker.needsLookahead(for: info) {
                nextIsNumber = Self.nextIsNumber(base, from: index &+ length, count: count)
            }
            let opportunity = lineBreaker.opportunity(before: info, nextIsNumber: nextIsNumber)
            if startsGrapheme {
                if index > 0 {
                    finishGrapheme(end: index)
                    if opportunity != .prohibited { finishSegment(end: index, mandatory: opportunity == .mandatory) }
                }
                startGrapheme(at: index, scalar, info)
            } else {
                extendGrapheme(scalar, info)
            }
            scalarCount &+= 1
            index &+= length
        }
        finish(end: count)
    }

    /// Line-break class AL, grapheme-break property Other, one cell, and none of the flags that
    /// any rule looks at (ambiguous, control, pictographic, emoji, East Asian F/W/H, modifier).
    @inline(__always)
    static func isPlainLetter(_ info: ScalarInfo) -> Bool {
        let mask: UInt32 = 0xF | 0x3F << 4 | 0x3 << 10 | 0x7F << 12
        let pattern = UInt32(LineBreakClass.al.rawValue) << 4 | 1 << 10
        return info.raw & mask == pattern
    }

    /// LB25's lookahead: is the next scalar that is not CM or ZWJ of class NU?
    static func nextIsNumber(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Bool {
        var index = start
        while index < count {
            let (scalar, length) = decodeScalar(base, at: index)
            let lineBreak = UnicodeTables.info(scalar).lineBreakClass
            if lineBreak != .cm && lineBreak != .zwj { return lineBreak == .nu }
            index &+= length
        }
        return false
    }

    // MARK: The ASCII path

    /// Same result as `prepare(_:)` for text whose bytes are all below 0x80, without UTF-8
    /// decoding, the two-stage table or the grapheme machine: every ASCII byte is its own
    /// grapheme except CR LF.
    mutating func prepareASCII(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let count = bytes.count
        let infos = ASCIIInfo.table
        var lineBreaker = LineBreaker()
        var previousByte: UInt8 = 0
        var previousWasPlainLetter = false
        for index in 0..<count {
            let byte = base[index]
            let info = infos[Int(byte)]
            let plainLetter = Self.isPlainLetter(info)
            if plainLetter && previousWasPlainLetter && lineBreaker.continuesAlphabeticRun(info) {
                finishGrapheme(end: index)
                graphemeStart = index
                graphemeKind = .content
                graphemeWidth.start(UInt32(byte), info)
                previousByte = byte
                continue
            }
            previousWasPlainLetter = plainLetter
            var nextIsNumber = false
            if lineBreaker.needsLookahead(for: info) {
                nextIsNumber = Self.nextIsNumber(base, from: index &+ 1, count: count)
            }
            let opportunity = lineBreaker.opportunity(before: info, nextIsNumber: nextIsNumber)
            if index == 0 {
                startGrapheme(at: 0, UInt32(byte), info)
            } else if byte == 0x0A && previousByte == 0x0D {
                extendGrapheme(UInt32(byte), info)
            } else {
                finishGrapheme(end: index)
                if opportunity != .prohibited { finishSegment(end: index, mandatory: opportunity == .mandatory) }
                startGrapheme(at: index, UInt32(byte), info)
            }
            previousByte = byte
        }
        scalarCount = count
        finish(end: count)
    }

    // MARK: Graphemes and segments

    @inline(__always)
    mutating func startGrapheme(at offset: Int, _ scalar: UInt32, _ info: ScalarInfo) {
        graphemeStart = offset
        graphemeWidth.start(scalar, info)
        if scalar == 0x20 {
            graphemeKind = .space
        } else if scalar == 0x09 {
            graphemeKind = .tab
        } else {
            switch info.lineBreakClass {
            case .bk, .cr, .lf, .nl: graphemeKind = .lineBreak
            default: graphemeKind = .content
            }
        }
    }

    @inline(__always)
    mutating func extendGrapheme(_ scalar: UInt32, _ info: ScalarInfo) {
        graphemeWidth.extend(scalar, info)
        if graphemeKind != .lineBreak { graphemeKind = .content }  // a space with a mark is content
    }

    @inline(__always)
    mutating func finishGrapheme(end: Int) {
        let length = end &- graphemeStart
        var width = graphemeWidth.width
        switch graphemeKind {
        case .lineBreak:
            breakLength &+= length
            return
        case .space, .tab:
            if hangStart < 0 {
                hangStart = graphemeStart
                contentGraphemeCount = graphemeCount
                contentSimple = simple
                contentMapEnd = graphemeMap.count
            }
            if graphemeKind == .tab {
                hasTab = true
                width = 0
            } else {
                hangWidth &+= width
            }
        case .content:
            if contentWidth &+ hangWidth &+ width > PreparedSegment.maximumWidth && graphemeCount > 0 {
                finishSegment(end: graphemeStart, mandatory: false)
            }
            if hangStart >= 0 {
                contentWidth &+= hangWidth
                hangStart = -1
                hangWidth = 0
            }
            contentWidth &+= width
        }
        graphemeCount &+= 1
        let isTab = graphemeKind == .tab
        if simple {
            if length == 1 && width == 1 { return }
            simple = false
            for _ in 1..<graphemeCount { graphemeMap.append(1 << 6 | 1) }
        }
        if length < 64 && width <= 2 && !isTab {
            graphemeMap.append(UInt8(truncatingIfNeeded: width << 6 | length))
        } else {
            GraphemeMap.append(length: length, width: width, isTab: isTab, to: &graphemeMap)
        }
    }

    mutating func finishSegment(end: Int, mandatory: Bool) {
        let hangEnd = end &- breakLength
        let inHang = hangStart >= 0
        let contentEnd = inHang ? hangStart : hangEnd
        let graphemes = inHang ? contentGraphemeCount : graphemeCount
        let graphemesSimple = inHang ? contentSimple : simple
        var flags: UInt32 = mandatory ? PreparedSegment.mandatoryBit : 0
        if graphemes <= 1 { flags |= PreparedSegment.singleGraphemeBit }
        if hasTab {
            // Tabs measure by column at layout time, which walks every grapheme, hang included.
            flags |= PreparedSegment.tabBit | PreparedSegment.graphemeMapBit
            recordMap()
        } else if graphemes > 1 && !graphemesSimple {
            flags |= PreparedSegment.graphemeMapBit
            let extra = graphemeMap.count &- contentMapEnd(inHang)
            if extra > 0 { graphemeMap.removeLast(extra) }
            recordMap()
        } else if graphemeMap.count > segmentMapStart {
            graphemeMap.removeLast(graphemeMap.count &- segmentMapStart)
        }
        segments.append(PreparedSegment(
            contentEnd: contentEnd, hangEnd: hangEnd, width: contentWidth, breakLength: breakLength, flags: flags))
        contentWidth = 0
        hangStart = -1
        hangWidth = 0
        breakLength = 0
        hasTab = false
        graphemeCount = 0
        simple = true
        segmentMapStart = graphemeMap.count
    }

    @inline(__always)
    func contentMapEnd(_ inHang: Bool) -> Int { inHang ? contentMapEnd : graphemeMap.count }

    @inline(__always)
    mutating func recordMap() {
        graphemeMapIndex.append(UInt32(truncatingIfNeeded: segments.count))
        graphemeMapIndex.append(UInt32(truncatingIfNeeded: segmentMapStart))
    }

    mutating func finish(end: Int) {
        finishGrapheme(end: end)
        finishSegment(end: end, mandatory: breakLength > 0)
    }
}

/// Table entries of the 128 ASCII scalars, looked up once for the ASCII path.
enum ASCIIInfo {
    static let table: [ScalarInfo] = (0..<128).map { UnicodeTables.info(UInt32($0)) }
}
