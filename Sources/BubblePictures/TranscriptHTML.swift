import BubbleFonts
import BubbleLayout
import BubbleText

/// Writes `PictureRow`s as one self-contained HTML page: CSS bubbles with the pixel style's
/// geometry and real, selectable text that the browser wraps itself (`white-space: pre-wrap;
/// overflow-wrap: break-word`, as the measurer models it). Each row carries our layout's numbers
/// (px) for comparison with the browser's: `data-height` (the row, spacing included),
/// `data-width` and `data-wrap-width` (the bubble's outer width and the text's wrap width),
/// `data-text-height`, `data-text-width` (the widest line, px rounded up).
///
/// No script, no link: a Content-Security-Policy allows only the inline style, the fonts
/// (`file:` or `data:`) and, on a page that embeds pictures (`EmbeddedPicture`), `data:` images.
/// Everything from the input is escaped as `MarkupText` escapes it; each text is its own block
/// with `dir="auto"`, so its direction cannot leak into another. Rows are written as UTF-8 bytes
/// (`MarkupBytes`), as the SVG writer's are.
public struct TranscriptHTML {
    public let style: PixelStyle
    public let theme: PictureTheme
    public let fonts: PictureFonts
    public let fontSize: Double
    let lineHeightCSS: String
    /// The rows written since the last spill (without the page's head and tail), as UTF-8.
    var out = MarkupBytes()
    /// The rows written before those, out of memory (`DocumentSpill`).
    var spill: DocumentSpill
    public private(set) var height64 = 0
    /// Picture bytes embedded in the rows written so far.
    var embeddedBytes = 0

    /// `width` is the container's width in px, as laid out.
    public init(style: PixelStyle, theme: PictureTheme, fonts: PictureFonts, measurer: PixelMeasurer, width: Int) {
        containerWidth = width
        self.style = style
        self.theme = theme
        self.fonts = fonts
        fontSize = measurer.chain.size
        lineHeightCSS = switch measurer.lineHeight {
        case .normal: "normal"
        case .pixels(let px): TranscriptSVG.number(px) + "px"
        case .factor(let factor): TranscriptSVG.number(factor)
        }
        spill = DocumentSpill(collectingScalars: fonts.embedsAny)
    }

    /// The rows written so far (without the page's head and tail).
    public var body: String { String(decoding: spill.bytes(followedBy: out), as: UTF8.self) }

    public mutating func clear() {
        out.removeAll()
        spill.clear()
        height64 = 0
        embeddedBytes = 0
    }

    public mutating func append(_ row: PictureRow) {
        let c = theme.colors
        let layout = row.pixels.layout
        out.append("<div class=\"row ")
        out.append(kindName(row.kind))
        if row.kind == .bubble { out.append(row.alignment == .right ? " out" : " in") }
        out.append("\" data-id=\"")
        out.appendEscaped(row.id)
        out.append("\" data-height=\"")
        out.appendPixels(row.pixels.height64)
        out.append("\" data-width=\"")
        out.append(row.width)
        out.append("\" data-wrap-width=\"")
        out.append(layout.wrapWidth)
        out.append("\" data-text-height=\"")
        out.appendPixels(row.pixels.textHeight64)
        out.append("\" data-text-width=\"")
        out.append(row.lines.map(\.width).max() ?? 0)
        out.append("\" style=\"padding-top:")
        out.append(layout.spacingAbove)
        out.append("px\">")
        switch row.kind {
        case .date:
            out.append("<div class=\"date\" style=\"height:")
            out.append(style.dateHeight)
            out.append("px\"><span>")
            out.appendEscaped(row.text ?? "")
            out.append("</span></div>")
        case .notice:
            out.append("<div class=\"notice\" style=\"padding:")
            out.append(style.noticeVerticalPadding)
            out.append("px 0;margin-left:")
            out.append(row.contentX)
            out.append("px;width:")
            out.append(row.contentWidth)
            out.append("px\">")
            appendTextBlock("text", wrapWidth: layout.wrapWidth, gap: nil, language: row.language)
            out.appendEscaped(row.text ?? "")
            out.append("</div></div>")
        case .bubble:
            appendBubble(row, colors: c)
        }
        out.append("</div>\n")
        height64 += row.pixels.height64
        spill.spillIfFull(&out)
    }

    /// `<div class="CLASS" [lang="…"] dir="auto" style="max-width:…px[;margin-bottom:…px]">`.
    private mutating func appendTextBlock(_ name: StaticString, wrapWidth: Int, gap: Int?, role: Bool = false, language: String? = nil) {
        out.append("<div class=\"")
        out.append(name)
        if let language {
            out.append("\" lang=\"")
            out.appendEscaped(PictureRowMaker.languageAttribute(language))
        }
        out.append(role ? "\" dir=\"auto\" role=\"img\" style=\"max-width:" : "\" dir=\"auto\" style=\"max-width:")
        out.append(wrapWidth)
        if let gap {
            out.append("px;margin-bottom:")
            out.append(gap)
        }
        out.append("px\">")
    }

