import BubbleFonts
import BubbleLayout
import BubbleTerminal
import BubbleText
import Foundation

/// One timeline row as a picture draws it, from the engine's layout of the row (the same
/// `PixelRow` that `heights --font` prints) and the measurer's own line breaks: where the bubble
/// is, what it shows, and each text line's text in visual order.
public struct PictureRow: Sendable {
    public enum Kind: Sendable { case date, notice, bubble }

    public var kind: Kind
    /// The message's id ("" for a date separator).
    public var id: String
    package var pixels: PixelRow
    package var alignment: RowAlignment
    /// The bubble's (or the centred row's) left edge and outer width, in px.
    public var x: Int
    public var width: Int
    /// The content's left edge and width, in px.
    public var contentX: Int
    public var contentWidth: Int
    /// The sender's name and colour (`#rrggbb`) when the row shows a name line.
    public var name: (text: String, color: String)?
    /// The reply or forward quote when the row shows one.
    public var quote: String?
    /// The image box: its label and its size in px.
    public var image: (content: ImageContent?, width: Int, height: Int)?
    /// The picture itself, when the export holds it and it is to be embedded.
    public var picture: EmbeddedPicture?
    /// A picture of unknown size's label (`ImageContent.label`) in the lines the measurer broke
    /// it into, drawn in place of a box; empty for a box.
    public var imageLabel: [PictureLine]
    /// The text (message, caption, notice or date label), as laid out.
    public var text: String?
    public var lines: [PictureLine]
    /// The text's language (a BCP 47 tag, as the log's `lang`), which it was shaped in and which the
    /// picture marks it with (`lang`, `xml:lang`); nil for none.
    public var language: String?
    package var footer: FooterText?
    /// The bubble's tail: it closes a group.
    public var tail: Bool
    /// The date separator's label width in px, measured like the text.
    public var labelWidth: Int
}

/// One line of text where the layout broke it.
public struct PictureLine: Sendable {
    /// The line's runs left to right on screen; a right-to-left run holds its text in logical
    /// order, for the viewer to draw right to left (and shape) as one override run.
    public var runs: [(text: Substring, rightToLeft: Bool)]
    /// The line's text in logical order, without its trailing spaces and break.
    public var logical: Substring
    /// Its paragraph runs right to left: the line is aligned to the content's right edge.
    public var rightToLeft: Bool
    /// Width in px as the layout measured it, and height in 1/64 px.
    public var width: Int
    public var height64: Int
}

/// Turns laid-out rows into `PictureRow`s: the state a transcript carries from row to row (sender
/// colours, recent messages for reply quotes, the clock for footers).
public struct PictureRowMaker {
    package let engine: LayoutEngine<PixelLayoutMeasurer>
    public let style: PixelStyle
    var senderColors = SenderColors(palette: SenderPalette())
    var recent = RecentMessages()
    var clock: ZoneClock
    /// Where a picture's file is looked up by its name (an export's media), or nil: each picture
    /// is then drawn as a labelled placeholder.
    public var pictures: ((String) -> EmbeddedPicture?)?

    package init(engine: LayoutEngine<PixelLayoutMeasurer>, style: PixelStyle, timeZone: TimeZone) {
        self.engine = engine
        self.style = style
        clock = ZoneClock(timeZone: timeZone)
    }

