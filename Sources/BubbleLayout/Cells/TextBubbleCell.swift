/// A bubble of wrapped text.
open class TextBubbleCell: BubbleCell, ConfigurableCell {
    public static let kindName = "text"

    /// The text with its style, so a notice in a person's bubble is drawn as one.
    public static func content(of model: any TextMessageModel) -> BubbleContent {
        BubbleContent(text: model.text, textStyle: model.textStyle)
    }
}
