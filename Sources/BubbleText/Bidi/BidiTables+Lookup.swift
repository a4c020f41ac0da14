extension BidiTables {
    /// Reads entry `index` of a table of 3-byte entries.
    @inline(__always)
    static func entry(_ bytes: StaticString, _ index: Int) -> UInt32 {
        let base = bytes.utf8Start + index &* 3
        return UInt32(base[0]) | UInt32(base[1]) &<< 7 | UInt32(base[2]) &<< 14
    }

    /// Binary search over the first field of `count` records of `width` entries.
    @inline(__always)
    static func find(_ scalar: UInt32, in bytes: StaticString, count: Int, width: Int) -> Int? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low &+ high) &>> 1
            let key = entry(bytes, middle &* width)
            if key == scalar { return middle }
            if key < scalar { low = middle &+ 1 } else { high = middle }
        }
        return nil
    }

    /// Bidi_Mirroring_Glyph of `scalar` (UAX #9 rule L4), or nil when it has none.
    package static func mirror(of scalar: UInt32) -> UInt32? {
        guard properties(scalar).hasMirror, let at = find(scalar, in: mirrorBytes, count: mirrorCount, width: 2) else { return nil }
        return entry(mirrorBytes, at &* 2 &+ 1)
    }

    /// For a paired bracket: its pair, and the opening bracket of its pair after canonical
    /// equivalence (two brackets pair when these are equal). Nil for other scalars.
    package static func bracket(of scalar: UInt32) -> (pair: UInt32, key: UInt32)? {
        guard let at = find(scalar, in: bracketBytes, count: bracketCount, width: 3) else { return nil }
        return (entry(bracketBytes, at &* 3 &+ 1), entry(bracketBytes, at &* 3 &+ 2))
    }

    /// The presentation form of an Arabic letter: `form` 0 isolated, 1 final, 2 initial,
    /// 3 medial. Nil when the letter has no such form.
    package static func presentationForm(of scalar: UInt32, form: Int) -> UInt32? {
        guard scalar >= formsLow, scalar <= formsHigh else { return nil }
        let value = entry(formBytes, Int(scalar &- formsLow) &* 4 &+ form)
        return value == 0 ? nil : value
    }

    /// The lam-alef ligature of lam followed by `second`: isolated or final. Nil when there is none.
    package static func lamLigature(with second: UInt32, final: Bool) -> UInt32? {
        guard let at = find(second, in: lamLigatureBytes, count: lamLigatureCount, width: 3) else { return nil }
        return entry(lamLigatureBytes, at &* 3 &+ (final ? 2 : 1))
    }
}

extension BidiTables {
    /// Bidi_Class of `scalar` with its paired-bracket type: bits 0–4 and 5–6 of
    /// `BidiProperties.raw`, which the tables keep in the first of a value's two bytes. One load
    /// fewer than `properties`, for the bidi algorithm's per-scalar lookup.
    @inlinable @inline(__always)
    package static func classAndBracket(_ scalar: UInt32) -> UInt8 {
        let codePoint = Int(scalar <= 0x10FFFF ? scalar : 0x10FFFF)
        let block = Int(stage1Bytes.utf8Start[codePoint &>> 8])
        let value = Int(stage2Bytes.utf8Start[block &<< 8 | codePoint & 255])
        return valueBytes.utf8Start[value &* 2]
    }
}
