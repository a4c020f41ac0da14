/// What a bubble shows, as plain values: the one description of a message's content. The base
/// cell measures it and a renderer draws it, without knowing the model's kind, so a kind an app
/// adds is measured and drawn through its own cell, with no switch anywhere.
public struct BubbleContent: Sendable, Hashable {
    /// The wrapped text (text part 0): a message's text, an image's caption, a notice. Nil for none;
    /// an empty string is a text of one empty line.
    public var text: String?
    /// A picture drawn as a box above the text.
    public var image: ImageContent? {
        get { imageBox?.image }
        set { imageBox = newValue.map(ImageBox.init) }
    }
    /// How the text is drawn; the same cells either way.
    public var textStyle: MessageTextStyle
    /// The image, boxed: kept inline, its optional made this value 58 bytes, past what is passed
    /// in registers, and the compiler would copy and destroy a whole content each time one is made.
    /// Boxed, a content is four words.
    private var imageBox: ImageBox?

    private final class ImageBox: Sendable {
        let image: ImageContent
        init(_ image: ImageContent) { self.image = image }
    }

    public init(text: String?, image: ImageContent? = nil, textStyle: MessageTextStyle = .body) {
        self.text = text
        self.imageBox = image.map(ImageBox.init)
        self.textStyle = textStyle
    }

    public static func == (a: BubbleContent, b: BubbleContent) -> Bool {
        a.text == b.text && a.textStyle == b.textStyle && (a.imageBox === b.imageBox || a.image == b.image)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(image)
        hasher.combine(textStyle)
    }

    /// Nothing: no text, no image.
    public static let none = BubbleContent(text: nil)
}

/// The label of an image box.
public struct ImageContent: Sendable, Hashable {
    public var name: String
    /// Pixel size when known.
    public var pixelWidth: Int?
    public var pixelHeight: Int?

    public init(name: String, pixelWidth: Int?, pixelHeight: Int?) {
        self.name = name
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }

    /// The box, in cells, for this picture (a nil or non-positive size is 4:3 by default) at most
    /// `maxColumns` wide and `style.imageMaxRows` tall, at least the style's minimum.
    public func boxSize(maxColumns: Int, style: BubbleStyle) -> (columns: Int, rows: Int) {
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
