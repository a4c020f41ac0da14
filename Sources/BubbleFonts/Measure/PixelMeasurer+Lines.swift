extension PixelMeasurer {
    /// The height of each line of `prepared` wrapped at `width` LayoutUnits, in LayoutUnits: what
    /// `height(of:width:)` sums. For drawing lines where the layout put them.
    package func lineHeights64(of prepared: PixelPreparedText, width: Int) -> [Int] {
        if let each = uniformLineHeight64 { return Array(repeating: each, count: prepared.metrics(width: width).lineCount) }
        return prepared.lineFaces(width: width).map { faces in
            var ascent = 0, descent = 0, gap = 0
            for f in faces {
                ascent = max(ascent, chain.faces[f].ascent64)
                descent = max(descent, chain.faces[f].descent64)
                gap = max(gap, chain.faces[f].lineGap64)
            }
            return ascent + descent + gap
        }
    }

    /// Where the baseline of a line `lineHeight64` tall sits below the line's top, in LayoutUnits,
    /// as CSS places it: half the leading above the primary font's ascent.
    package func baseline64(lineHeight64: Int) -> Int {
        let face = chain.faces[0]
        let leading = lineHeight64 - face.ascent64 - face.descent64
        return leading / 2 + face.ascent64
    }
}
