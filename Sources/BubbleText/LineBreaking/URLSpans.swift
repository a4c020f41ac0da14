/// Where a text holds web addresses, so that line breaking keeps each one whole when it fits on
/// a line (the tailoring UAX #14 section 8.2 leaves to implementations: a terminal can only open
/// an address it sees whole on one line). Inside a span no break is offered; a span longer than
/// a line is then broken between graphemes, as any word longer than a line is.
///
/// An address starts with `http://`, `https://` or `ftp://` (any case) at the start of the text
/// or after a character that is not an ASCII letter or digit, and runs over printable ASCII up to
/// whitespace, a non-ASCII character, `<`, `>` or `"`. Trailing `.,:;!?'*_~` are not part of it,
/// nor a trailing `)` or `]` that closes nothing opened inside it (`(see https://x.org/a_(b))`).
///
/// Units are ASCII values and anything else: UTF-8 bytes or scalars give the same spans, so the
/// cell preparer (over bytes) and the pixel preparer (over the scalars of a piece cut after a
/// space) agree. O(n) over the units, no allocation unless the text holds `://`.
package enum URLSpans {
    /// The spans, as unit index ranges, in order and disjoint.
    package static func find<Units: RandomAccessCollection>(in units: Units) -> [Range<Int>]
        where Units.Element: FixedWidthInteger, Units.Index == Int {
        var spans: [Range<Int>] = []
        let start = units.startIndex, end = units.endIndex
        var i = start
        while i + 3 <= end {
            guard units[i] == 0x3A, units[i + 1] == 0x2F, units[i + 2] == 0x2F else { i += 1; continue }  // "://"
            // The scheme before it.
            var s = i
            while s > start, isSchemeLetter(units[s - 1]) { s -= 1 }
            guard s < i, s == start || !isAlphanumeric(units[s - 1]), isKnownScheme(units, s, i),
                  spans.last.map({ $0.upperBound <= s }) ?? true else { i += 3; continue }
            var e = i + 3
            while e < end, isURLUnit(units[e]) { e += 1 }
            e = trimmedEnd(units, from: i + 3, to: e)
            if e > i + 3 { spans.append(s..<e) }
            i = max(e, i + 3)
        }
        return spans
    }

    /// True when `bytes` may hold a span: they contain `://`. A quick test before `find`, eight
    /// bytes at a time: a word with no `:` is skipped on one test (the zero-byte test flags every
    /// `:`, and may flag a byte after one wrongly: each flagged byte is checked exactly).
    static func mayContain(_ bytes: ElementsView<UInt8>) -> Bool {
        guard bytes.count >= 4 else { return false }
        let n = bytes.count, base = bytes
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let colons = 0x3A &* ones
        var i = 0
        while i &+ 8 <= n {
            let x = base.word(at: i) ^ colons
            var hit = (x &- ones) & ~x & highs
            while hit != 0 {
                if startsSeparator(base, at: i &+ hit.trailingZeroBitCount &>> 3, count: n) { return true }
                hit &= hit &- 1
            }
            i &+= 8
        }
        while i < n {
            if startsSeparator(base, at: i, count: n) { return true }
            i &+= 1
        }
        return false
    }

    /// Whether `://` starts at `i`, after at least one byte (a scheme needs one).
    @inline(__always)
    static func startsSeparator(_ base: ElementsView<UInt8>, at i: Int, count n: Int) -> Bool {
        i >= 1 && i &+ 2 < n && base[i] == 0x3A && base[i &+ 1] == 0x2F && base[i &+ 2] == 0x2F
    }

    @inline(__always) package static func isSchemeLetter<U: FixedWidthInteger>(_ u: U) -> Bool {
        (u | 0x20) >= 0x61 && (u | 0x20) <= 0x7A
    }

    @inline(__always) package static func isAlphanumeric<U: FixedWidthInteger>(_ u: U) -> Bool {
        isSchemeLetter(u) || (u >= 0x30 && u <= 0x39)
    }

    /// Printable ASCII but `<`, `>` and `"`.
    @inline(__always) static func isURLUnit<U: FixedWidthInteger>(_ u: U) -> Bool {
        u > 0x20 && u < 0x7F && u != 0x3C && u != 0x3E && u != 0x22
    }

    static func isKnownScheme<Units: RandomAccessCollection>(_ units: Units, _ from: Int, _ to: Int) -> Bool
        where Units.Element: FixedWidthInteger, Units.Index == Int {
        var scheme = ""
        for k in from..<to { scheme.unicodeScalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: units[k] | 0x20))) }
        return scheme == "http" || scheme == "https" || scheme == "ftp"
    }

    /// `to` moved back over trailing punctuation and unbalanced closing brackets.
    static func trimmedEnd<Units: RandomAccessCollection>(_ units: Units, from: Int, to: Int) -> Int
        where Units.Element: FixedWidthInteger, Units.Index == Int {
        var e = to
        while e > from {
            let last = units[e - 1]
            switch last {
            case 0x2E, 0x2C, 0x3A, 0x3B, 0x21, 0x3F, 0x27, 0x2A, 0x5F, 0x7E:  // . , : ; ! ? ' * _ ~
                e -= 1
            case 0x29, 0x5D:  // ) ]
                let open: Units.Element = last == 0x29 ? 0x28 : 0x5B
                var depth = 0
                for k in from..<e - 1 {
                    if units[k] == open { depth += 1 } else if units[k] == last { depth -= 1 }
                }
                guard depth <= 0 else { return e }
                e -= 1
            default:
                return e
            }
        }
        return e
    }
}
