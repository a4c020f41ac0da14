import BubbleFonts
import BubbleLayout

/// Writes `PictureRow`s as SVG: rounded bubbles with the pixel style's geometry, each text line
/// at the position and with the break our layout gave it (SVG does no line breaking of its own),
/// right-to-left runs as override runs in visual order. Rows are stacked top to bottom; each row
/// is a `<g class="row">` carrying its id and height (`data-id`, `data-height`, px).
///
/// Everything from the input goes through `MarkupText`; the output has no script, no link and no
/// external reference but the fonts' own URLs (`PictureFonts`); an embedded picture is a `data:`
/// URL (`EmbeddedPicture`).
public struct TranscriptSVG {
    public let style: PixelStyle
    public let theme: PictureTheme
    public let fonts: PictureFonts
    /// The font size in px, and the measurer's baseline for a line of a given height.
    public let fontSize: Double
    let baseline: (Int) -> Int
    /// The rows written so far (without the document's head and tail), and their height in 1/64 px.
    public private(set) var body = ""
    public private(set) var height64 = 0
    /// Picture bytes embedded in the rows written so far, and how many pictures.
    var embeddedBytes = 0
    var pictureCount = 0

    public init(style: PixelStyle, theme: PictureTheme, fonts: PictureFonts, measurer: PixelMeasurer) {
        self.style = style
        self.theme = theme
        self.fonts = fonts
        fontSize = measurer.chain.size
        baseline = { measurer.baseline64(lineHeight64: $0) }
    }

    static func px(_ value64: Int) -> String { PixelRow.pixels(value64) }

    /// Starts a new page: the rows written so far are dropped.
    public mutating func clear() {
        body = ""
        height64 = 0
        embeddedBytes = 0
        pictureCount = 0
    }

    /// Appends `row` under the rows written so far.
    public mutating func append(_ row: PictureRow) {
        let c = theme.colors
        let top64 = height64 + row.pixels.layout.spacingAbove * 64
        let rowHeight = row.pixels.height64
        body += "<g class=\"row\" data-id=\"\(MarkupText.escaped(row.id))\" data-kind=\"\(kindName(row.kind))\" data-y=\"\(Self.px(height64))\" data-height=\"\(Self.px(rowHeight))\">"
        switch row.kind {
        case .date:
            let label = row.text ?? ""
            let height = style.dateHeight * 64
            let pillWidth = min(row.contentWidth + 0, row.labelWidth + 24)
            let centre = row.contentX + row.contentWidth / 2
            let pillHeight = max(0, min(height, Int(fontSize * 64) + 12 * 64))
            let pillTop = top64 + (height - pillHeight) / 2
            body += "<rect class=\"date\" x=\"\(centre - pillWidth / 2)\" y=\"\(Self.px(pillTop))\" width=\"\(pillWidth)\" height=\"\(Self.px(pillHeight))\" rx=\"8\" fill=\"\(c.dateFill)\"/>"
            let baselineY = pillTop + pillHeight / 2 + Int(fontSize * 64 * 0.3)
            body += "<text class=\"t l\" x=\"\(centre)\" y=\"\(Self.px(baselineY))\" text-anchor=\"middle\" fill=\"\(c.secondary)\">"
            MarkupText.append(label, to: &body)
            body += "</text>"
        case .notice:
            var y = top64 + style.noticeVerticalPadding * 64
            let centre = row.contentX + row.contentWidth / 2
            if let widest = row.lines.map(\.width).max() {
                let fill = row.pixels.textHeight64
                body += "<rect class=\"notice\" x=\"\(centre - widest / 2 - 10)\" y=\"\(Self.px(y - 2 * 64))\" width=\"\(widest + 20)\" height=\"\(Self.px(fill + 4 * 64))\" rx=\"8\" fill=\"\(c.noticeFill)\"/>"
            }
            for line in row.lines {
                appendLine(line, x: centre, anchor: "middle", top64: y, fill: c.secondary)
                y += line.height64
            }
        case .bubble:
            appendBubble(row, top64: top64)
        }
        body += "</g>\n"
        height64 += rowHeight
    }

    func kindName(_ kind: PictureRow.Kind) -> String {
        switch kind {
        case .date: "date"
        case .notice: "notice"
        case .bubble: "bubble"
        }
    }

