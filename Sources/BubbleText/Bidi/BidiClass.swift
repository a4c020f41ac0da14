/// Bidi_Class values (UAX #9 table 4), as stored in the generated tables
/// (Tools/generate-bidi-tables.swift writes them in this order; keep the two in step).
package enum BidiClass: UInt8, Sendable, CaseIterable {
    case l, r, al, en, es, et, an, cs, nsm, bn, b, s, ws, on
    case lre, lro, rle, rlo, pdf, lri, rli, fsi, pdi

    /// The class named as UAX #9 and the UCD name it (`"AL"`, `"NSM"`), or nil.
    package init?(name: some StringProtocol) {
        guard let index = Self.names.firstIndex(where: { $0 == name }) else { return nil }
        self.init(rawValue: UInt8(index))
    }

    static let names = ["L", "R", "AL", "EN", "ES", "ET", "AN", "CS", "NSM", "BN", "B", "S", "WS", "ON",
                        "LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"]
}

/// Joining_Type values (ArabicShaping.txt), as stored in the generated tables.
package enum JoiningType: UInt8, Sendable {
    /// Non-joining, transparent, dual-joining, right-joining, left-joining, join-causing.
    case u, t, d, r, l, c

    /// Joins to the letter before it in logical order (on its right in Arabic).
    @inlinable var joinsBackward: Bool { self == .d || self == .r || self == .c }
    /// Joins to the letter after it in logical order (on its left in Arabic).
    @inlinable var joinsForward: Bool { self == .d || self == .l || self == .c }
}

/// What the bidi tables hold for one scalar: one lookup.
///
/// Bit layout of `raw` (the generator writes these values; keep the two in step):
/// - bits 0–4: `BidiClass`
/// - bits 5–6: Bidi_Paired_Bracket_Type (0 none, 1 open, 2 close)
/// - bit 7: has a Bidi_Mirroring_Glyph
/// - bits 8–10: `JoiningType`
package struct BidiProperties: Hashable, Sendable {
    package let raw: UInt16

    @inlinable package init(raw: UInt16) { self.raw = raw }

    @inlinable package var bidiClass: BidiClass {
        BidiClass(tableValue: UInt8(truncatingIfNeeded: raw & 0x1F))
    }
    @inlinable package var classValue: UInt8 { UInt8(truncatingIfNeeded: raw & 0x1F) }
    @inlinable package var isOpeningBracket: Bool { raw & 0x60 == 0x20 }
    @inlinable package var isClosingBracket: Bool { raw & 0x60 == 0x40 }
    @inlinable package var isBracket: Bool { raw & 0x60 != 0 }
    @inlinable package var hasMirror: Bool { raw & 0x80 != 0 }
    @inlinable package var joiningType: JoiningType {
        JoiningType(tableValue: UInt8(truncatingIfNeeded: (raw >> 8) & 7))
    }
}
