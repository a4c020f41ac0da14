import BubbleText

/// A text prepared in pixels: its graphemes' advances (16.16 px, kerning with the next grapheme
/// kept apart), the faces they use, and where lines may break. Laying out at a width is arithmetic
/// over these arrays.
public struct PixelPreparedText: Sendable {
    /// Per grapheme: UTF-8 start, advance and kerning after it (16.16 px), face index, and how it
    /// may end a line.
    var starts: [Int32] = []
    var advances: [Int32] = []
    var kernAfter: [Int32] = []
    var faces: [UInt8] = []
    /// What follows each grapheme: 0 no break, 1 a break is allowed, 2 a break is mandatory.
    var breakAfter: [UInt8] = []
    /// True for graphemes that are spaces, which hang at a line's end.
    var isSpace: [Bool] = []
    /// Per grapheme, what `text-spacing-trim` takes off a closing mark that ends a line (16.16
    /// px); empty when the text has none.
    var endTrim: [Int32] = []
    /// The text cut after every break opportunity into segments (words with their trailing
    /// spaces), so laying out steps a word at a time: where each ends (one past its last
    /// grapheme), its width with the kerning inside it (16.16 px), and its width up to its last
    /// non-space grapheme (-1 when it is all spaces).
    var segmentEnds: [Int32] = []
    var segmentWidths: [Int] = []
    var segmentVisible: [Int] = []
    var utf8Count = 0

    /// The width of the text on one line (its widest hard line, spaces included, as `white-space:
    /// pre` measures it), in LayoutUnits.
    public var naturalWidth: Int {
        var widest = 0, lineStart = 0
        for g in advances.indices where breakAfter[g] == 2 || g == advances.count - 1 {
            widest = max(widest, lineWidth(lineStart, g + 1, hangingSpaces: false))
            lineStart = g + 1
        }
        return widest
    }

    /// `text` prepared grapheme by grapheme, without the word cache (`PixelWordCache`).
    init(_ text: String, chain: FontChain) {
        var edges = Edges()
        self.init(scalars: Self.scalars(of: text), chain: chain, edges: &edges)
    }

    /// The first and last glyphs of a prepared text's glyph runs (face << 16 | glyph, after
    /// substitutions), so the kerning between two pieces prepared apart can be added where they
    /// meet. `UInt32.max` when there is none.
    struct Edges {
        var first = UInt32.max
        var last = UInt32.max
    }

