// The loop's fast paths: runs of plain letters (and the spaces between words), and runs of plain
// wide scalars, written straight into segments; and the scalar classes that may take them. Each
// leaves the machines and the open grapheme as feeding the run's scalars one by one would have
// (`PrepareFastPathTests` compares the two).

extension TextPreparer {
    // MARK: Letter runs

    /// Reads the plain letters that follow the one at `start` (whose line-break step is done and
    /// whose previous grapheme is finished): each finishes the one before as a one-cell grapheme,
    /// with no break opportunity between them (LB28) and nothing for either machine to track.
    /// Marks on a letter that keep it one cell wide are read into its grapheme (up to 63 bytes).
    /// Spaces followed by another plain letter are read too: they hang at the end of the word's
    /// segment and a line may break after them (LB18, AL SP* ÷ AL), so prose stays in this loop.
    /// Leaves the last letter as the grapheme being read and returns the offset after it,
    /// whether spaces came right before that letter, and the line-break classes (AL or HL) of
    /// the last letter and the one before it (for LB21a and LB21b after the run). No letter at or
    /// after `stop` (the next dictionary break, or `count`) is read.
    @inline(always)
    mutating func readLetterRun(_ base: ElementsView<UInt8>, count: Int, stop: Int, start: Int, _ scalar: UInt32, _ length: Int,
                                _ info: ScalarInfo, plainASCIILetters: (UInt64, UInt64), tables: PreparerTables)
        -> (end: Int, afterSpaces: Bool, lastClass: UInt32, beforeLastClass: UInt32) {
        let (plainLow, plainHigh) = plainASCIILetters
        let alphabetic = UInt32(LineBreakClass.al.rawValue)
        var lastClass = UInt32(info.lineBreakClass.rawValue)
        var beforeLastClass = alphabetic  // unused unless another letter follows
        var current = start
        var currentLength = length
        var next = start &+ length
        var scalars = 1
        var afterSpaces = false
        // At the widest segment the general path splits it; the run stops there and lets it.
        while next < stop && segment.contentWidth < PreparedSegment.maximumWidth {
            let lead = base[next]
            var nextLength = 1
            if lead < 0x80 {
                let bits = lead < 64 ? plainLow : plainHigh
                if (bits &>> UInt64(lead & 63)) & 1 == 0 {
                    // (A segment with a tab keeps map entries for its hang: the general path.)
                    guard lead == 0x20 && !segment.hasTab else { break }
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
                        wordClass = UInt32(wordInfo.lineBreakClass.rawValue)
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
                // A run of ASCII letters: each finishes the one before it as a grapheme of one
                // byte and one cell. Found a byte at a time, then counted into the segment at
                // once while its graphemes are all of that size (as they are in an ASCII word).
                let widthBefore = segment.contentWidth
                finishPlainLetter(length: currentLength)
                let limit = min(stop, next &+ (PreparedSegment.maximumWidth &- widthBefore))
                var end = next &+ 1
                // Eight bytes at a time while they are ASCII letters (`PreparerTables` checks
                // that they are all plain), the rest a byte at a time.
                while end &+ 8 <= limit {
                    let word = base.word(at: end)
                    let notLetters = Self.asciiNonLetterBits(word)
                    if notLetters == 0 {
                        end &+= 8
                        continue
                    }
                    end &+= notLetters.trailingZeroBitCount &>> 3
                    break
                }
                while end < limit {
                    let byte = base[end]
                    guard byte < 0x80 && ((byte < 64 ? plainLow : plainHigh) &>> UInt64(byte & 63)) & 1 != 0 else { break }
                    end &+= 1
                }
                let more = end &- next &- 1
                if more > 0 {
                    if segment.simple && segment.unitLength == 1 {
                        segment.contentWidth &+= more
                        segment.graphemeCount &+= more
                    } else {
                        for _ in 0..<more { finishPlainLetter(length: 1) }
                    }
                    beforeLastClass = alphabetic
                } else {
                    beforeLastClass = lastClass
                }
                lastClass = alphabetic
                current = end &- 1
                currentLength = 1
                scalars &+= end &- next
                next = end
                afterSpaces = false
                continue
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
                lastClass = UInt32(nextInfo.lineBreakClass.rawValue)
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
        grapheme.start = current
        grapheme.kind = .content
        grapheme.width.start(lastScalar, tables.info(lastScalar))
        return (next, afterSpaces, lastClass, beforeLastClass)
    }

    /// The high bit of each byte of `word` (eight bytes of text, the first lowest) that is not
    /// an ASCII letter, or a mask whose lowest set bit is right at least: every byte below the
    /// first that is not a letter is one, and a carry runs only upwards, from the bytes above it.
    @inline(__always)
    static func asciiNonLetterBits(_ word: UInt64) -> UInt64 {
        let folded = word | 0x2020_2020_2020_2020  // upper case onto lower case
        let atLeastA = folded &+ 0x1F1F_1F1F_1F1F_1F1F  // bytes from 0x61 set their high bit
        let pastZ = folded &+ 0x0505_0505_0505_0505  // bytes from 0x7B set theirs
        return (word | pastZ | ~atLeastA) & 0x8080_8080_8080_8080
    }

    /// Finishes the grapheme being read, known to be one plain letter of `length` bytes, with the
    /// hang already closed and the segment below its widest.
    @inline(__always)
    mutating func finishPlainLetter(length: Int) {
        segment.contentWidth &+= 1
        segment.graphemeCount &+= 1
        if segment.simple {
            if length == segment.unitLength { return }
            if segment.unitLength == 0 && length < 64 {
                segment.unitLength = length
                return
            }
            segment.simple = false
            writeUniformEntries(before: segment.graphemeCount &- 1)
        }
        graphemeMap.append(UInt8(truncatingIfNeeded: 1 << 6 | length))
    }

    // MARK: Wide runs

    /// Reads the run of plain wide scalars (ideographs, kana, Hangul syllables, emoji) that starts with
    /// the one at `start`, which the general path has just fed to both machines and started as a
    /// grapheme. Between two of them a grapheme always ends and a line may always break (LB31),
    /// so each one but the last becomes a one-grapheme segment of width 2, written directly.
    /// Leaves both machines and the grapheme being read as if the general path had read the
    /// run, and returns the offset after it.
    @inline(__always)
    mutating func readWideRun(_ base: ElementsView<UInt8>, count: Int, start: Int, _ info: ScalarInfo, _ length: Int,
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
                if segment.graphemeCount == 0 && segment.breakLength == 0 && !segment.hasTab && grapheme.kind == .content
                    && grapheme.width.width == 2 {
                    // The first scalar is a segment of its own (no hang: nothing followed it),
                    // as the run's others are: write it as they are written.
                    writeSegment(contentEnd: next, hangEnd: next, width: 2, breakLength: 0,
                                 flags: PreparedSegment.singleGraphemeBit, mapBytes: 0)
                    segment.startNext(mapStart: graphemeMap.count)
                } else {
                    // The segment may hold more than the first scalar ("「漢"): finish it in full.
                    finishGrapheme(end: next)
                    finishSegment(end: next, mandatory: false)
                }
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
            grapheme.start = current
            grapheme.kind = .content
            grapheme.width.start(lastScalar, currentInfo)
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
            lines.lastContentEnd = end
            lines.width &+= lines.hang &+ count &* 2
            lines.hang = 0
            if _slowPath(lines.sawTab) {
                tabs.lineExtra &+= tabs.hangExtra
                tabs.hangExtra = 0
            }
        }
    }

    // MARK: Scalar classes the fast paths take
    //
    // Each is one or two masked compares over `ScalarInfo.raw`, with the fields named by the
    // masks of `ScalarInfo+Fields.swift`.

    /// Grapheme-break property Other, LV or LVT (Hangul syllables), not Extended_Pictographic,
    /// and a line-break class that needs no special handling (none of BK, CR, LF, NL, ZW, SP, CM,
    /// ZWJ): whether a grapheme starts before it is the pair rules' answer (`joins`), and the
    /// pair table decides its break.
    @inline(__always)
    static func isSimple(_ info: ScalarInfo) -> Bool {
        let special: UInt64 = 1 << LineBreakClass.bk.rawValue | 1 << LineBreakClass.cr.rawValue
            | 1 << LineBreakClass.lf.rawValue | 1 << LineBreakClass.nl.rawValue | 1 << LineBreakClass.zw.rawValue
            | 1 << LineBreakClass.sp.rawValue | 1 << LineBreakClass.cm.rawValue | 1 << LineBreakClass.zwj.rawValue
        guard !info.isExtendedPictographic && isOtherOrHangulSyllable(info) else { return false }
        return (special &>> UInt64(info.lineBreakClass.rawValue)) & 1 == 0
    }

    /// Line-break class CM, grapheme-break property Extend or SpacingMark, not
    /// Extended_Pictographic: a combining mark, which joins whatever plain letter precedes it.
    @inline(__always)
    static func isPlainMark(_ info: ScalarInfo) -> Bool {
        guard info.raw & (ScalarInfo.lineBreakMask | ScalarInfo.extendedPictographicBit) == ScalarInfo.field(lineBreak: .cm) else { return false }
        let property = info.raw & ScalarInfo.graphemeBreakMask
        return property == ScalarInfo.field(graphemeBreak: .extend) || property == ScalarInfo.field(graphemeBreak: .spacingMark)
    }

    /// `isPlainMark(_:)`, neither a control nor an emoji, and of no width or one unambiguous
    /// cell: on a one-cell letter it leaves the grapheme one cell wide.
    @inline(__always)
    static func isNarrowPlainMark(_ info: ScalarInfo) -> Bool {
        guard isPlainMark(info) && !info.isNeutralisedControl && !info.isEmojiPresentation else { return false }
        let width = info.width
        return width == 0 || (width == 1 && !info.isAmbiguous)
    }

    /// Line-break class ID, EB, H2 or H3; grapheme-break property Other, LV or LVT; two cells;
    /// and none of the flags any rule looks at besides East Asian F/W/H, or else both
    /// Extended_Pictographic and Emoji_Presentation (an assigned emoji such as 😂 or 👋).
    /// Between two of them a grapheme ends (GB999) and a line may break (LB31); what may join
    /// an emoji (ZWJ, VS16, a skin tone, a keycap mark) is none of them and ends the run, where
    /// both machines are fed the emoji.
    @inline(__always)
    static func isPlainWide(_ info: ScalarInfo) -> Bool {
        let masked = info.raw & wideMask
        guard masked == ScalarInfo.field(width: 2) || masked == wideEmojiPattern else { return false }
        let lineBreak = info.lineBreakClass
        guard lineBreak == .id || lineBreak == .h2 || lineBreak == .h3 || lineBreak == .eb else { return false }
        return isOtherOrHangulSyllable(info)
    }

    /// Grapheme-break property Other, LV or LVT.
    @inline(__always)
    static func isOtherOrHangulSyllable(_ info: ScalarInfo) -> Bool {
        let property = info.raw & ScalarInfo.graphemeBreakMask
        return property == ScalarInfo.field(graphemeBreak: .other) || property == ScalarInfo.field(graphemeBreak: .lv) || property == ScalarInfo.field(graphemeBreak: .lvt)
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

    /// The fields `isPlainWide(_:)` looks at besides the classes: the width and every flag but
    /// East Asian F/W/H.
    static let wideMask: UInt32 = ScalarInfo.widthMask | ScalarInfo.ambiguousBit | ScalarInfo.neutralisedControlBit
        | ScalarInfo.extendedPictographicBit | ScalarInfo.emojiPresentationBit | ScalarInfo.unassignedPictographicBit
        | ScalarInfo.emojiModifierBit
    /// Two cells, Extended_Pictographic, Emoji_Presentation (see `isPlainWide(_:)`).
    static let wideEmojiPattern: UInt32 = ScalarInfo.field(width: 2) | ScalarInfo.extendedPictographicBit
        | ScalarInfo.emojiPresentationBit
    /// The fields `isPlainLetter(_:)` looks at: both classes, the width and every flag (a flag
    /// added later keeps its scalars off the letter runs until they are taught about it).
    static let plainLetterMask: UInt32 = ScalarInfo.graphemeBreakMask | ScalarInfo.lineBreakMask | ScalarInfo.widthMask
        | ScalarInfo.flagsMask
    static let plainLetterPattern = ScalarInfo.field(lineBreak: .al) | ScalarInfo.field(graphemeBreak: .other) | ScalarInfo.field(width: 1)
    /// Hebrew letters (HL) pair like AL everywhere but LB21a and LB21b, which look at the class
    /// the run leaves behind (`LineBreaker.endLetterRun`), so they take the same runs.
    static let plainHebrewLetterPattern = ScalarInfo.field(lineBreak: .hl) | ScalarInfo.field(graphemeBreak: .other) | ScalarInfo.field(width: 1)
}
