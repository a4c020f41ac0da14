import BubbleText

/// A system notice: centred, no bubble, flanked by rules: `── Alice joined the group ──`.
package class SystemNoticeCell: BubbleCell, ConfigurableCell, ContentReaderProviding {
    /// "system".
    package static let kindName = "system"

    /// The notice's text.
    package static func content(of model: any SystemMessageModel) -> BubbleContent { content(typed: model) }

    /// `content(of:)` on a model of a known type: the one definition of a notice's content.
    static func content<M: SystemMessageModel>(typed model: M) -> BubbleContent {
        var content = BubbleContent(text: model.notice)
        if let tagged = model as? any LanguageTaggedMessage, let language = tagged.textLanguage { content.language = language }
        return content
    }

    package static func contentReader(for type: any MessageModel.Type) -> ContentReader? {
        guard let typed = type as? any SystemMessageModel.Type else { return nil }
        func reader<M: SystemMessageModel>(_: M.Type) -> ContentReader { ContentReader(M.self) { content(typed: $0) } }
        return reader(typed)
    }

    /// False: a notice is drawn between rules, without a bubble.
    package override class var drawsBubble: Bool { false }

    /// The text wrapped between rules (dropped when the container is too narrow for them),
    /// centred; no name line, quote, border or footer.
    package override class func layout(kind: RowKind, content: BubbleContent, direction: MessageDirection,
                                     decoration: RowDecoration, containerWidth: Int, style: BubbleStyle,
                                     text: MeasureText) -> RowLayout {
        let frame = BubbleFrame(containerWidth: containerWidth, style: style, drawsBubble: false)
        let size = contentSize(of: content, in: frame, text: text)
        let contentWidth = min(max(1, size.width), frame.maxContentWidth)
        let width = min(frame.maxOuterWidth, contentWidth + frame.horizontalChrome)
        return RowLayout(kind: kind, alignment: .center, compactLevel: frame.compactLevel,
                         parts: frame.compactLevel == .full ? .rules : [], footer: .none,
                         spacingAbove: spacingAbove(decoration, style: style),
                         x: (frame.containerWidth - width) / 2, bubbleWidth: width,
                         wrapWidth: size.wrapWidth, textLines: size.textLines,
                         imageColumns: size.imageColumns, imageRows: size.imageRows)
    }

    /// Padding above and below the text; no bubble, so no minimum width.
    package override class func pixelRow(_ layout: RowLayout, textHeight64: Int, labelHeight64: Int?,
                                      style: PixelStyle) -> PixelRow {
        PixelRow(layout: layout, height64: (layout.spacingAbove + 2 * style.noticeVerticalPadding) * 64 + textHeight64,
                 textHeight64: textHeight64, bubbleWidth: layout.bubbleWidth)
    }
}
