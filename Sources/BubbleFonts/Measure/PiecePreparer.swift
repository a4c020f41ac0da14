import BubbleText

/// What preparing a text (or one piece of it) gives besides its columns.
struct PreparedPiece {
    var graphemeCount = 0
    var segmentCount = 0
    var utf8Count = 0
    /// True when some grapheme has a line-end trim (`endTrim` is written for every grapheme, 0
    /// where there is none).
    var hasEndTrim = false
    /// True when the piece has a tab (its advance is left 0: a tab's width depends on where it sits
    /// on its line, `PixelPreparedText.tabFlag`).
    var hasTabs = false
    var edges = PixelPreparedText.Edges()
    /// UAX #14 after the piece's last scalar. A piece that is not a text's last ends in spaces, and
    /// after spaces the breaker's answer depends only on the class before them, so the break before
    /// the next piece is this breaker's answer for that piece's first scalar.
    var lineBreaker = LineBreaker(breaksAfterSpaces: true)
}

/// Buffers that preparing reuses from one text to the next, so it allocates nothing once they
/// have grown to the longest text. Its owner frees them.
struct PrepareScratch {
    var scalars = WordBuffer<UInt32>(capacity: 256)
    var glyphs = WordBuffer<UInt16>(capacity: 256)
    var clusters = WordBuffer<Int32>(capacity: 256)

    func free() { scalars.free(); glyphs.free(); clusters.free() }
}

