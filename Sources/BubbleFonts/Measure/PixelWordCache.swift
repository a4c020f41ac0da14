import BubbleText
import Synchronization

/// Words already prepared in pixels, so a word seen before costs a hash lookup and a copy instead
/// of segmentation, line breaking, font fallback, substitution and kerning (pretext measures each
/// word once per font, and Blink keeps a word shape cache for the same reason).
///
/// A "word" here is a piece of text cut after a space (U+0020), before printable ASCII or before
/// another scalar that starts a grapheme there and that UAX #14 does not attach to what is before
/// (`WordTableState.startsPiece`): there every rule that prepares text is local (graphemes break,
/// line-breaking rules see the same before the piece as at a text's start, no `text-spacing-trim`
/// type crosses a space, and `FontChain.cutsAtSpaces` checks that no ligature takes in a space),
/// so a piece prepared on its own is the whole text's piece, except for what is added where two
/// pieces meet: the break there (Blink's table before ASCII, else UAX #14, whose answer after the
/// spaces that end a piece is the line breaker's after that piece, kept with it), the kerning
/// between the last glyph of one and the first of the next when they share a face, and the merge
/// of the two segments when no break is allowed between them. A new piece is prepared in one pass
/// straight into the table's columns (`PreparedColumns.appendPrepared`).
///
/// One cache per `PixelMeasurer` (so per font chain, size, script and language). It is a pool of
/// tables: a prepare takes one, uses it alone and gives it back, so measurers shared by threads
/// never wait on each other for more than the take and the give. Each table keeps at most 8,192
/// words of at most 1,024 UTF-8 bytes, 262,144 bytes of keys and 131,072 graphemes and segments
/// (about 6 MiB when full), and is emptied when one more word might pass a limit: simple, bounded,
/// and the words that matter come back at once. The scratch space a text is assembled in grows to
/// the longest text prepared. At most 16 tables are kept.
final class PixelWordCache: Sendable {
    private let tables = Mutex<[WordTable]>([])
    static let maximumTables = 16

    init() {}

    /// How many times a table was emptied because it was full (for tests).
    var emptied: Int { tables.withLock { $0.reduce(0) { $0 + $1.emptied } } }

    /// Runs `body` with a table of its own.
    func withTable<R>(_ body: (WordTable) -> R) -> R {
        let table = tables.withLock { $0.popLast() } ?? WordTable()
        defer { tables.withLock { if $0.count < Self.maximumTables { $0.append(table) } } }
        return body(table)
    }
}

/// Growable storage written and read in place (a `MutableElementsView` of its capacity: no
/// uniqueness or bounds checks in release builds, each index asserted in debug builds). Its owner
/// frees it.
struct WordBuffer<Element: BitwiseCopyable> {
    /// The storage: `capacity` elements, the first `count` in use.
    private(set) var base: MutableElementsView<Element>
    var count = 0

    init(capacity: Int) {
        base = .allocate(capacity: capacity)
    }

    /// Elements there is room for.
    @inline(__always)
    var capacity: Int { base.count }

    /// The elements in use, read only.
    @inline(__always)
    var prefix: ElementsView<Element> { ElementsView(base.slice(from: 0, count: count)) }

    /// Room for `extra` more elements.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        let grown = MutableElementsView<Element>.allocate(capacity: max(needed, capacity * 2))
        grown.copy(from: prefix)
        base.deallocate()
        base = grown
    }

    /// Appends `source` (room reserved).
    @inline(__always)
    mutating func append(_ source: ElementsView<Element>) {
        base.tail(from: count).copy(from: source)
        count += source.count
    }

    func free() { base.deallocate() }
}

/// The columns of prepared text (`PixelPreparedText`'s), as growable buffers: a text is assembled
/// here, and each word the table keeps lives in one.
struct PreparedColumns {
    var starts = WordBuffer<Int32>(capacity: 256)
    var advances = WordBuffer<Int32>(capacity: 256)
    var kernAfter = WordBuffer<Int32>(capacity: 256)
    var endTrim = WordBuffer<Int32>(capacity: 256)
    var faces = WordBuffer<UInt8>(capacity: 256)
    var breakAfter = WordBuffer<UInt8>(capacity: 256)
    var isSpace = WordBuffer<Bool>(capacity: 256)
    var segmentEnds = WordBuffer<Int32>(capacity: 256)
    var segmentWidths = WordBuffer<Int>(capacity: 256)
    var segmentVisible = WordBuffer<Int>(capacity: 256)

