/// One script's break dictionary (`DictionaryWords.thai` and the others, generated from ICU's word
/// lists): its words sorted by their bytes, and the script's letters that ICU's engine handles.
///
/// A word is a byte per scalar, `scalar - offset` (0xFE for ZWNJ, 0xFF for ZWJ). The words are
/// decoded from their base64 literal once, at first use; `matches` walks them as a trie would,
/// narrowing a sorted range by binary search one character at a time.
package final class DictionaryWords: Sendable {
    let offset: UInt32
    /// The script's characters of Line_Break SA: the run one engine call divides.
    let letters: [ClosedRange<UInt32>]
    /// Those of them that are marks: a word never ends before one.
    let marks: [ClosedRange<UInt32>]
    /// All words, each its length byte then its bytes.
    let bytes: [UInt8]
    /// Where each word's first byte is in `bytes` (its length byte is just before).
    let starts: [Int32]

    init(offset: UInt32, count: Int, letters: [ClosedRange<UInt32>], marks: [ClosedRange<UInt32>], base64: String) {
        self.offset = offset
        self.letters = letters
        self.marks = marks
        let decoded = Self.decodeBase64(base64)
        var starts: [Int32] = []
        starts.reserveCapacity(count)
        var i = 0
        while i < decoded.count {
            starts.append(Int32(i + 1))
            i += 1 + Int(decoded[i])
        }
        precondition(starts.count == count, "the generated word list is whole")
        bytes = decoded
        self.starts = starts
    }

    /// The byte of `scalar` in this dictionary's words, nil when no word can hold it.
    @inline(__always)
    func byte(_ scalar: UInt32) -> UInt8? {
        if scalar == 0x200D { return 0xFF }
        if scalar == 0x200C { return 0xFE }
        let delta = scalar &- offset
        return delta <= 0xFD ? UInt8(delta) : nil
    }

    @inline(__always)
    func isLetter(_ scalar: UInt32) -> Bool { Self.contains(letters, scalar) }

    @inline(__always)
    func isMark(_ scalar: UInt32) -> Bool { scalar == 0x20 || Self.contains(marks, scalar) }

    static func contains(_ ranges: [ClosedRange<UInt32>], _ scalar: UInt32) -> Bool {
        for range in ranges where range.contains(scalar) { return true }
        return false
    }

    /// The words that start `text[start..<end]` (at most `limit` of them): their lengths in
    /// scalars, shortest first, into `lengths`; returns how many, and in `prefix` how many
    /// scalars the walk read (the longest word prefix plus the one that matched nothing, unless a
    /// word with no longer word after it, or the end, stopped it first), as ICU's matcher counts.
    /// O(k log n) for a walk of k scalars.
    func matches(_ text: ElementsView<UInt32>, _ start: Int, _ end: Int, limit: Int,
                 lengths: inout [Int], prefix: inout Int) -> Int {
        var found = 0
        var lo = 0, hi = starts.count
        var depth = 0
        var read = 0
        bytes.withElementsView { words in
            starts.withElementsView { starts in
                @inline(__always) func length(_ w: Int) -> Int { Int(words[Int(starts[w]) - 1]) }
                @inline(__always) func byteAt(_ w: Int, _ d: Int) -> UInt8 { words[Int(starts[w]) + d] }
                var i = start
                while i < end {
                    read += 1
                    guard let b = byte(text[i]) else { break }
                    // The range holds the words that start with the `depth` bytes read; one of exactly
                    // that length sorts first.
                    if lo < hi && length(lo) == depth { lo += 1 }
                    var l = lo, h = hi
                    while l < h {
                        let m = (l + h) >> 1
                        if byteAt(m, depth) < b { l = m + 1 } else { h = m }
                    }
                    var u = l, uh = hi
                    while u < uh {
                        let m = (u + uh) >> 1
                        if byteAt(m, depth) <= b { u = m + 1 } else { uh = m }
                    }
                    lo = l
                    hi = u
                    depth += 1
                    if lo >= hi { break }
                    if length(lo) == depth {
                        if found < limit {
                            if found < lengths.count { lengths[found] = depth } else { lengths.append(depth) }
                            found += 1
                        }
                        if hi - lo == 1 { break }  // a word no longer word continues
                    }
                    i += 1
                }
            }
        }
        prefix = read
        return found
    }

    /// Standard base64 without line breaks or padding errors (the generated literal's newlines are
    /// skipped). The literal's bytes are copied out once and read through a table, four digits
    /// at a time where no newline falls among them: it runs once per script, at its first text,
    /// so it is part of what a short log costs.
    static func decodeBase64(_ text: String) -> [UInt8] {
        let input = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(input.count * 3 / 4)
        let values = base64Values
        var accumulator: UInt32 = 0, bits = 0
        var i = 0
        while i < input.count {
            if bits == 0 && i + 4 <= input.count {
                let a = values[Int(input[i])], b = values[Int(input[i + 1])]
                let c = values[Int(input[i + 2])], d = values[Int(input[i + 3])]
                if (a | b | c | d) < 64 {
                    let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    out.append(UInt8(truncatingIfNeeded: group >> 16))
                    out.append(UInt8(truncatingIfNeeded: group >> 8))
                    out.append(UInt8(truncatingIfNeeded: group))
                    i += 4
                    continue
                }
            }
            let value = values[Int(input[i])]
            i += 1
            if value >= 64 { continue }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }

    /// Each byte's base64 value, 0xFF for a byte that is not a base64 digit (skipped).
    private static let base64Values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        for (value, digit) in digits.enumerated() { table[Int(digit)] = UInt8(value) }
        return table
    }()
}

