/// One run of text between two break opportunities, as layout reads it (stored, `PreparedStorage`
/// codes it in a record of 2–5 bytes).
///
/// A segment is `content`, then `hang` (trailing spaces and tabs, which hang at the end of a line
/// and never count against the width), then the mandatory break characters, if any. It starts
/// where the previous segment's break characters end. Segments always start and end on grapheme
/// cluster boundaries.
@usableFromInline
struct PreparedSegment: Sendable, BitwiseCopyable {
    /// UTF-8 offset where the content ends and the hang begins.
    @usableFromInline var contentEnd: UInt32
    /// UTF-8 offset where the hang ends and the break characters (if any) begin.
    @usableFromInline var hangEnd: UInt32
    /// Bits 0–23: content width in cells (tabs count 0 here; see `hasTab`). Bits 24–25: UTF-8
    /// length of the break characters. Bit 26: mandatory break after. Bit 27: a tab in the
    /// segment. Bit 28: the grapheme map holds this segment. Bit 29: content is one grapheme.
    /// Bit 30: a run record (see `isRun`). Bit 31: a run record's units are 4 bytes, not 3.
    @usableFromInline var packed: UInt32

    /// Widest content a segment records. A longer unbreakable run is cut into several segments
    /// with an allowed break between them, which no terminal could tell apart.
    @usableFromInline static let maximumWidth = 0xFF_FFFF

    @usableFromInline static let mandatoryBit: UInt32 = 1 << 26
    @usableFromInline static let tabBit: UInt32 = 1 << 27
    @usableFromInline static let graphemeMapBit: UInt32 = 1 << 28
    @usableFromInline static let singleGraphemeBit: UInt32 = 1 << 29

    /// Most units one run record holds (its width stays within `maximumWidth`).
    @usableFromInline static let maximumRunCount = maximumWidth / 2

    @usableFromInline static let runBit: UInt32 = 1 << 30
    @usableFromInline static let fourByteUnitBit: UInt32 = 1 << 31

    @inlinable
    init(contentEnd: Int, hangEnd: Int, width: Int, breakLength: Int, flags: UInt32) {
        self.contentEnd = UInt32(truncatingIfNeeded: contentEnd)
        self.hangEnd = UInt32(truncatingIfNeeded: hangEnd)
        self.packed = UInt32(truncatingIfNeeded: width) | UInt32(truncatingIfNeeded: breakLength) << 24 | flags
    }

    /// A segment from its three stored words.
    @inlinable
    init(contentEnd: UInt32, hangEnd: UInt32, packed: UInt32) {
        self.contentEnd = contentEnd
        self.hangEnd = hangEnd
        self.packed = packed
    }

    @inlinable var width: Int { Int(packed & 0xFF_FFFF) }
    @inlinable var breakLength: Int { Int((packed >> 24) & 3) }
    @inlinable var end: Int { Int(hangEnd) &+ breakLength }
    @inlinable var isMandatory: Bool { packed & Self.mandatoryBit != 0 }
    @inlinable var hasTab: Bool { packed & Self.tabBit != 0 }
    @inlinable var hasGraphemeMap: Bool { packed & Self.graphemeMapBit != 0 }
    @inlinable var isSingleGrapheme: Bool { packed & Self.singleGraphemeBit != 0 }

    /// A run record: `runCount` segments stored as one, each a single grapheme two cells wide and
    /// `runUnitLength` UTF-8 bytes long, with no hang and a break allowed after each (a run of
    /// ideographs, kana or Hangul syllables). Laying one out is arithmetic: how many units fit
    /// in a line is a division. Never mandatory, never holds a tab or map entries.
    @inlinable var isRun: Bool { packed & Self.runBit != 0 }
    @inlinable var runCount: Int { width &>> 1 }
    @inlinable var runUnitLength: Int { packed & Self.fourByteUnitBit != 0 ? 4 : 3 }
}
