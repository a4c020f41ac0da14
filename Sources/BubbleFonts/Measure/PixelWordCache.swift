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
/// pieces meet: the break there (Blink's table before ASCII, else UAX #14 on the two pieces,
/// remembered per pair), the kerning between the last glyph of one and the first of the next when
/// they share a face, and the merge of the two segments when no break is allowed between them.
///
/// One cache per `PixelMeasurer` (so per font chain, size, script and language). It is a pool of
/// tables: a prepare takes one, uses it alone and gives it back, so measurers shared by threads
/// never wait on each other for more than the take and the give. Each table keeps at most 8,192
/// words of at most 1,024 UTF-8 bytes, 262,144 bytes of keys, 131,072 graphemes and segments,
/// and 4,096 breaks between pieces (about 5.5 MiB when full), and is emptied when one more word
/// would pass a limit: simple, bounded, and the words that matter come back at once. The scratch space a text is assembled
/// in grows to the longest text prepared. At most 16 tables are kept.
final class PixelWordCache: Sendable {
    private let tables = Mutex<[WordTable]>([])
    static let maximumTables = 16

    init() {}

    /// How many times a table was emptied because it was full (for tests).
    var emptied: Int { tables.withLock { $0.reduce(0) { $0 + $1.state.emptied } } }

    /// Runs `body` with a table of its own.
    func withTable<R>(_ body: (WordTable) -> R) -> R {
        let table = tables.withLock { $0.popLast() } ?? WordTable()
        defer { tables.withLock { if $0.count < Self.maximumTables { $0.append(table) } } }
        return body(table)
    }
}

/// Storage reached through a pointer, so the hot loops pay no uniqueness or bounds checks. Its
/// owner frees it.
struct WordBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int
    var count = 0

    init(capacity: Int) {
        base = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    /// Room for `extra` more elements.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: max(needed, capacity * 2))
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = max(needed, capacity * 2)
    }

    /// Appends `count` elements from `source` (room reserved).
    @inline(__always)
    mutating func append(_ source: UnsafePointer<Element>, _ count: Int) {
        (base + self.count).update(from: source, count: count)
        self.count += count
    }

    func free() { base.deallocate() }

    /// The elements as an array.
    var array: [Element] { Array(UnsafeBufferPointer(start: base, count: count)) }
}

/// The columns of prepared text: `PixelPreparedText`'s arrays, as buffers.
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

    mutating func removeAll() {
        starts.count = 0; advances.count = 0; kernAfter.count = 0; endTrim.count = 0; faces.count = 0
        breakAfter.count = 0; isSpace.count = 0; segmentEnds.count = 0; segmentWidths.count = 0; segmentVisible.count = 0
    }

    func free() {
        starts.free(); advances.free(); kernAfter.free(); endTrim.free(); faces.free()
        breakAfter.free(); isSpace.free(); segmentEnds.free(); segmentWidths.free(); segmentVisible.free()
    }
}

