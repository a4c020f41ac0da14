import BubbleLayout
import BubbleText
import Synchronization

/// The pixel measurer as the layout engine takes it: widths in whole px. Text still wraps at the
/// exact width (`width × 64` LayoutUnits, with Chromium's one LayoutUnit of slack); only the widths
/// it reports are rounded up to whole px, so a bubble holds its widest line. Whole px keep every
/// width of a 16-bit `RowLayout` field usable, up to 65,534 px. Its text heights make rows in
/// pixels (`PixelTextMeasurer`): `Conversation(measurer:style:width:)`, `PixelHeights`.
public struct PixelLayoutMeasurer: PixelTextMeasurer {
    /// The measurer in LayoutUnits.
    public let pixels: PixelMeasurer

    /// The measurers of the same fonts shaped for the languages texts named (`lang` on a record).
    private let languages: LanguageMeasurers

    /// The measurer of `pixels`, reporting whole px.
    public init(_ pixels: PixelMeasurer) {
        self.pixels = pixels
        languages = LanguageMeasurers(pixels)
    }

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

extension PixelLayoutMeasurer: LanguagePreparingMeasurer {
    /// `text` prepared with this measurer's fonts shaped for the BCP 47 language `tag` (script and
    /// `locl` forms, as a browser does for `lang`); as `prepare(_:)` for a tag not well formed.
    package func prepare(_ text: String, inLanguage tag: String) -> PixelPreparedText {
        languages.measurer(for: tag).prepare(text)
    }

    /// The measurer (in LayoutUnits) of this measurer's fonts shaped for `tag`.
    package func pixels(inLanguage tag: String) -> PixelMeasurer { languages.measurer(for: tag) }
}

/// A pixel measurer's fonts as chains shaped for each language asked for, each built once (a
/// chain reads its fonts' substitutions for its script and language system). Safe from any task.
final class LanguageMeasurers: Sendable {
    private let base: PixelMeasurer
    private let built = Mutex<[TextLanguage: PixelMeasurer]>([:])

    init(_ base: PixelMeasurer) { self.base = base }

    /// The measurer for `tag`: the base one when `tag` is not a well-formed tag or its chain
    /// cannot be built.
    func measurer(for tag: String) -> PixelMeasurer {
        guard let language = TextLanguage(bcp47: tag) else { return base }
        if let found = built.withLock({ $0[language] }) { return found }
        let chain = base.chain
        let made: PixelMeasurer
        if let shaped = try? FontChain(fonts: chain.faces.map(\.font), size: chain.size, language: language) {
            made = PixelMeasurer(chain: shaped, lineHeight: base.lineHeight)
        } else {
            made = base
        }
        return built.withLock { table in
            if let found = table[language] { return found }
            table[language] = made
            return made
        }
    }
}