    init(scalars: [UInt32], chain: FontChain, edges: inout Edges) {
        let opportunities = Self.blinkOpportunities(scalars)
        // Graphemes: their scalars, UTF-8 starts, faces, and glyphs (the base's, then each further
        // scalar's that the face covers; a colour-bitmap grapheme is one glyph).
        var graphemeScalars: [Range<Int>] = []
        graphemeScalars.reserveCapacity(scalars.count)
        starts.reserveCapacity(scalars.count)
        faces.reserveCapacity(scalars.count)
        breakAfter.reserveCapacity(scalars.count)
        isSpace.reserveCapacity(scalars.count)
        var breaker = GraphemeBreaker()
        var utf8 = 0
        var start = 0
        for (index, scalar) in scalars.enumerated() {
            if breaker.breaksBefore(UnicodeTables.info(scalar)) && index > 0 {
                graphemeScalars.append(start..<index)
                start = index
            }
            if start == index { starts.append(Int32(utf8)) }
            utf8 += scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x1_0000 ? 3 : 4
        }
        if !scalars.isEmpty { graphemeScalars.append(start..<scalars.count) }
        utf8Count = utf8

        var glyphs: [UInt16] = []
        var clusters: [Int] = []
        glyphs.reserveCapacity(scalars.count)
        clusters.reserveCapacity(scalars.count)
        var runFace = -1
        // Locals, not self's arrays: a nested function that captured self would copy every array of
        // the struct on each call, and each write would then copy again.
        var advances = [Int32](repeating: 0, count: graphemeScalars.count)
        var kernAfter = [Int32](repeating: 0, count: graphemeScalars.count)
        var endTrim: [Int32] = []
        // text-spacing-trim: the previous grapheme's type and trim (16.16 px).
        var lastType = HanKerning.CharType.other, lastTrim = 0
        let chainFaces = chain.faces
        func finishRun() {
            guard runFace >= 0, !glyphs.isEmpty else { return }
            // A colour-bitmap grapheme is already its one glyph: ligatures there could only join two
            // graphemes, as 🇺🇸🇬🇧 (regional indicators U, G left) would become Uganda's flag.
            // (The face is read in place: a copy would retain each of its tables.)
            if !chainFaces[runFace].font.hasColorBitmaps { chainFaces[runFace].substitutions.apply(&glyphs, clusters: &clusters) }
            if edges.first == UInt32.max { edges.first = UInt32(runFace) << 16 | UInt32(glyphs[0]) }
            edges.last = UInt32(runFace) << 16 | UInt32(glyphs[glyphs.count - 1])
            for (i, glyph) in glyphs.enumerated() {
                advances[clusters[i]] &+= Int32(clamping: chainFaces[runFace].advance1616(glyph))
                guard i + 1 < glyphs.count else { continue }
                let kern = Int32(clamping: chainFaces[runFace].kerning1616(glyph, glyphs[i + 1]))
                // Kerning inside a cluster widens it; between clusters it sits between graphemes.
                if clusters[i + 1] == clusters[i] { advances[clusters[i]] &+= kern } else { kernAfter[clusters[i + 1] - 1] &+= kern }
            }
            glyphs.removeAll(keepingCapacity: true)
            clusters.removeAll(keepingCapacity: true)
        }
        for (g, range) in graphemeScalars.enumerated() {
            let first = scalars[range.lowerBound]
            let single = range.count == 1
            let isNewline = Self.isLineBreak(first)
            // ASCII alone in its grapheme (most chat text) is looked up in the chain's table without
            // slicing the scalars (a slice retains their buffer).
            let (faceIndex, glyph) = single && first < 0x80 ? chain.asciiFace(first) : chain.face(for: scalars[range])
            faces.append(UInt8(faceIndex))
            let end = range.upperBound
            let nextBreak = end < opportunities.count ? opportunities[end] : .mandatory
            breakAfter.append(isNewline || (end < opportunities.count && nextBreak == .mandatory) ? 2
                              : (end == scalars.count || nextBreak == .allowed ? 1 : 0))
            isSpace.append(single && (first == 0x20 || first == 0x09 || isNewline))
            if chain.trimsPunctuation {
                // A trim between two graphemes counts only when both are on one line: kerning.
                let face = chain.faces[faceIndex]
                let found = single ? face.hanKerning.lookup(first) : (.other, 0, false)
                let trim = face.scale.pixels1616(units: found.trim)
                if g > 0 {
                    if HanKerning.trimsEnd(lastType, before: found.type) {
                        kernAfter[g - 1] &-= Int32(clamping: lastTrim)
                    } else if HanKerning.trimsStart(found.type, after: lastType) {
                        kernAfter[g - 1] &-= Int32(clamping: trim)
                    }
                }
                if found.trimsAtLineEnd && trim > 0 {
                    if endTrim.isEmpty { endTrim = [Int32](repeating: 0, count: graphemeScalars.count) }
                    endTrim[g] = Int32(clamping: trim)
                }
                (lastType, lastTrim) = (found.type, trim)
            }
            if isNewline || faceIndex != runFace { finishRun() }
            if isNewline { runFace = -1; continue }
            runFace = faceIndex
            glyphs.append(glyph)
            clusters.append(g)
            if !single && chain.faces[faceIndex].font.bitmapAdvance(of: glyph) == nil {
                for scalar in scalars[range].dropFirst() where !Self.isJoiner(scalar) {
                    if let extra = chain.faces[faceIndex].font.glyph(for: Unicode.Scalar(scalar)!) {
                        glyphs.append(extra)
                        clusters.append(g)
                    }
                }
            }
        }
        finishRun()
        self.advances = advances
        self.kernAfter = kernAfter
        self.endTrim = endTrim
        // Segments, from local copies read through buffers (no bounds checks, no uniqueness checks).
        let count = advances.count
        var ends = [Int32](repeating: 0, count: count), widths = [Int](repeating: 0, count: count)
        var visibles = [Int](repeating: 0, count: count)
        var segmentCount = 0
        advances.withUnsafeBufferPointer { advances in
        kernAfter.withUnsafeBufferPointer { kernAfter in
        breakAfter.withUnsafeBufferPointer { breakAfter in
        isSpace.withUnsafeBufferPointer { isSpace in
        ends.withUnsafeMutableBufferPointer { ends in
        widths.withUnsafeMutableBufferPointer { widths in
        visibles.withUnsafeMutableBufferPointer { visibles in
            var width = 0, visible = -1
            for g in 0..<count {
                width &+= Int(advances[g])
                if !isSpace[g] { visible = width }
                if breakAfter[g] == 0 {
                    width &+= Int(kernAfter[g])  // the kerning inside the segment
                    continue
                }
                ends[segmentCount] = Int32(g + 1)
                widths[segmentCount] = width
                visibles[segmentCount] = visible
                segmentCount += 1
                (width, visible) = (0, -1)
            }
        }}}}}}}
        ends.removeLast(count - segmentCount)
        widths.removeLast(count - segmentCount)
        visibles.removeLast(count - segmentCount)
        segmentEnds = ends
        segmentWidths = widths
        segmentVisible = visibles
    }