    var graphemeCount: Int { advances.count }

    mutating func reserve(graphemes: Int, segments: Int) {
        starts.reserve(graphemes)
        advances.reserve(graphemes)
        kernAfter.reserve(graphemes)
        endTrim.reserve(graphemes)
        faces.reserve(graphemes)
        breakAfter.reserve(graphemes)
        isSpace.reserve(graphemes)
        segmentEnds.reserve(segments)
        segmentWidths.reserve(segments)
        segmentVisible.reserve(segments)
    }

    mutating func removeAll() { setCounts(graphemes: 0, segments: 0, endTrim: 0) }

    /// Sets every column's count (room reserved): a text is assembled through pointers, and its
    /// counts set once.
    mutating func setCounts(graphemes: Int, segments: Int, endTrim trims: Int) {
        starts.count = graphemes; advances.count = graphemes; kernAfter.count = graphemes; endTrim.count = trims
        faces.count = graphemes; breakAfter.count = graphemes; isSpace.count = graphemes
        segmentEnds.count = segments; segmentWidths.count = segments; segmentVisible.count = segments
    }

    func free() {
        starts.free(); advances.free(); kernAfter.free(); endTrim.free(); faces.free()
        breakAfter.free(); isSpace.free(); segmentEnds.free(); segmentWidths.free(); segmentVisible.free()
    }
}

/// One table of the cache, as the pool hands it out.
final class WordTable: @unchecked Sendable {  // one thread at a time: the pool hands it out
    private var state = WordTableState()
    deinit { state.free() }

    /// Runs `body` on the table's state: one exclusive access for the whole text, where each access
    /// to a class's stored property would pay a dynamic exclusivity check, and a copy of the state
    /// would share its arrays (each append would then copy them).
    func withState<R>(_ body: (inout WordTableState) -> R) -> R { body(&state) }

    /// How many times the table was emptied because it was full.
    var emptied: Int { state.emptied }
}

/// An open-addressing hash of words (their UTF-8) to their prepared columns, and the scratch
/// columns a text is assembled in. Its buffers are freed by the `WordTable` that holds it.
struct WordTableState {
    struct Entry {
        var hash: UInt32
        var keyStart: Int32
        var keyCount: Int32
        var graphemeStart: Int32
        var graphemeCount: Int32
        var segmentStart: Int32
        var segmentCount: Int32
        var utf8Count: Int32
        var edges: PixelPreparedText.Edges
        var hasEndTrim: Bool
        var hasTabs: Bool
    }

    static let slotCount = 1 << 14
    static let maximumEntries = 1 << 13
    static let maximumKeyBytes = 1 << 18
    static let maximumGraphemes = 1 << 17
    /// Longer pieces, in UTF-8 bytes (a long URL, a paragraph without spaces), are prepared each time.
    static let longestWord = 1_024

    private var slots: WordBuffer<Int32>
    var entries = WordBuffer<Entry>(capacity: 256)
    /// Per entry, UAX #14 after its word (`PreparedPiece.lineBreaker`): the break before a next
    /// word that starts with a scalar other than ASCII. (An array: the breaker is a value of
    /// another module, not known to be bitwise copyable.)
    var lineBreakers: [LineBreaker] = []
    var keys = WordBuffer<UInt8>(capacity: 8192)
    /// The words' columns: each entry's graphemes and segments, one after another.
    var words = PreparedColumns()
    /// The text being assembled.
    var text = PreparedColumns()
    /// What preparing a new word reuses.
    var scratch = PrepareScratch()
    /// How many times the table was full and emptied.
    var emptied = 0

    init() {
        slots = WordBuffer(capacity: Self.slotCount)
        slots.base.fill(-1, prefix: Self.slotCount)
        slots.count = Self.slotCount
    }

    func free() {
        slots.free(); entries.free(); keys.free(); words.free(); text.free(); scratch.free()
    }