    private mutating func appendBubble(_ row: PictureRow, top64: Int) {
        let c = theme.colors
        let bubbleHeight = row.pixels.height64 - row.pixels.layout.spacingAbove * 64
        let fill = row.alignment == .right ? c.outgoing : c.incoming
        body += "<path class=\"bubble\" d=\"\(bubblePath(row, top64: top64, height64: bubbleHeight))\" fill=\"\(fill)\" data-width=\"\(row.width)\" data-height=\"\(Self.px(bubbleHeight))\"/>"
        var y = top64 + style.verticalPadding * 64
        if let name = row.name {
            body += clipped(x: row.contentX, top64: y, width: row.contentWidth, height: style.nameHeight) { body in
                body += "<text class=\"t n\" x=\"0\" y=\"\(Self.px(style.nameHeight * 64 * 3 / 4))\" fill=\"\(name.color)\">"
                Self.appendLabel(name.text, to: &body)
                body += "</text>"
            }
            y += style.nameHeight * 64
        }
        if let quote = row.quote {
            let boxHeight = max(0, style.replyQuoteHeight - 6)
            body += "<rect x=\"\(row.contentX)\" y=\"\(Self.px(y + 2 * 64))\" width=\"\(row.contentWidth)\" height=\"\(boxHeight)\" rx=\"6\" fill=\"\(c.quoteFill)\"/>"
            body += "<rect x=\"\(row.contentX)\" y=\"\(Self.px(y + 2 * 64))\" width=\"4\" height=\"\(boxHeight)\" rx=\"2\" fill=\"\(c.quoteBar)\"/>"
            body += clipped(x: row.contentX + 10, top64: y + 2 * 64, width: max(0, row.contentWidth - 14), height: boxHeight) { body in
                body += "<text class=\"t q\" x=\"0\" y=\"\(Self.px(boxHeight * 64 / 2 + Int(fontSize * 64 * 0.3)))\" fill=\"\(c.secondary)\">"
                Self.appendLabel(quote, to: &body)
                body += "</text>"
            }
            y += style.replyQuoteHeight * 64
        }
        if !row.imageLabel.isEmpty {
            // A picture of unknown size: its label in the measurer's lines, where a box would be.
            for line in row.imageLabel {
                if line.rightToLeft {
                    appendLine(line, x: row.contentX, anchor: nil, top64: y, fill: c.secondary, right: row.contentX + row.contentWidth,
                               class: "t i")
                } else {
                    appendLine(line, x: row.contentX, anchor: nil, top64: y, fill: c.secondary, class: "t i")
                }
                y += line.height64
            }
            if !row.lines.isEmpty { y += style.imageCaptionGap * 64 }
        } else if let image = row.image, let picture = row.picture,
                  embeddedBytes + picture.bytes.count <= EmbeddedPicture.maximumBytesPerDocument {
            // The picture itself, scaled to cover its box (of its own aspect), corners rounded.
            embeddedBytes += picture.bytes.count
            pictureCount += 1
            let x = row.contentX
            body += "<clipPath id=\"p\(pictureCount)\"><rect x=\"\(x)\" y=\"\(Self.px(y))\" width=\"\(image.width)\" height=\"\(image.height)\" rx=\"6\"/></clipPath>"
            body += "<image class=\"image\" x=\"\(x)\" y=\"\(Self.px(y))\" width=\"\(image.width)\" height=\"\(image.height)\" preserveAspectRatio=\"xMidYMid slice\" clip-path=\"url(#p\(pictureCount))\" href=\""
            body += picture.dataURL
            body += "\"/>"
            y += image.height * 64
            if !row.lines.isEmpty { y += style.imageCaptionGap * 64 }
        } else if let image = row.image {
            let x = row.contentX
            body += "<rect class=\"image\" x=\"\(x)\" y=\"\(Self.px(y))\" width=\"\(image.width)\" height=\"\(image.height)\" rx=\"6\" fill=\"\(c.imageFill)\"/>"
            body += clipped(x: x, top64: y, width: image.width, height: image.height) { body in
                let middle = image.height * 64 / 2
                body += "<text class=\"t q\" x=\"\(image.width / 2)\" y=\"\(Self.px(middle))\" text-anchor=\"middle\" fill=\"\(c.secondary)\">"
                Self.appendLabel(image.content?.name ?? "image", to: &body)
                body += "</text>"
                if let w = image.content?.pixelWidth, let h = image.content?.pixelHeight {
                    body += "<text class=\"t q\" x=\"\(image.width / 2)\" y=\"\(Self.px(middle + Int(fontSize * 64)))\" text-anchor=\"middle\" fill=\"\(c.secondary)\">\(w)×\(h)</text>"
                }
            }
            y += image.height * 64
            if !row.lines.isEmpty { y += style.imageCaptionGap * 64 }
        }
        for line in row.lines {
            if line.rightToLeft {
                appendLine(line, x: row.contentX, anchor: nil, top64: y, fill: c.text, right: row.contentX + row.contentWidth)
            } else {
                appendLine(line, x: row.contentX, anchor: nil, top64: y, fill: c.text)
            }
            y += line.height64
        }
        if let footer = row.footer {
            let baselineY = y + style.footerHeight * 64 * 3 / 4
            body += "<text class=\"t f\" x=\"\(row.contentX + row.contentWidth)\" y=\"\(Self.px(baselineY))\" text-anchor=\"end\" fill=\"\(c.secondary)\">"
            MarkupText.append(footer.timeAndLabel, to: &body)
            if let status = footer.status {
                let color = c.color(for: status)
                body += " <tspan fill=\"\(color)\">"
                MarkupText.append(FooterText.mark(for: status), to: &body)
                body += "</tspan>"
            }
            body += "</text>"
        }
    }