/// One table of the cache, as the pool hands it out: its state is copied out for a text and
/// back after (a class's stored properties would pay a dynamic exclusivity check on every access
/// in the hot loops).
final class WordTable: @unchecked Sendable {  // one thread at a time: the pool hands it out
    var state = WordTableState()
    deinit { state.free() }
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
    }

    static let slotCount = 1 << 14
    static let maximumEntries = 1 << 13
    static let maximumKeyBytes = 1 << 18
    static let maximumGraphemes = 1 << 17
    /// Longer pieces, in UTF-8 bytes (a long URL, a paragraph without spaces), are prepared each time.
    static let longestWord = 1_024

    private var slots: WordBuffer<Int32>
    var entries = WordBuffer<Entry>(capacity: 256)
    var keys = WordBuffer<UInt8>(capacity: 8192)
    /// The words' columns: each entry's graphemes and segments, one after another.
    var words = PreparedColumns()
    /// The text being assembled.
    var text = PreparedColumns()
    /// How many times the table was full and emptied.
    var emptied = 0
    /// The break between two kept pieces when the second starts with a scalar other than ASCII,
    /// by their entries (first + 1) << 32 | (second + 1); 0 is an empty slot.
    private var pairKeys: WordBuffer<UInt64>
    private var pairBreaks = WordBuffer<UInt8>(capacity: Self.pairSlotCount)
    private var pairCount = 0
    static let pairSlotCount = 1 << 13

    init() {
        slots = WordBuffer(capacity: Self.slotCount)
        slots.base.initialize(repeating: -1, count: Self.slotCount)
        slots.count = Self.slotCount
        pairKeys = WordBuffer(capacity: Self.pairSlotCount)
        pairKeys.base.initialize(repeating: 0, count: Self.pairSlotCount)
    }

    func free() {
        pairKeys.free(); pairBreaks.free()
        slots.free(); entries.free(); keys.free(); words.free(); text.free()
    }

    /// Assembles the text of UTF-8 `s` in `text`, a word at a time: each found or prepared and
    /// kept. Returns its UTF-8 length and whether it has line-end trims. (Bytes, not scalars: a
    /// word seen before is never decoded, and ASCII bytes are their scalars.)
    mutating func assemble(_ s: UnsafeBufferPointer<UInt8>, chain: FontChain) -> (utf8Count: Int, hasEndTrim: Bool) {
        let n = s.count
        text.removeAll()
        text.reserve(graphemes: n, segments: n)
        var utf8 = 0, anyEndTrim = false
        var last = UInt32.max  // the last glyph so far (face << 16 | glyph)
        var start = 0
        var previous = (start: -1, entry: -1)  // the piece before, and its entry (-1 when not kept)
        var hash = Self.seed
        var i = 0
        while i < n {
            let byte = s[i]
            // A cut: after a space, before printable ASCII other than a space, or before another
            // scalar that starts a grapheme and a line-breaking unit of its own.
            if i > start && s[i - 1] == 0x20 && (byte &- 0x21 < 0x5E || (byte >= 0xC0 && Self.startsPiece(s, i))) {
                let entry = appendWord(s, start, i, Self.finish(hash), previous: previous, chain: chain,
                                       utf8: &utf8, anyEndTrim: &anyEndTrim, last: &last)
                previous = (start, entry)
                start = i
                hash = Self.seed
            }
            hash = Self.step(hash, UInt32(byte))
            i += 1
        }
        if n > 0 {
            _ = appendWord(s, start, n, Self.finish(hash), previous: previous, chain: chain, utf8: &utf8, anyEndTrim: &anyEndTrim, last: &last)
        }
        return (utf8, anyEndTrim)
    }

    /// Whether the scalar starting at byte `i` (a lead byte, after a space) may start a piece: it
    /// starts a grapheme after a space (not Extend, ZWJ or SpacingMark), is not a line break (which
    /// would end the glyph run, so no kerning crosses), and UAX #14 does not attach it to what is
    /// before (CM, ZWJ). Then every rule that decides inside the piece sees the same before the
    /// piece as at the text's start; only the break before it looks back across the spaces, and
    /// the join works that one out on the two pieces together.
    static func startsPiece(_ s: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        let lead = UInt32(s[i])
        let scalar: UInt32
        if lead < 0xE0 {
            guard i + 1 < s.count else { return false }
            scalar = (lead & 0x1F) << 6 | UInt32(s[i + 1] & 0x3F)
        } else if lead < 0xF0 {
            guard i + 2 < s.count else { return false }
            scalar = (lead & 0x0F) << 12 | UInt32(s[i + 1] & 0x3F) << 6 | UInt32(s[i + 2] & 0x3F)
        } else {
            guard i + 3 < s.count else { return false }
            scalar = (lead & 0x07) << 18 | UInt32(s[i + 1] & 0x3F) << 12 | UInt32(s[i + 2] & 0x3F) << 6 | UInt32(s[i + 3] & 0x3F)
        }
        let info = UnicodeTables.info(scalar)
        switch info.lineBreak {
        case .cm, .zwj, .bk, .cr, .lf, .nl: return false
        default: break
        }
        var graphemes = GraphemeBreaker()
        _ = graphemes.breaksBefore(UnicodeTables.info(0x20))
        return graphemes.breaksBefore(info)
    }

    /// Whether a line may break between the piece at `previousStart` (ending in spaces) and the
    /// one at `start..<end` that starts with a scalar other than ASCII: UAX #14 (with Blink's
    /// tailorings) run on the two pieces together, remembered per pair of kept pieces.
    private mutating func breaksBetween(_ s: UnsafeBufferPointer<UInt8>, previousStart: Int, previousEntry: Int,
                                        start: Int, end: Int, entry: Int) -> Bool {
        let cacheable = previousEntry >= 0 && entry >= 0
        let key = UInt64(UInt32(previousEntry + 1)) << 32 | UInt64(UInt32(entry + 1))
        let mask = Self.pairSlotCount - 1
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
        if cacheable {
            while pairKeys.base[slot] != 0 {
                if pairKeys.base[slot] == key { return pairBreaks.base[slot] != 0 }
                slot = (slot + 1) & mask
            }
        }
        let scalars = PixelPreparedText.scalars(utf8: UnsafeBufferPointer(rebasing: s[previousStart..<end]))
        var before = 0
        for k in previousStart..<start where s[k] & 0xC0 != 0x80 { before += 1 }
        let breaks = PixelPreparedText.blinkOpportunities(scalars)[before] == .allowed
        if cacheable {
            if pairCount + 1 > Self.pairSlotCount / 2 {
                pairKeys.base.update(repeating: 0, count: Self.pairSlotCount)
                pairCount = 0
                slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
                while pairKeys.base[slot] != 0 { slot = (slot + 1) & mask }
            }
            pairKeys.base[slot] = key
            pairBreaks.base[slot] = breaks ? 1 : 0
            pairCount += 1
        }
        return breaks
    }

    /// Appends the word `s[start..<end]` to `text`, found or prepared and kept, and joins it to
    /// what is before it.
    @inline(__always)
    private mutating func appendWord(_ s: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ hash: UInt32,
                                     previous: (start: Int, entry: Int), chain: FontChain,
                                     utf8: inout Int, anyEndTrim: inout Bool, last: inout UInt32) -> Int {
        let emptiedBefore = emptied
        let count = end - start
        var entryIndex = -1
        var staged = false
        if count <= Self.longestWord { entryIndex = find(hash, s.baseAddress! + start, count) }
        if entryIndex < 0 {
            var edges = PixelPreparedText.Edges()
            let piece = PixelPreparedText(scalars: PixelPreparedText.scalars(utf8: UnsafeBufferPointer(rebasing: s[start..<end])),
                                          chain: chain, edges: &edges)
            if count <= Self.longestWord {
                entryIndex = insert(hash, key: UnsafeBufferPointer(rebasing: s[start..<end]), piece, edges: edges)
            } else {
                entryIndex = stage(piece, edges: edges)
                staged = true
            }
        }
        let entry = entries.base[entryIndex]
        let g0 = text.graphemeCount, gCount = Int(entry.graphemeCount), from = Int(entry.graphemeStart)
        let s0 = text.segmentEnds.count, sCount = Int(entry.segmentCount), sFrom = Int(entry.segmentStart)
        // Columns copied in one loop (words are short: a call to memcpy per column costs more);
        // UTF-8 starts and segment ends moved to where the word sits.
        do {
            let offset = Int32(truncatingIfNeeded: utf8)
            let starts = text.starts.base + g0, advances = text.advances.base + g0, kernAfter = text.kernAfter.base + g0
            let faces = text.faces.base + g0, breakAfter = text.breakAfter.base + g0, isSpace = text.isSpace.base + g0
            let wordStarts = words.starts.base + from, wordAdvances = words.advances.base + from
            let wordKernAfter = words.kernAfter.base + from, wordFaces = words.faces.base + from
            let wordBreakAfter = words.breakAfter.base + from, wordIsSpace = words.isSpace.base + from
            for k in 0..<gCount {
                starts[k] = wordStarts[k] &+ offset
                advances[k] = wordAdvances[k]
                kernAfter[k] = wordKernAfter[k]
                faces[k] = wordFaces[k]
                breakAfter[k] = wordBreakAfter[k]
                isSpace[k] = wordIsSpace[k]
            }
            text.starts.count += gCount; text.advances.count += gCount; text.kernAfter.count += gCount
            text.faces.count += gCount; text.breakAfter.count += gCount; text.isSpace.count += gCount
        }
        if entry.hasEndTrim && !anyEndTrim {
            anyEndTrim = true
            text.endTrim.base.update(repeating: 0, count: g0)
            text.endTrim.count = g0
        }
        if anyEndTrim { text.endTrim.append(words.endTrim.base + from, gCount) }
        let ends = text.segmentEnds.base + s0
        do {
            let widths = text.segmentWidths.base + s0, visible = text.segmentVisible.base + s0
            let wordEnds = words.segmentEnds.base + sFrom, wordWidths = words.segmentWidths.base + sFrom
            let wordVisible = words.segmentVisible.base + sFrom
            let offset = Int32(truncatingIfNeeded: g0)
            for k in 0..<sCount {
                ends[k] = wordEnds[k] &+ offset
                widths[k] = wordWidths[k]
                visible[k] = wordVisible[k]
            }
            text.segmentEnds.count += sCount; text.segmentWidths.count += sCount; text.segmentVisible.count += sCount
        }
        if g0 > 0 {
            // Where the previous word (ending in a space) meets this one (starting with printable
            // ASCII): Blink's table decides the break, and the two glyphs kern when they share a
            // face, as in one run.
            let lastGrapheme = g0 - 1
            // (A byte of a multi-byte scalar before the space is not a letter or digit, as that scalar is not.)
            let breaks = s[start] < 0x80
                ? PixelPreparedText.asciiBreakAllowed(start >= 2 ? UInt32(s[start - 2]) : 0x20, UInt32(s[start - 1]), UInt32(s[start]))
                // (When keeping this piece emptied the table, the previous one's entry is gone.)
                : breaksBetween(s, previousStart: previous.start, previousEntry: emptied == emptiedBefore ? previous.entry : -1,
                                start: start, end: end,
                                entry: staged ? -1 : entryIndex)
            text.breakAfter.base[lastGrapheme] = breaks ? 1 : 0
            let first = entry.edges.first
            var kern = 0
            if last != UInt32.max && first != UInt32.max && last >> 16 == first >> 16 {
                kern = chain.faces[Int(last >> 16)].kerning1616(UInt16(truncatingIfNeeded: last), UInt16(truncatingIfNeeded: first))
                text.kernAfter.base[lastGrapheme] &+= Int32(clamping: kern)
            }
            if !breaks {
                // One segment across the two words: the kerning between them is inside it.
                let widths = text.segmentWidths.base, visible = text.segmentVisible.base
                let before = widths[s0 - 1] &+ kern
                widths[s0 - 1] = before &+ widths[s0]
                if visible[s0] >= 0 { visible[s0 - 1] = before &+ visible[s0] }
                ends[-1] = ends[0]
                let moved = sCount - 1
                if moved > 0 {
                    ends.update(from: ends + 1, count: moved)
                    (widths + s0).update(from: widths + s0 + 1, count: moved)
                    (visible + s0).update(from: visible + s0 + 1, count: moved)
                }
                text.segmentEnds.count -= 1
                text.segmentWidths.count -= 1
                text.segmentVisible.count -= 1
            }
        }
        if entry.edges.last != UInt32.max { last = entry.edges.last }
        utf8 += Int(entry.utf8Count)
        if staged { unstage() }
        return staged ? -1 : entryIndex
    }

    /// The words' hash: FNV-1a over UTF-8 bytes, mixed at the end so the low bits pick slots.
    @inline(__always)
    static func step(_ hash: UInt32, _ scalar: UInt32) -> UInt32 { (hash ^ scalar) &* 0x0100_0193 }
    static let seed: UInt32 = 0x811C_9DC5
    @inline(__always)
    static func finish(_ hash: UInt32) -> UInt32 {
        var h = hash
        h ^= h >> 15
        h &*= 0x2C1B_3C6D
        h ^= h >> 12
        return h
    }

    /// The entry of the word `key[0..<count]` with hash `hash`, or -1.
    @inline(__always)
    func find(_ hash: UInt32, _ key: UnsafePointer<UInt8>, _ count: Int) -> Int {
        let mask = Self.slotCount - 1
        var slot = Int(hash) & mask
        while true {
            let e = Int(slots.base[slot])
            if e < 0 { return -1 }
            let entry = entries.base[e]
            if entry.hash == hash && Int(entry.keyCount) == count {
                let stored = keys.base + Int(entry.keyStart)
                var i = 0
                while i < count && stored[i] == key[i] { i += 1 }
                if i == count { return e }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Keeps `prepared` (a word prepared on its own) under `key`, emptying the table first when it
    /// is full; returns its entry.
    mutating func insert(_ hash: UInt32, key: UnsafeBufferPointer<UInt8>, _ prepared: PixelPreparedText,
                edges: PixelPreparedText.Edges) -> Int {
        let graphemes = prepared.advances.count, segments = prepared.segmentEnds.count
        if entries.count + 1 > Self.maximumEntries || keys.count + key.count > Self.maximumKeyBytes
            || words.graphemeCount + graphemes > Self.maximumGraphemes || words.segmentEnds.count + segments > Self.maximumGraphemes {
            emptied += 1
            // Entries are numbered again: the remembered breaks between them go too.
            pairKeys.base.update(repeating: 0, count: Self.pairSlotCount)
            pairCount = 0
            entries.count = 0
            keys.count = 0
            words.removeAll()
            slots.base.update(repeating: -1, count: Self.slotCount)
        }
        let index = stage(prepared, edges: edges, hash: hash, keyStart: keys.count, keyCount: key.count)
        keys.reserve(key.count)
        keys.append(key.baseAddress!, key.count)
        let mask = Self.slotCount - 1
        var slot = Int(hash) & mask
        while slots.base[slot] >= 0 { slot = (slot + 1) & mask }
        slots.base[slot] = Int32(index)
        return index
    }

    /// Copies `prepared` into the words' columns as a new entry (not findable until a slot points
    /// at it). A piece too long to keep is staged, used and dropped with `unstage`.
    mutating func stage(_ prepared: PixelPreparedText, edges: PixelPreparedText.Edges, hash: UInt32 = 0,
               keyStart: Int = 0, keyCount: Int = 0) -> Int {
        let graphemes = prepared.advances.count, segments = prepared.segmentEnds.count
        words.reserve(graphemes: graphemes, segments: segments)
        let entry = Entry(hash: hash, keyStart: Int32(keyStart), keyCount: Int32(keyCount),
                          graphemeStart: Int32(words.graphemeCount), graphemeCount: Int32(graphemes),
                          segmentStart: Int32(words.segmentEnds.count), segmentCount: Int32(segments),
                          utf8Count: Int32(prepared.utf8Count), edges: edges, hasEndTrim: !prepared.endTrim.isEmpty)
        prepared.starts.withUnsafeBufferPointer { words.starts.append($0.baseAddress!, graphemes) }
        prepared.advances.withUnsafeBufferPointer { words.advances.append($0.baseAddress!, graphemes) }
        prepared.kernAfter.withUnsafeBufferPointer { words.kernAfter.append($0.baseAddress!, graphemes) }
        if prepared.endTrim.isEmpty {
            (words.endTrim.base + words.endTrim.count).update(repeating: 0, count: graphemes)
            words.endTrim.count += graphemes
        } else {
            prepared.endTrim.withUnsafeBufferPointer { words.endTrim.append($0.baseAddress!, graphemes) }
        }
        prepared.faces.withUnsafeBufferPointer { words.faces.append($0.baseAddress!, graphemes) }
        prepared.breakAfter.withUnsafeBufferPointer { words.breakAfter.append($0.baseAddress!, graphemes) }
        prepared.isSpace.withUnsafeBufferPointer { words.isSpace.append($0.baseAddress!, graphemes) }
        prepared.segmentEnds.withUnsafeBufferPointer { words.segmentEnds.append($0.baseAddress!, segments) }
        prepared.segmentWidths.withUnsafeBufferPointer { words.segmentWidths.append($0.baseAddress!, segments) }
        prepared.segmentVisible.withUnsafeBufferPointer { words.segmentVisible.append($0.baseAddress!, segments) }
        entries.reserve(1)
        (entries.base + entries.count).initialize(to: entry)
        entries.count += 1
        return entries.count - 1
    }

    /// Drops the last entry, staged and not findable.
    mutating func unstage() {
        let entry = entries.base[entries.count - 1]
        entries.count -= 1
        let g = Int(entry.graphemeStart), s = Int(entry.segmentStart)
        words.starts.count = g; words.advances.count = g; words.kernAfter.count = g; words.endTrim.count = g
        words.faces.count = g; words.breakAfter.count = g; words.isSpace.count = g
        words.segmentEnds.count = s; words.segmentWidths.count = s; words.segmentVisible.count = s
    }
}
