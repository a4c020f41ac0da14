import BubbleText

/// A text prepared in pixels: its graphemes' advances (16.16 px, kerning with the next grapheme
/// kept apart), the faces they use, and where lines may break. Laying out at a width is arithmetic
/// over these columns.
public struct PixelPreparedText: Sendable {
    /// The columns, in one allocation (`PixelTextStorage`, `PixelColumns`). Per grapheme: UTF-8
    /// start, advance and kerning after it (16.16 px), face index, what follows it (0 no break,
    /// 1 a break is allowed, 2 a break is mandatory; `tabFlag` added for a tab), whether it is a space (spaces hang at a
    /// line's end), and, when the text has any, what `text-spacing-trim` takes off a closing mark
    /// that ends a line (16.16 px). Per segment (the text cut after every break opportunity, so
    /// laying out steps a word and its trailing spaces at a time): where it ends (one past its last
    /// grapheme), its width with the kerning inside it (16.16 px), and its width up to its last
    /// non-space grapheme (-1 when it is all spaces).
    let storage: SharedPixelTextStorage
    let graphemeCount: Int
    let segmentCount: Int
    let utf8Count: Int
    let hasEndTrim: Bool
    /// The advance of a space in the chain's first font (16.16 px) when the text has a tab, which
    /// then advances to the next tab stop (`tabAdvance`); nil without tabs.
    let tabSpace1616: Int?
    /// The text itself when it may hold Thai, Lao, Khmer or Myanmar (`DictionaryBreaks`), nil
    /// otherwise: a word of those scripts cut to fit has the rest of its run divided afresh when
    /// laying out (`restartedBreaks`).
    let dictionaryText: String?

    /// `breakAfter`'s bit for a tab, and the mask of its break (0, 1 or 2).
    static let tabFlag: UInt8 = 4
    static let breakMask: UInt8 = 3

    /// Bytes the prepared form holds beyond the text itself: its columns' allocation (none for an
    /// empty text, which shares one) and the fixed fields of this value.
    package var memoryFootprint: Int {
        let columns = graphemeCount == 0 && segmentCount == 0 ? 0
            : PixelTextStorage.allocatedBytes(graphemes: graphemeCount, segments: segmentCount, hasEndTrim: hasEndTrim)
        return MemoryLayout<PixelPreparedText>.size + columns
    }

    /// Runs `body` with the columns, read in place.
    @inline(__always)
    func withColumns<R>(_ body: (PixelColumns) -> R) -> R {
        storage.withColumns(graphemes: graphemeCount, segments: segmentCount, hasEndTrim: hasEndTrim, body)
    }

    // The columns as arrays, for tests (laying out reads them in place).
    var starts: [Int32] { withColumns { $0.starts.elements } }
    var advances: [Int32] { withColumns { $0.advances.elements } }
    var kernAfter: [Int32] { withColumns { $0.kernAfter.elements } }
    var faces: [UInt8] { withColumns { $0.faces.elements } }
    var breakAfter: [UInt8] { withColumns { $0.breakAfter.elements } }
    var isSpace: [Bool] { withColumns { $0.isSpace.elements } }
    /// Empty when the text has no line-end trim.
    var endTrim: [Int32] { hasEndTrim ? withColumns { $0.endTrim.elements } : [] }
    var segmentEnds: [Int32] { withColumns { $0.segmentEnds.elements } }
    var segmentWidths: [Int] { withColumns { $0.segmentWidths.elements } }
    var segmentVisible: [Int] { withColumns { $0.segmentVisible.elements } }

    /// The width of the text on one line (its widest hard line, spaces included, as `white-space:
    /// pre` measures it), in LayoutUnits.
    public var naturalWidth: Int {
        if let space = tabSpace1616 { return naturalWidthWithTabs(space: space) }
        return withColumns { c in
            var widest = 0, lineStart = 0
            for g in 0..<graphemeCount where c.breakAfter[g] == 2 || g == graphemeCount - 1 {
                widest = max(widest, FontScale.layoutUnits(Self.lineWidth1616(c, lineStart, g + 1, hangingSpaces: false)))
                lineStart = g + 1
            }
            return widest
        }
    }