    /// Assembles the text of UTF-8 `s` in `text`, a word at a time: each found or prepared and
    /// kept. Returns its UTF-8 length and whether it has line-end trims and tabs. (Bytes, not
    /// scalars: a word seen before is never decoded, and ASCII bytes are their scalars.) A tab
    /// never starts a word (it is not printable ASCII), so what decides about it (the scalar
    /// before it, the run it ends) is inside its word, and a word with tabs is kept as any other.
    mutating func assemble(_ s: ElementsView<UInt8>, chain: FontChain) -> (utf8Count: Int, hasEndTrim: Bool, hasTabs: Bool) {
        let n = s.count
        text.removeAll()
        text.reserve(graphemes: n, segments: n)
        var join = Join()
        var start = 0
        var i = 0
        while true {
            // A cut: after a space, before printable ASCII other than a space, or before another
            // scalar that starts a grapheme and a line-breaking unit of its own.
            i = Self.space(in: s, from: i) + 1
            guard i < n else { break }
            let next = s[i]
            if next &- 0x21 < 0x5E || (next >= 0xC0 && Self.startsPiece(s, i)) {
                appendWord(s, start, i, chain: chain, join: &join)
                start = i
            }
        }
        if n > 0 { appendWord(s, start, n, chain: chain, join: &join) }
        assert(!join.anyEndTrim || join.endTrimFilled, "a text with a line-end trim has them all")
        text.setCounts(graphemes: join.graphemes, segments: join.segments, endTrim: join.endTrimFilled ? join.graphemes : 0)
        return (join.utf8, join.anyEndTrim, join.anyTab)
    }

    /// The index of the first space (U+0020) in `s` at or after `from`, or `s.count`: eight bytes
    /// at a time (the lowest byte flagged by the zero-byte test is always a space).
    @inline(__always)
    static func space(in s: ElementsView<UInt8>, from: Int) -> Int {
        let n = s.count
        var i = from
        if n >= 8 {
            while i <= n - 8 {
                let x = s.word(at: i) ^ 0x2020_2020_2020_2020
                let zero = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
                if zero != 0 { return i + zero.trailingZeroBitCount >> 3 }
                i += 8
            }
        }
        while i < n && s[i] != 0x20 { i += 1 }
        return i
    }

    /// What the next word's join needs of the text so far.
    struct Join {
        /// The text's UTF-8 bytes, graphemes and segments so far (`text`'s counts are set at the end).
        var utf8 = 0
        var graphemes = 0
        var segments = 0
        var anyEndTrim = false
        /// A word so far holds a tab.
        var anyTab = false
        /// True once `text.endTrim` is written for every grapheme so far: from the first word with a
        /// line-end trim on (most texts have none, and skip the column).
        var endTrimFilled = false
        /// The last glyph so far (face << 16 | glyph), `UInt32.max` when none.
        var last = UInt32.max
        /// The last word's entry, whose line breaker decides the break before a next word that
        /// starts with a scalar other than ASCII; -1 when the breaker is `lineBreaker` (after a
        /// word too long to keep).
        var entry = -1
        var lineBreaker = LineBreaker()
    }

    /// The scalar whose UTF-8 starts at byte `i` (a lead byte) of valid UTF-8 `s`, nil when `s`
    /// ends inside it.
    @inline(__always)
    static func scalar(_ s: ElementsView<UInt8>, at i: Int) -> UInt32? {
        let lead = UInt32(s[i])
        if lead < 0x80 { return lead }
        if lead < 0xE0 {
            guard i + 1 < s.count else { return nil }
            return (lead & 0x1F) << 6 | UInt32(s[i + 1] & 0x3F)
        }
        if lead < 0xF0 {
            guard i + 2 < s.count else { return nil }
            return (lead & 0x0F) << 12 | UInt32(s[i + 1] & 0x3F) << 6 | UInt32(s[i + 2] & 0x3F)
        }
        guard i + 3 < s.count else { return nil }
        return (lead & 0x07) << 18 | UInt32(s[i + 1] & 0x3F) << 12 | UInt32(s[i + 2] & 0x3F) << 6 | UInt32(s[i + 3] & 0x3F)
    }

