import Synchronization

/// The one pass over a text's scalars that `PreparedText` is built from.
///
/// It decodes UTF-8 by hand, looks each scalar up once, and runs three machines side by side:
/// grapheme boundaries (UAX #29), grapheme widths, and line breaking (UAX #14). A line-break
/// opportunity that falls inside a grapheme cluster is dropped (the tailoring UAX #14 suggests),
/// so a line never splits a cluster. Completed graphemes are folded into the segment being built.
/// Where the machines' answer is known from the scalar and a little state (runs of letters and
/// words, marks on letters, spaces, pairs the UAX #14 table decides alone, runs of ideographs),
/// the loop writes that answer directly and leaves the machines as feeding them would have.
@usableFromInline
struct TextPreparer {
    enum GraphemeKind { case content, space, tab, lineBreak }

    let options: TextOptions
    /// Read once per text.
    let tables = PreparerTables.current
    /// Letter and wide-character runs may skip the per-scalar machines (tests turn this off to
    /// compare with the scalar-by-scalar path).
    let allowRuns: Bool
    /// `plainLetterMask`, less the ambiguous bit when ambiguous scalars measure one cell.
    let letterMask: UInt32
    /// The segments written so far, as `PreparedStorage` codes them.
    var records: PreparerBuffer<UInt8>
    var graphemeMap: PreparerBuffer<UInt8>
    var scalarCount = 0
    var segmentCount = 0
    /// UTF-8 offset where the next segment starts (where the last one's break characters end).
    var segmentStart = 0

    // What `measure(width: Int.max)` finds, kept as segments are written: the open hard line's
    // width, the hang after its last segment (it counts only if more follows), the widest
    // finished hard line, whether a mandatory break ended one, whether the text holds a tab,
    // and where the last segment's content ends.
    var hardLineWidth = 0
    var hardLineHang = 0
    var widestHardLine = 0
    var sawMandatoryBreak = false
    var sawTab = false
    var lastContentEnd = 0
    // Tabs, which the figures above count as no cells in content and one in a hang: the cells
    // they take beyond that on the open hard line, in the hang after its last segment, and, in
    // the segment being built, in its content and its hang (with the tabs in that hang). With no
    // wrapping, a tab's column is the sum of everything before it on its hard line.
    var lineTabExtra = 0
    var hangTabExtra = 0
    var contentTabCells = 0
    var openHangTabCells = 0
    var openHangTabs = 0

    // The segment being built.
    var contentWidth = 0
    var hangStart = -1
    var hangWidth = 0
    var breakLength = 0
    var hasTab = false
    var graphemeCount = 0
    /// Every content grapheme so far is one cell and `unitLength` bytes, and every grapheme of
    /// the hang is a space (no map entries written yet): layout finds the graphemes by division.
    var simple = true
    /// The UTF-8 length of each content grapheme while `simple` (0 before the first).
    var unitLength = 0
    var segmentMapStart = 0
    // The same three, as they were where the hang began (the hang is not content).
    var contentGraphemeCount = 0
    var contentSimple = true
    var contentMapEnd = 0

    // The grapheme being read.
    var graphemeStart = 0
    var graphemeKind = GraphemeKind.content
    var graphemeWidth = GraphemeWidth()

    /// A preparer for a text of `utf8Count` bytes, with scratch storage on the heap. Call
    /// `takeStorage()` once it is done.
    init(options: TextOptions, utf8Count: Int, allowRuns: Bool = true) {
        // Sized so that words (a 3-byte record per few bytes of text) and non-Latin letters
        // (2 bytes and one map entry each) rarely grow; the final storage is exact.
        self.init(options: options, allowRuns: allowRuns,
                  records: PreparerBuffer(capacity: utf8Count + 8),
                  graphemeMap: PreparerBuffer(capacity: utf8Count / 2 + 8))
    }

    /// A preparer whose scratch storage starts in the given buffers (which grow onto the heap
    /// if they must).
    init(options: TextOptions, allowRuns: Bool, records: PreparerBuffer<UInt8>, graphemeMap: PreparerBuffer<UInt8>) {
        self.options = options
        self.allowRuns = allowRuns
        letterMask = options.ambiguousWidth == 2 ? Self.plainLetterMask : Self.plainLetterMask & ~Self.ambiguousBit
        self.graphemeWidth = GraphemeWidth(options: options)
        self.records = records
        self.graphemeMap = graphemeMap
    }

    /// The records and grapheme map in one exact-size allocation (or inline, when
    /// `allowInline` and they fit); frees the scratch storage.
    mutating func takeStorage(allowInline: Bool = true) -> PreparedStorage {
        defer {
            records.release()
            graphemeMap.release()
        }
        return PreparedStorage(records: records.elements, segmentCount: segmentCount, graphemeMap: graphemeMap.elements,
                               allowInline: allowInline)
    }