    /// `text` prepared in one pass, without the word cache (`PixelWordCache`).
    init(_ text: String, chain: FontChain) {
        var columns = PreparedColumns(), scratch = PrepareScratch()
        defer { columns.free(); scratch.free() }
        var text = text
        let piece = text.withUTF8Elements { columns.appendPrepared($0, chain: chain, scratch: &scratch) }
        self.init(columns, utf8Count: piece.utf8Count, hasEndTrim: piece.hasEndTrim,
                  tabSpace1616: piece.hasTabs ? chain.spaceAdvance1616 : nil, dictionaryText: Self.dictionaryText(&text))
    }

    /// `text` when it may hold a dictionary script's letter, nil otherwise.
    static func dictionaryText(_ text: inout String) -> String? {
        text.withUTF8 { DictionaryBreaks.mayContain($0) } ? text : nil
    }

    /// The prepared text in `columns` (its `endTrim` read only when `hasEndTrim`), copied into one
    /// allocation.
    init(_ columns: PreparedColumns, utf8Count: Int, hasEndTrim: Bool, tabSpace1616: Int? = nil, dictionaryText: String? = nil) {
        let g = columns.graphemeCount, s = columns.segmentEnds.count
        assert(columns.starts.count == g && columns.kernAfter.count == g && columns.faces.count == g
               && columns.breakAfter.count == g && columns.isSpace.count == g && (!hasEndTrim || columns.endTrim.count == g)
               && columns.segmentWidths.count == s && columns.segmentVisible.count == s, "the columns are in step")
        self.utf8Count = utf8Count
        graphemeCount = g
        segmentCount = s
        self.hasEndTrim = hasEndTrim
        self.tabSpace1616 = tabSpace1616
        self.dictionaryText = dictionaryText
        guard g > 0 else {
            storage = SharedPixelTextStorage.empty
            return
        }
        storage = PixelTextStorage.copying(columns, graphemes: g, segments: s, hasEndTrim: hasEndTrim)
    }

    /// The first and last glyphs of a prepared text's glyph runs (face << 16 | glyph, after
    /// substitutions), so the kerning between two pieces prepared apart can be added where they
    /// meet. `UInt32.max` when there is none.
    struct Edges {
        var first = UInt32.max
        var last = UInt32.max
    }

    /// `text` prepared a word at a time through `table` (`PixelWordCache`): the same columns as
    /// `init(_:chain:)` gives, element for element.
    init(_ text: String, chain: FontChain, table: WordTable) {
        var text = text
        guard chain.cutsAtSpaces else { self = PixelPreparedText(text, chain: chain); return }
        self = table.withState { state in
            let (utf8, hasEndTrim, hasTabs) = text.withUTF8Elements { state.assemble($0, chain: chain) }
            // A tab's width is left to laying out (`tabAdvance`).
            return PixelPreparedText(state.text, utf8Count: utf8, hasEndTrim: hasEndTrim,
                                     tabSpace1616: hasTabs ? chain.spaceAdvance1616 : nil,
                                     dictionaryText: Self.dictionaryText(&text))
        }
    }

    /// Blink's table for `a` then `b`, both printable ASCII, after `before`.
    @inline(__always)
    static func asciiBreakAllowed(_ before: UInt32, _ a: UInt32, _ b: UInt32) -> Bool {
        let afterLetterOrDigit = (0x30...0x39).contains(before) || (0x41...0x5A).contains(before) || (0x61...0x7A).contains(before)
        let row = (afterLetterOrDigit ? BlinkASCIIBreaks.afterLetterOrDigit : BlinkASCIIBreaks.afterOther)[Int(a - 0x20)]
        let bit = Int(b - 0x20)
        return bit < 64 ? row.0 & (1 << UInt64(bit)) != 0 : row.1 & (1 << UInt32(bit - 64)) != 0
    }

    static func isJoiner(_ scalar: UInt32) -> Bool {
        scalar == 0x200D || (0xFE00...0xFE0F).contains(scalar) || (0xE0100...0xE01EF).contains(scalar)
    }

    static func isLineBreak(_ scalar: UInt32) -> Bool {
        scalar == 0x0A || scalar == 0x0D || scalar == 0x85 || scalar == 0x2028 || scalar == 0x2029 || scalar == 0x0B || scalar == 0x0C
    }