    /// Whether the scalar starting at byte `i` (a lead byte, after a space) may start a piece: it
    /// starts a grapheme after a space (not Extend, ZWJ or SpacingMark), is not a line break (which
    /// would end the glyph run, so no kerning crosses), and UAX #14 does not attach it to what is
    /// before it (CM, ZWJ). Then every rule that decides inside the piece sees the same before the
    /// piece as at the text's start; only the break before it looks back across the spaces, and
    /// the join takes that from the line breaker's state after the piece before.
    static func startsPiece(_ s: ElementsView<UInt8>, _ i: Int) -> Bool {
        guard let scalar = scalar(s, at: i) else { return false }
        let info = UnicodeTables.info(scalar)
        switch info.lineBreak {
        case .cm, .zwj, .bk, .cr, .lf, .nl: return false
        default: break
        }
        var graphemes = GraphemeBreaker()
        _ = graphemes.breaksBefore(UnicodeTables.info(0x20))
        return graphemes.breaksBefore(info)
    }

    /// Appends the word `s[start..<end]` to `text`, found or prepared and kept (or, when too long
    /// to keep, prepared in place), and joins it to what is before it.
    @inline(__always)
    private mutating func appendWord(_ s: ElementsView<UInt8>, _ start: Int, _ end: Int, chain: FontChain, join: inout Join) {
        let count = end - start
        let g0 = join.graphemes, s0 = join.segments
        // Where the previous word (ending in a space) meets this one. Before printable ASCII Blink's
        // table decides the break; before anything else UAX #14, whose answer after spaces is the
        // breaker's after the previous word.
        var breaks = true
        if g0 > 0 {
            if s[start] < 0x80 {
                // (A byte of a multi-byte scalar before the space is not a letter or digit, as that scalar is not.)
                breaks = PixelPreparedText.asciiBreakAllowed(start >= 2 ? UInt32(s[start - 2]) : 0x20, UInt32(s[start - 1]), UInt32(s[start]))
            } else {
                let first = Self.scalar(s, at: start)!
                let info = HanKerning.isConditionalJapaneseStarter(first) ? UnicodeTables.info(0x3042) : UnicodeTables.info(first)
                var breaker = join.entry >= 0 ? lineBreakers[join.entry] : join.lineBreaker
                assert(!breaker.needsLookahead(for: info), "a word starts after a space, where LB25 never looks ahead")
                breaks = breaker.opportunity(before: info) == .allowed
            }
        }
        let graphemeCount: Int, segmentCount: Int, utf8Count: Int, edges: PixelPreparedText.Edges
        if count <= Self.longestWord {
            let key = s.slice(from: start, count: count)
            let hash = Self.hash(key)
            var entryIndex = find(hash, key)
            // (Keeping the word may empty a full table, and the previous word's entry with it: the
            // break before this word was taken first.)
            if entryIndex < 0 { entryIndex = insert(hash, key: key, chain: chain) }
            join.entry = entryIndex
            let entry = entries.base[entryIndex]
            graphemeCount = Int(entry.graphemeCount)
            segmentCount = Int(entry.segmentCount)
            utf8Count = Int(entry.utf8Count)
            edges = entry.edges
            if entry.hasTabs { join.anyTab = true }
            assert(g0 + graphemeCount <= text.advances.capacity && s0 + segmentCount <= text.segmentEnds.capacity,
                   "the text's columns have room for as many graphemes and segments as it has bytes")
            if entry.hasEndTrim {
                join.anyEndTrim = true
                if !join.endTrimFilled {
                    text.endTrim.base.fill(0, prefix: g0)
                    join.endTrimFilled = true
                }
            }
            let from = Int(entry.graphemeStart), sFrom = Int(entry.segmentStart)
            // Columns copied in short loops (words are short: a call to memcpy per column costs more),
            // few pointers each so none spills; UTF-8 starts and segment ends moved to where the
            // word sits.
            do {
                let offset = Int32(truncatingIfNeeded: join.utf8)
                let starts = text.starts.base.tail(from: g0), advances = text.advances.base.tail(from: g0)
                let kernAfter = text.kernAfter.base.tail(from: g0)
                let wordStarts = words.starts.base.tail(from: from), wordAdvances = words.advances.base.tail(from: from)
                let wordKernAfter = words.kernAfter.base.tail(from: from)
                for k in 0..<graphemeCount {
                    starts[k] = wordStarts[k] &+ offset
                    advances[k] = wordAdvances[k]
                    kernAfter[k] = wordKernAfter[k]
                }
            }
            do {
                let faces = text.faces.base.tail(from: g0), breakAfter = text.breakAfter.base.tail(from: g0)
                let isSpace = text.isSpace.base.tail(from: g0)
                let wordFaces = words.faces.base.tail(from: from), wordBreakAfter = words.breakAfter.base.tail(from: from)
                let wordIsSpace = words.isSpace.base.tail(from: from)
                for k in 0..<graphemeCount {
                    faces[k] = wordFaces[k]
                    breakAfter[k] = wordBreakAfter[k]
                    isSpace[k] = wordIsSpace[k]
                }
            }
            if join.endTrimFilled {
                text.endTrim.base.tail(from: g0).copy(from: ElementsView(words.endTrim.base.slice(from: from, count: graphemeCount)))
            }
            do {
                let ends = text.segmentEnds.base.tail(from: s0)
                let widths = text.segmentWidths.base.tail(from: s0), visible = text.segmentVisible.base.tail(from: s0)
                let wordEnds = words.segmentEnds.base.tail(from: sFrom), wordWidths = words.segmentWidths.base.tail(from: sFrom)
                let wordVisible = words.segmentVisible.base.tail(from: sFrom)
                let offset = Int32(truncatingIfNeeded: g0)
                for k in 0..<segmentCount {
                    ends[k] = wordEnds[k] &+ offset
                    widths[k] = wordWidths[k]
                    visible[k] = wordVisible[k]
                }
            }
        } else {
            // Prepared where it sits: the columns' counts are brought up to date for it.
            if !join.endTrimFilled {
                text.endTrim.base.fill(0, prefix: g0)
                join.endTrimFilled = true
            }
            text.setCounts(graphemes: g0, segments: s0, endTrim: g0)
            let piece = text.appendPrepared(s.slice(from: start, count: end - start), chain: chain, scratch: &scratch,
                                            utf8Offset: Int32(truncatingIfNeeded: join.utf8))
            graphemeCount = piece.graphemeCount
            segmentCount = piece.segmentCount
            utf8Count = piece.utf8Count
            edges = piece.edges
            if piece.hasEndTrim { join.anyEndTrim = true }
            if piece.hasTabs { join.anyTab = true }
            join.entry = -1
            join.lineBreaker = piece.lineBreaker
        }
        if g0 > 0 {
            let lastGrapheme = g0 - 1
            text.breakAfter.base[lastGrapheme] = breaks ? 1 : 0
            // The two glyphs kern when they share a face, as in one run.
            let first = edges.first, last = join.last
            var kern = 0
            if last != UInt32.max && first != UInt32.max && last >> 16 == first >> 16 {
                kern = chain.faces[Int(last >> 16)].kerning1616(UInt16(truncatingIfNeeded: last), UInt16(truncatingIfNeeded: first))
                text.kernAfter.base[lastGrapheme] &+= Int32(clamping: kern)
            }
            if !breaks {
                // One segment across the two words: the kerning between them is inside it.
                let ends = text.segmentEnds.base
                let widths = text.segmentWidths.base, visible = text.segmentVisible.base
                let before = widths[s0 - 1] &+ kern
                widths[s0 - 1] = before &+ widths[s0]
                if visible[s0] >= 0 { visible[s0 - 1] = before &+ visible[s0] }
                ends[s0 - 1] = ends[s0]
                let moved = segmentCount - 1
                if moved > 0 {
                    ends.tail(from: s0).moveToStart(from: 1, count: moved)
                    widths.tail(from: s0).moveToStart(from: 1, count: moved)
                    visible.tail(from: s0).moveToStart(from: 1, count: moved)
                }
                join.segments -= 1
            }
        }
        if edges.last != UInt32.max { join.last = edges.last }
        join.utf8 += utf8Count
        join.graphemes += graphemeCount
        join.segments += segmentCount
    }

