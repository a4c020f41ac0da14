/// A picture: a box of the picture's aspect ratio, with an optional caption wrapped below it.
open class ImageBubbleCell: BubbleCell, ConfigurableCell {
    public private(set) var pixelWidth: Int?
    public private(set) var pixelHeight: Int?
    public private(set) var caption: String?

    open func configure(with model: any ImageMessageModel) {
        pixelWidth = model.pixelWidth
        pixelHeight = model.pixelHeight
        caption = model.caption
    }

    public static func previewText(of model: any ImageMessageModel) -> String {
        if let caption = model.caption, !caption.isEmpty { return caption }
        return "[image] " + model.imageName
    }

    public static func content(of model: any ImageMessageModel) -> BubbleContent {
        BubbleContent(text: model.caption.flatMap { $0.isEmpty ? nil : $0 },
                      image: ImageContent(name: model.imageName, pixelWidth: model.pixelWidth, pixelHeight: model.pixelHeight))
    }

    open override class var rowKind: RowKind { .image }

    open override func measureContent<Sizing: TextSizing>(in frame: BubbleFrame, text sizing: Sizing) -> ContentSize {
        let style = frame.style
        let wrap = frame.maxContentWidth
        let box = Self.boxSize(pixelWidth: pixelWidth, pixelHeight: pixelHeight, maxColumns: wrap, style: style)
        var size = ContentSize(width: box.columns, textLines: 0, wrapWidth: wrap,
                               imageColumns: box.columns, imageRows: box.rows)
        if let caption, !caption.isEmpty {
            let metrics = sizing.metrics(of: caption, part: 0, width: wrap)
            size.textLines = metrics.lineCount
            size.width = max(size.width, metrics.widestLine)
        }
        return size
    }

    /// The box, in cells, for a picture of this pixel size (nil or non-positive: 4:3 by default)
    /// at most `maxColumns` wide and `style.imageMaxRows` tall, at least the style's minimum.
    public static func boxSize(pixelWidth: Int?, pixelHeight: Int?, maxColumns: Int,
                               style: BubbleStyle) -> (columns: Int, rows: Int) {
        var aspectW = style.defaultImageAspectWidth, aspectH = style.defaultImageAspectHeight
        if let w = pixelWidth, let h = pixelHeight, w > 0, h > 0 { aspectW = w; aspectH = h }
        let cellRatio = Double(max(1, style.cellHeightToWidth))
        let maxColumns = max(1, maxColumns)
        let maxRows = max(1, style.imageMaxRows)
        // Rows per column of box = (h / w) / cellRatio. Doubles: pixel sizes may be anything.
        let rowsPerColumn = Double(aspectH) / Double(aspectW) / cellRatio
        var columns = maxColumns
        var rows = clampedInt(Double(columns) * rowsPerColumn)
        if rows > maxRows {
            rows = maxRows
            columns = min(maxColumns, clampedInt(Double(rows) / rowsPerColumn))
        }
        columns = min(maxColumns, max(columns, style.imageMinColumns))
        rows = min(maxRows, max(rows, style.imageMinRows, 1))
        return (max(1, columns), rows)
    }

    static func clampedInt(_ value: Double) -> Int {
        let rounded = value.rounded()
        return rounded.isFinite ? Int(min(max(rounded, 0), 1e9)) : 1_000_000_000
    }

    open override func prepareForReuse() {
        pixelWidth = nil
        pixelHeight = nil
        caption = nil
    }
}