    /// Lines at `width` LayoutUnits, greedy as CSS: words move to the next line whole; a word wider
    /// than the line is split at graphemes (`overflow-wrap: break-word`); spaces hang at the end.
    public func layout(width: Int) -> TextLayout {
        var lines: [TextLine] = []
        var widest = 0
        forEachLine(width: width) { c, start, end, lineWidth in
            let from = start < graphemeCount ? Int(c.starts[start]) : utf8Count
            let to = end < graphemeCount ? Int(c.starts[end]) : utf8Count
            lines.append(TextLine(utf8Range: from..<max(from, to), width: lineWidth))
            widest = max(widest, lineWidth)
        }
        return TextLayout(lines: lines, widestLine: widest)
    }

    /// The line count and widest line at `width`, without building the lines.
    public func metrics(width: Int) -> TextMetrics {
        var lineCount = 0, widest = 0
        forEachLine(width: width) { _, _, _, lineWidth in
            lineCount += 1
            widest = max(widest, lineWidth)
        }
        return TextMetrics(lineCount: lineCount, widestLine: widest)
    }

    /// The faces used on each line at `width`.
    func lineFaces(width: Int) -> [Set<Int>] {
        var result: [Set<Int>] = []
        forEachLine(width: width) { c, start, end, _ in
            var used: Set<Int> = [0]  // the primary font's strut is always on the line
            for g in start..<end where !c.isSpace[g] { used.insert(Int(c.faces[g])) }
            result.append(used)
        }
        return result
    }

    /// The 16.16 width of graphemes `start..<end` of `c` (rounded up once for the line: rounding
    /// each font run on its own matches Chromium less often). Trailing spaces hang, and do not
    /// count, unless `hangingSpaces` is false.
    private static func lineWidth1616(_ c: PixelColumns, _ start: Int, _ end: Int, hangingSpaces: Bool = true) -> Int {
        var last = end
        while last > start && (c.isSpace[last - 1] && (hangingSpaces || c.breakAfter[last - 1] == 2)) { last -= 1 }
        var total = 0
        for g in start..<last {
            total += Int(c.advances[g])
            if g + 1 < last { total += Int(c.kernAfter[g]) }
        }
        return total
    }

    /// What `text-spacing-trim` takes off a line ending after grapheme `g` that would not fit
    /// otherwise: a closing mark's blank half (16.16 px), 0 for anything else.
    @inline(__always)
    private func lineEndTrim(_ c: PixelColumns, _ g: Int) -> Int { hasEndTrim ? Int(c.endTrim[g]) : 0 }

    /// What a line starting at grapheme `lineStart` adds to its 16.16 width when the fit of a
    /// trimmed closing mark at its end is tested. Blink fits a trimmed line end without the
    /// LayoutUnit of slack on a paragraph's first line (the text's start, or after a newline):
    /// one LayoutUnit. A wrapped line that starts where the text was kerned (an opening mark
    /// after a closing one) is shaped again from its start, and that piece's width is rounded up
    /// to a LayoutUnit before the rest is fitted: the fraction it gains. Otherwise 0.
    @inline(__always)
    private func endTrimAllowance(_ c: PixelColumns, lineStart: Int) -> Int {
        guard lineStart > 0, c.breakAfter[lineStart - 1] & Self.breakMask != 2 else { return 1024 }
        guard c.kernAfter[lineStart - 1] != 0 else { return 0 }
        return (1024 - Int(c.advances[lineStart]) & 1023) & 1023
    }

    /// The LayoutUnit width of a line `visible` 16.16 px wide that ends in a closing mark giving
    /// back `trim`, when trimming it makes the line fit (tested with `endTrimAllowance` added);
    /// nil when it does not.
    @inline(__always)
    private func trimmedWidth(_ visible: Int, trim: Int, _ c: PixelColumns, lineStart: Int, _ available: Int) -> Int? {
        guard trim > 0 else { return nil }
        let extra = endTrimAllowance(c, lineStart: lineStart)
        let trimmed = FontScale.layoutUnits(visible - trim)
        guard trimmed < FontScale.layoutUnits(visible), fits(FontScale.layoutUnits(visible - trim + extra), available) else { return nil }
        return trimmed
    }

    /// Whether a line this wide fits: Chromium allows one LayoutUnit of slack.
    private func fits(_ width: Int, _ available: Int) -> Bool { width <= available + 1 }