    private mutating func appendBubble(_ row: PictureRow, colors c: PictureTheme.Colors) {
        let layout = row.pixels.layout
        let padding = row.contentX - row.x
        let minimum = min(style.minimumWidth, layout.wrapWidth + 2 * padding)
        var widest = layout.wrapWidth + 2 * padding
        if row.quote != nil { widest = max(widest, style.replyQuoteMinimumWidth + 2 * padding) }
        out.append("<div class=\"bubble\" style=\"")
        if row.alignment == .right {
            out.append("margin-left:auto;margin-right:")
            out.append(max(0, containerWidth - row.x - row.width))
        } else {
            out.append("margin-left:")
            out.append(row.x)
        }
        out.append("px;padding:")
        out.append(style.verticalPadding)
        out.append("px ")
        out.append(padding)
        out.append("px;min-width:")
        out.append(minimum)
        out.append("px;max-width:")
        out.append(widest)
        out.append("px;background:")
        out.append(raw: row.alignment == .right ? c.outgoing : c.incoming)
        out.append("\">")
        if let name = row.name {
            out.append("<div class=\"name\" dir=\"auto\" style=\"height:")
            out.append(style.nameHeight)
            out.append("px;color:")
            out.append(raw: name.color)
            out.append("\">")
            out.appendEscaped(name.text)
            out.append("</div>")
        }
        if let quote = row.quote {
            out.append("<div class=\"quote\" dir=\"auto\" style=\"height:")
            out.append(style.replyQuoteHeight)
            out.append("px;min-width:")
            out.append(style.replyQuoteMinimumWidth)
            out.append("px\"><div>")
            out.appendEscaped(quote)
            out.append("</div></div>")
        }
        let gap = row.lines.isEmpty ? 0 : style.imageCaptionGap
        if let image = row.image?.content, !image.hasKnownSize {
            // A picture of unknown size: its label, wrapped as the text is, where a box would be.
            appendTextBlock("label", wrapWidth: layout.wrapWidth, gap: gap, role: true)
            Self.appendKeepingAddressesWhole(row.imageLabel.first?.logical.base ?? image.label, lines: row.imageLabel, to: &out)
            out.append("</div>")
        } else if let image = row.image, let picture = row.picture,
                  embeddedBytes + picture.bytes.count <= EmbeddedPicture.maximumBytesPerDocument {
            embeddedBytes += picture.bytes.count
            appendImageBox(width: image.width, height: image.height, gap: gap)
            out.append("\"><img alt=\"")
            out.appendEscaped(image.content?.name ?? "image")
            out.append("\" src=\"")
            out.append(raw: picture.dataURL)
            out.append("\"></div>")
        } else if let image = row.image {
            out.append("<div class=\"image\" role=\"img")
            appendImageBox(width: image.width, height: image.height, gap: gap, open: false)
            out.append("\"><span>")
            out.appendEscaped(image.content?.name ?? "image")
            out.append("</span></div>")
        }
        if let text = row.text, !row.lines.isEmpty {
            appendTextBlock("text", wrapWidth: layout.wrapWidth, gap: nil, language: row.language)
            Self.appendKeepingAddressesWhole(text, lines: row.lines, to: &out)
            out.append("</div>")
        }
        if let footer = row.footer {
            out.append("<div class=\"footer\" style=\"height:")
            out.append(style.footerHeight)
            out.append("px\">")
            out.appendFooter(footer, colors: c, in: .html)
            out.append("</div>")
        }
        out.append("</div>")
    }

    /// `<div class="image" style="width:…px;height:…px;margin-bottom:…px` (without its closing
    /// quote); with `open` false, only from `" style=` on.
    private mutating func appendImageBox(width: Int, height: Int, gap: Int, open: Bool = true) {
        if open { out.append("<div class=\"image") }
        out.append("\" style=\"width:")
        out.append(width)
        out.append("px;height:")
        out.append(height)
        out.append("px;margin-bottom:")
        out.append(gap)
        out.append("px")
    }

    /// The container's right edge: the page is as wide as the layout's container.
    private let containerWidth: Int

    func kindName(_ kind: PictureRow.Kind) -> StaticString {
        switch kind {
        case .date: "date-row"
        case .notice: "notice-row"
        case .bubble: "bubble-row"
        }
    }

    public func document(width: Int) -> String { String(decoding: documentBytes(width: width), as: UTF8.self) }

    /// The whole page as UTF-8.
    public func documentBytes(width: Int) -> [UInt8] {
        var document: [UInt8] = []
        writeDocument(width: width) { document.append(contentsOf: $0) }
        return document
    }

