/// CSS `text-spacing-trim: normal`, Chromium's default since version 123 (Blink's `HanKerning`):
/// fullwidth punctuation next to other punctuation gives back its blank half. An opening mark
/// after an opening, middle, closing or narrow opening mark loses its left half; a closing mark
/// before a closing, middle or narrow closing mark loses its right half (`。」` is an em and a
/// half, not two). A line's start is not trimmed, so an opening mark that wraps to a new line
/// keeps its half; at a line's end, a closing mark that a break follows is trimmed when the
/// line would not fit otherwise. Only fonts with the `halt` feature are trimmed, by its amounts.
enum HanKerning {
    /// What a character is for trimming (CSS Text 4, "text spacing character classes").
    enum CharType: UInt8, Sendable {
        case other, open, close, middle, openNarrow, closeNarrow
        /// Decided per font from where its glyphs sit (`FontData`).
        case dot, colon, semicolon, openQuote, closeQuote
    }

    /// The index of `scalar` in `scalars` (`HanKerningTypes.swift`, generated), nil for a
    /// character without a type.
    @inline(__always)
    static func index(of scalar: UInt32) -> Int? {
        // Every typed character is at or above '(' and below U+FF64: most text is rejected here.
        guard scalar >= 0x28, scalar <= 0xFF63 else { return nil }
        var low = 0, high = scalars.count
        while low < high {
            let mid = (low + high) >> 1
            if scalars[mid] < scalar { low = mid + 1 } else { high = mid }
        }
        return low < scalars.count && scalars[low] == scalar ? low : nil
    }

    /// True for a Line_Break CJ character (`conditionalJapaneseStarters`, generated).
    @inline(__always)
    static func isConditionalJapaneseStarter(_ scalar: UInt32) -> Bool {
        guard scalar >= 0x3041, scalar <= 0xFF70 else { return false }
        var low = 0, high = conditionalJapaneseStarters.count
        while low < high {
            let mid = (low + high) >> 1
            if conditionalJapaneseStarters[mid] < scalar { low = mid + 1 } else { high = mid }
        }
        return low < conditionalJapaneseStarters.count && conditionalJapaneseStarters[low] == scalar
    }

    /// `HanKerning::ShouldKern`: an opening mark of `type` after `last` loses its left half.
    static func trimsStart(_ type: CharType, after last: CharType) -> Bool {
        type == .open && (last == .open || last == .middle || last == .close || last == .openNarrow)
    }

    /// `HanKerning::ShouldKernLast`: a closing mark `last` before `type` loses its right half.
    static func trimsEnd(_ last: CharType, before type: CharType) -> Bool {
        last == .close && (type == .close || type == .middle || type == .closeNarrow)
    }

    /// What one face says about trimming: the types of the characters whose glyphs vary by font
    /// (read from where `halt` puts their ink, as Blink reads it from their bounds), and what
    /// `halt` takes off each typed character's glyph.
    struct FontData: Sendable {
        /// Per entry of `HanKerning.scalars`: its type in this face, and its trim in font units.
        private var resolved: [CharType] = []
        private var trimUnits: [Int32] = []

        /// No trimming: a face without `halt`.
        static let none = FontData()

        private init() {}

        /// True when the face has `halt`: only such faces are trimmed.
        var trims: Bool { !trimUnits.isEmpty }

        /// The data of a face with `halt` adjustments `halt`; `glyph(scalar)` is the face's glyph
        /// for a scalar (after its `locl` forms), nil when not covered.
        init(halt: AlternateHalfWidths, advance: (UInt16) -> Int, glyph: (UInt32) -> UInt16?) {
            guard !halt.adjustments.isEmpty else { return }
            // Where a glyph's ink sits, from its `halt` adjustment: a placement of 0 keeps the
            // left half (closing), one equal to the advance's keeps the right (opening), half of
            // it keeps the middle.
            func type(_ scalar: UInt32) -> (type: CharType, advance: Int)? {
                guard let g = glyph(scalar) else { return nil }
                let advance = advance(g)
                guard let adjustment = halt.adjustments[g], adjustment.advance < 0 else { return (.other, advance) }
                let (p, a) = (Int(adjustment.placement), Int(adjustment.advance))
                if p == 0 { return (.close, advance) }
                if p == a { return (.open, advance) }
                if 2 * p == a { return (.middle, advance) }
                return (.other, advance)
            }
            // Blink's probe: a group has a type only when its glyphs share advance and type
            // (glyphs the face lacks are skipped).
            func group(_ scalars: [UInt32]) -> CharType {
                let found = scalars.compactMap(type)
                guard let first = found.first else { return .other }
                return found.allSatisfy({ $0 == first }) ? first.type : .other
            }
            let dot = group([0x3001, 0x3002, 0xFF0C, 0xFF0E])  // ideographic and fullwidth comma and full stop
            let colon = type(0xFF1A)?.type ?? .other
            let semicolon = type(0xFF1B)?.type ?? .other
            let quotesAreFullwidth = group([0x201C, 0x2018]) == .open && group([0x201D, 0x2019]) == .close
            for (index, scalar) in HanKerning.scalars.enumerated() {
                let resolvedType: CharType = switch HanKerning.types[index] {
                case .dot: dot
                case .colon: colon
                case .semicolon: semicolon
                case .openQuote: quotesAreFullwidth ? .open : .openNarrow
                case .closeQuote: quotesAreFullwidth ? .close : .closeNarrow
                case let other: other
                }
                resolved.append(resolvedType)
                let trim = glyph(scalar).flatMap { halt.adjustments[$0] }.map { max(0, -Int($0.advance)) } ?? 0
                trimUnits.append(Int32(clamping: trim))
            }
        }

        /// `scalar`'s type in this face, what `halt` takes off it (font units), and whether a line
        /// end may trim it (a closing mark or quote, typed as closing here; not the dots).
        @inline(__always)
        func lookup(_ scalar: UInt32) -> (type: CharType, trim: Int, trimsAtLineEnd: Bool) {
            guard let i = HanKerning.index(of: scalar) else { return (.other, 0, false) }
            let type = trims ? resolved[i] : HanKerning.types[i]
            let closing = HanKerning.types[i] == .close || HanKerning.types[i] == .closeQuote
            return (type, trims ? Int(trimUnits[i]) : 0, closing && type == .close)
        }
    }
}
