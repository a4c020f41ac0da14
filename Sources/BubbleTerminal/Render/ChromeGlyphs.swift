import BubbleLayout

/// The renderer's own glyphs: borders, rules, tails, status marks, the image icon. Every glyph is
/// one cell wide (the status marks as wide as `FooterText.mark`, which layout measured), so chrome
/// never changes the geometry the layout decided.
struct ChromeGlyphs: Sendable {
    var horizontal: String
    var vertical: String
    var topLeft: String
    var topRight: String
    var bottomLeft: String
    var bottomRight: String
    /// The bottom corner on the sender's side of a group's last bubble.
    var tailLeft: String
    var tailRight: String
    /// The frame of an image box.
    var boxHorizontal: String
    var boxVertical: String
    var boxTopLeft: String
    var boxTopRight: String
    var boxBottomLeft: String
    var boxBottomRight: String
    /// Ends truncated text.
    var ellipsis: String
    /// Starts a reply quote.
    var replyArrow: String
    /// Starts a forward's line on the quote row: one cell, as layout measures it.
    var forwardArrow: String
    /// Between an image's pixel width and height.
    var times: String
    var isASCII: Bool

    /// The status mark of a footer.
    func mark(for status: DeliveryStatus) -> String {
        guard isASCII else { return FooterText.mark(for: status) }
        switch status {
        case .sending: return "~"
        case .sent: return "v"
        case .delivered: return "vv"
        case .read: return "VV"
        case .failed: return "x"
        }
    }

    /// Rounded box drawing and the Unicode marks.
    static let unicode = ChromeGlyphs(
        horizontal: "─", vertical: "│", topLeft: "╭", topRight: "╮", bottomLeft: "╰", bottomRight: "╯",
        tailLeft: "└", tailRight: "┘",
        boxHorizontal: "─", boxVertical: "│", boxTopLeft: "┌", boxTopRight: "┐", boxBottomLeft: "└",
        boxBottomRight: "┘",
        ellipsis: "…", replyArrow: "↩", forwardArrow: ReplyPreviews.forwardArrow, times: "×", isASCII: false)

    /// Plain ASCII (`--ascii`): `+-+|`, tails as `\` and `/`, `>` for quotes.
    static let ascii = ChromeGlyphs(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
        tailLeft: "\\", tailRight: "/",
        boxHorizontal: "-", boxVertical: "|", boxTopLeft: "+", boxTopRight: "+", boxBottomLeft: "+",
        boxBottomRight: "+",
        ellipsis: "...", replyArrow: ">", forwardArrow: ">", times: "x", isASCII: true)
}
