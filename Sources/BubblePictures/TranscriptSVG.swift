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
    /// The rows written since the last spill (without the document's head and tail), as UTF-8.
    var out = MarkupBytes()
    /// The rows written before those, out of memory (`DocumentSpill`).
    var spill: DocumentSpill
    /// The height of the rows written so far, in 1/64 px.
    public private(set) var height64 = 0
    /// Picture bytes embedded in the rows written so far, and how many pictures.
    var embeddedBytes = 0
    var pictureCount = 0
    /// Px from `fontSize`: a date's and a quote's baseline offset (0.3 em) and one em, in 1/64 px.
    private let offset64: Int
    private let em64: Int
    private let colors: PictureTheme.Colors

    public init(style: PixelStyle, theme: PictureTheme, fonts: PictureFonts, measurer: PixelMeasurer) {
        self.style = style
        self.theme = theme
        self.fonts = fonts
        fontSize = measurer.chain.size
        baseline = { measurer.baseline64(lineHeight64: $0) }
        offset64 = Int(fontSize * 64 * 0.3)
        em64 = Int(fontSize * 64)
        colors = theme.colors
        spill = DocumentSpill(collectingScalars: fonts.embedsAny)
    }

    /// The rows written so far (without the document's head and tail).
    public var body: String { String(decoding: spill.bytes(followedBy: out), as: UTF8.self) }

    static func px(_ value64: Int) -> String { PixelRow.pixels(value64) }

    /// Starts a new page: the rows written so far are dropped.
    public mutating func clear() {
        out.removeAll()
        spill.clear()
        height64 = 0
        embeddedBytes = 0
        pictureCount = 0
    }

    /// Appends `row` under the rows written so far.
    public mutating func append(_ row: PictureRow) {
        let c = colors
        let top64 = height64 + row.pixels.layout.spacingAbove * 64
        let rowHeight = row.pixels.height64
        out.append("<g class=\"row\" data-id=\"")
        out.appendEscaped(row.id)
        out.append("\" data-kind=\"")
        out.append(kindName(row.kind))
        out.append("\" data-y=\"")
        out.appendPixels(height64)
        out.append("\" data-height=\"")
        out.appendPixels(rowHeight)
        out.append("\">")
        switch row.kind {
        case .date:
            let label = row.text ?? ""
            let height = style.dateHeight * 64
            let pillWidth = min(row.contentWidth + 0, row.labelWidth + 24)
            let centre = row.contentX + row.contentWidth / 2
            let pillHeight = max(0, min(height, em64 + 12 * 64))
            let pillTop = top64 + (height - pillHeight) / 2
            out.append("<rect class=\"date\" x=\"")
            out.append(centre - pillWidth / 2)
            out.append("\" y=\"")
            out.appendPixels(pillTop)
            out.append("\" width=\"")
            out.append(pillWidth)
            out.append("\" height=\"")
            out.appendPixels(pillHeight)
            out.append("\" rx=\"8\" fill=\"")
            out.append(raw: c.dateFill)
            out.append("\"/>")
            let baselineY = pillTop + pillHeight / 2 + offset64
            out.append("<text class=\"t l\" x=\"")
            out.append(centre)
            out.append("\" y=\"")
            out.appendPixels(baselineY)
            out.append("\" text-anchor=\"middle\" fill=\"")
            out.append(raw: c.secondary)
            out.append("\">")
            out.appendEscaped(label)
            out.append("</text>")
        case .notice:
            var y = top64 + style.noticeVerticalPadding * 64
            let centre = row.contentX + row.contentWidth / 2
            if let widest = row.lines.map(\.width).max() {
                let fill = row.pixels.textHeight64
                out.append("<rect class=\"notice\" x=\"")
                out.append(centre - widest / 2 - 10)
                out.append("\" y=\"")
                out.appendPixels(y - 2 * 64)
                out.append("\" width=\"")
                out.append(widest + 20)
                out.append("\" height=\"")
                out.appendPixels(fill + 4 * 64)
                out.append("\" rx=\"8\" fill=\"")
                out.append(raw: c.noticeFill)
                out.append("\"/>")
            }
            for line in row.lines {
                appendLine(line, x: centre, middle: true, top64: y, fill: c.secondary, language: row.language)
                y += line.height64
            }
        case .bubble:
            appendBubble(row, top64: top64)
        }
        out.append("</g>\n")
        height64 += rowHeight
        spill.spillIfFull(&out)
    }

    func kindName(_ kind: PictureRow.Kind) -> StaticString {
        switch kind {
        case .date: "date"
        case .notice: "notice"
        case .bubble: "bubble"
        }
    }

    private mutating func appendBubble(_ row: PictureRow, top64: Int) {
        let c = colors
        let bubbleHeight = row.pixels.height64 - row.pixels.layout.spacingAbove * 64
        let fill = row.alignment == .right ? c.outgoing : c.incoming
        out.append("<path class=\"bubble\" d=\"")
        appendBubblePath(row, top64: top64, height64: bubbleHeight)
        out.append("\" fill=\"")
        out.append(raw: fill)
        out.append("\" data-width=\"")
        out.append(row.width)
        out.append("\" data-height=\"")
        out.appendPixels(bubbleHeight)
        out.append("\"/>")
        var y = top64 + style.verticalPadding * 64
        if let name = row.name {
            openClip(x: row.contentX, top64: y, width: row.contentWidth, height: style.nameHeight)
            out.append("<text class=\"t n\" x=\"0\" y=\"")
            out.appendPixels(style.nameHeight * 64 * 3 / 4)
            out.append("\" fill=\"")
            out.append(raw: name.color)
            out.append("\">")
            appendLabel(name.text)
            out.append("</text></svg>")
            y += style.nameHeight * 64
        }
        if let quote = row.quote {
            let boxHeight = max(0, style.replyQuoteHeight - 6)
            out.append("<rect x=\"")
            out.append(row.contentX)
            out.append("\" y=\"")
            out.appendPixels(y + 2 * 64)
            out.append("\" width=\"")
            out.append(row.contentWidth)
            out.append("\" height=\"")
            out.append(boxHeight)
            out.append("\" rx=\"6\" fill=\"")
            out.append(raw: c.quoteFill)
            out.append("\"/><rect x=\"")
            out.append(row.contentX)
            out.append("\" y=\"")
            out.appendPixels(y + 2 * 64)
            out.append("\" width=\"4\" height=\"")
            out.append(boxHeight)
            out.append("\" rx=\"2\" fill=\"")
            out.append(raw: c.quoteBar)
            out.append("\"/>")
            openClip(x: row.contentX + 10, top64: y + 2 * 64, width: max(0, row.contentWidth - 14), height: boxHeight)
            out.append("<text class=\"t q\" x=\"0\" y=\"")
            out.appendPixels(boxHeight * 64 / 2 + offset64)
            out.append("\" fill=\"")
            out.append(raw: c.secondary)
            out.append("\">")
            appendLabel(quote)
            out.append("</text></svg>")
            y += style.replyQuoteHeight * 64
        }
        if !row.imageLabel.isEmpty {
            // A picture of unknown size: its label in the measurer's lines, where a box would be.
            for line in row.imageLabel {
                appendLine(line, x: row.contentX, top64: y, fill: c.secondary, right: line.rightToLeft ? row.contentX + row.contentWidth : nil,
                           label: true)
                y += line.height64
            }
            if !row.lines.isEmpty { y += style.imageCaptionGap * 64 }
        } else if let image = row.image, let picture = row.picture,
                  embeddedBytes + picture.bytes.count <= EmbeddedPicture.maximumBytesPerDocument {
            // The picture itself, scaled to cover its box (of its own aspect), corners rounded.
            embeddedBytes += picture.bytes.count
            pictureCount += 1
            let x = row.contentX
            out.append("<clipPath id=\"p")
            out.append(pictureCount)
            out.append("\"><rect x=\"")
            appendBox(x: x, top64: y, width: image.width, height: image.height)
            out.append(" rx=\"6\"/></clipPath><image class=\"image\" x=\"")
            appendBox(x: x, top64: y, width: image.width, height: image.height)
            out.append(" preserveAspectRatio=\"xMidYMid slice\" clip-path=\"url(#p")
            out.append(pictureCount)
            out.append(")\" href=\"")
            out.append(raw: picture.dataURL)
            out.append("\"/>")
            y += image.height * 64
            if !row.lines.isEmpty { y += style.imageCaptionGap * 64 }
        } else if let image = row.image {
            let x = row.contentX
            out.append("<rect class=\"image\" x=\"")
            appendBox(x: x, top64: y, width: image.width, height: image.height)
            out.append(" rx=\"6\" fill=\"")
            out.append(raw: c.imageFill)
            out.append("\"/>")
            openClip(x: x, top64: y, width: image.width, height: image.height)
            let middle = image.height * 64 / 2
            out.append("<text class=\"t q\" x=\"")
            out.append(image.width / 2)
            out.append("\" y=\"")
            out.appendPixels(middle)
            out.append("\" text-anchor=\"middle\" fill=\"")
            out.append(raw: c.secondary)
            out.append("\">")
            appendLabel(image.content?.name ?? "image")
            out.append("</text>")
            if let w = image.content?.pixelWidth, let h = image.content?.pixelHeight {
                out.append("<text class=\"t q\" x=\"")
                out.append(image.width / 2)
                out.append("\" y=\"")
                out.appendPixels(middle + em64)
                out.append("\" text-anchor=\"middle\" fill=\"")
                out.append(raw: c.secondary)
                out.append("\">")
                out.append(w)
                out.append("×")
                out.append(h)
                out.append("</text>")
            }
            out.append("</svg>")
            y += image.height * 64
            if !row.lines.isEmpty { y += style.imageCaptionGap * 64 }
        }
        for line in row.lines {
            appendLine(line, x: row.contentX, top64: y, fill: c.text, right: line.rightToLeft ? row.contentX + row.contentWidth : nil,
                       language: row.language)
            y += line.height64
        }
        if let footer = row.footer {
            let baselineY = y + style.footerHeight * 64 * 3 / 4
            out.append("<text class=\"t f\" x=\"")
            out.append(row.contentX + row.contentWidth)
            out.append("\" y=\"")
            out.appendPixels(baselineY)
            out.append("\" text-anchor=\"end\" fill=\"")
            out.append(raw: c.secondary)
            out.append("\">")
            out.appendFooter(footer, colors: c, in: .svg)
            out.append("</text>")
        }
    }

    /// `x="…" y="…" width="…" height="…"` (the opening quote of x already written).
    private mutating func appendBox(x: Int, top64: Int, width: Int, height: Int) {
        out.append(x)
        out.append("\" y=\"")
        out.appendPixels(top64)
        out.append("\" width=\"")
        out.append(width)
        out.append("\" height=\"")
        out.append(height)
        out.append("\"")
    }

    /// Opens a viewport that clips what follows to the box (a nested `<svg>` clips); the caller
    /// closes it with `</svg>`.
    private mutating func openClip(x: Int, top64: Int, width: Int, height: Int) {
        out.append("<svg x=\"")
        out.append(x)
        out.append("\" y=\"")
        out.appendPixels(top64)
        out.append("\" width=\"")
        out.append(max(0, width))
        out.append("\" height=\"")
        out.append(max(0, height))
        out.append("\">")
    }

    /// A text line: runs left to right inside one override, right-to-left runs as nested overrides.
    /// A right-to-left paragraph's line is placed by its measured width against `right`; a
    /// notice's line is centred on `x`.
    private mutating func appendLine(_ line: PictureLine, x: Int, middle: Bool = false, top64: Int, fill: String, right: Int? = nil,
                                     label: Bool = false, language: String? = nil) {
        let baselineY = top64 + baseline(line.height64)
        let left = right.map { $0 - line.width } ?? x
        out.append(label ? "<text class=\"t i\" x=\"" : "<text class=\"t\" x=\"")
        out.append(left)
        out.append("\" y=\"")
        out.appendPixels(baselineY)
        out.append(middle ? "\" text-anchor=\"middle\" fill=\"" : "\" fill=\"")
        out.append(raw: fill)
        out.append("\" data-width=\"")
        out.append(line.width)
        if let language {
            out.append("\" xml:lang=\"")
            out.appendEscaped(PictureRowMaker.languageAttribute(language))
        }
        out.append("\">")
        Self.appendRuns(line.runs, to: &out)
        out.append("</text>")
    }

    /// `runs` as text content. A line that starts with a right-to-left run gets a left-to-right
    /// mark first (ours, zero width): Chromium takes `text-anchor` and `x` from the direction of
    /// a text chunk's first run, and the lines are already in visual order, left to right.
    ///
    /// Spaces at either end of a right-to-left run are written outside its override, where they
    /// are seen (a run's last space is its leftmost): Chromium gives a space that ends a `<text>`'s
    /// content no width, and a right-to-left run that ends the line would otherwise end it with
    /// the space between it and the run before.
    static func appendRuns(_ runs: [(text: Substring, rightToLeft: Bool)], to out: inout MarkupBytes) {
        if runs.first?.rightToLeft == true { out.append("\u{200E}") }
        for run in runs {
            if run.rightToLeft {
                let scalars = run.text.unicodeScalars
                var start = scalars.startIndex, end = scalars.endIndex
                while start < end, scalars[start] == " " { start = scalars.index(after: start) }
                while end > start, scalars[scalars.index(before: end)] == " " { end = scalars.index(before: end) }
                guard start < end else {
                    out.appendEscaped(run.text)
                    continue
                }
                out.appendEscaped(Substring(scalars[end...]))
                out.append("<tspan class=\"r\">")
                out.appendEscaped(Substring(scalars[start..<end]))
                out.append("</tspan>")
                out.appendEscaped(Substring(scalars[..<start]))
            } else {
                out.appendEscaped(run.text)
            }
        }
    }

    /// A one-line label from the input (a name, a quote, a file name) in visual order.
    private mutating func appendLabel(_ text: String) {
        var bidi = BidiText(text)
        Self.appendRuns(bidi.runs(of: Substring(text)).runs, to: &out)
    }

    /// A rounded rectangle; the corner on the sender's side at the bottom is sharp when the row
    /// has a tail, as chat apps mark a group's last bubble.
    private mutating func appendBubblePath(_ row: PictureRow, top64: Int, height64: Int) {
        let x = Double(row.x), y = Double(top64) / 64, w = Double(row.width), h = Double(height64) / 64
        let r = max(0, min(12, w / 2, h / 2))
        let tailLeft = row.tail && row.alignment == .left ? 3.0 : r
        let tailRight = row.tail && row.alignment == .right ? 3.0 : r
        let small = min(tailLeft, tailRight)
        let bl = row.alignment == .left ? small : r, br = row.alignment == .right ? small : r
        // Each number to the 1/64 px, written as `PixelRow.pixels` writes it.
        func n(_ v: Double) { out.appendPixels(Int((v * 64).rounded())) }
        func arc(_ radius: Double, to toX: Double, _ toY: Double) {
            out.append("A"); n(radius); out.append(" "); n(radius); out.append(" 0 0 1 "); n(toX); out.append(" "); n(toY)
        }
        out.append("M"); n(x + r); out.append(" "); n(y); out.append("H"); n(x + w - r); arc(r, to: x + w, y + r)
        out.append("V"); n(y + h - br); arc(br, to: x + w - br, y + h)
        out.append("H"); n(x + bl); arc(bl, to: x, y + h - bl)
        out.append("V"); n(y + r); arc(r, to: x + r, y)
        out.append("Z")
    }

    /// The whole document: the rows written so far, `width` px wide.
    public func document(width: Int) -> String { String(decoding: documentBytes(width: width), as: UTF8.self) }

    /// The whole document as UTF-8.
    public func documentBytes(width: Int) -> [UInt8] {
        var document: [UInt8] = []
        writeDocument(width: width) { document.append(contentsOf: $0) }
        return document
    }

    /// Hands the whole document to `write` as UTF-8, in pieces: the rows are not copied.
    public func writeDocument<E: Error>(width: Int, _ write: ([UInt8]) throws(E) -> Void) throws(E) {
        let c = theme.colors
        // A margin all round, as a chat app's screen has: the rows are laid out in `width`.
        let margin = Self.margin
        let outer = width + 2 * margin
        var head = MarkupBytes()
        head.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
        head.append(outer)
        head.append("\" height=\"")
        head.appendPixels(height64 + 2 * margin * 64)
        head.append("\" viewBox=\"0 0 ")
        head.append(outer)
        head.append(" ")
        head.appendPixels(height64 + 2 * margin * 64)
        head.append("\">\n<style>\n")
        head.append(raw: fonts.faceRules(drawing: fonts.embedsAny ? spill.drawnScalars(followedBy: out) : []))
        head.append(".t{font-family:")
        head.append(raw: fonts.familyList)
        head.append(";font-size:")
        head.append(raw: Self.number(fontSize))
        head.append("px;white-space:pre;direction:ltr;unicode-bidi:bidi-override;font-kerning:normal;text-rendering:geometricPrecision}\n")
        head.append(".r{direction:rtl;unicode-bidi:bidi-override}\n.n{font-weight:bold;font-size:")
        head.append(raw: Self.number(fontSize * 0.8125))
        head.append("px}\n.q,.l{font-size:")
        head.append(raw: Self.number(fontSize * 0.8125))
        head.append("px}\n.f{font-size:")
        head.append(raw: Self.number(fontSize * 0.6875))
        head.append("px}\n</style>\n<rect width=\"100%\" height=\"100%\" fill=\"")
        head.append(raw: c.background)
        head.append("\"/>\n<g transform=\"translate(")
        head.append(margin)
        head.append(" ")
        head.append(margin)
        head.append(")\">\n")
        try write(head.bytes)
        try spill.forEachPiece { (piece) throws(E) in try write(piece) }
        try write(out.bytes)
        var tail = MarkupBytes()
        tail.append("</g>\n</svg>\n")
        try write(tail.bytes)
    }

    /// Px around the rows in the picture.
    public static let margin = 8

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
