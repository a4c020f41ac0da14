/// How a stretch of a message's text is styled: what chat apps' markup (`**bold**`, Slack's
/// `*bold*`) or entities mark. Styles only change how text is drawn, never how much room it takes:
/// the markers are gone from the text, and the layout measures the text alone.
public enum TextSpanStyle: String, Sendable, Hashable, CaseIterable {
    /// Bold (`**bold**`, Slack's `*bold*`).
    case bold
    /// Italic (`_italic_`).
    case italic
    /// Underlined.
    case underline
    /// Struck through (`~~gone~~`).
    case strikethrough
    /// Inline code or a code block: monospaced in the apps, literal (no markup inside).
    case code
}

/// A style over part of a message's text, by UTF-8 offsets into it (`start..<end`). Spans may
/// nest and overlap; one outside the text, or empty, is drawn as nothing.
public struct TextSpan: Sendable, Hashable {
    /// UTF-8 offset of the span's first byte in the text.
    package var start: Int
    /// UTF-8 offset just past the span's last byte.
    package var end: Int
    /// How the span is drawn.
    package var style: TextSpanStyle

    /// A span of `style` over the UTF-8 offsets `start..<end`.
    public init(start: Int, end: Int, style: TextSpanStyle) {
        self.start = start
        self.end = end
        self.style = style
    }
}
