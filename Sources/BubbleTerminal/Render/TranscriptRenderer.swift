import BubbleLayout
import BubbleText
import Foundation

/// Finds the preview of a replied-to message by its id: `Alice: the first line`, or nil when the
/// message is not known (the quote then says "reply to a message").
public typealias ReplyPreviewResolver = (_ repliedToID: String) -> String?

/// Which of a row's lines are its text lines (`count` of them from `first`), and which of those
/// were drawn (`drawn`, indices among them): a row drawn in part leaves the others out.
struct TextLineWindow {
    let first: Int
    let count: Int
    let drawn: Range<Int>
}

/// A text drawn in part, by its message's id and revision, its text and its wrap width: where
/// its lines can be walked from, and its web addresses (when links are drawn).
struct PartDrawnText {
    let id: String
    let revision: Int
    let text: String
    let wrapWidth: Int
    let index: WrapIndex
    var addresses: [Range<Int>]?
}

/// Draws timeline rows as terminal lines from the layouts the engine computed: incoming bubbles
/// on the left, outgoing on the right, notices and date separators centred.
///
/// The renderer never decides geometry. Each row is drawn from its `RowLayout` (the same value
/// the layout cache holds), so a row draws exactly `layout.height` lines, and no line is wider
/// than `options.width` cells in the engine's measure. Untrusted text is neutralised as it is
/// drawn (see `SafeText`): the only escape sequences written are SGR colours, and none at all
/// when `options.colorDepth` is `.none`.
///
/// Rows are drawn one at a time, in timeline order, so a streaming reader can draw each row as
/// the decorator releases it; the renderer remembers recent messages for reply quotes.
public struct TranscriptRenderer {
    /// The engine whose layouts are drawn: it makes each row's draw record (`RowDrawing`).
    package let engine: LayoutEngine<CellMeasurer>
    public let options: RenderOptions
    /// The engine's style, which the rows were laid out in.
    let bubbleStyle: BubbleStyle
    /// The container width rows are drawn in (`options.width`, clamped as layout clamps it).
    public let width: Int

    let glyphs: ChromeGlyphs
    let sgr: SGR
    let safe: SafeText
    let bubbleFrame: BubbleFrame
    var clock: ZoneClock
    var senderColors: SenderColors
    var previews: ReplyPreviews
    let resolver: ReplyPreviewResolver?
    /// Reorders lines with right-to-left text when `options.bidi` is `.visual`.
    let visualOrder: VisualOrder
    /// What is kept of the last text drawn in part (`drawnTextWindow`).
    var partDrawn: PartDrawnText?

    /// A renderer drawing `engine`'s layouts at `options.width`. `replyPreview` finds quoted
    /// messages; without it, messages this renderer has drawn (the last
    /// `options.replyPreviewCapacity`) are quoted.
    package init(engine: LayoutEngine<CellMeasurer>, options: RenderOptions,
                replyPreview: ReplyPreviewResolver? = nil) {
        self.engine = engine
        self.options = options
        bubbleStyle = engine.style
        let textOptions = engine.texts.measurer.options
        // Box drawing is East Asian Ambiguous: where that measures 2 cells, only ASCII keeps
        // chrome one cell wide.
        glyphs = options.asciiBorders || textOptions.ambiguousWidth != 1 ? .ascii : .unicode
        sgr = SGR(depth: options.colorDepth)
        safe = SafeText(options: textOptions, sgr: sgr, ellipsis: glyphs.ellipsis)
        visualOrder = VisualOrder(options: textOptions)
        bubbleFrame = BubbleFrame(containerWidth: options.width, style: engine.style, drawsBubble: true)
        width = bubbleFrame.containerWidth
        clock = ZoneClock(timeZone: options.timeZone, style: options.clock)
        senderColors = SenderColors(palette: options.palette)
        previews = ReplyPreviews(capacity: options.replyPreviewCapacity)
        resolver = replyPreview
    }

    /// The lines of `row`, drawn from `layout` (the engine's layout of that row at `width`).
    /// `model` is the row's message; nil for a date separator.
    /// With `only`, the row's lines at `only` (clamped to the row), and of the text only those
    /// lines are wrapped and drawn: a viewer shows a page of a message taller than the screen at
    /// the cost of the page (the text of a right-to-left paragraph is still drawn whole, as its
    /// order needs). The lines are those of the whole row drawn, at `only`.
    package mutating func lines(for row: DecoratedRow, model: (any MessageModel)?, layout: RowLayout,
                               only: Range<Int>? = nil) -> [String] {
        precondition(row.isDateSeparator || model != nil, "message row \(row.messageIndex) drawn without its model")
        return lines(for: engine.drawing(of: row, model: model, layout: layout, keepingTexts: options.keepsPreparedTexts),
                     only: only)
    }