extension PreparedColumns {
    /// Prepares the valid UTF-8 `bytes` in one pass over their scalars and appends its graphemes
    /// and segments to the columns: graphemes (UAX #29), breaks (UAX #14 with Blink's table between
    /// two ASCII characters and CJ as ID), faces, advances, kerning, substitutions and
    /// `text-spacing-trim`. UTF-8 starts are counted from `utf8Offset`, and segment ends from the
    /// columns' grapheme count (from 0 with `segmentEndsFromZero`, for a piece kept on its own).
    mutating func appendPrepared(_ bytes: ElementsView<UInt8>, chain: FontChain, scratch: inout PrepareScratch,
                                 utf8Offset: Int32 = 0, segmentEndsFromZero: Bool = false) -> PreparedPiece {
        var piece = PreparedPiece()
        let n = bytes.count
        piece.utf8Count = n
        guard n > 0 else { return piece }
        // Scalars, decoded once (a grapheme's later scalars and the LB25 lookahead read them again).
        scratch.scalars.reserve(n)
        let scalars = scratch.scalars.base
        var scalarCount = 0
        do {
            var i = 0
            while i < n {
                let lead = UInt32(bytes[i])
                if lead < 0x80 {
                    scalars[scalarCount] = lead
                    i += 1
                } else if lead < 0xE0 {
                    scalars[scalarCount] = (lead & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
                    i += 2
                } else if lead < 0xF0 {
                    scalars[scalarCount] = (lead & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                    i += 3
                } else {
                    scalars[scalarCount] = (lead & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
                        | UInt32(bytes[i + 3] & 0x3F)
                    i += 4
                }
                scalarCount += 1
            }
        }
        reserve(graphemes: scalarCount, segments: scalarCount)
        scratch.glyphs.reserve(scalarCount)
        scratch.clusters.reserve(scalarCount)
        let g0 = graphemeCount
        let writer = chain.faces.withElementsView { chainFaces in
            var pass = PieceWriter(
                chain: chain, chainFaces: chainFaces, scalars: ElementsView(scalars.slice(from: 0, count: scalarCount)), utf8Offset: utf8Offset,
                starts: self.starts.base.tail(from: g0), advances: self.advances.base.tail(from: g0),
                kernAfter: self.kernAfter.base.tail(from: g0), endTrim: self.endTrim.base.tail(from: g0),
                faces: self.faces.base.tail(from: g0), breakAfter: self.breakAfter.base.tail(from: g0),
                isSpace: self.isSpace.base.tail(from: g0), glyphs: scratch.glyphs.base, clusters: scratch.clusters.base)
            pass.write(scalarCount: scalarCount)
            return pass
        }
        let graphemeCount = writer.graphemeCount
        starts.count += graphemeCount; advances.count += graphemeCount; kernAfter.count += graphemeCount
        endTrim.count += graphemeCount; faces.count += graphemeCount; breakAfter.count += graphemeCount
        isSpace.count += graphemeCount

        // Segments: a word and its spaces between two break opportunities, its width with the
        // kerning inside it, and its width up to its last non-space grapheme (-1 when all spaces).
        let s0 = segmentEnds.count
        let ends = segmentEnds.base.tail(from: s0), widths = segmentWidths.base.tail(from: s0)
        let visibles = segmentVisible.base.tail(from: s0)
        let pieceAdvances = writer.advances, pieceKernAfter = writer.kernAfter
        let pieceBreakAfter = writer.breakAfter, pieceIsSpace = writer.isSpace
        let endOffset = segmentEndsFromZero ? 0 : g0
        var segmentCount = 0
        var width = 0, visible = -1
        for g in 0..<graphemeCount {
            width &+= Int(pieceAdvances[g])
            if !pieceIsSpace[g] { visible = width }
            if pieceBreakAfter[g] & PixelPreparedText.breakMask == 0 {
                width &+= Int(pieceKernAfter[g])  // the kerning inside the segment
                continue
            }
            ends[segmentCount] = Int32(truncatingIfNeeded: endOffset + g + 1)
            widths[segmentCount] = width
            visibles[segmentCount] = visible
            segmentCount += 1
            (width, visible) = (0, -1)
        }
        segmentEnds.count += segmentCount; segmentWidths.count += segmentCount; segmentVisible.count += segmentCount

        piece.graphemeCount = graphemeCount
        piece.segmentCount = segmentCount
        piece.hasEndTrim = writer.hasEndTrim
        piece.hasTabs = writer.hasTabs
        piece.edges = writer.edges
        piece.lineBreaker = writer.lineBreaker
        return piece
    }
}

/// One pass over a text's scalars writing its graphemes' columns. A struct with mutating methods,
/// not nested functions: variables that nested functions capture are boxed and pay a dynamic
/// exclusivity check on each access.
private struct PieceWriter {
    let chain: FontChain
    /// The chain's faces, read in place (`[inPlace:]`: a copy would retain each of a face's tables).
    let chainFaces: ElementsView<FontChain.Face>
    /// The text's scalars.
    let scalars: ElementsView<UInt32>
    let utf8Offset: Int32
    /// The columns from the piece's first grapheme on.
    let starts: MutableElementsView<Int32>
    let advances: MutableElementsView<Int32>
    let kernAfter: MutableElementsView<Int32>
    let endTrim: MutableElementsView<Int32>
    let faces: MutableElementsView<UInt8>
    let breakAfter: MutableElementsView<UInt8>
    let isSpace: MutableElementsView<Bool>
    /// The glyph run so far, and each glyph's grapheme.
    let glyphs: MutableElementsView<UInt16>
    let clusters: MutableElementsView<Int32>
    var glyphCount = 0
    var runFace = -1
    var graphemeCount = 0
    var hasEndTrim = false
    var hasTabs = false
    var edges = PixelPreparedText.Edges()
    /// text-spacing-trim: the previous grapheme's type and trim (16.16 px).
    var lastType = HanKerning.CharType.other
    var lastTrim = 0
    var lineBreaker = LineBreaker(breaksAfterSpaces: true)
    /// For a face with a shaper: each glyph's scalar index, and whether the run has text in the
    /// shaper's script (then it is shaped: `ArabicShaper`, `KhmerShaper`, `MyanmarShaper`).
    var shapingSources: [Int32] = []
    var runNeedsShaping = false
    /// Whether the glyph run has a grapheme of several glyphs (then marks may sit between two
    /// bases, and kerning passes over them).
    var runHasExtraGlyphs = false

    init(chain: FontChain, chainFaces: ElementsView<FontChain.Face>, scalars: ElementsView<UInt32>, utf8Offset: Int32,
         starts: MutableElementsView<Int32>, advances: MutableElementsView<Int32>, kernAfter: MutableElementsView<Int32>,
         endTrim: MutableElementsView<Int32>, faces: MutableElementsView<UInt8>, breakAfter: MutableElementsView<UInt8>,
         isSpace: MutableElementsView<Bool>, glyphs: MutableElementsView<UInt16>, clusters: MutableElementsView<Int32>) {
        self.chain = chain
        self.chainFaces = chainFaces
        self.scalars = scalars
        self.utf8Offset = utf8Offset
        self.starts = starts
        self.advances = advances
        self.kernAfter = kernAfter
        self.endTrim = endTrim
        self.faces = faces
        self.breakAfter = breakAfter
        self.isSpace = isSpace
        self.glyphs = glyphs
        self.clusters = clusters
    }

    /// Writes the graphemes of the `scalarCount` scalars (the columns and the glyph buffers have
    /// room for `scalarCount` each: a scalar adds at most one grapheme and one glyph).
    mutating func write(scalarCount: Int) {
        // The ID class that Chromium's `line-break: auto` gives Line_Break CJ (UAX #14's "normal").
        let idInfo = UnicodeTables.info(0x3042)
        var graphemes = GraphemeBreaker()
        var graphemeStart = 0, graphemeUTF8 = 0, utf8 = 0
        assert(scalars.count == scalarCount, "the writer's scalars are the text's")
        let urlSpans = URLSpans.find(in: scalars)
        var urlCursor = 0
        // Breaks inside Thai, Lao, Khmer and Myanmar runs, as ICU's dictionary engines find them.
        let dictionaryBreaks = DictionaryBreaks.mayContain(scalars) ? DictionaryBreaks.find(in: scalars) : []
        var dictionaryCursor = 0
        for i in 0..<scalarCount {
            let scalar = scalars[i]
            let info = UnicodeTables.info(scalar)
            let startsGrapheme = graphemes.breaksBefore(info)
            let breakInfo = scalar >= 0x3041 && HanKerning.isConditionalJapaneseStarter(scalar) ? idInfo : info
            var nextIsNumber = false
            if lineBreaker.needsLookahead(for: breakInfo) {
                // LB25: (PR | PO) × (OP | HY) NU looks at the next scalar that is not CM or ZWJ.
                var k = i + 1
                while k < scalarCount {
                    let lineBreak = UnicodeTables.info(scalars[k]).lineBreak
                    if lineBreak != .cm && lineBreak != .zwj {
                        nextIsNumber = lineBreak == .nu
                        break
                    }
                    k += 1
                }
            }
            var opportunity = lineBreaker.opportunity(before: breakInfo, nextIsNumber: nextIsNumber)
            if opportunity == .prohibited && dictionaryCursor < dictionaryBreaks.count {
                while dictionaryCursor < dictionaryBreaks.count && dictionaryBreaks[dictionaryCursor] < i { dictionaryCursor += 1 }
                if dictionaryCursor < dictionaryBreaks.count && dictionaryBreaks[dictionaryCursor] == i { opportunity = .allowed }
            }
            // Between two printable ASCII characters, Blink's own table decides.
            if i > 0 && scalar &- 0x20 < 0x5F && scalars[i - 1] &- 0x20 < 0x5F {
                opportunity = PixelPreparedText.asciiBreakAllowed(i >= 2 ? scalars[i - 2] : 0x20, scalars[i - 1], scalar)
                    ? .allowed : .prohibited
            }
            // A tab is one of Blink's breakable spaces (its class is BA): a run of spaces and tabs
            // holds together, and a line may break after it before anything else.
            if i > 0 && opportunity != .mandatory {
                let previous = scalars[i - 1]
                if scalar == 0x09 && (previous == 0x20 || previous == 0x09) {
                    opportunity = .prohibited
                } else if previous == 0x09 && scalar != 0x20 && scalar != 0x09 && info.lineBreak != .cm && info.lineBreak != .zwj
                            && info.lineBreak != .zw && !PixelPreparedText.isLineBreak(scalar) {
                    opportunity = .allowed
                }
            }
            // Inside a web address no break is offered, as in the cell preparer (`URLSpans`).
            if opportunity == .allowed && !urlSpans.isEmpty {
                while urlCursor < urlSpans.count && urlSpans[urlCursor].upperBound <= i { urlCursor += 1 }
                if urlCursor < urlSpans.count && urlSpans[urlCursor].lowerBound < i { opportunity = .prohibited }
            }
            if startsGrapheme && i > 0 {
                addGrapheme(graphemeStart, i, utf8: graphemeUTF8, next: opportunity)
                graphemeStart = i
                graphemeUTF8 = utf8
            }
            utf8 += scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x1_0000 ? 3 : 4
        }
        addGrapheme(graphemeStart, scalarCount, utf8: graphemeUTF8, next: nil)
        finishRun()
        assert(graphemeCount <= scalarCount, "no more graphemes than scalars")
    }

    /// Measures the glyph run so far: substitutions, then advances and the kerning inside the run
    /// (within a grapheme it widens it; between two it sits after the first).
    mutating func finishRun() {
        guard runFace >= 0, glyphCount > 0 else { return }
        // (The face is read in place: a copy would retain each of its tables.)
        let face = runFace
        if runNeedsShaping {
            finishShapedRun(face)
            return
        }
        // A colour-bitmap grapheme is already its one glyph: ligatures there could only join two
        // graphemes, as 🇺🇸🇬🇧 (regional indicators U, G left) would become Uganda's flag.
        if !chainFaces[inPlace: face].font.hasColorBitmaps {
            chainFaces[inPlace: face].substitutions.apply(glyphs, clusters: clusters, count: &glyphCount)
        }
        if edges.first == UInt32.max { edges.first = UInt32(runFace) << 16 | UInt32(glyphs[0]) }
        edges.last = UInt32(runFace) << 16 | UInt32(glyphs[glyphCount - 1])
        let skipsMarks = runHasExtraGlyphs && chainFaces[inPlace: face].kerning.ignoresMarks
        for i in 0..<glyphCount {
            let glyph = glyphs[i], cluster = Int(clusters[i])
            advances[cluster] &+= Int32(clamping: chainFaces[inPlace: face].advance1616(glyph))
            guard i + 1 < glyphCount else { continue }
            var j = i + 1
            if skipsMarks {
                // A mark neither kerns nor stops the kerning of the bases around it.
                if chainFaces[inPlace: face].font.isMark(glyph) { continue }
                while j < glyphCount && chainFaces[inPlace: face].font.isMark(glyphs[j]) { j += 1 }
                guard j < glyphCount else { continue }
            }
            let kern = Int32(clamping: chainFaces[inPlace: face].kerning1616(glyph, glyphs[j]))
            let next = Int(clusters[j])
            if next == cluster { advances[cluster] &+= kern } else { kernAfter[next - 1] &+= kern }
        }
        glyphCount = 0
        runHasExtraGlyphs = false
        shapingSources.removeAll(keepingCapacity: true)
    }

    /// `finishRun` for a run with Arabic-script, Khmer or Myanmar text. The run is cut after every space, as
    /// the word cache cuts texts (so a word shapes alike in a whole text and on its own): a part
    /// with such text is shaped (`ArabicShaper`, `KhmerShaper`, `MyanmarShaper`), each glyph's advance (positioning included)
    /// added to its grapheme's; any other part is measured as `finishRun` measures, kerned with
    /// the part before when that was measured so too. A shaped part's edges are marked so that
    /// the word cache adds no kerning where it meets another piece.
    mutating func finishShapedRun(_ face: Int) {
        var start = 0
        var previousPlain: UInt16?
        while start < glyphCount {
            var end = start, arabic = false, khmer = false, myanmar = false
            while end < glyphCount {
                let scalar = scalars[Int(shapingSources[end])]
                if ArabicShaper.shapes(scalar) { arabic = true }
                if KhmerShaper.shapes(scalar) { khmer = true }
                if MyanmarShaper.shapes(scalar) { myanmar = true }
                end += 1
                if scalar == 0x20 { break }
            }
            arabic = arabic && chainFaces[inPlace: face].arabicShaper != nil
            khmer = khmer && !arabic && chainFaces[inPlace: face].khmerShaper != nil
            myanmar = myanmar && !arabic && !khmer && chainFaces[inPlace: face].myanmarShaper != nil
            if arabic || khmer || myanmar {
                let shaped = shapingSources.withElementsView { sources in
                    let partGlyphs = ElementsView(glyphs.tail(from: start)), partClusters = ElementsView(clusters.tail(from: start))
                    let scale = chainFaces[inPlace: face].scale
                    return arabic
                        ? chainFaces[inPlace: face].arabicShaper!.shape(
                            glyphs: partGlyphs, clusters: partClusters, sources: sources.tail(from: start), count: end - start,
                            scalars: scalars, scale: scale) { chainFaces[inPlace: face].advance1616($0) }
                        : khmer ? chainFaces[inPlace: face].khmerShaper!.shape(
                            glyphs: partGlyphs, clusters: partClusters, sources: sources.tail(from: start), count: end - start,
                            scalars: scalars, scale: scale) { chainFaces[inPlace: face].advance1616($0) }
                        : chainFaces[inPlace: face].myanmarShaper!.shape(
                            glyphs: partGlyphs, clusters: partClusters, sources: sources.tail(from: start), count: end - start,
                            scalars: scalars, scale: scale) { chainFaces[inPlace: face].advance1616($0) }
                }
                for (_, cluster, advance) in shaped { advances[Int(cluster)] &+= Int32(clamping: advance) }
                if edges.first == UInt32.max { edges.first = Self.shapedFirstEdge }
                edges.last = Self.shapedLastEdge
                previousPlain = nil
            } else {
                let partGlyphs = glyphs.tail(from: start), partClusters = clusters.tail(from: start)
                var count = end - start
                chainFaces[inPlace: face].substitutions.apply(partGlyphs, clusters: partClusters, count: &count)
                if let previousPlain {
                    kernAfter[Int(partClusters[0]) - 1] &+= Int32(clamping: chainFaces[inPlace: face].kerning1616(previousPlain, partGlyphs[0]))
                }
                if edges.first == UInt32.max { edges.first = UInt32(runFace) << 16 | UInt32(partGlyphs[0]) }
                edges.last = UInt32(runFace) << 16 | UInt32(partGlyphs[count - 1])
                for i in 0..<count {
                    let glyph = partGlyphs[i], cluster = Int(partClusters[i])
                    advances[cluster] &+= Int32(clamping: chainFaces[inPlace: face].advance1616(glyph))
                    guard i + 1 < count else { continue }
                    let kern = Int32(clamping: chainFaces[inPlace: face].kerning1616(glyph, partGlyphs[i + 1]))
                    let next = Int(partClusters[i + 1])
                    if next == cluster { advances[cluster] &+= kern } else { kernAfter[next - 1] &+= kern }
                }
                previousPlain = partGlyphs[count - 1]
            }
            start = end
        }
        glyphCount = 0
        shapingSources.removeAll(keepingCapacity: true)
        runNeedsShaping = false
    }

    /// Edges of a shaped part (`Edges`): faces no real face has, different for a first and a
    /// last edge, so two pieces meeting there never kern.
    static let shapedFirstEdge: UInt32 = 0xFFFE_0000, shapedLastEdge: UInt32 = 0xFFFD_0000

    /// The grapheme of scalars `from..<to` (UTF-8 start `utf8`); `next` is the break opportunity
    /// after it, nil at the end of the text.
    mutating func addGrapheme(_ from: Int, _ to: Int, utf8: Int, next: LineBreakOpportunity?) {
        let g = graphemeCount
        graphemeCount += 1
        let first = scalars[from]
        let single = to - from == 1
        let isNewline = PixelPreparedText.isLineBreak(first)
        let isTab = single && first == 0x09
        // ASCII alone in its grapheme (most chat text) is looked up in the chain's table.
        let (faceIndex, glyph) = single && first < 0x80 ? chain.asciiFace(first) : chain.face(for: scalars.slice(from: from, count: to - from))
        let face = faceIndex
        starts[g] = utf8Offset &+ Int32(truncatingIfNeeded: utf8)
        advances[g] = 0
        kernAfter[g] = 0
        endTrim[g] = 0
        faces[g] = UInt8(truncatingIfNeeded: faceIndex)
        breakAfter[g] = (isNewline || next == .mandatory ? 2 : (next == nil || next == .allowed ? 1 : 0))
            | (isTab ? PixelPreparedText.tabFlag : 0)
        isSpace[g] = single && (first == 0x20 || first == 0x09 || isNewline)
        if chain.trimsPunctuation {
            // A trim between two graphemes counts only when both are on one line: kerning.
            let found = single ? chainFaces[inPlace: face].hanKerning.lookup(first) : (.other, 0, false)
            let trim = chainFaces[inPlace: face].scale.pixels1616(units: found.trim)
            if g > 0 {
                if HanKerning.trimsEnd(lastType, before: found.type) {
                    kernAfter[g - 1] &-= Int32(clamping: lastTrim)
                } else if HanKerning.trimsStart(found.type, after: lastType) {
                    kernAfter[g - 1] &-= Int32(clamping: trim)
                }
            }
            if found.trimsAtLineEnd && trim > 0 {
                hasEndTrim = true
                endTrim[g] = Int32(clamping: trim)
            }
            (lastType, lastTrim) = (found.type, trim)
        }
        // A newline, and a tab (a run of its own in Blink, as wide as its place on the line
        // makes it), end the glyph run and add no glyph: no kerning across them.
        if isNewline || isTab || faceIndex != runFace { finishRun() }
        if isTab { hasTabs = true }
        if isNewline || isTab { runFace = -1; return }
        runFace = faceIndex
        glyphs[glyphCount] = glyph
        clusters[glyphCount] = Int32(truncatingIfNeeded: g)
        glyphCount += 1
        let shapes = chainFaces[inPlace: face].arabicShaper != nil || chainFaces[inPlace: face].khmerShaper != nil
            || chainFaces[inPlace: face].myanmarShaper != nil
        if shapes {
            shapingSources.append(Int32(truncatingIfNeeded: from))
            if chainFaces[inPlace: face].arabicShaper != nil && ArabicShaper.shapes(first)
                || chainFaces[inPlace: face].khmerShaper != nil && KhmerShaper.shapes(first)
                || chainFaces[inPlace: face].myanmarShaper != nil && MyanmarShaper.shapes(first) { runNeedsShaping = true }
        }
        if !single && chainFaces[inPlace: face].font.bitmapAdvance(of: glyph) == nil {
            for k in (from + 1)..<to where !PixelPreparedText.isJoiner(scalars[k]) {
                if let extra = chainFaces[inPlace: face].font.glyph(for: Unicode.Scalar(scalars[k])!) {
                    glyphs[glyphCount] = extra
                    clusters[glyphCount] = Int32(truncatingIfNeeded: g)
                    glyphCount += 1
                    runHasExtraGlyphs = true
                    if shapes { shapingSources.append(Int32(truncatingIfNeeded: k)) }
                }
            }
        }
    }
}
