extension BidiTables {
    /// True when the UTF-8 `bytes` may hold a right-to-left character (one `mayBeRightToLeft`
    /// accepts); false means the text reads the same in logical and visual order, so it never
    /// needs the bidi algorithm. Eight bytes with no lead byte of a right-to-left scalar are
    /// skipped at once, and only scalars behind such a lead byte are decoded: about a
    /// nanosecond per scalar on mixed chat text.
    @inlinable
    static func mayContainRightToLeft(_ bytes: ElementsView<UInt8>) -> Bool {
        let count = bytes.count, base = bytes
        let leads = rightToLeftLeadBytes
        // The lead bytes come in runs (0xD6-0xE0, 0xE2, 0xEF-0xF0 for Unicode 15.0): eight
        // bytes with none in a run are skipped at once, so Latin, Cyrillic, Greek and CJK text
        // is read a word at a time.
        let runs = rightToLeftLeadRuns
        var index = 0
        while index < count {
            if index &+ 8 <= count {
                let word = base.word(at: index)
                if !runs.any(in: word) {
                    index &+= 8
                    continue
                }
            }
            let byte = base[index]
            if byte < 0xC0 {
                index &+= 1
            } else if (leads &>> UInt64(byte &- 0xC0)) & 1 != 0 {
                let (scalar, length) = decodeScalar(base, at: index)
                if mayBeRightToLeft(scalar) { return true }
                index &+= length
            } else {
                // Another lead byte: step over its whole scalar, continuation bytes unread.
                index &+= byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            }
        }
        return false
    }

    /// The runs of lead bytes in `rightToLeftLeadBytes` as SWAR constants: per run, what to
    /// add to each byte's low seven bits so that bytes at or above the run's first byte (then
    /// above its last) carry into bit 7. Up to four runs; unused ones never match.
    @usableFromInline
    struct LeadByteRuns: Sendable {
        @usableFromInline var atLeast: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        @usableFromInline var beyond: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

        init(_ leads: UInt64) {
            var pairs: [(UInt64, UInt64)] = []
            var bits = leads
            while bits != 0 {
                let first = UInt64(bits.trailingZeroBitCount)
                let length = UInt64((~(bits >> first)).trailingZeroBitCount)
                let low = 0xC0 + first, end = min(0xC0 + first + length, 0xFF)  // end: first byte after
                pairs.append((0x0101_0101_0101_0101 &* (0x100 - low), 0x0101_0101_0101_0101 &* (0x100 - end)))
                bits &= ~(((1 << length) - 1) << first)
            }
            if pairs.count > 4 { pairs = [(0x0101_0101_0101_0101 &* 0x40, 0x0101_0101_0101_0101)] }  // any lead byte
            while pairs.count < 4 { pairs.append((0, 0x0101_0101_0101_0101)) }
            atLeast = (pairs[0].0, pairs[1].0, pairs[2].0, pairs[3].0)
            beyond = (pairs[0].1, pairs[1].1, pairs[2].1, pairs[3].1)
        }

        /// True when a byte of `word` is in a run (each byte's low seven bits plus a constant
        /// stay below 0x100, so no carry crosses bytes; ASCII bytes are masked out).
        @inlinable @inline(__always)
        func any(in word: UInt64) -> Bool {
            let high = word & 0x8080_8080_8080_8080
            if high == 0 { return false }
            let low = word & 0x7F7F_7F7F_7F7F_7F7F
            @inline(__always) func run(_ a: UInt64, _ b: UInt64) -> UInt64 { (low &+ a) & ~(low &+ b) }
            return (run(atLeast.0, beyond.0) | run(atLeast.1, beyond.1) | run(atLeast.2, beyond.2)
                | run(atLeast.3, beyond.3)) & high != 0
        }
    }

    @usableFromInline static let rightToLeftLeadRuns = LeadByteRuns(rightToLeftLeadBytes)

    /// `mayContainRightToLeft` over a string's UTF-8.
    package static func mayContainRightToLeft(_ text: some StringProtocol) -> Bool {
        var text = String(text)
        return text.withUTF8Elements { mayContainRightToLeft($0) }
    }
}