    /// The hash of the word `key`: eight bytes at a time (the last eight may overlap the ones
    /// before; the length is mixed in), so the low bits pick slots.
    @inline(__always)
    static func hash(_ key: ElementsView<UInt8>) -> UInt32 {
        let count = key.count
        let k: UInt64 = 0xFF51_AFD7_ED55_8CCD
        var h = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        if count >= 8 {
            var i = 0
            while i + 8 < count {
                h = (h ^ key.word(at: i)) &* k
                h ^= h >> 32
                i += 8
            }
            h = (h ^ key.word(at: count - 8)) &* k
        } else if count >= 4 {
            let low = UInt64(key.word32(at: 0)), high = UInt64(key.word32(at: count - 4))
            h = (h ^ (high << 32 | low)) &* k
        } else if count > 0 {
            h = (h ^ (UInt64(key[0]) << 16 | UInt64(key[count >> 1]) << 8 | UInt64(key[count - 1]))) &* k
        }
        h ^= h >> 29
        h &*= 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 32
        return UInt32(truncatingIfNeeded: h)
    }

    /// Whether `a` and `b` (of one length) are equal, compared eight bytes at a time.
    @inline(__always)
    static func equal(_ a: ElementsView<UInt8>, _ b: ElementsView<UInt8>) -> Bool {
        let count = a.count
        assert(b.count == count, "words of one length")
        if count >= 8 {
            var i = 0
            while i + 8 < count {
                if a.word(at: i) != b.word(at: i) { return false }
                i += 8
            }
            return a.word(at: count - 8) == b.word(at: count - 8)
        }
        if count >= 4 {
            return a.word32(at: 0) == b.word32(at: 0) && a.word32(at: count - 4) == b.word32(at: count - 4)
        }
        for i in 0..<count where a[i] != b[i] { return false }
        return true
    }