/// Line breaks inside runs of Thai, Lao, Khmer and Myanmar (Line_Break SA), which write no spaces
/// between words: ICU's dictionary break engines, as browsers break these scripts.
///
/// A run of one script's SA characters is divided by maximal matching against the script's word
/// list: at each position the longest word that lets two more words follow (a look-ahead of three
/// words) is taken; text no word starts is joined to the word before it (when that word is short
/// and the text shares little with a word) up to a plausible word start; a word never ends before
/// a mark; and Thai's ฯ and ๆ stay with the word before them. A break is offered between the
/// words found, never at the run's ends (the line-break rules decide those).
package enum DictionaryBreaks {
    /// True when UTF-8 `bytes` may hold a character of the four scripts (U+0E00–U+0EFF,
    /// U+1000–U+109F, U+1780–U+17FF, U+A9E0–U+A9FF, U+AA60–U+AA7F): a quick test before `find`.
    /// Eight bytes at a time: their three-byte lead bytes (0xE0, 0xE1, 0xEA) are rare elsewhere.
    /// `start` is where to begin: a caller that knows the bytes before it are ASCII skips them.
    static func mayContain(_ bytes: ElementsView<UInt8>, from start: Int = 0) -> Bool {
        guard bytes.count >= 3 else { return false }
        let count = bytes.count, base = bytes
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        var i = max(0, start)
        while i &+ 8 <= count {
            let word = base.word(at: i)
            let e0 = word ^ (0xE0 &* ones)  // bytes 0xE0 and 0xE1 become 0 and 1
            let ea = word ^ (0xEA &* ones)
            // Some byte of `e0` below 2, or some byte of `ea` zero (exact as an "any" test).
            if ((e0 &- 2 &* ones) & ~e0 & highs) | ((ea &- ones) & ~ea & highs) != 0,
               leadsIn(base, from: i, to: i &+ 8, count: count) {
                return true
            }
            i &+= 8
        }
        return leadsIn(base, from: i, to: count, count: count)
    }

    /// Whether a lead byte at `from..<to` starts a scalar of the four scripts' blocks.
    @inline(__always)
    static func leadsIn(_ base: ElementsView<UInt8>, from: Int, to: Int, count: Int) -> Bool {
        var j = from
        while j < to && j &+ 1 < count {
            let b = base[j], c = base[j &+ 1]
            if b == 0xE0 {
                if c & 0xFC == 0xB8 { return true }  // U+0E00–U+0EFF
            } else if b == 0xE1 {
                if c == 0x80 || c == 0x81 || c == 0x82 || c == 0x9E || c == 0x9F { return true }
            } else if b == 0xEA {
                if c == 0xA7 || c == 0xA9 { return true }
            }
            j &+= 1
        }
        return false
    }

    /// True when `scalars` hold a character of the four scripts' blocks.
    package static func mayContain(_ scalars: ElementsView<UInt32>) -> Bool {
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            if s >= 0x0E00 && dictionary(for: s, loading: false) { return true }
            i += 1
        }
        return false
    }

    /// Whether `scalar` is in one of the four scripts' blocks (without loading a word list).
    @inline(__always)
    static func dictionary(for scalar: UInt32, loading: Bool) -> Bool {
        (scalar &- 0x0E00 < 0x100) || (scalar &- 0x1000 < 0xA0) || (scalar &- 0x1780 < 0x80)
            || (scalar &- 0xA9E0 < 0x20) || (scalar &- 0xAA60 < 0x20)
    }

    /// The engine whose letters include `scalar`, nil when none does.
    static func engine(for scalar: UInt32) -> DictionaryEngine? {
        if scalar &- 0x0E00 < 0x80 { return DictionaryEngine.thai.handles(scalar) ? .thai : nil }
        if scalar &- 0x0E80 < 0x80 { return DictionaryEngine.lao.handles(scalar) ? .lao : nil }
        if scalar &- 0x1780 < 0x80 { return DictionaryEngine.khmer.handles(scalar) ? .khmer : nil }
        if scalar &- 0x1000 < 0xA0 || scalar &- 0xA9E0 < 0x20 || scalar &- 0xAA60 < 0x20 {
            return DictionaryEngine.myanmar.handles(scalar) ? .myanmar : nil
        }
        return nil
    }

    /// The indices in `scalars` before which a dictionary engine offers a line break, in order.
    package static func find(in scalars: ElementsView<UInt32>) -> [Int] {
        var breaks: [Int] = []
        var i = 0
        let count = scalars.count
        while i < count {
            guard scalars[i] >= 0x0E00, let engine = engine(for: scalars[i]) else { i += 1; continue }
            var end = i + 1
            while end < count && engine.handles(scalars[end]) { end += 1 }
            engine.divide(scalars, i, end, into: &breaks)
            i = end
        }
        return breaks
    }

    /// The byte offsets in UTF-8 `bytes` (valid UTF-8) before which a dictionary engine offers a
    /// line break, in order. Only the runs of the four scripts are decoded into scalars, one run
    /// at a time (a run's division reads nothing outside it).
    static func find(inUTF8 bytes: ElementsView<UInt8>) -> [Int] {
        var breaks: [Int] = []
        var scalars: [UInt32] = []
        var offsets: [Int] = []
        var runBreaks: [Int] = []
        var i = 0
        while i < bytes.count {
            let (scalar, length) = bytes.decodeScalar(at: i)
            guard scalar >= 0x0E00, let engine = engine(for: scalar) else {
                i &+= length
                continue
            }
            scalars.removeAll(keepingCapacity: true)
            offsets.removeAll(keepingCapacity: true)
            var end = i
            while end < bytes.count {
                let (next, nextLength) = bytes.decodeScalar(at: end)
                guard engine.handles(next) else { break }
                scalars.append(next)
                offsets.append(end)
                end &+= nextLength
            }
            runBreaks.removeAll(keepingCapacity: true)
            scalars.withElementsView { engine.divide($0, 0, $0.count, into: &runBreaks) }
            for index in runBreaks { breaks.append(offsets[index]) }
            i = end
        }
        return breaks
    }
}