    /// `text` prepared a word at a time through `table` (`PixelWordCache`): the same arrays as
    /// `init(_:chain:)` gives, element for element.
    init(_ text: String, chain: FontChain, table: WordTable) {
        guard chain.cutsAtSpaces else { self = PixelPreparedText(text, chain: chain); return }
        // The state is taken out of the class for the text: its stored properties would pay a
        // dynamic exclusivity check on each access.
        var state = table.state
        var text = text
        let (utf8, hasEndTrim) = text.withUTF8 { state.assemble($0, chain: chain) }
        starts = state.text.starts.array
        advances = state.text.advances.array
        kernAfter = state.text.kernAfter.array
        faces = state.text.faces.array
        breakAfter = state.text.breakAfter.array
        isSpace = state.text.isSpace.array
        endTrim = hasEndTrim ? state.text.endTrim.array : []
        segmentEnds = state.text.segmentEnds.array
        segmentWidths = state.text.segmentWidths.array
        segmentVisible = state.text.segmentVisible.array
        utf8Count = utf8
        table.state = state
    }

    /// UAX #14's opportunities, with Blink's own table between two ASCII characters.
    /// `text`'s scalars, decoded from its UTF-8 (valid, as every `String` is) in one pass.
    static func scalars(of text: String) -> [UInt32] {
        var text = text
        return text.withUTF8 { scalars(utf8: $0) }
    }

