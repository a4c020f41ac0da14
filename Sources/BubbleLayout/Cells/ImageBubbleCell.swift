import BubbleText

/// A picture: a box of the picture's aspect ratio, with an optional caption wrapped below it.
package class ImageBubbleCell: BubbleCell, ConfigurableCell, ContentReaderProviding {
    /// "image".
    package static let kindName = "image"

    /// The box, and the caption when there is one (an empty caption is none).
    package static func content(of model: any ImageMessageModel) -> BubbleContent { content(typed: model) }

    package static func contentReader(for type: any MessageModel.Type) -> ContentReader? {
        guard let typed = type as? any ImageMessageModel.Type else { return nil }
        func reader<M: ImageMessageModel>(_: M.Type) -> ContentReader { ContentReader(M.self) { content(typed: $0) } }
        return reader(typed)
    }

    /// `content(of:)` on a model of a known type: the one definition of an image bubble's content.
    static func content<M: ImageMessageModel>(typed model: M) -> BubbleContent {
        var content = BubbleContent(text: model.caption.flatMap { $0.isEmpty ? nil : $0 },
                                    image: ImageContent(name: model.imageName, pixelWidth: model.pixelWidth, pixelHeight: model.pixelHeight),
                                    spans: model.captionSpans)
        if let tagged = model as? any LanguageTaggedMessage, let language = tagged.textLanguage { content.language = language }
        return content
    }

    /// The caption, or the picture's label when it has none.
    package static func previewText(of model: any ImageMessageModel) -> String {
        if let caption = model.caption, !caption.isEmpty { return caption }
        return ImageContent.labelPrefix + model.imageName
    }

    /// The picture above the caption. A picture of known size is a box of its aspect ratio, at
    /// most the frame's content width; one of unknown size is its label's lines (`imageRows` is
    /// their count, `imageColumns` the widest), so its whole label shows in as few rows as it
    /// takes. The caption is measured as the base cell measures text.
    package override class func contentSize(of content: BubbleContent, in frame: BubbleFrame, text: MeasureText) -> ContentSize {
        var size = super.contentSize(of: content, in: frame, text: text)
        guard let image = content.image else { return size }
        let wrap = frame.maxContentWidth
        if image.hasKnownSize {
            let box = image.boxSize(maxColumns: wrap, style: frame.style)
            size.imageColumns = box.columns
            size.imageRows = box.rows
        } else {
            // (A grapheme wider than the whole content, at a width of a cell or two, is cut
            // there, as text is.)
            let label = text(image.label, ImageContent.labelPart, wrap)
            size.imageColumns = min(label.widestLine, wrap)
            size.imageRows = label.lineCount
        }
        size.width = max(size.width, size.imageColumns)
        return size
    }
}
