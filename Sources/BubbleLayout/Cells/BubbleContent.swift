/// What a bubble shows, as plain values: a renderer draws it without knowing the model's kind,
/// so a kind an app adds is drawn through its own cell, with no switch in the renderer.
public struct BubbleContent: Sendable, Hashable {
    /// The wrapped text: a message's text, an image's caption, a notice. Nil for none.
    public var text: String?
    /// A picture drawn as a box above the text.
    public var image: ImageContent?
    /// How the text is drawn; the same cells either way.
    public var textStyle: MessageTextStyle

    public init(text: String?, image: ImageContent? = nil, textStyle: MessageTextStyle = .body) {
        self.text = text
        self.image = image
        self.textStyle = textStyle
    }
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
}