extension DictionaryBreaks {
    /// The run of one dictionary script's letters that starts `rest` (the text from a line break
    /// inside a word on), divided afresh: its length in UTF-8 bytes and the UTF-8 offsets (from
    /// `rest`'s start) before which its engine offers a break. Chromium asks ICU for the breaks
    /// after a word cut to fit from the cut on, so the rest of the run is divided as a run of its
    /// own. Nil when `rest` does not start with such a letter. O(run length).
    package static func divideRest(_ rest: Substring.UnicodeScalarView) -> (utf8Count: Int, breaks: [Int])? {
        guard let first = rest.first?.value, first >= 0x0E00, let engine = engine(for: first) else { return nil }
        var scalars: [UInt32] = [], offsets: [Int] = []
        var utf8 = 0
        for scalar in rest {
            guard engine.handles(scalar.value) else { break }
            scalars.append(scalar.value)
            offsets.append(utf8)
            utf8 &+= UTF8.width(scalar)
        }
        var runBreaks: [Int] = []
        scalars.withElementsView { engine.divide($0, 0, $0.count, into: &runBreaks) }
        return (utf8, runBreaks.map { offsets[$0] })
    }
}

/// One script's dictionary break engine: the word list and the tuning ICU gives that script.
final class DictionaryEngine: Sendable {
    let words: DictionaryWords
    /// Words in a row that are "good enough" (ICU's look-ahead).
    static let lookahead = 3
    /// Text no word starts is joined to a preceding word shorter than this many scalars.
    let rootCombineThreshold: Int
    /// ...unless it shares at least this many scalars with a word.
    let prefixCombineThreshold: Int
    /// Shortest run divided: Thai needs more than this many scalars, the others at least this many.
    let minimumSpan: Int
    let minimumSpanInclusive: Bool
    /// Where resynchronising may end a non-word (after one of these) and start a word (before one of those).
    let endsWord: @Sendable (UInt32) -> Bool
    let beginsWord: @Sendable (UInt32) -> Bool
    /// Thai: ฯ (PAIYANNOI) and ๆ (MAIYAMOK) stay with the word before them.
    let thaiSuffixes: Bool

