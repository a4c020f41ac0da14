import BubbleText

/// A measurer in whole px that also says how tall a text is: what rows in pixels need besides
/// widths. The cells lay a row out with this measurer's widths (as in terminal cells, in whole px
/// across), and `PixelStyle` adds the vertical parts around the text's height (`PixelRow`).
/// BubbleFonts' `PixelLayoutMeasurer` is one, measuring with font files.
public protocol PixelTextMeasurer: TextMeasurer {
    /// Each line's height in LayoutUnits (1/64 px) when every line is as tall (a fixed line
    /// height, or faces of one metrics); nil when a line's height depends on the fonts it uses.
    var uniformLineHeight64: Int? { get }
    /// The height in LayoutUnits of `prepared` wrapped at `width` whole px.
    func textHeight64(of prepared: Prepared, width: Int) -> Int
}

/// Turns rows laid out by a pixel measurer's engine into `PixelRow`s: the one place a row's
/// height in pixels is computed, for `heights --font`, `serve`, the pictures and a
/// `Conversation` in pixels alike. It keeps the last text it prepared, so a row asked for at
/// several widths in turn prepares its text once (only needed when line heights depend on the
/// fonts). Not `Sendable`: one per task.
package struct PixelHeights<Measurer: PixelTextMeasurer> {
    /// The engine whose layouts are turned into pixels (it holds the measurer and the cells).
    package let engine: LayoutEngine<Measurer>
    /// The vertical parts added around a row's text.
    package let style: PixelStyle
    private var lastText: String?
    private var lastLanguage: String?
    private var lastPrepared: Measurer.Prepared?
    /// Reads rows' contents through their cells' content readers (`content(of:in:)`).
    private var readers = ContentReaders()

    /// Pixel rows for `engine`'s layouts, whose style should be `style.bubbleStyle`.
    package init(engine: LayoutEngine<Measurer>, style: PixelStyle) {
        self.engine = engine
        self.style = style
    }

    /// Row `r` of `batch` at `batch.widths[widthIndex]` in pixels.
    package mutating func row(_ r: Int, of batch: BatchLayout, widthIndex: Int) -> PixelRow {
        let row = batch.rows[r]
        return self.row(batch.layout(row: r, widthIndex: widthIndex), of: row.modelIndex.map { batch.models[$0] })
    }

    /// A row laid out as `layout`, of message `model` (nil for a date separator), in pixels.
    package mutating func row(_ layout: RowLayout, of model: (any MessageModel)?) -> PixelRow {
        row(layout, content: model.map { engine.content(of: $0).body })
    }

    /// What `row` (a row of `models`) shows, as its cell lays it out: to be read once and handed to
    /// `row(_:content:)` at each width. Read through the cell's content reader for the model's
    /// type (`ContentReaders`), without the casts `LayoutEngine.content(of:)` makes; nil for a
    /// date separator.
    package mutating func content(of row: DecoratedRow, in models: [any MessageModel]) -> BubbleContent? {
        guard let messageIndex = row.modelIndex else { return nil }
        let model = models[messageIndex]
        if let found = readers.content(of: model, configurator: row.configuratorIndex, registry: engine.registry) {
            return found.content
        }
        return engine.content(of: model).body
    }

    /// A row laid out as `layout` showing `content` (nil for a date separator, whose height is
    /// the style's whatever its label), in pixels; `prepared(part)` may give the texts already
    /// prepared for the layout (part 0 the text, `ImageContent.labelPart` a label).
    package mutating func row(_ layout: RowLayout, content: BubbleContent?,
                      prepared: (Int) -> Measurer.Prepared? = { _ in nil }) -> PixelRow {
        engine.pixelRow(layout, content: content, style: style) { text, part, lines, width in
            let measurer = engine.texts.measurer
            if let each = measurer.uniformLineHeight64 { return lines * each }
            if let known = prepared(part) { return measurer.textHeight64(of: known, width: width) }
            let language = part == 0 ? content?.language : nil
            if text != lastText || language != lastLanguage {
                lastText = text
                lastLanguage = language
                lastPrepared = measurer.prepare(text, language: language)
            }
            return measurer.textHeight64(of: lastPrepared!, width: width)
        }
    }
}
