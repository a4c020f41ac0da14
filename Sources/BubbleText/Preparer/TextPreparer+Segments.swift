// Graphemes folded into the segment being built, and segments written as `PreparedStorage`
// records: what every path of the loop ends in.

extension TextPreparer {
    // MARK: Graphemes

    @inline(__always)
    mutating func startGrapheme(at offset: Int, _ scalar: UInt32, _ info: ScalarInfo) {
        grapheme.start = offset
        grapheme.width.start(scalar, info)
        if scalar == 0x20 {
            grapheme.kind = .space
        } else if scalar == 0x09 {
            grapheme.kind = .tab
        } else {
            switch info.lineBreakClass {
            case .bk, .cr, .lf, .nl: grapheme.kind = .lineBreak
            default: grapheme.kind = .content
            }
        }
    }

    @inline(__always)
    mutating func extendGrapheme(_ scalar: UInt32, _ info: ScalarInfo) {
        grapheme.width.extend(scalar, info)
        if grapheme.kind != .lineBreak { grapheme.kind = .content }  // a space with a mark is content
    }

    /// Folds the grapheme being read, which ends at `end`, into the segment: break characters
    /// into its break, spaces and tabs into its hang, anything else into its content (the hang
    /// before it becoming content too). Ends the segment first where the grapheme would take it
    /// past `PreparedSegment.maximumWidth`.
    @inline(__always)
    mutating func finishGrapheme(end: Int) {
        let length = end &- grapheme.start
        var width = grapheme.width.width
        switch grapheme.kind {
        case .lineBreak:
            segment.breakLength &+= length
            return
        case .space, .tab:
            if !segment.inHang {
                segment.hangStart = grapheme.start
                segment.contentGraphemeCount = segment.graphemeCount
                segment.contentSimple = segment.simple
                segment.contentMapEnd = graphemeMap.count
            }
            if grapheme.kind == .tab {
                segment.hasTab = true
                width = 0
                countTab()
            } else {
                segment.hangWidth &+= width
            }
        case .content:
            if segment.contentWidth &+ segment.hangWidth &+ width > PreparedSegment.maximumWidth && segment.graphemeCount > 0 {
                finishSegment(end: grapheme.start, mandatory: false)
            }
            if segment.inHang {
                // The hang's spaces become content: graphemes of one byte.
                if segment.simple && segment.unitLength != 1 && segment.graphemeCount > segment.contentGraphemeCount {
                    if segment.unitLength == 0 {
                        segment.unitLength = 1
                    } else {
                        segment.simple = false
                        writeUniformEntries(before: segment.graphemeCount)
                    }
                }
                segment.contentWidth &+= segment.hangWidth
                segment.hangStart = -1
                segment.hangWidth = 0
                if _slowPath(tabs.openHangTabs > 0) {
                    tabs.content &+= tabs.openHang
                    tabs.openHang = 0
                    tabs.openHangTabs = 0
                }
            }
            segment.contentWidth &+= width
        }
        segment.graphemeCount &+= 1
        let isTab = grapheme.kind == .tab
        if segment.simple {
            if width == 1 {
                if length == segment.unitLength { return }
                if grapheme.kind == .content {
                    if segment.unitLength == 0 && length < 64 {
                        segment.unitLength = length
                        return
                    }
                } else if !isTab {
                    return  // a space in the hang: one byte, one cell, counted if it becomes content
                }
            }
            segment.simple = false
            // (A segment's first grapheme has no entries before it to write: a wide character
            // or an emoji alone, the usual case, skips the call.)
            if segment.graphemeCount > 1 { writeUniformEntries(before: segment.graphemeCount &- 1) }
        }
        if length < 64 && width <= 2 && !isTab {
            graphemeMap.append(UInt8(truncatingIfNeeded: width << 6 | length))
        } else {
            GraphemeMap.append(length: length, width: width, isTab: isTab, to: &graphemeMap)
        }
    }

    /// `finishGrapheme(end:)`, with its commonest case first and inline: a grapheme of one
    /// cell in content whose graphemes so far are all one cell and of its length (a letter
    /// before punctuation or a space). Everything else takes the call.
    @_transparent
    mutating func finishGraphemeQuickly(end: Int) {
        let length = end &- grapheme.start
        if grapheme.kind == .content && grapheme.width.width == 1 && segment.simple && !segment.inHang
            && segment.contentWidth < PreparedSegment.maximumWidth
            && (length == segment.unitLength || (segment.unitLength == 0 && length < 64)) {
            segment.contentWidth &+= 1
            segment.graphemeCount &+= 1
            segment.unitLength = length
            return
        }
        finishGrapheme(end: end)
    }

    /// The map entries of the first `count` graphemes of a segment that was `simple` until now:
    /// its content graphemes, then the spaces of its hang, if it is in one.
    mutating func writeUniformEntries(before count: Int) {
        let contentCount = segment.inHang ? segment.contentGraphemeCount : count
        let entry = UInt8(truncatingIfNeeded: 1 << 6 | segment.unitLength)
        for _ in 0..<contentCount { graphemeMap.append(entry) }
        for _ in contentCount..<count { graphemeMap.append(1 << 6 | 1) }
    }