    init(words: DictionaryWords, rootCombine: Int = 3, prefixCombine: Int = 3, minimumSpan: Int = 4, inclusive: Bool,
         endsWord: @escaping @Sendable (UInt32) -> Bool, beginsWord: @escaping @Sendable (UInt32) -> Bool,
         thaiSuffixes: Bool = false) {
        self.words = words
        rootCombineThreshold = rootCombine
        prefixCombineThreshold = prefixCombine
        self.minimumSpan = minimumSpan
        minimumSpanInclusive = inclusive
        self.endsWord = endsWord
        self.beginsWord = beginsWord
        self.thaiSuffixes = thaiSuffixes
    }

    @inline(__always)
    func handles(_ scalar: UInt32) -> Bool { words.isLetter(scalar) }

    static let thai: DictionaryEngine = {
        let words = DictionaryWords.thai
        return DictionaryEngine(
            words: words, inclusive: true,
            endsWord: { s in words.isLetter(s) && s != 0x0E31 && !(0x0E40...0x0E44).contains(s) },
            beginsWord: { s in (0x0E01...0x0E2E).contains(s) || (0x0E40...0x0E44).contains(s) },
            thaiSuffixes: true)
    }()

    static let lao: DictionaryEngine = {
        let words = DictionaryWords.lao
        return DictionaryEngine(
            words: words, inclusive: false,
            endsWord: { s in words.isLetter(s) && !(0x0EC0...0x0EC4).contains(s) },
            beginsWord: { s in (0x0E81...0x0EAE).contains(s) || (0x0EDC...0x0EDD).contains(s) || (0x0EC0...0x0EC4).contains(s) })
    }()

    static let myanmar: DictionaryEngine = {
        let words = DictionaryWords.myanmar
        return DictionaryEngine(
            words: words, inclusive: false,
            endsWord: { s in words.isLetter(s) },
            beginsWord: { s in (0x1000...0x102A).contains(s) })
    }()

    static let khmer: DictionaryEngine = {
        let words = DictionaryWords.khmer
        return DictionaryEngine(
            words: words, inclusive: false,
            endsWord: { s in words.isLetter(s) && s != 0x17D2 },  // not after a COENG
            beginsWord: { s in (0x1780...0x17B3).contains(s) })
    }()

    /// The candidate words at one position (ICU's PossibleWord): their lengths, the one being
    /// tried and the one preferred.
    struct Candidates {
        var lengths: [Int] = []
        var count = 0
        var prefix = 0
        var offset = -1
        var mark = 0
        var current = 0

        /// Fills the list at `position` (unless already there), points `position` after the
        /// longest candidate (or leaves it when none) and returns how many there are.
        mutating func fill(_ position: inout Int, _ text: ElementsView<UInt32>, _ end: Int,
                           _ words: DictionaryWords) -> Int {
            let start = position
            if start != offset {
                offset = start
                count = words.matches(text, start, end, limit: 20, lengths: &lengths, prefix: &prefix)
            }
            if count > 0 { position = start + lengths[count - 1] }
            current = count - 1
            mark = current
            return count
        }