    /// The widest hard line, whether the text is one hard line, whether it holds a tab, and
    /// where the last content ends. Valid once finished.
    var hardLines: PreparedText.HardLines {
        (max(widestHardLine, hardLineWidth &+ lineTabExtra), !sawMandatoryBreak, sawTab, lastContentEnd)
    }

    // MARK: The scalar loop

    /// Prepares any valid UTF-8.
    mutating func prepare(_ bytes: UnsafeBufferPointer<UInt8>) {
        prepare(bytes, asciiOnly: false)
    }

    /// Same result as `prepare(_:)` for text whose bytes are all below 0x80: the same loop, with
    /// UTF-8 decoding and the two-stage table compiled out.
    mutating func prepareASCII(_ bytes: UnsafeBufferPointer<UInt8>) {
        prepare(bytes, asciiOnly: true)
    }

    /// The one loop. Common cases take a shortcut that gives exactly what feeding the scalar to
    /// both machines would (tests compare the two with `allowRuns: false`): runs of plain letters
    /// and of ideographs, marks on letters, spaces, and scalars whose break the pair table alone
    /// decides. Everything else goes through the general step below them.
    @inline(always)
    mutating func prepare(_ bytes: UnsafeBufferPointer<UInt8>, asciiOnly: Bool) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let count = bytes.count
        let tables = self.tables
        let plainASCIILetters = tables.plainLetters
        // The runs assume grapheme-cluster widths (a mark keeps a letter one cell, an emoji is
        // two); per code point, only ASCII, whose widths the profiles share, may take them.
        let runs = allowRuns && (asciiOnly || options.widthProfile == .unicode)
        var lineBreaker = LineBreaker(pairs: tables.pairs)
        var graphemeBreaker = GraphemeBreaker()
        var index = 0
        var previousWasPlainLetter = false
        while index < count {
            let (scalar, length) = asciiOnly ? (UInt32(base[index]), 1) : decodeScalar(base, at: index)
            let info = tables.info(scalar)
            let plainLetter = isPlainLetter(info)
            if runs {
                if plainLetter && previousWasPlainLetter && lineBreaker.continuesAlphabeticRun(info) {
                    // A letter after a letter: a new grapheme, no break opportunity, and the grapheme
                    // machine's state is the same after any plain letter, so it need not be fed.
                    finishGrapheme(end: index)
                    let run = readLetterRun(base, count: count, start: index, scalar, length, info,
                                            plainASCIILetters: plainASCIILetters, tables: tables)
                    lineBreaker.endLetterRun(last: run.lastClass, beforeLast: run.afterSpaces ? UInt32(LineBreakClass.sp.rawValue) : run.beforeLastClass)
                    index = run.end
                    continue
                }
                if previousWasPlainLetter && Self.isPlainMark(info) {
                    // A mark on a plain letter: it joins the grapheme (GB9, GB9a) and the letter's
                    // unit (LB9), and leaves both machines as a plain letter does.
                    extendGrapheme(scalar, info)
                    scalarCount &+= 1
                    index &+= length
                    continue
                }
                if index > 0 && !graphemeBreaker.joinsOther {
                    // A space, or a scalar whose break the pair table alone decides, that starts
                    // a grapheme: skip the general decision.
                    if scalar == 0x20 && lineBreaker.continuesWithSpace(info) {
                        graphemeBreaker.assumeOther()
                        finishGrapheme(end: index)
                        graphemeStart = index
                        graphemeKind = .space
                        graphemeWidth.start(scalar, info)
                        previousWasPlainLetter = false
                        scalarCount &+= 1
                        index &+= 1
                        continue
                    }
                    if Self.isSimple(info) && !graphemeBreaker.joins(info),
                       let opportunity = lineBreaker.simpleOpportunity(before: info) {
                        graphemeBreaker.assume(info)
                        finishGrapheme(end: index)
                        if opportunity != .prohibited { finishSegment(end: index, mandatory: false) }
                        graphemeStart = index  // content: no break or space class gets here
                        graphemeKind = .content
                        graphemeWidth.start(scalar, info)
                        previousWasPlainLetter = plainLetter
                        scalarCount &+= 1
                        if Self.isPlainWide(info) {
                            index = readWideRun(base, count: count, start: index, info, length,
                                                lineBreaker: &lineBreaker, graphemeBreaker: &graphemeBreaker)
                        } else {
                            index &+= length
                        }
                        continue
                    }
                }
            }
            previousWasPlainLetter = plainLetter
            let startsGrapheme = graphemeBreaker.step(info)
            var nextIsNumber = false
            if lineBreaker.needsLookahead(for: info) {
                nextIsNumber = self.nextIsNumber(base, from: index &+ length, count: count)
            }
            let opportunity = lineBreaker.opportunity(before: info, nextIsNumber: nextIsNumber)
            scalarCount &+= 1
            if startsGrapheme {
                if index > 0 {
                    finishGrapheme(end: index)
                    if opportunity != .prohibited { finishSegment(end: index, mandatory: opportunity == .mandatory) }
                }
                startGrapheme(at: index, scalar, info)
                if Self.isPlainWide(info) && runs {
                    index = readWideRun(base, count: count, start: index, info, length,
                                        lineBreaker: &lineBreaker, graphemeBreaker: &graphemeBreaker)
                    continue
                }
            } else {
                extendGrapheme(scalar, info)
            }
            index &+= length
        }
        finish(end: count)
    }

    // MARK: Runs

    /// Reads the plain letters that follow the one at `start` (whose line-break step is done and
    /// whose previous grapheme is finished): each finishes the one before as a one-cell grapheme,
    /// with no break opportunity between them (LB28) and nothing for either machine to track.
    /// Marks on a letter that keep it one cell wide are read into its grapheme (up to 63 bytes).
    /// Spaces followed by another plain letter are read too: they hang at the end of the word's
    /// segment and a line may break after them (LB18, AL SP* ÷ AL), so prose stays in this loop.
    /// Leaves the last letter as the grapheme being read and returns the offset after it,
    /// whether spaces came right before that letter, and the line-break classes (AL or HL) of
    /// the last letter and the one before it (for LB21a and LB21b after the run).
    @inline(always)
    mutating func readLetterRun(_ base: UnsafePointer<UInt8>, count: Int, start: Int, _ scalar: UInt32, _ length: Int,
                                _ info: ScalarInfo, plainASCIILetters: (UInt64, UInt64), tables: PreparerTables)
        -> (end: Int, afterSpaces: Bool, lastClass: UInt32, beforeLastClass: UInt32) {
        let (plainLow, plainHigh) = plainASCIILetters
        let alphabetic = UInt32(LineBreakClass.al.rawValue)
        var lastClass = (info.raw &>> 4) & 0x3F
        var beforeLastClass = alphabetic  // unused unless another letter follows
        var current = start
        var currentLength = length
        var next = start &+ length
        var scalars = 1
        var afterSpaces = false
        // At the widest segment the general path splits it; the run stops there and lets it.
        while next < count && contentWidth < PreparedSegment.maximumWidth {
            let lead = base[next]
            var nextLength = 1
            if lead < 0x80 {
                let bits = lead < 64 ? plainLow : plainHigh
                if (bits &>> UInt64(lead & 63)) & 1 == 0 {
                    // (A segment with a tab keeps map entries for its hang: the general path.)
                    guard lead == 0x20 && !hasTab else { break }
                    var wordStart = next &+ 1
                    while wordStart < count && base[wordStart] == 0x20 { wordStart &+= 1 }
                    guard wordStart < count else { break }
                    let wordLead = base[wordStart]
                    var wordLength = 1
                    var wordClass = alphabetic
                    if wordLead < 0x80 {
                        let wordBits = wordLead < 64 ? plainLow : plainHigh
                        guard (wordBits &>> UInt64(wordLead & 63)) & 1 != 0 else { break }
                    } else {
                        let (wordScalar, decodedLength) = decodeScalar(base, at: wordStart)
                        let wordInfo = tables.info(wordScalar)
                        guard isPlainLetter(wordInfo) else { break }
                        wordLength = decodedLength
                        wordClass = (wordInfo.raw &>> 4) & 0x3F
                    }
                    finishPlainLetter(length: currentLength)
                    finishWordSegment(contentEnd: next, end: wordStart)
                    scalars &+= wordStart &- next &+ 1
                    current = wordStart
                    currentLength = wordLength
                    next = wordStart &+ wordLength
                    afterSpaces = true
                    lastClass = wordClass
                    continue
                }
                beforeLastClass = lastClass
                lastClass = alphabetic
            } else {
                let (nextScalar, decodedLength) = decodeScalar(base, at: next)
                let nextInfo = tables.info(nextScalar)
                if Self.isNarrowPlainMark(nextInfo) && currentLength &+ decodedLength < 64
                    && nextScalar != 0xFE0F && nextScalar != 0x20E3 {
                    // A mark on the letter (Devanagari, Thai): it joins the grapheme (GB9, GB9a)
                    // and the letter's unit (LB9), leaves both machines as the letter did, and
                    // keeps the grapheme one cell wide (VS16 and the keycap mark may widen it).
                    currentLength &+= decodedLength
                    next &+= decodedLength
                    scalars &+= 1
                    continue
                }
                guard isPlainLetter(nextInfo) else { break }
                nextLength = decodedLength
                beforeLastClass = lastClass
                lastClass = (nextInfo.raw &>> 4) & 0x3F
            }
            finishPlainLetter(length: currentLength)
            current = next
            currentLength = nextLength
            next &+= nextLength
            scalars &+= 1
            afterSpaces = false
        }
        scalarCount &+= scalars
        let (lastScalar, _) = decodeScalar(base, at: current)
        graphemeStart = current
        graphemeKind = .content
        graphemeWidth.start(lastScalar, tables.info(lastScalar))
        return (next, afterSpaces, lastClass, beforeLastClass)
    }

    /// `finishSegment(end:mandatory:)` for a segment of finished content graphemes followed by
    /// the spaces `contentEnd..<end` (which hang, and whose graphemes are one byte and one cell,
    /// so they need no map entries), with no tab and no break characters.
    @inline(__always)
    mutating func finishWordSegment(contentEnd: Int, end: Int) {
        var flags: UInt32 = 0
        var mapBytes = 0
        if graphemeCount <= 1 {
            flags = PreparedSegment.singleGraphemeBit
            graphemeMap.removeLast(graphemeMap.count &- segmentMapStart)
        } else if !simple {
            flags = PreparedSegment.graphemeMapBit
            mapBytes = graphemeMap.count &- segmentMapStart
        }
        writeSegment(contentEnd: contentEnd, hangEnd: end, width: contentWidth, breakLength: 0, flags: flags, mapBytes: mapBytes)
        contentWidth = 0
        graphemeCount = 0
        simple = true
        unitLength = 0
        segmentMapStart = graphemeMap.count
    }

    /// Finishes the grapheme being read, known to be one plain letter of `length` bytes, with the
    /// hang already closed and the segment below its widest.
    @inline(__always)
    mutating func finishPlainLetter(length: Int) {
        contentWidth &+= 1
        graphemeCount &+= 1
        if simple {
            if length == unitLength { return }
            if unitLength == 0 && length < 64 {
                unitLength = length
                return
            }
            simple = false
            writeUniformEntries(before: graphemeCount &- 1)
        }
        graphemeMap.append(UInt8(truncatingIfNeeded: 1 << 6 | length))
    }

    /// Reads the run of plain wide scalars (ideographs, kana, Hangul syllables, emoji) that starts with
    /// the one at `start`, which the general path has just fed to both machines and started as a
    /// grapheme. Between two of them a grapheme always ends and a line may always break (LB31),
    /// so each one but the last becomes a one-grapheme segment of width 2, written directly.
    /// Leaves both machines and the grapheme being read as if the general path had read the
    /// run, and returns the offset after it.
    @inline(__always)
    mutating func readWideRun(_ base: UnsafePointer<UInt8>, count: Int, start: Int, _ info: ScalarInfo, _ length: Int,
                              lineBreaker: inout LineBreaker, graphemeBreaker: inout GraphemeBreaker) -> Int {
        var current = start
        var currentInfo = info
        var beforeCurrent = lineBreaker.beforePrevious
        var next = start &+ length
        var firstDone = false
        // The one-grapheme segments written so far and not yet stored: `runCount` of them, each
        // `runUnitLength` bytes, ending at `current`. Stored as one run record.
        var runCount = 0
        var runUnitLength = 0
        while next < count {
            let (nextScalar, nextLength) = decodeScalar(base, at: next)
            let nextInfo = tables.info(nextScalar)
            guard Self.isPlainWide(nextInfo) else { break }
            if firstDone {
                let unitLength = next &- current
                if runCount > 0 && (unitLength != runUnitLength || runCount >= PreparedSegment.maximumRunCount) {
                    appendRun(end: current, count: runCount, unitLength: runUnitLength)
                    runCount = 0
                }
                runUnitLength = unitLength
                runCount &+= 1
            } else {
                // The segment may hold more than the first scalar ("「漢"): finish it in full.
                finishGrapheme(end: next)
                finishSegment(end: next, mandatory: false)
                firstDone = true
            }
            beforeCurrent = currentInfo.lineBreakClass
            current = next
            currentInfo = nextInfo
            next &+= nextLength
            scalarCount &+= 1
        }
        if runCount > 0 { appendRun(end: current, count: runCount, unitLength: runUnitLength) }
        if firstDone {
            let (lastScalar, _) = decodeScalar(base, at: current)
            graphemeStart = current
            graphemeKind = .content
            graphemeWidth.start(lastScalar, currentInfo)
            lineBreaker.assumeUnit(currentInfo, after: beforeCurrent)
            _ = graphemeBreaker.step(currentInfo)
        }
        return next
    }

    /// Stores `count` one-grapheme, two-cell segments of `unitLength` bytes each (3 or 4), with
    /// no hang and a break allowed after each, that end at `end`: one run record, or a plain
    /// segment for a run of one.
    @inline(__always)
    mutating func appendRun(end: Int, count: Int, unitLength: Int) {
        if count == 1 {
            writeSegment(contentEnd: end, hangEnd: end, width: 2, breakLength: 0, flags: PreparedSegment.singleGraphemeBit, mapBytes: 0)
        } else {
            records.append(PreparedStorage.runFlag | (unitLength == 4 ? PreparedStorage.bit7 : 0))
            records.appendLEB128(count)
            segmentCount &+= 1
            segmentStart = end
            lastContentEnd = end
            hardLineWidth &+= hardLineHang &+ count &* 2
            hardLineHang = 0
            if _slowPath(sawTab) {
                lineTabExtra &+= hangTabExtra
                hangTabExtra = 0
            }
        }
    }

    /// Grapheme-break property Other, LV or LVT (Hangul syllables), not Extended_Pictographic,
    /// and a line-break class that needs no special handling (none of BK, CR, LF, NL, ZW, SP, CM,
    /// ZWJ): whether a grapheme starts before it is the pair rules' answer (`joins`), and the
    /// pair table decides its break.
    @inline(__always)
    static func isSimple(_ info: ScalarInfo) -> Bool {
        let special: UInt64 = 1 << LineBreakClass.bk.rawValue | 1 << LineBreakClass.cr.rawValue
            | 1 << LineBreakClass.lf.rawValue | 1 << LineBreakClass.nl.rawValue | 1 << LineBreakClass.zw.rawValue
            | 1 << LineBreakClass.sp.rawValue | 1 << LineBreakClass.cm.rawValue | 1 << LineBreakClass.zwj.rawValue
        let property = info.raw & 0xF
        guard info.raw & (1 << 14) == 0 && (property == UInt32(GraphemeBreakProperty.other.rawValue)
            || property == UInt32(GraphemeBreakProperty.lv.rawValue) || property == UInt32(GraphemeBreakProperty.lvt.rawValue))
        else { return false }
        return (special &>> UInt64(info.lineBreakClass.rawValue)) & 1 == 0
    }

    /// Line-break class CM, grapheme-break property Extend or SpacingMark, not
    /// Extended_Pictographic: a combining mark, which joins whatever plain letter precedes it.
    @inline(__always)
    static func isPlainMark(_ info: ScalarInfo) -> Bool {
        guard info.raw & (0x3F << 4 | 1 << 14) == UInt32(LineBreakClass.cm.rawValue) << 4 else { return false }
        let property = info.raw & 0xF
        return property == UInt32(GraphemeBreakProperty.extend.rawValue)
            || property == UInt32(GraphemeBreakProperty.spacingMark.rawValue)
    }

    /// `isPlainMark(_:)`, neither a control nor an emoji, and of no width or one unambiguous
    /// cell: on a one-cell letter it leaves the grapheme one cell wide.
    @inline(__always)
    static func isNarrowPlainMark(_ info: ScalarInfo) -> Bool {
        guard isPlainMark(info) && info.raw & (1 << 13 | 1 << 15) == 0 else { return false }
        let width = (info.raw &>> 10) & 0x3
        return width == 0 || (width == 1 && info.raw & (1 << 12) == 0)
    }

    /// Line-break class ID, EB, H2 or H3; grapheme-break property Other, LV or LVT; two cells;
    /// and none of the flags any rule looks at besides East Asian F/W/H, or else both
    /// Extended_Pictographic and Emoji_Presentation (an assigned emoji such as 😂 or 👋).
    /// Between two of them a grapheme ends (GB999) and a line may break (LB31); what may join
    /// an emoji (ZWJ, VS16, a skin tone, a keycap mark) is none of them and ends the run, where
    /// both machines are fed the emoji.
    @inline(__always)
    static func isPlainWide(_ info: ScalarInfo) -> Bool {
        let flags: UInt32 = 0x3 << 10 | 0xF << 12 | 0x3 << 17
        let masked = info.raw & flags
        guard masked == 2 << 10 || masked == Self.wideEmojiPattern else { return false }
        let lineBreak = info.lineBreakClass
        guard lineBreak == .id || lineBreak == .h2 || lineBreak == .h3 || lineBreak == .eb else { return false }
        let property = info.raw & 0xF
        return property == UInt32(GraphemeBreakProperty.other.rawValue)
            || property == UInt32(GraphemeBreakProperty.lv.rawValue)
            || property == UInt32(GraphemeBreakProperty.lvt.rawValue)
    }

    /// Line-break class AL, grapheme-break property Other, one cell, and none of the flags that
    /// any rule looks at (ambiguous, control, pictographic, emoji, East Asian F/W/H, modifier).
    @inline(__always)
    static func isPlainLetter(_ info: ScalarInfo) -> Bool {
        let masked = info.raw & plainLetterMask
        return masked == plainLetterPattern || masked == plainHebrewLetterPattern
    }

    /// `isPlainLetter(_:)`, where East Asian Ambiguous letters (Cyrillic, Greek) count too when
    /// they measure one cell.
    @inline(__always)
    func isPlainLetter(_ info: ScalarInfo) -> Bool {
        let masked = info.raw & letterMask
        return masked == Self.plainLetterPattern || masked == Self.plainHebrewLetterPattern
    }

    /// Two cells, Extended_Pictographic, Emoji_Presentation (see `isPlainWide(_:)`).
    static let wideEmojiPattern: UInt32 = 2 << 10 | 1 << 14 | 1 << 15
    static let plainLetterMask: UInt32 = 0xF | 0x3F << 4 | 0x3 << 10 | 0x7F << 12
    static let plainLetterPattern = UInt32(LineBreakClass.al.rawValue) << 4 | 1 << 10
    /// Hebrew letters (HL) pair like AL everywhere but LB21a and LB21b, which look at the class
    /// the run leaves behind (`LineBreaker.endLetterRun`), so they take the same runs.
    static let plainHebrewLetterPattern = UInt32(LineBreakClass.hl.rawValue) << 4 | 1 << 10
    static let ambiguousBit: UInt32 = 1 << 12

    /// LB25's lookahead: is the next scalar that is not CM or ZWJ of class NU?
    func nextIsNumber(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Bool {
        var index = start
        while index < count {
            let (scalar, length) = decodeScalar(base, at: index)
            let lineBreak = tables.info(scalar).lineBreakClass
            if lineBreak != .cm && lineBreak != .zwj { return lineBreak == .nu }
            index &+= length
        }
        return false
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
                countTab()
            } else {
                hangWidth &+= width
            }
        case .content:
            if contentWidth &+ hangWidth &+ width > PreparedSegment.maximumWidth && graphemeCount > 0 {
                finishSegment(end: graphemeStart, mandatory: false)
            }
            if hangStart >= 0 {
                // The hang's spaces become content: graphemes of one byte.
                if simple && unitLength != 1 && graphemeCount > contentGraphemeCount {
                    if unitLength == 0 {
                        unitLength = 1
                    } else {
                        simple = false
                        writeUniformEntries(before: graphemeCount)
                    }
                }
                contentWidth &+= hangWidth
                hangStart = -1
                hangWidth = 0
                if _slowPath(openHangTabs > 0) {
                    contentTabCells &+= openHangTabCells
                    openHangTabCells = 0
                    openHangTabs = 0
                }
            }
            contentWidth &+= width
        }
        graphemeCount &+= 1
        let isTab = graphemeKind == .tab
        if simple {
            if width == 1 {
                if length == unitLength { return }
                if graphemeKind == .content {
                    if unitLength == 0 && length < 64 {
                        unitLength = length
                        return
                    }
                } else if !isTab {
                    return  // a space in the hang: one byte, one cell, counted if it becomes content
                }
            }
            simple = false
            writeUniformEntries(before: graphemeCount &- 1)
        }
        if length < 64 && width <= 2 && !isTab {
            graphemeMap.append(UInt8(truncatingIfNeeded: width << 6 | length))
        } else {
            GraphemeMap.append(length: length, width: width, isTab: isTab, to: &graphemeMap)
        }
    }

    /// The map entries of the first `count` graphemes of a segment that was `simple` until now:
    /// its content graphemes, then the spaces of its hang, if it is in one.
    mutating func writeUniformEntries(before count: Int) {
        let contentCount = hangStart >= 0 ? contentGraphemeCount : count
        let entry = UInt8(truncatingIfNeeded: 1 << 6 | unitLength)
        for _ in 0..<contentCount { graphemeMap.append(entry) }
        for _ in contentCount..<count { graphemeMap.append(1 << 6 | 1) }
    }

    /// Counts the tab being finished, in the hang, by the cells it takes at its column.
    mutating func countTab() {
        sawTab = true
        let tabStop = max(1, options.tabStop)
        let column = hardLineWidth &+ hardLineHang &+ lineTabExtra &+ hangTabExtra
            &+ contentWidth &+ contentTabCells &+ hangWidth &+ openHangTabCells
        openHangTabCells &+= tabStop &- column % tabStop
        openHangTabs &+= 1
    }

    /// Out of line for the many places in the loop that end a segment; see `closeSegment`.
    mutating func finishSegment(end: Int, mandatory: Bool) {
        closeSegment(end: end, mandatory: mandatory)
    }

    /// Ends the segment being built at `end` (after its break characters). Inlined where the
    /// text ends, which every text reaches once: for a short message the call cost as much as
    /// the work.
    @inline(__always)
    mutating func closeSegment(end: Int, mandatory: Bool) {
        let hangEnd = end &- breakLength
        let inHang = hangStart >= 0
        let contentEnd = inHang ? hangStart : hangEnd
        let graphemes = inHang ? contentGraphemeCount : graphemeCount
        let graphemesSimple = inHang ? contentSimple : simple
        var flags: UInt32 = mandatory ? PreparedSegment.mandatoryBit : 0
        if graphemes <= 1 { flags |= PreparedSegment.singleGraphemeBit }
        var mapBytes = 0
        if hasTab {
            // Tabs measure by column at layout time, which walks every grapheme, hang included.
            flags |= PreparedSegment.tabBit | PreparedSegment.graphemeMapBit
            mapBytes = graphemeMap.count &- segmentMapStart
        } else if graphemes > 1 && !graphemesSimple {
            flags |= PreparedSegment.graphemeMapBit
            let extra = graphemeMap.count &- contentMapEnd(inHang)
            if extra > 0 { graphemeMap.removeLast(extra) }
            mapBytes = graphemeMap.count &- segmentMapStart
        } else if graphemeMap.count > segmentMapStart {
            graphemeMap.removeLast(graphemeMap.count &- segmentMapStart)
        }
        writeSegment(contentEnd: contentEnd, hangEnd: hangEnd, width: contentWidth, breakLength: breakLength,
                     flags: flags, mapBytes: mapBytes)
        if mandatory {
            widestHardLine = max(widestHardLine, hardLineWidth &+ lineTabExtra)
            hardLineWidth = 0
            hardLineHang = 0
            lineTabExtra = 0
            hangTabExtra = 0
            sawMandatoryBreak = true
        }
        contentWidth = 0
        hangStart = -1
        hangWidth = 0
        breakLength = 0
        hasTab = false
        graphemeCount = 0
        simple = true
        unitLength = 0
        segmentMapStart = graphemeMap.count
    }

    @inline(__always)
    func contentMapEnd(_ inHang: Bool) -> Int { inHang ? contentMapEnd : graphemeMap.count }

    /// Writes the record of a segment that starts at `segmentStart` (see `PreparedStorage`;
    /// `flags` are `PreparedSegment` bits, `mapBytes` its grapheme-map bytes, at the map's end),
    /// and adds it to the open hard line.
    @inline(__always)
    mutating func writeSegment(contentEnd: Int, hangEnd: Int, width: Int, breakLength: Int, flags: UInt32, mapBytes: Int) {
        let contentLength = contentEnd &- segmentStart
        let hang = hangEnd &- contentEnd
        let recordFlags = UInt8(truncatingIfNeeded: flags >> 24) | UInt8(truncatingIfNeeded: breakLength)
        if width == contentLength {
            records.append(recordFlags | PreparedStorage.bit7)
            records.appendLEB128(contentLength)
            records.appendLEB128(hang)
        } else {
            records.append(recordFlags)
            records.appendLEB128(contentLength)
            records.appendLEB128(hang)
            records.appendLEB128(width)
        }
        if flags & PreparedSegment.graphemeMapBit != 0 { records.appendLEB128(mapBytes) }
        segmentCount &+= 1
        segmentStart = hangEnd &+ breakLength
        lastContentEnd = contentEnd
        hardLineWidth &+= hardLineHang &+ width
        hardLineHang = hang  // spaces, one byte and one cell each, and tabs, one byte each
        if _slowPath(sawTab) {
            lineTabExtra &+= hangTabExtra &+ contentTabCells
            hangTabExtra = openHangTabCells &- openHangTabs
            contentTabCells = 0
            openHangTabCells = 0
            openHangTabs = 0
        }
    }

    @inline(__always)
    mutating func finish(end: Int) {
        finishGrapheme(end: end)
        closeSegment(end: end, mandatory: breakLength > 0)
    }
}