    /// Hands the whole page to `write` as UTF-8, in pieces: the rows are not copied.
    public func writeDocument<E: Error>(width: Int, _ write: ([UInt8]) throws(E) -> Void) throws(E) {
        let c = theme.colors
        var css = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
        // Pictures, when the page embeds any, only as `data:` URLs.
        let images = embeddedBytes > 0 ? "; img-src data:" : ""
        css += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; font-src file: data:\(images)\">\n"
        css += "<meta name=\"viewport\" content=\"width=device-width\">\n<title>Transcript</title>\n<style>\n"
            // The text the page shows, and the ellipsis its one-line names and quotes may end with.
            + fonts.faceRules(drawing: fonts.embedsAny ? spill.drawnScalars(followedBy: out, "…") : [])
        css += "body{margin:0;background:\(c.background)}\n"
        css += ".chat{width:\(width)px;font-family:\(fonts.familyList);font-size:\(TranscriptSVG.number(fontSize))px;line-height:\(lineHeightCSS);color:\(c.text)}\n"
        css += ".row{display:flow-root}\n"
        css += ".bubble{box-sizing:border-box;width:fit-content;border-radius:12px;box-shadow:0 1px 0.5px \(c.shadow)}\n"
        css += ".text,.label{white-space:pre-wrap;overflow-wrap:break-word;unicode-bidi:isolate}\n"
        css += ".name{font-weight:bold;font-size:0.8125em;line-height:\(style.nameHeight)px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}\n"
        css += ".quote{box-sizing:border-box;padding:2px 0 4px;overflow:hidden}\n"
        css += ".quote div{height:100%;box-sizing:border-box;border-left:4px solid \(c.quoteBar);border-radius:6px;background:\(c.quoteFill);padding:0 8px;font-size:0.8125em;color:\(c.secondary);white-space:nowrap;overflow:hidden;text-overflow:ellipsis;display:flex;align-items:center}\n"
        css += ".image{box-sizing:border-box;border-radius:6px;background:\(c.imageFill);display:flex;align-items:center;justify-content:center;overflow:hidden;font-size:0.8125em;color:\(c.secondary)}\n"
        css += ".label{color:\(c.secondary)}\n"
        css += ".u{white-space:nowrap}\n"
        if embeddedBytes > 0 { css += ".image img{display:block;width:100%;height:100%;object-fit:cover}\n" }
        css += ".footer{font-size:0.6875em;line-height:\(style.footerHeight)px;text-align:end;color:\(c.secondary);white-space:nowrap}\n"
        css += ".date{display:flex;align-items:center;justify-content:center}\n"
        css += ".date span{background:\(c.dateFill);color:\(c.secondary);font-size:0.8125em;line-height:normal;padding:4px 12px;border-radius:8px}\n"
        css += ".notice{box-sizing:content-box;color:\(c.secondary);text-align:center}\n"
        css += ".notice .text{margin:0 auto}\n"
        css += "</style></head>\n<body><main class=\"chat\">\n"
        try write(Array(css.utf8))
        try spill.forEachPiece { (piece) throws(E) in try write(piece) }
        try write(out.bytes)
        var tail = MarkupBytes()
        tail.append("</main></body></html>\n")
        try write(tail.bytes)
    }
}

extension TranscriptHTML: TranscriptDocument {
    public var fileExtension: String { "html" }

    /// Appends `text` escaped to `out`, each web address in it (`URLSpans`) kept whole as the
    /// layout keeps it, by markup alone: the address is a `white-space: nowrap` span (`.u`), so the
    /// browser offers no break inside it, and its text is the address unchanged (a reader who
    /// copies it gets it as written). An address the layout broke because it is longer than a line
    /// (between graphemes, at `lines`' starts) is split there into such spans with a `<wbr>`
    /// between: the browser may break there and nowhere else inside it.
    ///
    /// `lines` are the layout's lines of `text` at the page's width (`PictureRow.lines`).
    static func appendKeepingAddressesWhole(_ text: String, lines: [PictureLine], to out: inout MarkupBytes) {
        let utf8 = text.utf8
        let spans = URLSpans.find(in: Array(utf8))
        guard !spans.isEmpty else { return out.appendEscaped(text) }
        let starts = lines.dropFirst().map { utf8.distance(from: utf8.startIndex, to: $0.logical.startIndex) }
        func piece(_ from: Int, _ to: Int) -> Substring {
            Substring(utf8[utf8.index(utf8.startIndex, offsetBy: from)..<utf8.index(utf8.startIndex, offsetBy: to)])
        }
        var done = 0
        for span in spans {
            out.appendEscaped(piece(done, span.lowerBound))
            var from = span.lowerBound
            out.append("<span class=\"u\">")
            for start in starts where span.lowerBound < start && start < span.upperBound {
                out.appendEscaped(piece(from, start))
                out.append("</span><wbr><span class=\"u\">")
                from = start
            }
            out.appendEscaped(piece(from, span.upperBound))
            out.append("</span>")
            done = span.upperBound
        }
        out.appendEscaped(piece(done, utf8.count))
    }
}