    /// Row `r` of `batch` (laid out at one width, `widthIndex`).
    package mutating func row(_ r: Int, of batch: BatchLayout, widthIndex: Int = 0) -> PictureRow {
        let measurer = engine.texts.measurer
        let decoratedRow = batch.rows[r]
        // Each text part prepared once and broken into lines once, at the width the row's height
        // asks for, which is the width its lines are drawn at: part 0 the text, part 1 an image of
        // unknown size's label. A batch laid out keeping its texts (`StreamingLayout.keepingTexts`)
        // hands over both as its layout made them; otherwise they are made here, not kept in the
        // engine's store, so a document holds no text beyond the row being made.
        let kept = batch.keptTexts(row: r, widthIndex: widthIndex, as: PixelPreparedText.self)
        var drawn: [(part: Int, text: String, width: Int, lines: DrawnLines)] = []
        let rowContent = decoratedRow.isDateSeparator
            ? nil : engine.registry.configurators[decoratedRow.configuratorIndex].content(batch.models[decoratedRow.messageIndex])
        func drawnLines(_ text: String, part: Int, width: Int) -> DrawnLines {
            if let known = drawn.first(where: { $0.part == part && $0.width == width && $0.text == text }) { return known.lines }
            let keptText = part == 0 ? kept?.text : part == ImageContent.labelPart ? kept?.label : nil
            let made: DrawnLines
            if let keptText, keptText.width == width {
                made = DrawnLines(prepared: keptText.prepared, lines: keptText.lines, measurer: measurer, width: width)
            } else {
                let prepared = keptText?.prepared ?? drawn.first(where: { $0.part == part && $0.text == text })?.lines.prepared
                    ?? measurer.prepare(text, language: part == 0 ? rowContent?.language : nil)
                made = DrawnLines(prepared: prepared, measurer: measurer, width: width)
            }
            drawn.append((part, text, width, made))
            return made
        }
        let pixels = engine.pixelRow(r, of: batch, widthIndex: widthIndex, style: style) { text, _, width in
            // `pixelRow` asks for the text's height, then an unknown-size image's label's.
            let part = text == rowContent?.text ? 0 : ImageContent.labelPart
            return drawnLines(text, part: part, width: width).height64
        }
        let layout = pixels.layout
        let decorated = batch.rows[r]
        let bubbleStyle = style.bubbleStyle
        var x = layout.x
        // A bubble widened to the style's minimum grows away from its sender's side.
        if layout.alignment == .right { x -= pixels.bubbleWidth - layout.bubbleWidth }
        let padding = layout.contentX(in: bubbleStyle) - layout.x
        var row = PictureRow(kind: .bubble, id: "", pixels: pixels, alignment: layout.alignment, x: x, width: pixels.bubbleWidth,
                             contentX: x + padding, contentWidth: max(0, pixels.bubbleWidth - layout.horizontalChrome(in: bubbleStyle)),
                             name: nil, quote: nil, image: nil, picture: nil, imageLabel: [], text: nil, lines: [], language: nil, footer: nil,
                             tail: layout.parts.contains(.tail), labelWidth: 0)
        if decorated.isDateSeparator {
            row.kind = .date
            row.text = decorated.day.label
            row.labelWidth = measurer.width(of: decorated.day.label)
            return row
        }
        let model = batch.models[decorated.messageIndex]
        defer { recent.record(model) }
        row.id = model.id
        let content = rowContent!
        if layout.alignment == .center { row.kind = .notice }
        if layout.parts.contains(.nameLine) {
            let name = model.senderName ?? ""
            let color = senderColors.color(for: name)
            row.name = (name, "#" + [color.red, color.green, color.blue].map { Self.hex($0) }.joined())
        }
        if layout.parts.contains(.replyQuote) {
            var quoted = model.replyToID.map { id in "↩ " + (recent.body(for: id, in: model.conversationID, registry: engine.registry) ?? "reply to a message") }
            if let origin = model.forwardedFrom {
                let forward = ReplyPreviews.forwardArrow + " " + ReplyPreviews.forwardQuote(from: origin)
                quoted = quoted.map { forward + ReplyPreviews.forwardReplySeparator + $0 } ?? forward
            }
            row.quote = quoted ?? ReplyPreviews.unknownQuote
        }
        if layout.imageRows > 0 {
            row.image = (content.image, min(layout.imageColumns, row.contentWidth), layout.imageRows)
            if let image = content.image, image.hasKnownSize, let pictures {
                row.picture = pictures(image.name)
            }
            if let image = content.image, !image.hasKnownSize {
                let label = image.label
                row.imageLabel = Self.lines(of: label, drawnLines(label, part: ImageContent.labelPart, width: layout.wrapWidth),
                                            count: layout.imageRows)
                row.image?.height = (row.imageLabel.reduce(0) { $0 + $1.height64 } + 63) / 64
            }
        }
        if layout.footer != .none {
            row.footer = FooterText(date: model.date, status: model.status, isEdited: model.isEdited, clock: &clock)
        }
        if layout.textLines > 0, let text = content.text {
            row.text = text
            row.language = content.language
            row.lines = Self.lines(of: text, drawnLines(text, part: 0, width: layout.wrapWidth), count: layout.textLines)
        }
        return row
    }

    /// `tag` as an HTML `lang` or XML `xml:lang` value: BCP 47 separates subtags with '-' only
    /// (a log may write a locale's '_').
    static func languageAttribute(_ tag: String) -> String {
        String(tag.unicodeScalars.map { $0 == "_" ? "-" : Character($0) })
    }

    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
    }

    /// `text`'s lines as the measurer broke them (`drawn`; `count` of them, as the layout counted),
    /// each in visual order.
    static func lines(of text: String, _ drawn: DrawnLines, count: Int) -> [PictureLine] {
        let laidOut = drawn.layout
        let heights = drawn.heights64
        let utf8 = text.utf8
        var bidi = BidiText(text)
        var lines: [PictureLine] = []
        for (i, line) in laidOut.lines.prefix(count).enumerated() {
            let start = utf8.index(utf8.startIndex, offsetBy: line.utf8Range.lowerBound)
            let end = utf8.index(start, offsetBy: line.utf8Range.count)
            var logical = Substring(text.unicodeScalars[start..<end])
            while let last = logical.unicodeScalars.last,
                  last.properties.isWhitespace || MarkupText.isDropped(last.value) && last.value < 0x80 {
                logical = Substring(logical.unicodeScalars.dropLast())
            }
            let visual = bidi.runs(of: logical)
            lines.append(PictureLine(runs: visual.runs, logical: logical, rightToLeft: visual.rightToLeft,
                                     width: line.width,
                                     height64: i < heights.count ? heights[i] : 0))
        }
        return lines
    }
}

/// A text's lines at one width, from one pass of the measurer's line breaking: where each line
/// starts and ends, its width in px, and its height; the row's text height is their sum (what
/// `PixelMeasurer.height(of:width:)` gives).
struct DrawnLines {
    let prepared: PixelPreparedText
    let layout: TextLayout
    let heights64: [Int]

    init(prepared: PixelPreparedText, measurer: PixelLayoutMeasurer, width: Int) {
        self.init(prepared: prepared, lines: measurer.layout(prepared, width: width), measurer: measurer, width: width)
    }

    /// The lines `layout` of `prepared` at `width` px, as the measurer broke them.
    init(prepared: PixelPreparedText, lines layout: TextLayout, measurer: PixelLayoutMeasurer, width: Int) {
        self.prepared = prepared
        self.layout = layout
        // Lines of one height need no second pass; otherwise each line's fonts set its height.
        heights64 = measurer.pixels.uniformLineHeight64.map { Array(repeating: $0, count: layout.lines.count) }
            ?? measurer.pixels.lineHeights64(of: prepared, width: width * 64)
    }

    var height64: Int { heights64.reduce(0, +) }
}
