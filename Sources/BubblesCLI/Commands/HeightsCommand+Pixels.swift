import BubbleFonts
import BubbleLayout
import BubbleLogs
import Dispatch

extension HeightsCommand {
    /// `heights --font …`: the same reader, decorations, cells and streaming layout as in cells,
    /// with the pixel measurer in the engine and the pixel style's geometry; heights in px.
    func runInPixels(_ pixels: PixelOptions, context: CommandContext) throws -> Int32 {
        guard let (measurer, style) = try pixels.load(errors: context.errors) else { return ExitCode.failure }
        guard let reader = try input.open(errors: context.errors, command: Self.spec.name, inputIsTerminal: context.inputIsTerminal) else { return ExitCode.failure }
        let engine = LayoutEngine(measurer: measurer, style: style.bubbleStyle)
        var formatter = PixelRowFormatter(csv: csv, registry: engine.registry)
        // The text height is asked for at each width in turn: the last text's preparation is kept.
        var heights = TextHeights(measurer: measurer)
        return try stream(reader, through: engine, context: context,
                          csvHeader: "row,id,kind,width,height,textHeight,textLines,wrapWidth,bubbleWidth,conversation\n") { chunk, buffer in
            for r in chunk.rows.indices {
                let rows = chunk.widths.indices.map { w in
                    engine.pixelRow(r, of: chunk, widthIndex: w, style: style) { heights.height(of: $0, lineCount: $1, width: $2) }
                }
                formatter.format(row: r, of: chunk, pixelRows: rows, into: &buffer)
            }
        }
    }

    /// Text heights for a row at each width: with `line-height: normal` over faces of different
    /// metrics the text is prepared again, once for all its widths.
    struct TextHeights {
        let measurer: PixelLayoutMeasurer
        private var lastText: String?
        private var lastPrepared: PixelPreparedText?

        init(measurer: PixelLayoutMeasurer) { self.measurer = measurer }

        mutating func height(of text: String, lineCount: Int, width: Int) -> Int {
            if measurer.pixels.uniformLineHeight64 != nil { return measurer.textHeight(of: text, lineCount: lineCount, width: width) }
            if text != lastText {
                lastText = text
                lastPrepared = measurer.prepare(text)
            }
            return measurer.pixels.height(of: lastPrepared!, width: width * 64)
        }
    }

    /// Formats pixel rows: as `RowFormatter`, with heights in px (exact, to 1/64 px) and the text's
    /// height beside them.
    struct PixelRowFormatter {
        let csv: Bool
        let registry: CellRegistry

        init(csv: Bool, registry: CellRegistry) {
            self.csv = csv
            self.registry = registry
        }

        mutating func format(row r: Int, of chunk: LaidOutChunk, pixelRows: [PixelRow], into out: inout OutputBuffer) {
            let row = chunk.rows[r]
            let number = chunk.firstRowNumber + r
            let conversation = row.conversationID(in: chunk.models)
            let id = row.id(in: chunk.models)
            for (w, width) in chunk.widths.enumerated() {
                let pixels = pixelRows[w]
                let record = RowRecord(number: number, conversation: conversation, id: id, kind: registry.name(of: pixels.layout.kind),
                                       fields: Self.fields(of: pixels, width: width))
                if csv {
                    record.appendCSV(to: &out)
                    out.appendCSVRecordEnd(conversation: conversation)
                } else {
                    record.appendJSON(to: &out)
                    out.append("\n")
                }
            }
        }

        /// A pixel row's fields after its kind, as `heights --font` writes them.
        static func fields(of pixels: PixelRow, width: Int) -> [(String, String)] {
            [("width", String(width)), ("height", PixelRow.pixels(pixels.height64)),
             ("textHeight", PixelRow.pixels(pixels.textHeight64)), ("textLines", String(pixels.layout.textLines)),
             ("wrapWidth", String(pixels.layout.wrapWidth)), ("bubbleWidth", String(pixels.bubbleWidth))]
        }
    }
}