    /// The LayoutUnit width of a line of a word split at graphemes, `total` 16.16 px wide without
    /// its trailing spaces: Chromium lays such a line out again with a break after every grapheme,
    /// so a closing mark (`trim`) may end it trimmed.
    @inline(__always)
    private func splitWidth(_ total: Int, trim: Int, _ c: PixelColumns, lineStart: Int, _ available: Int) -> Int {
        let width = FontScale.layoutUnits(total)
        guard trim != 0, !fits(width, available) else { return width }
        return trimmedWidth(total, trim: trim, c, lineStart: lineStart, available) ?? width
    }

    /// Calls `body(columns, start, end, width)` for each line: grapheme indices and LayoutUnit width. One
    /// pass: the line's 16.16 width grows grapheme by grapheme, and the width up to its last
    /// non-space grapheme is what a break is tested with (spaces hang).
    @inline(__always)
    private func forEachLine(width available: Int, _ body: (PixelColumns, Int, Int, Int) -> Void) {
        let count = graphemeCount
        if let space = tabSpace1616 { forEachLineWithTabs(width: available, space: space, body); return }
        withColumns { c in
            if count == 0 { body(c, 0, 0, 0); return }
            let advances = c.advances, kernAfter = c.kernAfter, breakAfter = c.breakAfter, isSpace = c.isSpace
            let segmentEnds = c.segmentEnds, segmentWidths = c.segmentWidths, segmentVisible = c.segmentVisible
            let segmentCount = self.segmentCount
            // A line fits while its width rounded up to LayoutUnits is at most `available + 1`
            // (`fits`), that is while its 16.16 width is at most (available + 1) × 1024.
            let (product, overflow) = (available &+ 1).multipliedReportingOverflow(by: 1024)
            let limit = overflow ? (available < 0 ? Int.min : Int.max) : product
            var lineStart = 0
            // The segment the line starts in: lines start where segments do, except after a
            // word split at graphemes.
            var segment = 0
            // After a dictionary-script word cut to fit, graphemes `restartFrom..<restartTo` break
            // where `restartFlags` says (`restartedBreaks`), not where `breakAfter` does.
            var restartFrom = 0, restartTo = 0
            var restartFlags: [UInt8] = []
            func breakFlag(_ g: Int) -> UInt8 {
                g < restartTo && g >= restartFrom ? restartFlags[g &- restartFrom] : breakAfter[g]
            }
            while lineStart < count {
                var lineEnd = lineStart, lineEndWidth = 0
                // The first segment after the line when it ends at a segment's end, so the next
                // line does not step over this one's segments again.
                var after = segment
                if lineStart >= restartTo && segment < segmentCount && (segment == 0 ? 0 : Int(segmentEnds[segment - 1])) == lineStart {
                    // Whole words while they fit; a mandatory break ends the line. The 16.16
                    // width is tested against `limit`, and rounded once for the line.
                    var running = 0, visible = 0, fitting = 0, trimmedEnd = false
                    var s = segment
                    while s < segmentCount {
                        let end = Int(segmentEnds[s])
                        if s > segment { running &+= Int(kernAfter[Int(segmentEnds[s - 1]) - 1]) }
                        if segmentVisible[s] >= 0 { visible = running &+ segmentVisible[s] }
                        running &+= segmentWidths[s]
                        let g = end - 1
                        // A mandatory break's own space (a newline) hangs too.
                        guard visible <= limit else {
                            // A closing mark that ends the line gives back its blank half when
                            // that makes the line fit (text-spacing-trim); the line ends there.
                            if let trimmed = trimmedWidth(visible, trim: lineEndTrim(c, g), c, lineStart: lineStart, available) {
                                lineEnd = end
                                lineEndWidth = trimmed
                                trimmedEnd = true
                                after = s + 1
                            }
                            break
                        }
                        lineEnd = end
                        fitting = visible
                        after = s + 1
                        if breakAfter[g] == 2 { break }
                        s += 1
                    }
                    if lineEnd > lineStart && !trimmedEnd { lineEndWidth = FontScale.layoutUnits(fitting) }
                } else {
                    // A line starting inside a segment: grapheme by grapheme.
                    var running = 0, visible = 0
                    var g = lineStart
                    while g < count {
                        if g > lineStart { running &+= Int(kernAfter[g - 1]) }
                        running &+= Int(advances[g])
                        if !isSpace[g] { visible = running }
                        let flag = breakFlag(g)
                        if flag != 0 {
                            let width = FontScale.layoutUnits(visible)
                            guard fits(width, available) else {
                                if let trimmed = trimmedWidth(visible, trim: lineEndTrim(c, g), c, lineStart: lineStart, available) {
                                    lineEnd = g + 1
                                    lineEndWidth = trimmed
                                }
                                break
                            }
                            lineEnd = g + 1
                            lineEndWidth = width
                            if flag == 2 { break }
                        }
                        g += 1
                    }
                }
                if lineEnd == lineStart {
                    // The first word does not fit on an empty line: split it at graphemes, at least
                    // one grapheme a line (overflow-wrap: break-word).
                    var wordEnd = lineStart
                    while wordEnd < count && breakFlag(wordEnd) == 0 { wordEnd += 1 }
                    wordEnd = min(count, wordEnd + 1)
                    // The line's 16.16 width up to its last non-space grapheme (what `lineWidth1616`
                    // gives), grown a grapheme at a time: summing the line again for each grapheme
                    // made a long unbreakable word (a Thai sentence) quadratic.
                    var running = Int(advances[lineStart])
                    var visible = isSpace[lineStart] ? 0 : running
                    lineEnd = lineStart + 1
                    while lineEnd < wordEnd {
                        let g = lineEnd
                        running &+= Int(kernAfter[g - 1]) &+ Int(advances[g])
                        let grown = isSpace[g] ? visible : running
                        guard fits(splitWidth(grown, trim: lineEndTrim(c, g), c, lineStart: lineStart, available), available) else { break }
                        visible = grown
                        lineEnd += 1
                    }
                    lineEndWidth = splitWidth(visible, trim: lineEndTrim(c, lineEnd - 1), c, lineStart: lineStart, available)
                    if lineEnd < wordEnd, let text = dictionaryText, let (to, flags) = restartedBreaks(c, text, from: lineEnd) {
                        (restartFrom, restartTo, restartFlags) = (lineEnd, to, flags)
                    }
                }
                body(c, lineStart, lineEnd, lineEndWidth)
                lineStart = lineEnd
                segment = after
                while segment < segmentCount && Int(segmentEnds[segment]) <= lineStart { segment += 1 }
            }
        }
    }
}