    /// The lines of a row drawn from `drawing` alone (what its cell says it shows, laid out):
    /// what is drawn and where comes from the record, never from the engine. With `only`, the
    /// row's lines at `only`, as `lines(for:model:layout:only:)` gives them.
    package mutating func lines(for drawing: RowDrawing<PreparedText>, only: Range<Int>? = nil) -> [String] {
        let layout = drawing.layout
        var lines: [String] = []
        lines.reserveCapacity(only.map { min($0.count, layout.height) } ?? layout.height)
        for _ in 0..<layout.spacingAbove { lines.append("") }
        var textWindow: TextLineWindow?
        if let message = drawing.message {
            if layout.alignment == .center {
                textWindow = drawNotice(drawing, message, into: &lines, only: only)
            } else {
                textWindow = drawBubble(drawing, message, into: &lines, only: only)
            }
            if resolver == nil { previews.record(message.previewText, id: message.id, sender: message.senderName,
                                                 conversation: message.conversationID) }
        } else {
            drawCentred(label: drawing.dayLabel ?? "", layout: layout, into: &lines)
        }
        guard let only else { return lines }
        let height = lines.count + (textWindow.map { $0.count - $0.drawn.count } ?? 0)
        return only.clamped(to: 0..<height).map { index in
            guard let window = textWindow, index >= window.first else { return lines[index] }
            let line = index - window.first
            if line >= window.count { return lines[index - window.count + window.drawn.count] }
            return window.drawn.contains(line) ? lines[window.first + line - window.drawn.lowerBound] : ""
        }
    }

    /// The lines of `row`, with its layout taken from the engine (from its cache when held).
    package mutating func lines(for row: DecoratedRow, model: (any MessageModel)?) throws(LayoutError) -> [String] {
        lines(for: row, model: model, layout: try layout(of: row, model: model))
    }

    /// The layout the engine gives `row` at `width`.
    package func layout(of row: DecoratedRow, model: (any MessageModel)?) throws(LayoutError) -> RowLayout {
        guard !row.isDateSeparator, let model else {
            return engine.dateLayout(row.day, decoration: row.decoration, width: width)
        }
        return try engine.layout(model, decoration: row.decoration, width: width)
    }

    /// Every row of a decorated log, each as its lines, in order.
    package mutating func render(_ models: [any MessageModel], rows: [DecoratedRow]) -> [[String]] {
        rows.map { row in
            let model = row.isDateSeparator ? nil : models[row.messageIndex]
            return lines(for: row, model: model, layout: engine.layout(row, in: models, width: width))
        }
    }

    /// Every row of `batch` at `batch.widths[widthIndex]` (which should be `width`).
    package mutating func render(_ models: [any MessageModel], batch: BatchLayout, widthIndex: Int) -> [[String]] {
        batch.rows.indices.map { r in
            let row = batch.rows[r]
            return lines(for: row, model: row.isDateSeparator ? nil : models[row.messageIndex],
                         layout: batch.layout(row: r, widthIndex: widthIndex))
        }
    }

    /// Writes each line of `lines` followed by a newline.
    public static func write<Target: TextOutputStream>(_ lines: [String], to target: inout Target) {
        for line in lines {
            target.write(line)
            target.write("\n")
        }
    }

    /// Remembers `model` for later reply quotes (drawing a row does this already).
    public mutating func remember(_ model: any MessageModel) {
        if resolver == nil { previews.record(model, registry: engine.registry) }
    }

    /// The quote body for a reply to `id` from a message of `conversation`, without the arrow;
    /// nil when unknown. Only the replying message's own conversation is searched.
    func quoteBody(for id: String, in conversation: String? = nil) -> String? {
        if let resolver { return resolver(id) }
        return previews.body(for: id, in: conversation)
    }

    /// `count` copies of a one-cell chrome glyph.
    func repeated(_ glyph: String, _ count: Int) -> String {
        count > 0 ? String(repeating: glyph, count: count) : ""
    }
}
