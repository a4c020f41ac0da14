import BubbleLayout
import BubbleText

extension TranscriptRenderer {
    /// A message bubble, top to bottom: name, top border, reply quote, image box, text lines,
    /// bottom border (with the footer and tail), own-line footer; each only when the layout has it.
    /// With `only`, only the text lines among those row lines are drawn, and the others left
    /// out of `lines`: the result says which (`lines(for:…only:)`); nil when every line is there.
    @discardableResult
    mutating func drawBubble(_ drawing: RowDrawing<PreparedText>, _ message: RowDrawing<PreparedText>.Message,
                             into lines: inout [String], only: Range<Int>? = nil) -> TextLineWindow? {
        var textWindow: TextLineWindow?
        let layout = drawing.layout
        let contentWidth = layout.contentWidth(in: bubbleStyle)

        if layout.parts.contains(.nameLine) { lines.append(nameLine(message.senderName ?? "", layout: layout)) }
        if layout.parts.contains(.topBorder) { lines.append(border(top: true, layout: layout, footer: nil)) }
        if layout.parts.contains(.replyQuote) {
            var quoted = message.replyToID.map { id in
                glyphs.replyArrow + " " + (quoteBody(for: id, in: message.conversationID) ?? "reply to a message")
            }
            // A forward shares the reply's row: the decorator gave the row for either.
            if let origin = message.forwardedFrom {
                let forward = glyphs.forwardArrow + " " + ReplyPreviews.forwardQuote(from: origin)
                quoted = quoted.map { forward + ReplyPreviews.forwardReplySeparator + $0 } ?? forward
            }
            let source = quoted ?? glyphs.replyArrow + " reply to a message"
            let quote = safe.draw(source, limit: contentWidth, style: .dim)
            let visual = visualIfRightToLeft(quote, source: source)
            lines.append(contentLine(visual.drawn, layout: layout, trailingBlanks: visual.trailingBlanks))
        }

        // The cell says what it shows; the layout says how many rows each part takes.
        let content = drawing.content
        if let label = drawing.boxLabel {
            // A box drawn as its label (a picture of unknown size), wrapped as the cell measured it, whole.
            let labelLines = wrapped(label, id: message.id, layout: layout, count: layout.imageRows).lines
            for line in labelLines {
                let visual = visualIfRightToLeft(safe.draw(line, limit: contentWidth, style: .dim), source: String(line))
                lines.append(contentLine(visual.drawn, layout: layout, rightAligned: visual.rightToLeft,
                                         trailingBlanks: visual.trailingBlanks))
            }
        } else if let box = drawing.box {
            for boxLine in imageBox(box, columns: min(layout.imageColumns, contentWidth), rows: layout.imageRows) {
                lines.append(contentLine(boxLine, layout: layout))
            }
        } else {
            for _ in 0..<layout.imageRows { lines.append(contentLine(.empty, layout: layout)) }
        }
        if layout.textLines > 0 {
            let textStyle: TextStyle = content.textStyle == .notice ? .notice : .plain
            let first = lines.count
            let shown = only.map { ($0.lowerBound - first)..<($0.upperBound - first) }
            if let shown, let part = drawnTextWindow(of: drawing.text, message: message, layout: layout, limit: contentWidth,
                                                     style: textStyle, spans: content.spans, window: shown) {
                for line in part.lines {
                    lines.append(contentLine(line.drawn, layout: layout, rightAligned: line.rightToLeft,
                                             trailingBlanks: line.trailingBlanks))
                }
                textWindow = TextLineWindow(first: first, count: layout.textLines, drawn: part.window)
            } else {
                for line in drawnTextLines(of: drawing.text, message: message, layout: layout, limit: contentWidth,
                                           style: textStyle, spans: content.spans, only: shown) {
                    guard let line else {
                        lines.append("")
                        continue
                    }
                    lines.append(contentLine(line.drawn, layout: layout, rightAligned: line.rightToLeft,
                                             trailingBlanks: line.trailingBlanks))
                }
            }
        }

        let footer = layout.footer == .none ? nil : footerText(message, reservedWidth: message.footerWidth)
        if layout.parts.contains(.bottomBorder) {
            lines.append(border(top: false, layout: layout, footer: layout.footer == .inBottomBorder ? footer : nil))
        }
        if layout.footer == .ownLine, let footer { lines.append(footerLine(footer, layout: layout)) }
        return textWindow
    }

    /// The sender's name in their colour, above the bubble's edge on the sender's side.
    mutating func nameLine(_ name: String, layout: RowLayout) -> String {
        let color = senderColors.color(for: name)
        let end = layout.x + layout.bubbleWidth
        let room = max(layout.bubbleWidth, bubbleFrame.maxOuterWidth)
        var line = LineBuilder()
        if layout.alignment == .right {
            let visual = visualIfRightToLeft(safe.draw(name, limit: min(room, end), style: .color(color)), source: name)
            line.move(to: end - visual.fullWidth)
            line.append(visual.drawn)
        } else {
            line.move(to: layout.x)
            line.append(visualIfRightToLeft(safe.draw(name, limit: min(room, width - layout.x), style: .color(color)), source: name).drawn)
        }
        return line.text
    }

