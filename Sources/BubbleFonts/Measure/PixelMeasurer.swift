import BubbleText

/// How tall a line is.
public enum LineHeight: Sendable, Hashable {
    /// The fonts' own: round(ascent) + round(descent) + round(lineGap) of the tallest face on the line.
    case normal
    /// A fixed height in px (rounded to 1/64 px).
    case pixels(Double)
    /// A multiple of the font size (floored to 1/64 px).
    case factor(Double)
}

/// Measures text in pixels from font files: the second `TextMeasurer`, beside the cell measurer.
/// Widths are integers in Chromium's LayoutUnit (1/64 px). `prepare` does the font work once
/// (segmentation, fallback, advances, kerning); `measure` at any width is arithmetic over it.
///
/// The model is advances plus pair kerning with lines broken by UAX #14, as Chromium lays out
/// `white-space: pre-wrap; overflow-wrap: break-word` text with hinting off, and Arabic-script,
/// Khmer and Myanmar runs shaped (`ArabicShaper`, `KhmerShaper`, `MyanmarShaper`). Indic
/// conjuncts are approximate.
public struct PixelMeasurer: TextMeasurer {
    /// The fonts, in fallback order, and their size.
    public let chain: FontChain
    /// The CSS `line-height` lines are laid out with.
    public let lineHeight: LineHeight
    /// Words prepared before, shared by copies of this measurer (`PixelWordCache`).
    let words: PixelWordCache

    /// A measurer of text set in `chain` with `lineHeight` (default `normal`, the fonts' own).
    public init(chain: FontChain, lineHeight: LineHeight = .normal) {
        self.chain = chain
        self.lineHeight = lineHeight
        words = PixelWordCache()
    }

    /// Does the font work for `text` once: segments, fallback, advances and kerning. Words seen
    /// before come from a cache shared by copies of this measurer.
    public func prepare(_ text: String) -> PixelPreparedText {
        words.withTable { PixelPreparedText(text, chain: chain, table: $0) }
    }

    /// Line count and widest line, in LayoutUnits, of `prepared` wrapped at `width` LayoutUnits.
    public func measure(_ prepared: PixelPreparedText, width: Int) -> TextMetrics {
        prepared.metrics(width: width)
    }

    /// The lines of `prepared` wrapped at `width` LayoutUnits, their widths in LayoutUnits.
    public func layout(_ prepared: PixelPreparedText, width: Int) -> TextLayout {
        prepared.layout(width: width)
    }

    /// The width of `text` on one line, in LayoutUnits: Chromium's max-content width, each run of
    /// one bidi level (`BidiItems`) rounded up on its own.
    public func width(of text: String) -> Int {
        let prepared = prepare(text)
        guard let items = BidiItems(text, prepared: prepared) else { return prepared.naturalWidth }
        return prepared.naturalWidth(items: items)
    }

    /// The block height in LayoutUnits of `prepared` wrapped at `width`.
    public func height(of prepared: PixelPreparedText, width: Int) -> Int {
        if let each = uniformLineHeight64 { return prepared.metrics(width: width).lineCount * each }
        return prepared.lineFaces(width: width).reduce(0) { $0 + normalHeight64(faces: $1) }
    }

    /// The height of every line in LayoutUnits when it does not depend on the text: an explicit
    /// line height, or `normal` when every face of the chain has the same ascent, descent and gap.
    package var uniformLineHeight64: Int? {
        switch lineHeight {
        case .pixels(let px): return Int((px * 64).rounded())
        case .factor(let factor): return Int((factor * chain.size * 64).rounded(.down))
        case .normal:
            let first = chain.faces[0]
            for face in chain.faces.dropFirst()
            where (face.ascent64, face.descent64, face.lineGap64) != (first.ascent64, first.descent64, first.lineGap64) {
                return nil
            }
            return first.ascent64 + first.descent64 + first.lineGap64
        }
    }

    /// `line-height: normal` for a line drawn with `faces`: the largest ascent, descent and gap.
    private func normalHeight64(faces: Set<Int>) -> Int {
        var ascent = 0, descent = 0, gap = 0
        for f in faces {
            let face = chain.faces[f]
            ascent = max(ascent, face.ascent64)
            descent = max(descent, face.descent64)
            gap = max(gap, face.lineGap64)
        }
        return ascent + descent + gap
    }
}