    /// Counts the tab being finished, in the hang, by the cells it takes at its column.
    mutating func countTab() {
        lines.sawTab = true
        let tabStop = max(1, options.tabStop)
        let column = lines.width &+ lines.hang &+ tabs.lineExtra &+ tabs.hangExtra
            &+ segment.contentWidth &+ tabs.content &+ segment.hangWidth &+ tabs.openHang
        tabs.openHang &+= tabStop &- column % tabStop
        tabs.openHangTabs &+= 1
    }

    // MARK: Segments

    /// `finishSegment(end:mandatory: false)`, with its commonest case inline: a segment whose
    /// content graphemes are all alike (so it has no map entries), with no tab and no break
    /// characters.
    @_transparent
    mutating func finishSegmentQuickly(end: Int) {
        if segment.simple && !segment.hasTab && segment.breakLength == 0 {
            let inHang = segment.inHang
            let graphemes = inHang ? segment.contentGraphemeCount : segment.graphemeCount
            writeSegment(contentEnd: inHang ? segment.hangStart : end, hangEnd: end, width: segment.contentWidth, breakLength: 0,
                         flags: graphemes <= 1 ? PreparedSegment.singleGraphemeBit : 0, mapBytes: 0)
            segment.startNext(mapStart: graphemeMap.count)
            return
        }
        finishSegment(end: end, mandatory: false)
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
        let hangEnd = end &- segment.breakLength
        let inHang = segment.inHang
        let contentEnd = inHang ? segment.hangStart : hangEnd
        let graphemes = inHang ? segment.contentGraphemeCount : segment.graphemeCount
        let graphemesSimple = inHang ? segment.contentSimple : segment.simple
        var flags: UInt32 = mandatory ? PreparedSegment.mandatoryBit : 0
        if graphemes <= 1 { flags |= PreparedSegment.singleGraphemeBit }
        var mapBytes = 0
        if segment.hasTab {
            // Tabs measure by column at layout time, which walks every grapheme, hang included.
            flags |= PreparedSegment.tabBit | PreparedSegment.graphemeMapBit
            mapBytes = graphemeMap.count &- segment.mapStart
        } else if graphemes > 1 && !graphemesSimple {
            flags |= PreparedSegment.graphemeMapBit
            let extra = graphemeMap.count &- (inHang ? segment.contentMapEnd : graphemeMap.count)
            if extra > 0 { graphemeMap.removeLast(extra) }
            mapBytes = graphemeMap.count &- segment.mapStart
        } else if graphemeMap.count > segment.mapStart {
            graphemeMap.removeLast(graphemeMap.count &- segment.mapStart)
        }
        writeSegment(contentEnd: contentEnd, hangEnd: hangEnd, width: segment.contentWidth,
                     breakLength: segment.breakLength, flags: flags, mapBytes: mapBytes)
        if mandatory {
            lines.widest = max(lines.widest, lines.width &+ tabs.lineExtra)
            lines.width = 0
            lines.hang = 0
            tabs.lineExtra = 0
            tabs.hangExtra = 0
            lines.sawMandatoryBreak = true
        }
        segment.startNext(mapStart: graphemeMap.count)
    }

    /// `finishSegment(end:mandatory:)` for a segment of finished content graphemes followed by
    /// the spaces `contentEnd..<end` (which hang, and whose graphemes are one byte and one cell,
    /// so they need no map entries), with no tab and no break characters.
    @inline(__always)
    mutating func finishWordSegment(contentEnd: Int, end: Int) {
        var flags: UInt32 = 0
        var mapBytes = 0
        if segment.graphemeCount <= 1 {
            flags = PreparedSegment.singleGraphemeBit
            graphemeMap.removeLast(graphemeMap.count &- segment.mapStart)
        } else if !segment.simple {
            flags = PreparedSegment.graphemeMapBit
            mapBytes = graphemeMap.count &- segment.mapStart
        }
        writeSegment(contentEnd: contentEnd, hangEnd: end, width: segment.contentWidth, breakLength: 0,
                     flags: flags, mapBytes: mapBytes)
        // Only what a word's segment changes (its hang is read by the run, not recorded here).
        segment.contentWidth = 0
        segment.graphemeCount = 0
        segment.simple = true
        segment.unitLength = 0
        segment.mapStart = graphemeMap.count
    }

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
        lines.lastContentEnd = contentEnd
        lines.width &+= lines.hang &+ width
        lines.hang = hang  // spaces, one byte and one cell each, and tabs, one byte each
        if _slowPath(lines.sawTab) {
            tabs.lineExtra &+= tabs.hangExtra &+ tabs.content
            tabs.hangExtra = tabs.openHang &- tabs.openHangTabs
            tabs.content = 0
            tabs.openHang = 0
            tabs.openHangTabs = 0
        }
    }

    @inline(__always)
    mutating func finish(end: Int) {
        finishGrapheme(end: end)
        closeSegment(end: end, mandatory: segment.breakLength > 0)
    }
}
