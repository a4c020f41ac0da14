import BubbleLayout

/// Where a footer is written: the markup of its status mark's coloured element.
enum FooterMarkup {
    /// `<tspan fill="…">` inside the footer's `<text>`.
    case svg
    /// `<span style="color:…">` inside the footer's `<div>`.
    case html
}

extension MarkupBytes {
    /// A bubble's footer text, the one home of what SVG and HTML draw there: the time (and the
    /// edited label), then, after a space, the delivery status mark in its theme colour.
    mutating func appendFooter(_ footer: FooterText, colors: PictureTheme.Colors, in markup: FooterMarkup) {
        appendEscaped(footer.timeAndLabel)
        guard let status = footer.status else { return }
        append(markup == .svg ? " <tspan fill=\"" : " <span style=\"color:")
        append(raw: colors.color(for: status))
        append("\">")
        appendEscaped(FooterText.mark(for: status))
        append(markup == .svg ? "</tspan>" : "</span>")
    }
}