    /// The scalars of valid UTF-8 `bytes`.
    static func scalars(utf8 bytes: UnsafeBufferPointer<UInt8>) -> [UInt32] {
        [UInt32](unsafeUninitializedCapacity: bytes.count) { buffer, count in
                var i = 0, n = 0
                while i < bytes.count {
                    let lead = UInt32(bytes[i])
                    if lead < 0x80 {
                        buffer[n] = lead
                        i += 1
                    } else if lead < 0xE0 {
                        buffer[n] = (lead & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
                        i += 2
                    } else if lead < 0xF0 {
                        buffer[n] = (lead & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
                        i += 3
                    } else {
                        buffer[n] = (lead & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
                            | UInt32(bytes[i + 3] & 0x3F)
                        i += 4
                    }
                    n += 1
                }
                count = n
            }
    }

    static func blinkOpportunities(_ scalars: [UInt32]) -> [LineBreakOpportunity] {
        // Printable ASCII only: Blink's own table decides every pair, and UAX #14 is not needed.
        if scalars.allSatisfy({ $0 &- 0x20 < 0x5F }) {
            var opportunities = [LineBreakOpportunity](repeating: .prohibited, count: scalars.count)
            for i in scalars.indices.dropFirst() where asciiBreakAllowed(scalars, i) { opportunities[i] = .allowed }
            return opportunities
        }
        // Chromium's line-break: auto lets a line start with a small kana or the prolonged sound
        // mark (Line_Break CJ as ID, UAX #14's "normal" tailoring); the tables resolve CJ to NS.
        var opportunities = scalars.contains(where: HanKerning.isConditionalJapaneseStarter)
            ? LineBreaker.opportunities(in: scalars.map { HanKerning.isConditionalJapaneseStarter($0) ? 0x3042 : $0 })
            : LineBreaker.opportunities(in: scalars)
        for i in scalars.indices.dropFirst() {
            let a = scalars[i - 1], b = scalars[i]
            guard (0x20...0x7E).contains(a), (0x20...0x7E).contains(b) else { continue }
            opportunities[i] = asciiBreakAllowed(scalars, i) ? .allowed : .prohibited
        }
        return opportunities
    }

    /// Blink's table for the pair before `scalars[i]`, both printable ASCII.
    @inline(__always)
    static func asciiBreakAllowed(_ scalars: [UInt32], _ i: Int) -> Bool {
        asciiBreakAllowed(i >= 2 ? scalars[i - 2] : 0x20, scalars[i - 1], scalars[i])
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
        forEachLine(width: width) { start, end, lineWidth in
            let from = start < starts.count ? Int(starts[start]) : utf8Count
            let to = end < starts.count ? Int(starts[end]) : utf8Count
            lines.append(TextLine(utf8Range: from..<max(from, to), width: lineWidth))
            widest = max(widest, lineWidth)
        }
        return TextLayout(lines: lines, widestLine: widest)
    }

    /// The line count and widest line at `width`, without building the lines.
    public func metrics(width: Int) -> TextMetrics {
        var lineCount = 0, widest = 0
        forEachLine(width: width) { _, _, lineWidth in
            lineCount += 1
            widest = max(widest, lineWidth)
        }
        return TextMetrics(lineCount: lineCount, widestLine: widest)
    }

    /// The faces used on each line at `width`.
    func lineFaces(width: Int) -> [Set<Int>] {
        var result: [Set<Int>] = []
        forEachLine(width: width) { start, end, _ in
            var used: Set<Int> = [0]  // the primary font's strut is always on the line
            for g in start..<end where !isSpace[g] { used.insert(Int(faces[g])) }
            result.append(used)
        }
        return result
    }

    /// Width in LayoutUnits of graphemes `start..<end`: the 16.16 sum rounded up once for the line
    /// (rounding each font run on its own matches Chromium less often). Trailing spaces hang, and
    /// do not count, unless `hangingSpaces` is false.
    private func lineWidth(_ start: Int, _ end: Int, hangingSpaces: Bool = true) -> Int {
        FontScale.layoutUnits(lineWidth1616(start, end, hangingSpaces: hangingSpaces))
    }

    /// `lineWidth` before rounding: 16.16 px.
    private func lineWidth1616(_ start: Int, _ end: Int, hangingSpaces: Bool = true) -> Int {
        var last = end
        while last > start && (isSpace[last - 1] && (hangingSpaces || breakAfter[last - 1] == 2)) { last -= 1 }
        var total = 0
        for g in start..<last {
            total += Int(advances[g])
            if g + 1 < last { total += Int(kernAfter[g]) }
        }
        return total
    }

    /// What `text-spacing-trim` takes off a line ending after grapheme `g` that would not fit
    /// otherwise: a closing mark's blank half (16.16 px), 0 for anything else.
    @inline(__always)
    private func lineEndTrim(_ g: Int) -> Int { g < endTrim.count ? Int(endTrim[g]) : 0 }

    /// Whether a line this wide fits: Chromium allows one LayoutUnit of slack.
    private func fits(_ width: Int, _ available: Int) -> Bool { width <= available + 1 }

    /// The LayoutUnit width of a line of a word split at graphemes, `total` 16.16 px wide without
    /// its trailing spaces: Chromium lays such a line out again with a break after every grapheme,
    /// so a closing mark (`trim`) may end it trimmed.
    @inline(__always)
    private func splitWidth(_ total: Int, trim: Int, _ available: Int) -> Int {
        let width = FontScale.layoutUnits(total)
        guard trim != 0, !fits(width, available) else { return width }
        let trimmed = FontScale.layoutUnits(total - trim)
        return fits(trimmed, available) ? trimmed : width
    }

    /// Calls `body(start, end, width)` for each line: grapheme indices and LayoutUnit width. One
    /// pass: the line's 16.16 width grows grapheme by grapheme, and the width up to its last
    /// non-space grapheme is what a break is tested with (spaces hang).
    @inline(__always)
    private func forEachLine(width available: Int, _ body: (Int, Int, Int) -> Void) {
        let count = advances.count
        if count == 0 { body(0, 0, 0); return }
        advances.withUnsafeBufferPointer { advances in
        kernAfter.withUnsafeBufferPointer { kernAfter in
        breakAfter.withUnsafeBufferPointer { breakAfter in
        isSpace.withUnsafeBufferPointer { isSpace in
        segmentEnds.withUnsafeBufferPointer { segmentEnds in
        segmentWidths.withUnsafeBufferPointer { segmentWidths in
        segmentVisible.withUnsafeBufferPointer { segmentVisible in
            var lineStart = 0
            // The segment the line starts in: lines start where segments do, except after a
            // word split at graphemes.
            var segment = 0
            while lineStart < count {
                var lineEnd = lineStart, lineEndWidth = 0
                // The first segment after the line when it ends at a segment's end, so the next
                // line does not step over this one's segments again.
                var after = segment
                if segment < segmentEnds.count && (segment == 0 ? 0 : Int(segmentEnds[segment - 1])) == lineStart {
                    // Whole words while they fit; a mandatory break ends the line.
                    var running = 0, visible = 0
                    var s = segment
                    while s < segmentEnds.count {
                        let end = Int(segmentEnds[s])
                        if s > segment { running &+= Int(kernAfter[Int(segmentEnds[s - 1]) - 1]) }
                        if segmentVisible[s] >= 0 { visible = running &+ segmentVisible[s] }
                        running &+= segmentWidths[s]
                        let g = end - 1
                        // A mandatory break's own space (a newline) hangs too.
                        let width = FontScale.layoutUnits(visible)
                        guard fits(width, available) else {
                            // A closing mark that ends the line gives back its blank half when
                            // that makes the line fit (text-spacing-trim); the line ends there.
                            let trimmed = FontScale.layoutUnits(visible - lineEndTrim(g))
                            if trimmed < width && fits(trimmed, available) {
                                lineEnd = end
                                lineEndWidth = trimmed
                                after = s + 1
                            }
                            break
                        }
                        lineEnd = end
                        lineEndWidth = width
                        after = s + 1
                        if breakAfter[g] == 2 { break }
                        s += 1
                    }
                } else {
                    // A line starting inside a segment: grapheme by grapheme.
                    var running = 0, visible = 0
                    var g = lineStart
                    while g < count {
                        if g > lineStart { running &+= Int(kernAfter[g - 1]) }
                        running &+= Int(advances[g])
                        if !isSpace[g] { visible = running }
                        if breakAfter[g] != 0 {
                            let width = FontScale.layoutUnits(visible)
                            guard fits(width, available) else {
                                let trimmed = FontScale.layoutUnits(visible - lineEndTrim(g))
                                if trimmed < width && fits(trimmed, available) {
                                    lineEnd = g + 1
                                    lineEndWidth = trimmed
                                }
                                break
                            }
                            lineEnd = g + 1
                            lineEndWidth = width
                            if breakAfter[g] == 2 { break }
                        }
                        g += 1
                    }
                }
                if lineEnd == lineStart {
                    // The first word does not fit on an empty line: split it at graphemes, at least
                    // one grapheme a line (overflow-wrap: break-word).
                    var wordEnd = lineStart
                    while wordEnd < count && breakAfter[wordEnd] == 0 { wordEnd += 1 }
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
                        guard fits(splitWidth(grown, trim: lineEndTrim(g), available), available) else { break }
                        visible = grown
                        lineEnd += 1
                    }
                    lineEndWidth = splitWidth(visible, trim: lineEndTrim(lineEnd - 1), available)
                }
                body(lineStart, lineEnd, lineEndWidth)
                lineStart = lineEnd
                segment = after
                while segment < segmentEnds.count && Int(segmentEnds[segment]) <= lineStart { segment += 1 }
            }
        }}}}}}}
    }
}
