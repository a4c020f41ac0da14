import BubbleText

/// A bubble of wrapped text: the base bubble, configured with a text message. What it shows is
/// the message's text in its style, so a notice in a person's bubble is drawn as one.
package class TextBubbleCell: BubbleCell, ConfigurableCell, ContentReaderProviding {
    /// "text".
    package static let kindName = "text"

    /// The message's text, in its style and spans.
    package static func content(of model: any TextMessageModel) -> BubbleContent { content(typed: model) }

    package static func contentReader(for type: any MessageModel.Type) -> ContentReader? {
        guard let typed = type as? any TextMessageModel.Type else { return nil }
        func reader<M: TextMessageModel>(_: M.Type) -> ContentReader { ContentReader(M.self) { content(typed: $0) } }
        return reader(typed)
    }

    /// `content(of:)` on a model of a known type: the one definition of a text bubble's content.
    static func content<M: TextMessageModel>(typed model: M) -> BubbleContent {
        var content = BubbleContent(text: model.text, textStyle: model.textStyle, spans: model.textSpans)
        if let tagged = model as? any LanguageTaggedMessage, let language = tagged.textLanguage { content.language = language }
        return content
    }
}
