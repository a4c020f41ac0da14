import BubbleLayout
import BubbleText

/// The text lines of a row drawn in part (`lines(for:…only:)`), for a search that reads the
/// text to find which of them can show a query rather than drawing them all.
package struct SearchableText {
    /// The row's first text line, among the row's lines as drawn, and how many there are.
    package let first: Int
    package let count: Int
    /// The text, wrapped at `wrapWidth` into those lines (text line `n` is line `n` of its layout).
    package let prepared: PreparedText
    package let wrapWidth: Int
    /// Where the wrap can be walked from (`PreparedText.wrapIndex`).
    package let index: WrapIndex
    /// Every character, folded as a search folds it (`SearchMatcher.fold`), that a text line
    /// can show besides its text's own: the side borders and rules around it, the padding, and
    /// the ellipsis of a line cut short.
    package let chrome: Set<Character>
}

extension TranscriptRenderer {
    /// Where the text lines of `row` are and what they are cut from, when a search may read its
    /// text instead of its lines: nil for a row without text lines and for one whose text is
    /// drawn whole (right-to-left text in `.visual` bidi, whose order needs all its lines).
    /// Draws the row's other lines only (not kept), as drawing it at an empty window would.
    package mutating func searchableText(for row: DecoratedRow, model: (any MessageModel)?, layout: RowLayout) -> SearchableText? {
        guard !row.isDateSeparator, let model else { return nil }
        let drawing = engine.drawing(of: row, model: model, layout: layout, keepingTexts: options.keepsPreparedTexts)
        guard let message = drawing.message, let prepared = drawing.text, layout.textLines > 0 else { return nil }
        if options.bidi == .visual && prepared.mayContainRightToLeft { return nil }
        var lines = [String](repeating: "", count: layout.spacingAbove)
        let window = layout.alignment == .center
            ? drawNotice(drawing, message, into: &lines, only: 0..<0)
            : drawBubble(drawing, message, into: &lines, only: 0..<0)
        if resolver == nil { previews.record(message.previewText, id: message.id, sender: message.senderName,
                                             conversation: message.conversationID) }
        guard let window, let kept = partDrawn, kept.id == message.id, kept.revision == message.revision,
              kept.wrapWidth == layout.wrapWidth else { return nil }
        let chromeGlyphs = [glyphs.vertical, glyphs.horizontal, glyphs.isASCII ? "=" : "═", glyphs.ellipsis, ".", " "]
        return SearchableText(first: window.first, count: window.count, prepared: prepared, wrapWidth: layout.wrapWidth,
                              index: kept.index, chrome: Set(chromeGlyphs.flatMap { SearchMatcher.fold($0) }))
    }
}
