import BubbleLayout
import BubbleText

extension TranscriptRenderer {
    /// A system notice: each wrapped line centred between the rules, `── Alice joined ──`.
    /// With `only`, only the notice's lines among those row lines are drawn (as `drawBubble`).
    @discardableResult
    mutating func drawNotice(_ drawing: RowDrawing<PreparedText>, _ message: RowDrawing<PreparedText>.Message,
                             into lines: inout [String], only: Range<Int>? = nil) -> TextLineWindow? {
        let layout = drawing.layout
        let room = layout.contentWidth(in: bubbleStyle)
        // A conversation's heading (its first row) is set apart from notices: bold between double rules.
        let heading = message.isHeading
        let rule = heading ? (glyphs.isASCII ? "=" : "═") : nil
        let first = lines.count
        if let only, let part = drawnTextWindow(of: drawing.text, message: message, layout: layout, limit: room,
                                                style: heading ? .bold : .dim,
                                                window: (only.lowerBound - first)..<(only.upperBound - first)) {
            for line in part.lines {
                lines.append(centredLine(line.drawn, layout: layout, trailingBlanks: line.trailingBlanks, rule: rule))
            }
            return TextLineWindow(first: first, count: layout.textLines, drawn: part.window)
        }
        for line in drawnTextLines(of: drawing.text, message: message, layout: layout, limit: room, style: heading ? .bold : .dim) {
            lines.append(centredLine(line.drawn, layout: layout, trailingBlanks: line.trailingBlanks, rule: rule))
        }
        return nil
    }

    /// A date separator: the day's label centred between the rules.
    func drawCentred(label: String, layout: RowLayout, into lines: inout [String]) {
        let room = layout.contentWidth(in: bubbleStyle)
        for _ in 0..<layout.textLines {
            lines.append(centredLine(safe.draw(label, limit: room, style: .bold), layout: layout))
        }
    }

    /// `drawn` centred in the row's content, flanked by rules when the layout has them.
    /// `trailingBlanks` cells after it count for centring but are not written.
    /// `rule` is the rules' glyph, one cell wide as `glyphs.horizontal` is (nil for that one).
    func centredLine(_ drawn: DrawnText, layout: RowLayout, trailingBlanks: Int = 0, rule glyph: String? = nil) -> String {
        let style = bubbleStyle
        let contentX = layout.contentX(in: style)
        let contentWidth = layout.contentWidth(in: style)
        let ruled = layout.parts.contains(.rules) && style.ruleWidth > 0
        let rule = repeated(glyph ?? glyphs.horizontal, style.ruleWidth - 1)
        var line = LineBuilder()
        if ruled {
            line.move(to: layout.x)
            line.append(sgr.dim(rule), width: style.ruleWidth - 1)
        }
        line.move(to: contentX + max(0, contentWidth - drawn.width - trailingBlanks) / 2)
        line.append(drawn)
        line.move(to: line.column + trailingBlanks)
        if ruled {
            line.move(to: contentX + contentWidth + 1)
            line.append(sgr.dim(rule), width: style.ruleWidth - 1)
        }
        return line.text
    }

    /// The lines of `prepared` (a text of message `id` its cell measured, from the row's draw
    /// record) wrapped at the layout's wrap width, with how many of them are the text's own. The
    /// cell measured this very text at the same width, so the count is `count` by construction; a
    /// debug build stops on a difference, and a release build still draws `count` lines, so the
    /// rows below stay where layout put them.
    func wrapped(_ prepared: PreparedText, id: String, layout: RowLayout, count: Int) -> (lines: [Substring], own: Int) {
        let wrapped = prepared.layout(width: layout.wrapWidth)
        let scalars = prepared.text.unicodeScalars
        let utf8 = prepared.text.utf8
        var lines = wrapped.lines.map { line -> Substring in
            let start = utf8.index(utf8.startIndex, offsetBy: line.utf8Range.lowerBound)
            let end = utf8.index(start, offsetBy: line.utf8Range.count)
            return Substring(scalars[start..<end])
        }
        assert(lines.count == count, "message \"\(id)\": its cell measured \(count) text lines but its "
               + "content wraps to \(lines.count) at width \(layout.wrapWidth)")
        if lines.count > count { lines.removeLast(lines.count - count) }
        let own = lines.count
        while lines.count < count { lines.append("") }
        return (lines, own)
    }

    /// The layout's text lines drawn by SafeText in at most `limit` cells each; in visual order
    /// when `options.bidi` is `.visual` and the text may hold right-to-left characters (a flag
    /// the preparer set: other texts cost nothing more), each with whether its paragraph is
    /// right-to-left. In `.logical` mode, exactly the lines drawn before bidi support.
    func drawnTextLines(of prepared: PreparedText?, message: RowDrawing<PreparedText>.Message, layout: RowLayout, limit: Int,
                        style: TextStyle = .plain, spans: [TextSpan] = []) -> [VisualOrder.Line] {
        drawnTextLines(of: prepared, message: message, layout: layout, limit: limit, style: style, spans: spans, only: nil).map { $0! }
    }