/// Where `PreparerTables.sharedCopyAddress` points, once published (0 before): a global with a
/// constant initial value, which needs no lazy initialisation.
private let preparerTablesAddress = Atomic<UInt>(0)

/// What the scalar loop reads from process-wide tables, found with one atomic load per text: the
/// generated tables, unpacked once into a form that takes fewer loads per scalar; which ASCII
/// bytes are plain letters; and the line-break pair table.
struct PreparerTables: @unchecked Sendable {  // immutable after init, and never freed
    // Built once for the process and never freed: read through plain pointers, with no
    // reference counting per text.
    /// The entries of U+0000–U+07FF (ASCII, Latin, Greek, Cyrillic, Hebrew, Arabic): one load.
    let narrow: UnsafePointer<ScalarInfo>
    /// `UnicodeTables`' stage 1 as 16-bit block numbers, and its values as whole entries (the
    /// generated file packs both into 7-bit bytes, which costs five loads and shifts a lookup).
    let stage1: UnsafePointer<UInt16>
    let stage2: UnsafePointer<UInt8>
    let values: UnsafePointer<ScalarInfo>
    /// Bit `b` of the pair (bytes 0–63, bytes 64–127) is set when ASCII byte `b` is a plain letter.
    let plainLetters: (UInt64, UInt64)
    let pairs: LineBreakPairTable