    /// `draw`'s output inside a viewport that clips it to the box (a nested `<svg>` clips).
    private func clipped(x: Int, top64: Int, width: Int, height: Int, _ draw: (inout String) -> Void) -> String {
        var inner = "<svg x=\"\(x)\" y=\"\(Self.px(top64))\" width=\"\(max(0, width))\" height=\"\(max(0, height))\">"
        draw(&inner)
        return inner + "</svg>"
    }

    /// A text line: runs left to right inside one override, right-to-left runs as nested overrides.
    /// A right-to-left paragraph's line is placed by its measured width against `right`.
    private mutating func appendLine(_ line: PictureLine, x: Int, anchor: String?, top64: Int, fill: String, right: Int? = nil,
                                     class name: String = "t") {
        let baselineY = top64 + baseline(line.height64)
        let left = right.map { $0 - line.width } ?? x
        body += "<text class=\"\(name)\" x=\"\(left)\" y=\"\(Self.px(baselineY))\""
        if let anchor { body += " text-anchor=\"\(anchor)\"" }
        body += " fill=\"\(fill)\" data-width=\"\(line.width)\">"
        Self.appendRuns(line.runs, to: &body)
        body += "</text>"
    }

    /// `runs` as text content. A line that starts with a right-to-left run gets a left-to-right
    /// mark first (ours, zero width): Chromium takes `text-anchor` and `x` from the direction of
    /// a text chunk's first run, and the lines are already in visual order, left to right.
    static func appendRuns(_ runs: [(text: Substring, rightToLeft: Bool)], to out: inout String) {
        if runs.first?.rightToLeft == true { out += "\u{200E}" }
        for run in runs {
            if run.rightToLeft {
                out += "<tspan class=\"r\">"
                MarkupText.append(run.text, to: &out)
                out += "</tspan>"
            } else {
                MarkupText.append(run.text, to: &out)
            }
        }
    }

    /// A one-line label from the input (a name, a quote, a file name) in visual order.
    static func appendLabel(_ text: String, to out: inout String) {
        var bidi = BidiText(text)
        appendRuns(bidi.runs(of: Substring(text)).runs, to: &out)
    }

    /// A rounded rectangle; the corner on the sender's side at the bottom is sharp when the row
    /// has a tail, as chat apps mark a group's last bubble.
    private func bubblePath(_ row: PictureRow, top64: Int, height64: Int) -> String {
        let x = Double(row.x), y = Double(top64) / 64, w = Double(row.width), h = Double(height64) / 64
        let r = max(0, min(12, w / 2, h / 2))
        let tailLeft = row.tail && row.alignment == .left ? 3.0 : r
        let tailRight = row.tail && row.alignment == .right ? 3.0 : r
        let small = min(tailLeft, tailRight)
        let bl = row.alignment == .left ? small : r, br = row.alignment == .right ? small : r
        func n(_ v: Double) -> String {
            let rounded = (v * 64).rounded() / 64
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
        return "M\(n(x + r)) \(n(y))H\(n(x + w - r))A\(n(r)) \(n(r)) 0 0 1 \(n(x + w)) \(n(y + r))"
            + "V\(n(y + h - br))A\(n(br)) \(n(br)) 0 0 1 \(n(x + w - br)) \(n(y + h))"
            + "H\(n(x + bl))A\(n(bl)) \(n(bl)) 0 0 1 \(n(x)) \(n(y + h - bl))"
            + "V\(n(y + r))A\(n(r)) \(n(r)) 0 0 1 \(n(x + r)) \(n(y))Z"
    }

    /// The whole document: the rows written so far, `width` px wide.
    public func document(width: Int) -> String {
        let c = theme.colors
        // A margin all round, as a chat app's screen has: the rows are laid out in `width`.
        let margin = Self.margin
        let height = Self.px(height64 + 2 * margin * 64)
        let outer = width + 2 * margin
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(outer)\" height=\"\(height)\" viewBox=\"0 0 \(outer) \(height)\">\n"
        out += "<style>\n" + fonts.faceRules
        out += ".t{font-family:\(fonts.familyList);font-size:\(Self.number(fontSize))px;white-space:pre;direction:ltr;unicode-bidi:bidi-override;font-kerning:normal;text-rendering:geometricPrecision}\n"
        out += ".r{direction:rtl;unicode-bidi:bidi-override}\n"
        out += ".n{font-weight:bold;font-size:\(Self.number(fontSize * 0.8125))px}\n"
        out += ".q,.l{font-size:\(Self.number(fontSize * 0.8125))px}\n"
        out += ".f{font-size:\(Self.number(fontSize * 0.6875))px}\n"
        out += "</style>\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"\(c.background)\"/>\n"
        out += "<g transform=\"translate(\(margin) \(margin))\">\n" + body + "</g>\n"
        out += "</svg>\n"
        return out
    }

    /// Px around the rows in the picture.
    public static let margin = 8

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
