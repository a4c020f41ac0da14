/// How a stretch of a message's text is styled: what chat apps' markup (`**bold**`, Slack's
/// `*bold*`) or entities mark. Styles only change how text is drawn, never how much room it takes:
/// the markers are gone from the text, and the layout measures the text alone.
public enum TextSpanStyle: String, Sendable, Hashable, CaseIterable {
    case bold, italic, underline, strikethrough
    /// Inline code or a code block: monospaced in the apps, literal (no markup inside).
    case code
}

/// A style over part of a message's text, by UTF-8 offsets into it (`start..<end`). Spans may
/// nest and overlap; one outside the text, or empty, is drawn as nothing.
public struct TextSpan: Sendable, Hashable {
    public var start: Int
    public var end: Int
    public var style: TextSpanStyle

    public init(start: Int, end: Int, style: TextSpanStyle) {
        self.start = start
        self.end = end
        self.style = style
    }
}