        /// Points `position` after the preferred candidate and returns its length.
        mutating func acceptMarked(_ position: inout Int) -> Int {
            position = offset + lengths[mark]
            return lengths[mark]
        }

        /// Steps back to the next shorter candidate; false when there is none.
        mutating func backUp(_ position: inout Int) -> Bool {
            guard current > 0 else { return false }
            current -= 1
            position = offset + lengths[current]
            return true
        }

        mutating func markCurrent() { mark = current }
        var markedLength: Int { lengths[mark] }
    }

    /// Appends to `breaks` the break positions inside `text[start..<end]`, a run of this engine's letters.
    func divide(_ text: ElementsView<UInt32>, _ start: Int, _ end: Int, into breaks: inout [Int]) {
        let span = end - start
        if minimumSpanInclusive ? span <= minimumSpan : span < minimumSpan { return }
        let firstBreak = breaks.count
        var candidates = [Candidates](repeating: Candidates(), count: Self.lookahead)
        var found = 0
        var position = start
        while position < end {
            let current = position
            var wordLength = 0
            let slot = found % Self.lookahead
            let n = candidates[slot].fill(&position, text, end, words)
            if n == 1 {
                wordLength = candidates[slot].acceptMarked(&position)
                found += 1
            } else if n > 1 {
                chooseBest: if position < end {
                    repeat {
                        if candidates[(found + 1) % Self.lookahead].fill(&position, text, end, words) > 0 {
                            // Followed by a word: a good candidate.
                            candidates[slot].markCurrent()
                            if position >= end { break chooseBest }
                            repeat {
                                if candidates[(found + 2) % Self.lookahead].fill(&position, text, end, words) > 0 {
                                    candidates[slot].markCurrent()
                                    break chooseBest
                                }
                            } while candidates[(found + 1) % Self.lookahead].backUp(&position)
                        }
                    } while candidates[slot].backUp(&position)
                }
                wordLength = candidates[slot].acceptMarked(&position)
                found += 1
            }

            // Text that no word starts joins the word just found, when that word is short and the
            // text shares little with any word: scan to a plausible word start.
            if position < end && wordLength < rootCombineThreshold {
                let next = found % Self.lookahead
                if candidates[next].fill(&position, text, end, words) <= 0
                    && (wordLength == 0 || candidates[next].prefix < prefixCombineThreshold) {
                    var remaining = end - (current + wordLength)
                    var chars = 0
                    while true {
                        let pc = text[position]
                        position += 1
                        chars += 1
                        remaining -= 1
                        if remaining <= 0 { break }
                        let uc = text[position]
                        if endsWord(pc) && beginsWord(uc) {
                            let count = candidates[(found + 1) % Self.lookahead].fill(&position, text, end, words)
                            position = current + wordLength + chars
                            if count > 0 { break }
                        }
                    }
                    if wordLength <= 0 { found += 1 }
                    wordLength += chars
                } else {
                    position = current + wordLength
                }
            }

            // Never stop before a combining mark.
            while position < end && words.isMark(text[position]) {
                position += 1
                wordLength += 1
            }

            // Thai: ฯ and ๆ after a word (when no word follows) stay with it.
            if thaiSuffixes && position < end && wordLength > 0 {
                let slotNow = found % Self.lookahead
                if candidates[slotNow].fill(&position, text, end, words) <= 0 {
                    var uc = text[position]
                    if uc == 0x0E2F || uc == 0x0E46 {
                        if uc == 0x0E2F {
                            let before = text[position - 1]
                            if before != 0x0E2F && before != 0x0E46 {
                                position += 1
                                wordLength += 1
                                uc = position < text.count ? text[position] : 0
                            }
                        }
                        if uc == 0x0E46 {
                            if text[position - 1] != 0x0E46 {
                                position += 1
                                wordLength += 1
                            }
                        }
                    } else {
                        position = current + wordLength
                    }
                } else {
                    position = current + wordLength
                }
            }

            if wordLength > 0 { breaks.append(current + wordLength) }
        }
        // No break at the run's end: the rules decide there.
        if breaks.count > firstBreak && breaks[breaks.count - 1] >= end { breaks.removeLast() }
    }
}