    /// The entry of the word `key` with hash `hash`, or -1.
    @inline(__always)
    func find(_ hash: UInt32, _ key: ElementsView<UInt8>) -> Int {
        let mask = Self.slotCount - 1
        let count = key.count
        var slot = Int(hash) & mask
        while true {
            let e = Int(slots.base[slot])
            if e < 0 { return -1 }
            let entry = entries.base[e]
            if entry.hash == hash && Int(entry.keyCount) == count
                && Self.equal(ElementsView(keys.base.slice(from: Int(entry.keyStart), count: count)), key) { return e }
            slot = (slot + 1) & mask
        }
    }

    /// Prepares the word `key` (a piece of text, at most `longestWord` bytes) straight into the
    /// words' columns and keeps it under `key`, emptying the table first when it might not fit;
    /// returns its entry.
    mutating func insert(_ hash: UInt32, key: ElementsView<UInt8>, chain: FontChain) -> Int {
        // A word has at most as many graphemes and segments as bytes.
        let most = key.count
        if entries.count + 1 > Self.maximumEntries || keys.count + most > Self.maximumKeyBytes
            || words.graphemeCount + most > Self.maximumGraphemes || words.segmentEnds.count + most > Self.maximumGraphemes {
            emptied += 1
            entries.count = 0
            lineBreakers.removeAll(keepingCapacity: true)
            keys.count = 0
            words.removeAll()
            slots.base.fill(-1, prefix: Self.slotCount)
        }
        let graphemeStart = words.graphemeCount, segmentStart = words.segmentEnds.count
        let piece = words.appendPrepared(key, chain: chain, scratch: &scratch, segmentEndsFromZero: true)
        entries.reserve(1)
        entries.base[entries.count] = Entry(
            hash: hash, keyStart: Int32(keys.count), keyCount: Int32(key.count),
            graphemeStart: Int32(graphemeStart), graphemeCount: Int32(piece.graphemeCount),
            segmentStart: Int32(segmentStart), segmentCount: Int32(piece.segmentCount),
            utf8Count: Int32(piece.utf8Count), edges: piece.edges, hasEndTrim: piece.hasEndTrim,
            hasTabs: piece.hasTabs)
        entries.count += 1
        lineBreakers.append(piece.lineBreaker)
        keys.reserve(key.count)
        keys.append(key)
        let index = entries.count - 1
        let mask = Self.slotCount - 1
        var slot = Int(hash) & mask
        while slots.base[slot] >= 0 { slot = (slot + 1) & mask }
        slots.base[slot] = Int32(index)
        return index
    }
}