    /// A top or bottom border (a bare rule when the side borders are gone), with the footer
    /// right-aligned inside a bottom border and the tail on the sender's corner.
    func border(top: Bool, layout: RowLayout, footer: DrawnText?) -> String {
        let bubbleWidth = layout.bubbleWidth
        let cornered = layout.parts.contains(.sideBorders) && bubbleWidth >= 2
        let tail = !top && cornered && layout.parts.contains(.tail)
        let inner = cornered ? bubbleWidth - 2 : bubbleWidth
        var line = LineBuilder()
        line.move(to: layout.x)
        if cornered {
            let corner = top ? glyphs.topLeft
                : tail && layout.alignment != .right ? glyphs.tailLeft : glyphs.bottomLeft
            line.append(sgr.dim(corner), width: 1)
        }
        if let footer, footer.width <= inner {
            // Rules either side of the footer, with a space of air when there is room for it.
            let air = inner >= footer.width + 4 ? 1 : 0
            let trailing = inner >= footer.width + 2 ? 1 : 0
            let leading = inner - footer.width - trailing - 2 * air
            line.append(sgr.dim(repeated(glyphs.horizontal, leading)), width: leading)
            line.move(to: line.column + air)
            line.append(footer)
            line.move(to: line.column + air)
            line.append(sgr.dim(repeated(glyphs.horizontal, trailing)), width: trailing)
        } else {
            line.append(sgr.dim(repeated(glyphs.horizontal, inner)), width: max(0, inner))
        }
        if cornered {
            let corner = top ? glyphs.topRight
                : tail && layout.alignment == .right ? glyphs.tailRight : glyphs.bottomRight
            line.append(sgr.dim(corner), width: 1)
        }
        return line.text
    }

    /// One content row: `drawn` at the content's left edge (at its right edge when
    /// `rightAligned`: a right-to-left paragraph), between side borders when the bubble has them.
    /// `trailingBlanks` cells after `drawn` count for its place but are not written.
    func contentLine(_ drawn: DrawnText, layout: RowLayout, rightAligned: Bool = false, trailingBlanks: Int = 0) -> String {
        let style = bubbleStyle
        let contentX = layout.contentX(in: style)
        var line = LineBuilder()
        let sided = layout.parts.contains(.sideBorders) && layout.bubbleWidth >= 2
        if sided {
            line.move(to: layout.x)
            line.append(sgr.dim(glyphs.vertical), width: 1)
        }
        line.move(to: rightAligned ? contentX + max(0, layout.contentWidth(in: style) - drawn.width - trailingBlanks) : contentX)
        line.append(drawn)
        line.move(to: line.column + trailingBlanks)
        if sided {
            line.move(to: layout.x + layout.bubbleWidth - 1)
            line.append(sgr.dim(glyphs.vertical), width: 1)
        }
        return line.text
    }

    /// A footer on its own row: under the content's left edge for incoming bubbles, ending at the
    /// content's right edge for outgoing ones; moved towards the middle when the container is too
    /// narrow for that, and cut only when it is narrower than the footer itself.
    func footerLine(_ footer: DrawnText, layout: RowLayout) -> String {
        let style = bubbleStyle
        let contentX = layout.contentX(in: style)
        let fitted = footer.width <= width ? footer : plainFooter(footer, limit: width)
        var line = LineBuilder()
        if layout.alignment == .right {
            line.move(to: max(0, contentX + layout.contentWidth(in: style) - fitted.width))
        } else {
            line.move(to: max(0, min(contentX, width - fitted.width)))
        }
        line.append(fitted)
        return line.text
    }

    /// A footer cut to `limit` cells (only in containers narrower than the footer itself).
    func plainFooter(_ footer: DrawnText, limit: Int) -> DrawnText {
        safe.draw(stripSGR(footer.text), limit: max(0, limit))
    }

    /// `FooterText`'s parts styled (the status mark read in colour, failed in red), as wide as the
    /// layout reserved: padded on the left when the ASCII marks are narrower.
    mutating func footerText(_ message: RowDrawing<PreparedText>.Message, reservedWidth: Int) -> DrawnText {
        let footer = FooterText(date: message.date, status: message.status, isEdited: message.isEdited, clock: &clock)
        let plain = footer.plain(mark: glyphs.mark(for:))
        var styled = sgr.dim(footer.timeAndLabel)
        if let status = footer.status {
            let mark = glyphs.mark(for: status)
            switch status {
            case .read: styled += " " + sgr.foreground(mark, Self.readColor)
            case .failed: styled += " " + sgr.foreground(mark, Self.failedColor)
            default: styled += " " + sgr.dim(mark)
            }
        }
        let drawnWidth = safe.width(of: plain)
        if drawnWidth > reservedWidth { return safe.draw(plain, limit: reservedWidth) }
        return DrawnText(repeated(" ", reservedWidth - drawnWidth) + styled, width: reservedWidth)
    }

    static let readColor = TerminalColor(red: 0x4F, green: 0xA8, blue: 0xFF)
    static let failedColor = TerminalColor(red: 0xFF, green: 0x55, blue: 0x55)

    /// `text` without our SGR sequences.
    func stripSGR(_ text: String) -> String {
        guard sgr.isEnabled else { return text }
        var result = String.UnicodeScalarView()
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if scalar == "m" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
