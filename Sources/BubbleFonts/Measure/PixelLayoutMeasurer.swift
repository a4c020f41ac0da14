import BubbleLayout
import BubbleText

/// The pixel measurer as the layout engine takes it: widths in whole px. Text still wraps at the
/// exact width (`width × 64` LayoutUnits, with Chromium's one LayoutUnit of slack); only the widths
/// it reports are rounded up to whole px, so a bubble holds its widest line. Whole px keep every
/// width of a 16-bit `RowLayout` field usable, up to 65,534 px. Its text heights make rows in
/// pixels (`PixelTextMeasurer`): `Conversation(measurer:style:width:)`, `PixelHeights`.
public struct PixelLayoutMeasurer: PixelTextMeasurer {
    /// The measurer in LayoutUnits.
    public let pixels: PixelMeasurer

    /// The measurer of `pixels`, reporting whole px.
    public init(_ pixels: PixelMeasurer) { self.pixels = pixels }

    /// Does the font work for `text` once, as `PixelMeasurer.prepare` does.
    public func prepare(_ text: String) -> PixelPreparedText { pixels.prepare(text) }

    /// Line count and widest line (whole px, rounded up) of `prepared` wrapped at `width` px.
    public func measure(_ prepared: PixelPreparedText, width: Int) -> TextMetrics {
        let metrics = prepared.metrics(width: width * 64)
        return TextMetrics(lineCount: metrics.lineCount, widestLine: Self.wholePixels(metrics.widestLine))
    }

    /// The lines of `prepared` wrapped at `width` px, their widths in whole px, rounded up.
    public func layout(_ prepared: PixelPreparedText, width: Int) -> TextLayout {
        let layout = prepared.layout(width: width * 64)
        return TextLayout(lines: layout.lines.map { TextLine(utf8Range: $0.utf8Range, width: Self.wholePixels($0.width)) },
                          widestLine: Self.wholePixels(layout.widestLine))
    }

    /// The width of `text` on one line, in whole px, rounded up.
    public func width(of text: String) -> Int { Self.wholePixels(pixels.width(of: text)) }

    /// The height in LayoutUnits of `text` wrapped at `width` px into `lineCount` lines (as
    /// `measure` found). The text is prepared again only when line heights depend on the fonts
    /// each line uses (`line-height: normal` with faces of different metrics).
    public func textHeight(of text: String, lineCount: Int, width: Int) -> Int {
        if let each = pixels.uniformLineHeight64 { return lineCount * each }
        return pixels.height(of: pixels.prepare(text), width: width * 64)
    }

    /// Each line's height in LayoutUnits when every line is as tall; nil when a line's height
    /// depends on the fonts it uses.
    public var uniformLineHeight64: Int? { pixels.uniformLineHeight64 }

    /// The height in LayoutUnits of `prepared` wrapped at `width` whole px.
    public func textHeight64(of prepared: PixelPreparedText, width: Int) -> Int { pixels.height(of: prepared, width: width * 64) }

    /// LayoutUnits rounded up to whole px.
    static func wholePixels(_ width64: Int) -> Int { (width64 + 63) >> 6 }
}
