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
        var heights = PixelHeights(engine: engine, style: style)
        return try stream(reader, through: engine, context: context,
                          csvHeader: "row,id,kind,width,height,textHeight,textLines,wrapWidth,bubbleWidth,conversation\n") { chunk, buffer in
            for r in chunk.rows.indices {
                let rows = chunk.widths.indices.map { w in heights.row(r, of: chunk, widthIndex: w) }
                formatter.format(row: r, of: chunk, pixelRows: rows, into: &buffer)
            }
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

        mutating func format(row r: Int, of chunk: BatchLayout, pixelRows: [PixelRow], into out: inout OutputBuffer) {
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
