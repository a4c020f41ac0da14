/// What a bubble shows, as plain values: the one description of a message's content. The base
/// cell measures it and a renderer draws it, without knowing the model's kind, so a kind an app
/// adds is measured and drawn through its own cell, with no switch anywhere.
public struct BubbleContent: Sendable, Hashable {
    /// The wrapped text (text part 0): a message's text, an image's caption, a notice. Nil for none;
    /// an empty string is a text of one empty line.
    package var text: String?
    /// A picture drawn as a box above the text.
    package var image: ImageContent? {
        get { imageBox?.image }
        set { imageBox = Self.box(image: newValue, spans: spans, language: language) }
    }
    /// How the text is drawn; the same cells either way.
    package var textStyle: MessageTextStyle
    /// Styles over parts of `text` (UTF-8 offsets into it): drawn, never measured, as the markers
    /// that marked them are not in the text.
    package var spans: [TextSpan] {
        get { imageBox?.spans ?? [] }
        set { imageBox = Self.box(image: image, spans: newValue, language: language) }
    }
    /// The text's language (a BCP 47 tag, as HTML's `lang`) when the message names one: a pixel
    /// measurer shapes the text for it; nil for none.
    package var language: String? {
        get { imageBox?.language }
        set { imageBox = Self.box(image: image, spans: spans, language: newValue) }
    }
    /// The image, the spans and the language, boxed: kept inline, the image's optional made this value 58 bytes,
    /// past what is passed in registers, and the compiler would copy and destroy a whole content
    /// each time one is made. Boxed, a content is four words; nil when there is neither.
    private var imageBox: ImageBox?

    private final class ImageBox: Sendable {
        let image: ImageContent?
        let spans: [TextSpan]
        let language: String?
        init(image: ImageContent?, spans: [TextSpan], language: String?) {
            self.image = image
            self.spans = spans
            self.language = language
        }
    }

    private static func box(image: ImageContent?, spans: [TextSpan], language: String? = nil) -> ImageBox? {
        image == nil && spans.isEmpty && language == nil ? nil : ImageBox(image: image, spans: spans, language: language)
    }

    /// Content showing `text` (nil: none) in `textStyle`, with `spans` styling ranges of it, and
    /// an image box for `image` when there is one.
    public init(text: String?, image: ImageContent? = nil, textStyle: MessageTextStyle = .body, spans: [TextSpan] = []) {
        self.text = text
        self.imageBox = Self.box(image: image, spans: spans)
        self.textStyle = textStyle
    }

    /// True when both show the same text, style, image and spans, in the same language.
    public static func == (a: BubbleContent, b: BubbleContent) -> Bool {
        a.text == b.text && a.textStyle == b.textStyle
            && (a.imageBox === b.imageBox || (a.image == b.image && a.spans == b.spans && a.language == b.language))
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(image)
        hasher.combine(textStyle)
        hasher.combine(spans)
        hasher.combine(language)
    }

    /// Nothing: no text, no image.
    package static let none = BubbleContent(text: nil)
}

/// The label of an image box.
public struct ImageContent: Sendable, Hashable {
    package var name: String
    /// Pixel size when known.
    @usableFromInline package var pixelWidth: Int?
    @usableFromInline package var pixelHeight: Int?

    /// The box of the picture `name`, of `pixelWidth` × `pixelHeight` px when known.
    public init(name: String, pixelWidth: Int?, pixelHeight: Int?) {
        self.name = name
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }

    /// True when the picture's pixel size is known (both sides positive): it is drawn as a box of
    /// its aspect ratio. A picture of unknown size is drawn as its `label` alone, wrapped, in as
    /// many lines as the label takes: a box of a made-up shape would show nothing more.
    @inlinable package var hasKnownSize: Bool {
        guard let w = pixelWidth, let h = pixelHeight else { return false }
        return w > 0 && h > 0
    }

    /// What a picture of unknown size shows in its place, its kind and file name:
    /// `[image] photo (not included in the export)`. Measured as text part 1 of the message (part
    /// 0 is the caption) and drawn in the lines measured, never cut.
    package var label: String { Self.labelPrefix + name }

    /// The kind's word before the name in `label`; the same in every glyph set, so a label is as
    /// wide drawn in ASCII as in Unicode.
    package static let labelPrefix = "[image] "

    /// The text part a picture's `label` is measured as (the caption is part 0).
    package static let labelPart = 1

    /// The box, in cells, for this picture (a nil or non-positive size is 4:3 by default) at most
    /// `maxColumns` wide and `style.imageMaxRows` tall, at least the style's minimum.
    package func boxSize(maxColumns: Int, style: BubbleStyle) -> (columns: Int, rows: Int) {
        var aspectW = style.defaultImageAspectWidth, aspectH = style.defaultImageAspectHeight
        if let w = pixelWidth, let h = pixelHeight, w > 0, h > 0 { aspectW = w; aspectH = h }
        let cellRatio = Double(max(1, style.cellHeightToWidth))
        let maxColumns = max(1, maxColumns)
        let maxRows = max(1, style.imageMaxRows)
        // Rows per column of box = (h / w) / cellRatio. Doubles: pixel sizes may be anything.
        let rowsPerColumn = Double(aspectH) / Double(aspectW) / cellRatio
        var columns = maxColumns
        var rows = Self.clampedInt(Double(columns) * rowsPerColumn)
        if rows > maxRows {
            rows = maxRows
            columns = min(maxColumns, Self.clampedInt(Double(rows) / rowsPerColumn))
        }
        columns = min(maxColumns, max(columns, style.imageMinColumns))
        rows = min(maxRows, max(rows, style.imageMinRows, 1))
        return (max(1, columns), rows)
    }

    static func clampedInt(_ value: Double) -> Int {
        let rounded = value.rounded()
        return rounded.isFinite ? Int(min(max(rounded, 0), 1e9)) : 1_000_000_000
    }
}