    /// `drawnTextLines` drawing only the text lines at `only` (all when nil, or when the text
    /// must be reordered as a whole); the others are nil.
    func drawnTextLines(of prepared: PreparedText?, message: RowDrawing<PreparedText>.Message, layout: RowLayout, limit: Int,
                        style: TextStyle = .plain, spans: [TextSpan] = [], only: Range<Int>?) -> [VisualOrder.Line?] {
        // No text measured, no lines (the layout has none either).
        guard let prepared else { return [] }
        let (lines, own) = wrapped(prepared, id: message.id, layout: layout, count: layout.textLines)
        let reordered = options.bidi == .visual && prepared.mayContainRightToLeft && own > 0
        let shown = reordered ? nil : only
        var drawn: [VisualOrder.Line?] = lines.indices.map { index in
            guard shown.map({ $0.contains(index) }) ?? true else { return nil }
            return VisualOrder.Line(drawn: safe.draw(lines[index], limit: limit, style: style), trailingBlanks: 0, rightToLeft: false)
        }
        guard own > 0 else { return drawn }
        // Styles are SGR, which reordering keeps with their characters; links only in logical
        // order: a reordered line's pieces are no longer the text's.
        let styledRows = (0..<own).filter { drawn[$0] != nil }
        if !styledRows.isEmpty {
            let styled = styledLines(styledRows.map { drawn[$0]! }, lines: styledRows.map { lines[$0] }, in: prepared.text, spans: spans,
                                     links: options.hyperlinks && sgr.isEnabled && !reordered, message: message, limit: limit, style: style)
            for (k, row) in styledRows.enumerated() { drawn[row] = styled[k] }
        }
        if reordered {
            let visual = visualOrder.reorder(drawn[0..<own].map { $0!.drawn }, raw: Array(lines[0..<own]), in: prepared.text)
            drawn.replaceSubrange(0..<own, with: visual.map { Optional($0) })
        }
        return drawn
    }

    /// The layout's text lines at `window` (clamped to them), drawn as `drawnTextLines` draws
    /// them, with the window they are; nil when the text must be drawn whole (a right-to-left
    /// text in `.visual` bidi, whose order needs all its lines). The wrap is walked only up to
    /// the window's end (from the last resume point before it) and only the window's lines are
    /// drawn, so a page of a message taller than the screen costs about a page, wherever it is
    /// (plus, once per message and width, a walk over its segments and finding its web addresses).
    mutating func drawnTextWindow(of prepared: PreparedText?, message: RowDrawing<PreparedText>.Message, layout: RowLayout,
                                  limit: Int, style: TextStyle = .plain, spans: [TextSpan] = [],
                                  window: Range<Int>) -> (lines: [VisualOrder.Line], window: Range<Int>)? {
        // No text measured: drawn whole (there are no lines to draw in part).
        guard let prepared else { return nil }
        if options.bidi == .visual && prepared.mayContainRightToLeft { return nil }
        let shown = window.clamped(to: 0..<layout.textLines)
        let scalars = prepared.text.unicodeScalars
        let utf8 = prepared.text.utf8
        // Where its lines can be walked from, and its web addresses: found once per message and
        // width, and kept (the viewer draws it again on every scroll).
        let links = options.hyperlinks && sgr.isEnabled
        if let kept = partDrawn, kept.id == message.id, kept.revision == message.revision, kept.wrapWidth == layout.wrapWidth,
           kept.text == prepared.text {
            if links && kept.addresses == nil { partDrawn?.addresses = Self.webAddresses(in: prepared.text) }
        } else {
            partDrawn = PartDrawnText(id: message.id, revision: message.revision, text: prepared.text, wrapWidth: layout.wrapWidth,
                                      index: prepared.wrapIndex(width: layout.wrapWidth),
                                      addresses: links ? Self.webAddresses(in: prepared.text) : nil)
        }
        let lines = prepared.lines(width: layout.wrapWidth, in: shown, index: partDrawn?.index).map { line -> Substring in
            let start = utf8.index(utf8.startIndex, offsetBy: line.utf8Range.lowerBound)
            return Substring(scalars[start..<utf8.index(start, offsetBy: line.utf8Range.count)])
        }
        var drawn = lines.map { VisualOrder.Line(drawn: safe.draw($0, limit: limit, style: style), trailingBlanks: 0, rightToLeft: false) }
        if !drawn.isEmpty {
            drawn = styledLines(drawn, lines: lines, in: prepared.text, spans: spans, links: links, message: message,
                                limit: limit, style: style, addresses: partDrawn?.addresses)
        }
        // Lines the text does not reach (a count its cell measured otherwise) are drawn empty.
        while drawn.count < shown.count {
            drawn.append(VisualOrder.Line(drawn: safe.draw("", limit: limit, style: style), trailingBlanks: 0, rightToLeft: false))
        }
        return (drawn, shown)
    }

    /// `drawn` (SafeText's drawing of `source`) in visual order when `options.bidi` is
    /// `.visual` and `source` may hold right-to-left characters.
    func visualIfRightToLeft(_ drawn: DrawnText, source: String) -> VisualOrder.Line {
        guard options.bidi == .visual && BidiTables.mayContainRightToLeft(source) else {
            return VisualOrder.Line(drawn: drawn, trailingBlanks: 0, rightToLeft: false)
        }
        return visualOrder.reorder(drawn, source: source)
    }
}