// MARK: Dictionary breaks after a cut

extension PixelPreparedText {
    /// Where the graphemes from `cut` on may break when the run of a dictionary script holding
    /// grapheme `cut` is divided afresh from there (`DictionaryBreaks.divideRest`): Chromium, having
    /// cut a word too wide for its line, asks ICU for the breaks after the cut, and ICU divides the
    /// rest of the run as a run of its own. Returns `to`, the run's last grapheme (whose own
    /// break, the run's end, stays as prepared), and the flags of graphemes `cut..<to` (1 where a
    /// break is offered after it, else 0); nil when grapheme `cut` is no such letter.
    /// O(graphemes in the run).
    func restartedBreaks(_ c: PixelColumns, _ text: String, from cut: Int) -> (to: Int, flags: [UInt8])? {
        let from = Int(c.starts[cut])
        let utf8 = text.utf8
        guard from < utf8.count else { return nil }
        let start = utf8.index(utf8.startIndex, offsetBy: from)
        guard let (runLength, breaks) = DictionaryBreaks.divideRest(text.unicodeScalars[start...]) else { return nil }
        let runEnd = from + runLength
        var flags: [UInt8] = []
        var next = 0  // the first of `breaks` not yet passed
        var g = cut
        while g + 1 < graphemeCount && Int(c.starts[g + 1]) < runEnd {
            let offset = Int(c.starts[g + 1]) - from
            while next < breaks.count && breaks[next] < offset { next += 1 }
            flags.append(next < breaks.count && breaks[next] == offset ? 1 : 0)
            g += 1
        }
        return (g, flags)
    }
}

// MARK: Tabs

extension PixelPreparedText {
    /// How far a tab at `position` LayoutUnits from its line's start advances, in LayoutUnits, as
    /// Blink measures it (`tab-size: 8`): to the next multiple of 8 spaces of the first font
    /// (`space1616`), one more stop when that is nearer than half a space, rounded up to a
    /// LayoutUnit as the tab's own run is. (Float arithmetic, as Blink's.)
    static func tabAdvance(at position: Int, space1616: Int) -> Int {
        let space = Float(space1616) / 65536
        let interval = 8 * space
        guard interval > 0 else { return 0 }
        var distance = interval - (Float(position) / 64).truncatingRemainder(dividingBy: interval)
        if distance < space / 2 { distance += interval }
        return Int((distance * 64).rounded(.up))
    }

