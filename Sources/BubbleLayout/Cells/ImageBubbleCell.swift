/// A picture: a box of the picture's aspect ratio, with an optional caption wrapped below it.
open class ImageBubbleCell: BubbleCell, ConfigurableCell {
    public static let kindName = "image"

    /// The box, and the caption when there is one (an empty caption is none).
    public static func content(of model: any ImageMessageModel) -> BubbleContent { content(typed: model) }

    public static func contentReader(for type: any MessageModel.Type) -> ContentReader? {
        guard let typed = type as? any ImageMessageModel.Type else { return nil }
        func reader<M: ImageMessageModel>(_: M.Type) -> ContentReader { ContentReader(M.self) { content(typed: $0) } }
        return reader(typed)
    }

    /// `content(of:)` on a model of a known type: the one definition of an image bubble's content.
    static func content<M: ImageMessageModel>(typed model: M) -> BubbleContent {
        BubbleContent(text: model.caption.flatMap { $0.isEmpty ? nil : $0 },
                      image: ImageContent(name: model.imageName, pixelWidth: model.pixelWidth, pixelHeight: model.pixelHeight),
                      spans: model.captionSpans)
    }

    public static func previewText(of model: any ImageMessageModel) -> String {
        if let caption = model.caption, !caption.isEmpty { return caption }
        return "[image] " + model.imageName
    }
}
