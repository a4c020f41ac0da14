/// The one pass over a text's scalars that `PreparedText` is built from.
///
/// It decodes UTF-8 by hand, looks each scalar up once, and runs three machines side by side:
/// grapheme boundaries (UAX #29), grapheme widths, and line breaking (UAX #14). A line-break
/// opportunity that falls inside a grapheme cluster is dropped (the tailoring UAX #14 suggests),
/// so a line never splits a cluster. Completed graphemes are folded into the segment being built.
/// Where the machines' answer is known from the scalar and a little state (runs of letters and
/// words, marks on letters, spaces, pairs the UAX #14 table decides alone, runs of ideographs),
/// the loop writes that answer directly and leaves the machines as feeding them would have.
///
/// Where things are:
/// - this file: the scalar loop;
/// - `TextPreparer+State.swift`: the state, in small structs;
/// - `TextPreparer+Runs.swift`: the fast paths for runs of letters and of wide scalars, and the
///   scalar classes that may take them;
/// - `TextPreparer+Segments.swift`: graphemes folded into segments, and segments written as
///   `PreparedStorage` records;
/// - `PreparerBuffer`: the scratch storage; `PreparerTables` (next to the generated Unicode
///   tables): the process-wide tables the loop reads.
///
/// It owns its scratch storage, so it cannot be copied; `takeStorage` consumes it.
@usableFromInline
struct TextPreparer: ~Copyable {
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
    var lines = HardLineFigures()
    var tabs = TabCells()
    var segment = OpenSegment()
    var grapheme: OpenGrapheme
    /// The text's web addresses (`URLSpans`), inside which no break is offered; usually none.
    var urlSpans: [Range<Int>] = []
    /// The first of `urlSpans` not yet passed.
    var urlCursor = 0
    /// UTF-8 offsets where a dictionary engine breaks a Thai, Lao, Khmer or Myanmar run
    /// (`DictionaryBreaks`); usually none.
    var dictionaryBreaks: [Int] = []
    /// The first of `dictionaryBreaks` not yet passed.
    var dictionaryCursor = 0

    /// A preparer for a text of `utf8Count` bytes, with scratch storage on the heap.
    init(options: TextOptions, utf8Count: Int, allowRuns: Bool = true) {
        // Sized so that words (a 3-byte record per few bytes of text) and non-Latin letters
        // (2 bytes and one map entry each) rarely grow; the final storage is exact.
        self.init(options: options, allowRuns: allowRuns,
                  records: PreparerBuffer(capacity: utf8Count + 8),
                  graphemeMap: PreparerBuffer(capacity: utf8Count / 2 + 8))
    }

    /// A preparer whose scratch storage starts in the given buffers (which grow onto the heap
    /// if they must).
    init(options: TextOptions, allowRuns: Bool, records: consuming PreparerBuffer<UInt8>,
         graphemeMap: consuming PreparerBuffer<UInt8>) {
        self.options = options
        self.allowRuns = allowRuns
        letterMask = options.ambiguousWidth == 2 ? Self.plainLetterMask : Self.plainLetterMask & ~ScalarInfo.ambiguousBit
        grapheme = OpenGrapheme(width: GraphemeWidth(options: options))
        self.records = records
        self.graphemeMap = graphemeMap
    }

    /// The records and grapheme map in one exact-size allocation (or inline, when
    /// `allowInline` and they fit). The scratch storage goes with the preparer.
    consuming func takeStorage(allowInline: Bool = true) -> PreparedStorage {
        PreparedStorage(records: records.elements, segmentCount: segmentCount, graphemeMap: graphemeMap.elements,
                        allowInline: allowInline)
    }

    /// The widest hard line, whether the text is one hard line, whether it holds a tab, and
    /// where the last content ends. Valid once finished.
    var hardLines: PreparedText.HardLines {
        (max(lines.widest, lines.width &+ tabs.lineExtra), !lines.sawMandatoryBreak, lines.sawTab, lines.lastContentEnd)
    }

    // MARK: The scalar loop

    /// Prepares any valid UTF-8 whose first `asciiPrefix` bytes are known to be ASCII (0 when
    /// nothing is known).
    mutating func prepare(_ bytes: ElementsView<UInt8>, asciiPrefix: Int = 0) {
        prepare(bytes, asciiOnly: false, asciiPrefix: asciiPrefix)
    }

    /// Same result as `prepare(_:)` for text whose bytes are all below 0x80: the same loop, with
    /// UTF-8 decoding and the two-stage table compiled out.
    mutating func prepareASCII(_ bytes: ElementsView<UInt8>) {
        prepare(bytes, asciiOnly: true, asciiPrefix: bytes.count)
    }