    /// The widest hard line of a text with tabs, spaces included (`white-space: pre`), in
    /// LayoutUnits: each run between tabs rounded up on its own, as Blink's line items are.
    func naturalWidthWithTabs(space: Int) -> Int {
        withColumns { c in
            var widest = 0, items = 0, running = 0
            for g in 0..<graphemeCount {
                let flags = c.breakAfter[g]
                if flags & Self.tabFlag != 0 {
                    items += FontScale.layoutUnits(running)
                    items += Self.tabAdvance(at: items, space1616: space)
                    running = 0
                } else if flags & Self.breakMask == 2 && c.isSpace[g] {
                    // A newline: it ends the hard line and adds no width.
                    widest = max(widest, items + FontScale.layoutUnits(running))
                    (items, running) = (0, 0)
                    continue
                } else {
                    running &+= Int(c.advances[g])
                    if g + 1 < graphemeCount && c.breakAfter[g + 1] & Self.tabFlag == 0 { running &+= Int(c.kernAfter[g]) }
                }
            }
            return max(widest, items + FontScale.layoutUnits(running))
        }
    }

    /// `forEachLine` for a text with tabs: grapheme by grapheme, each tab as wide as its place on
    /// the line makes it (`tabAdvance`, from the line's start). Tabs hang at a line's end as spaces
    /// do. A line is the graphemes up to the last break opportunity that fits; a first word that
    /// does not fit is split at graphemes (`overflow-wrap: break-word`). O(graphemes) per layout.
    func forEachLineWithTabs(width available: Int, space: Int, _ body: (PixelColumns, Int, Int, Int) -> Void) {
        let count = graphemeCount
        withColumns { c in
            if count == 0 { body(c, 0, 0, 0); return }
            var lineStart = 0
            while lineStart < count {
                // LayoutUnits of the runs before the current one (a tab ends a run), the current
                // run's 16.16 width, and the line's LayoutUnit width up to its last non-space.
                var items = 0, running = 0, visible = 0
                var lineEnd = lineStart, lineEndWidth = 0
                // The longest prefix that fits, for a first word that must be split.
                var prefixEnd = lineStart, prefixWidth = 0, prefixFits = true
                var g = lineStart
                while g < count {
                    let flags = c.breakAfter[g]
                    if flags & Self.tabFlag != 0 {
                        items += FontScale.layoutUnits(running)
                        items += Self.tabAdvance(at: items, space1616: space)
                        running = 0
                    } else {
                        if g > lineStart && c.breakAfter[g - 1] & Self.tabFlag == 0 { running &+= Int(c.kernAfter[g - 1]) }
                        running &+= Int(c.advances[g])
                        if !c.isSpace[g] { visible = items + FontScale.layoutUnits(running) }
                    }
                    let fitsHere = fits(visible, available)
                    if prefixFits && (fitsHere || g == lineStart) {
                        (prefixEnd, prefixWidth) = (g + 1, visible)
                    } else {
                        prefixFits = false
                    }
                    let opportunity = flags & Self.breakMask
                    if opportunity != 0 || g == count - 1 {
                        if fitsHere {
                            (lineEnd, lineEndWidth) = (g + 1, visible)
                            if opportunity == 2 { break }
                        } else {
                            // A closing mark that ends the line gives back its blank half when that
                            // makes the line fit (text-spacing-trim).
                            let trim = hasEndTrim ? Int(c.endTrim[g]) : 0
                            let extra = trim == 0 ? 0 : endTrimAllowance(c, lineStart: lineStart)
                            let trimmed = trim == 0 ? visible : items + FontScale.layoutUnits(running - trim)
                            if trimmed < visible && fits(items + FontScale.layoutUnits(running - trim + extra), available) {
                                (lineEnd, lineEndWidth) = (g + 1, trimmed)
                            }
                            break
                        }
                    } else if !fitsHere && lineEnd > lineStart {
                        break
                    }
                    g += 1
                }
                if lineEnd == lineStart { (lineEnd, lineEndWidth) = (prefixEnd, prefixWidth) }
                body(c, lineStart, lineEnd, lineEndWidth)
                lineStart = lineEnd
            }
        }
    }
}