    static let shared = PreparerTables()

    /// `shared`, without the lazy-global check a `static let` costs on every read (on Linux
    /// that check is a `std::call_once`, about 100 instructions: as many as preparing "ok").
    @inline(__always)
    static var current: PreparerTables {
        let address = preparerTablesAddress.load(ordering: .acquiring)
        if _fastPath(address != 0) {
            return UnsafePointer<PreparerTables>(bitPattern: address).unsafelyUnwrapped.pointee
        }
        return publishShared()
    }

    @inline(never)
    static func publishShared() -> PreparerTables {
        // Every thread that gets here stores the same address.
        preparerTablesAddress.store(sharedCopyAddress, ordering: .releasing)
        return shared
    }

    /// The address of a copy of `shared` that is never freed, so that it can be published.
    private static let sharedCopyAddress: UInt = {
        let pointer = UnsafeMutablePointer<PreparerTables>.allocate(capacity: 1)
        pointer.initialize(to: shared)
        return UInt(bitPattern: pointer)
    }()

    static let narrowLimit: UInt32 = 0x800

    private init() {
        let stage1 = UnsafeMutablePointer<UInt16>.allocate(capacity: 0x110000 >> 7)
        let packedStage1 = UnicodeTables.stage1Bytes.utf8Start
        for block in 0..<(0x110000 >> 7) {
            stage1[block] = UInt16(packedStage1[2 * block]) | UInt16(packedStage1[2 * block + 1]) << 7
        }
        self.stage1 = UnsafePointer(stage1)
        stage2 = UnicodeTables.stage2Bytes.utf8Start
        let packedValues = UnicodeTables.valueBytes.utf8Start
        let valueCount = UnicodeTables.valueBytes.utf8CodeUnitCount / 3
        let values = UnsafeMutablePointer<ScalarInfo>.allocate(capacity: valueCount)
        for value in 0..<valueCount {
            let raw = UInt32(packedValues[3 * value]) | UInt32(packedValues[3 * value + 1]) << 7 | UInt32(packedValues[3 * value + 2]) << 14
            (values + value).initialize(to: ScalarInfo(raw: raw))
        }
        self.values = UnsafePointer(values)
        let narrow = UnsafeMutablePointer<ScalarInfo>.allocate(capacity: Int(Self.narrowLimit))
        for scalar in 0..<Self.narrowLimit { (narrow + Int(scalar)).initialize(to: UnicodeTables.info(scalar)) }
        self.narrow = UnsafePointer(narrow)
        plainLetters = (0..<128).reduce((0, 0)) { bits, byte in
            guard TextPreparer.isPlainLetter(narrow[byte]) else { return bits }
            return byte < 64 ? (bits.0 | 1 << UInt64(byte), bits.1) : (bits.0, bits.1 | 1 << UInt64(byte - 64))
        }
        pairs = LineBreakPairTable.shared
    }

    /// `UnicodeTables.info(scalar)` for a valid scalar (at most U+10FFFF), in fewer loads.
    @inline(__always)
    func info(_ scalar: UInt32) -> ScalarInfo {
        if scalar < Self.narrowLimit { return narrow[Int(scalar)] }
        let block = Int(stage1[Int(scalar &>> 7)])
        return values[Int(stage2[block &<< 7 | Int(scalar & 127)])]
    }
}