    /// The one loop. Common cases take a shortcut that gives exactly what feeding the scalar to
    /// both machines would (tests compare the two with `allowRuns: false`): runs of plain letters
    /// and of ideographs, marks on letters, spaces, and scalars whose break the pair table alone
    /// decides. Everything else goes through the general step below them.
    ///
    /// Thai, Lao, Khmer and Myanmar text is divided into words by `DictionaryBreaks` before the
    /// loop; the fast paths stop at each of those breaks, where the general step offers it, and
    /// take the words between them as they take any other letters.
    @inline(always)
    mutating func prepare(_ bytes: ElementsView<UInt8>, asciiOnly: Bool, asciiPrefix: Int) {
        guard bytes.count > 0 else { return }
        let count = bytes.count, base = bytes
        let tables = self.tables
        let plainASCIILetters = tables.plainLetters
        // The runs assume grapheme-cluster widths (a mark keeps a letter one cell, an emoji is
        // two); per code point, only ASCII, whose widths the profiles share, may take them.
        // Text with dictionary breaks stops its fast paths at each (`nextDictionaryBreak`).
        if !asciiOnly && DictionaryBreaks.mayContain(bytes, from: asciiPrefix) {
            dictionaryBreaks = DictionaryBreaks.find(inUTF8: bytes)
        }
        var nextDictionaryBreak = dictionaryBreaks.first ?? Int.max
        let runs = allowRuns && (asciiOnly || options.widthProfile == .unicode)
        var lineBreaker = LineBreaker(pairs: tables.pairs)
        var graphemeBreaker = GraphemeBreaker()
        var index = 0
        var previousWasPlainLetter = false
        if URLSpans.mayContain(bytes) { urlSpans = URLSpans.find(in: bytes) }
        while index < count {
            let (scalar, length) = asciiOnly ? (UInt32(base[index]), 1) : decodeScalar(base, at: index)
            let info = tables.info(scalar)
            let plainLetter = isPlainLetter(info)
            if runs && index < nextDictionaryBreak {
                if plainLetter && previousWasPlainLetter && lineBreaker.continuesAlphabeticRun(info) {
                    // A letter after a letter: a new grapheme, no break opportunity, and the grapheme
                    // machine's state is the same after any plain letter, so it need not be fed.
                    finishGraphemeQuickly(end: index)
                    let run = readLetterRun(base, count: count, stop: min(count, nextDictionaryBreak), start: index,
                                            scalar, length, info, plainASCIILetters: plainASCIILetters, tables: tables)
                    assert(run.end <= nextDictionaryBreak, "TextPreparer: a letter run passed a dictionary break")
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
                        finishGraphemeQuickly(end: index)
                        grapheme.start = index
                        grapheme.kind = .space
                        grapheme.width.start(scalar, info)
                        previousWasPlainLetter = false
                        scalarCount &+= 1
                        index &+= 1
                        continue
                    }
                    if Self.isSimple(info) && !graphemeBreaker.joins(info),
                       let opportunity = lineBreaker.simpleOpportunity(before: info) {
                        graphemeBreaker.assume(info)
                        finishGraphemeQuickly(end: index)
                        if opportunity != .prohibited && !keepsURL(at: index) { finishSegmentQuickly(end: index) }
                        grapheme.start = index  // content: no break or space class gets here
                        grapheme.kind = .content
                        grapheme.width.start(scalar, info)
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
            let startsGrapheme = graphemeBreaker.step(info) && !grapheme.width.joinsConjunct(scalar)
            var nextIsNumber = false
            if lineBreaker.needsLookahead(for: info) {
                nextIsNumber = self.nextIsNumber(base, from: index &+ length, count: count)
            }
            var opportunity = lineBreaker.opportunity(before: info, nextIsNumber: nextIsNumber)
            if index >= nextDictionaryBreak {
                // Every fast path stops at a dictionary break, so each is met here.
                assert(index == nextDictionaryBreak, "TextPreparer: a fast path passed a dictionary break")
                if opportunity == .prohibited && index == nextDictionaryBreak { opportunity = .allowed }
                while dictionaryCursor < dictionaryBreaks.count && dictionaryBreaks[dictionaryCursor] <= index { dictionaryCursor &+= 1 }
                nextDictionaryBreak = dictionaryCursor < dictionaryBreaks.count ? dictionaryBreaks[dictionaryCursor] : Int.max
            }
            scalarCount &+= 1
            if startsGrapheme {
                if index > 0 {
                    finishGrapheme(end: index)
                    if opportunity == .prohibited || (opportunity == .allowed && keepsURL(at: index)) {
                        // No break: none allowed, or inside a web address.
                    } else if opportunity == .allowed && runs {
                        finishSegmentQuickly(end: index)  // (the scalar-by-scalar path keeps the call, for the tests)
                    } else {
                        finishSegment(end: index, mandatory: opportunity == .mandatory)
                    }
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

    /// True when `index` (at or after every index asked before) is inside a web address, past its
    /// first character: the break UAX #14 allows there is not offered.
    @inline(__always)
    mutating func keepsURL(at index: Int) -> Bool {
        guard !urlSpans.isEmpty else { return false }
        while urlCursor < urlSpans.count && urlSpans[urlCursor].upperBound <= index { urlCursor &+= 1 }
        return urlCursor < urlSpans.count && urlSpans[urlCursor].lowerBound < index
    }

    /// LB25's lookahead: is the next scalar that is not CM or ZWJ of class NU?
    func nextIsNumber(_ base: ElementsView<UInt8>, from start: Int, count: Int) -> Bool {
        var index = start
        while index < count {
            let (scalar, length) = decodeScalar(base, at: index)
            let lineBreak = tables.info(scalar).lineBreakClass
            if lineBreak != .cm && lineBreak != .zwj { return lineBreak == .nu }
            index &+= length
        }
        return false
    }
}
