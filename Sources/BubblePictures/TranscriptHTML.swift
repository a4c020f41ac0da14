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
/// (`file:` or `data:`) and, on a page that embeds pictures (`EmbeddedPicture`), `data:` images. Everything from the input goes through `MarkupText`; each text is its own
/// block with `dir="auto"`, so its direction cannot leak into another.
public struct TranscriptHTML {
    public let style: PixelStyle
    public let theme: PictureTheme
    public let fonts: PictureFonts
    public let fontSize: Double
    let lineHeightCSS: String
    public private(set) var body = ""
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
    }

    public mutating func clear() {
        body = ""
        height64 = 0
        embeddedBytes = 0
    }

    public mutating func append(_ row: PictureRow) {
        let c = theme.colors
        let px = TranscriptSVG.px
        let spacing = row.pixels.layout.spacingAbove
        let side = row.kind == .bubble ? (row.alignment == .right ? " out" : " in") : ""
        body += "<div class=\"row \(kindName(row.kind))\(side)\" data-id=\"\(MarkupText.escaped(row.id))\" data-height=\"\(px(row.pixels.height64))\" data-width=\"\(row.width)\" data-wrap-width=\"\(row.pixels.layout.wrapWidth)\" data-text-height=\"\(px(row.pixels.textHeight64))\" data-text-width=\"\(row.lines.map(\.width).max() ?? 0)\" style=\"padding-top:\(spacing)px\">"
        switch row.kind {
        case .date:
            body += "<div class=\"date\" style=\"height:\(style.dateHeight)px\"><span>"
            MarkupText.append(row.text ?? "", to: &body)
            body += "</span></div>"
        case .notice:
            body += "<div class=\"notice\" style=\"padding:\(style.noticeVerticalPadding)px 0;margin-left:\(row.contentX)px;width:\(row.contentWidth)px\"><div class=\"text\" dir=\"auto\" style=\"max-width:\(row.pixels.layout.wrapWidth)px\">"
            MarkupText.append(row.text ?? "", to: &body)
            body += "</div></div>"
        case .bubble:
            let padding = row.contentX - row.x
            let position = row.alignment == .right
                ? "margin-left:auto;margin-right:\(max(0, containerRight(row) - row.x - row.width))px"
                : "margin-left:\(row.x)px"
            let minimum = min(style.minimumWidth, row.pixels.layout.wrapWidth + 2 * padding)
            var widest = row.pixels.layout.wrapWidth + 2 * padding
            if row.quote != nil { widest = max(widest, style.replyQuoteMinimumWidth + 2 * padding) }
            body += "<div class=\"bubble\" style=\"\(position);padding:\(style.verticalPadding)px \(padding)px;min-width:\(minimum)px;max-width:\(widest)px;background:\(row.alignment == .right ? c.outgoing : c.incoming)\">"
            if let name = row.name {
                body += "<div class=\"name\" dir=\"auto\" style=\"height:\(style.nameHeight)px;color:\(name.color)\">"
                MarkupText.append(name.text, to: &body)
                body += "</div>"
            }
            if let quote = row.quote {
                body += "<div class=\"quote\" dir=\"auto\" style=\"height:\(style.replyQuoteHeight)px;min-width:\(style.replyQuoteMinimumWidth)px\"><div>"
                MarkupText.append(quote, to: &body)
                body += "</div></div>"
            }
            if let image = row.image?.content, !image.hasKnownSize {
                // A picture of unknown size: its label, wrapped as the text is, where a box would be.
                let gap = row.lines.isEmpty ? 0 : style.imageCaptionGap
                body += "<div class=\"label\" dir=\"auto\" role=\"img\" style=\"max-width:\(row.pixels.layout.wrapWidth)px;margin-bottom:\(gap)px\">"
                Self.appendKeepingAddressesWhole(row.imageLabel.first?.logical.base ?? image.label, lines: row.imageLabel, to: &body)
                body += "</div>"
            } else if let image = row.image, let picture = row.picture,
                      embeddedBytes + picture.bytes.count <= EmbeddedPicture.maximumBytesPerDocument {
                embeddedBytes += picture.bytes.count
                let gap = row.lines.isEmpty ? 0 : style.imageCaptionGap
                body += "<div class=\"image\" style=\"width:\(image.width)px;height:\(image.height)px;margin-bottom:\(gap)px\"><img alt=\""
                MarkupText.append(image.content?.name ?? "image", to: &body)
                body += "\" src=\""
                body += picture.dataURL
                body += "\"></div>"
            } else if let image = row.image {
                let gap = row.lines.isEmpty ? 0 : style.imageCaptionGap
                body += "<div class=\"image\" role=\"img\" style=\"width:\(image.width)px;height:\(image.height)px;margin-bottom:\(gap)px\"><span>"
                MarkupText.append(image.content?.name ?? "image", to: &body)
                body += "</span></div>"
            }
            if let text = row.text, !row.lines.isEmpty {
                body += "<div class=\"text\" dir=\"auto\" style=\"max-width:\(row.pixels.layout.wrapWidth)px\">"
                Self.appendKeepingAddressesWhole(text, lines: row.lines, to: &body)
                body += "</div>"
            }
            if let footer = row.footer {
                body += "<div class=\"footer\" style=\"height:\(style.footerHeight)px\">"
                MarkupText.append(footer.timeAndLabel, to: &body)
                if let status = footer.status {
                    let color = c.color(for: status)
                    body += " <span style=\"color:\(color)\">"
                    MarkupText.append(FooterText.mark(for: status), to: &body)
                    body += "</span>"
                }
                body += "</div>"
            }
            body += "</div>"
        }
        body += "</div>\n"
        height64 += row.pixels.height64
    }

    /// The container's right edge: the page is as wide as the layout's container.
    private let containerWidth: Int
    private func containerRight(_ row: PictureRow) -> Int { containerWidth }

    func kindName(_ kind: PictureRow.Kind) -> String {
        switch kind {
        case .date: "date-row"
        case .notice: "notice-row"
        case .bubble: "bubble-row"
        }
    }

    public func document(width: Int) -> String {
        let c = theme.colors
        var out = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
        // Pictures, when the page embeds any, only as `data:` URLs.
        let images = embeddedBytes > 0 ? "; img-src data:" : ""
        out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; font-src file: data:\(images)\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width\">\n<title>Transcript</title>\n<style>\n"
            // The text the page shows, and the ellipsis its one-line names and quotes may end with.
            + fonts.faceRules(drawing: fonts.embedsAny ? PictureFonts.drawnScalars(Array(body.utf8) + Array("…".utf8)) : [])
        out += "body{margin:0;background:\(c.background)}\n"
        out += ".chat{width:\(width)px;font-family:\(fonts.familyList);font-size:\(TranscriptSVG.number(fontSize))px;line-height:\(lineHeightCSS);color:\(c.text)}\n"
        out += ".row{display:flow-root}\n"
        out += ".bubble{box-sizing:border-box;width:fit-content;border-radius:12px;box-shadow:0 1px 0.5px \(c.shadow)}\n"
        out += ".text,.label{white-space:pre-wrap;overflow-wrap:break-word;unicode-bidi:isolate}\n"
        out += ".name{font-weight:bold;font-size:0.8125em;line-height:\(style.nameHeight)px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}\n"
        out += ".quote{box-sizing:border-box;padding:2px 0 4px;overflow:hidden}\n"
        out += ".quote div{height:100%;box-sizing:border-box;border-left:4px solid \(c.quoteBar);border-radius:6px;background:\(c.quoteFill);padding:0 8px;font-size:0.8125em;color:\(c.secondary);white-space:nowrap;overflow:hidden;text-overflow:ellipsis;display:flex;align-items:center}\n"
        out += ".image{box-sizing:border-box;border-radius:6px;background:\(c.imageFill);display:flex;align-items:center;justify-content:center;overflow:hidden;font-size:0.8125em;color:\(c.secondary)}\n"
        out += ".label{color:\(c.secondary)}\n"
        out += ".u{white-space:nowrap}\n"
        if embeddedBytes > 0 { out += ".image img{display:block;width:100%;height:100%;object-fit:cover}\n" }
        out += ".footer{font-size:0.6875em;line-height:\(style.footerHeight)px;text-align:end;color:\(c.secondary);white-space:nowrap}\n"
        out += ".date{display:flex;align-items:center;justify-content:center}\n"
        out += ".date span{background:\(c.dateFill);color:\(c.secondary);font-size:0.8125em;line-height:normal;padding:4px 12px;border-radius:8px}\n"
        out += ".notice{box-sizing:content-box;color:\(c.secondary);text-align:center}\n"
        out += ".notice .text{margin:0 auto}\n"
        out += "</style></head>\n<body><main class=\"chat\">\n"
        out += body
        out += "</main></body></html>\n"
        return out
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
    static func appendKeepingAddressesWhole(_ text: String, lines: [PictureLine], to out: inout String) {
        let utf8 = text.utf8
        let spans = URLSpans.find(in: Array(utf8))
        guard !spans.isEmpty else { return MarkupText.append(text, to: &out) }
        let starts = lines.dropFirst().map { utf8.distance(from: utf8.startIndex, to: $0.logical.startIndex) }
        func piece(_ from: Int, _ to: Int) -> Substring {
            Substring(utf8[utf8.index(utf8.startIndex, offsetBy: from)..<utf8.index(utf8.startIndex, offsetBy: to)])
        }
        var done = 0
        for span in spans {
            MarkupText.append(piece(done, span.lowerBound), to: &out)
            var from = span.lowerBound
            out += "<span class=\"u\">"
            for start in starts where span.lowerBound < start && start < span.upperBound {
                MarkupText.append(piece(from, start), to: &out)
                out += "</span><wbr><span class=\"u\">"
                from = start
            }
            MarkupText.append(piece(from, span.upperBound), to: &out)
            out += "</span>"
            done = span.upperBound
        }
        MarkupText.append(piece(done, utf8.count), to: &out)
    }
}
