import BubbleFonts
import BubbleLayout
import BubbleLogs
import Dispatch

extension HeightsCommand {
    /// `heights --font …`: the same reader, decorations, cells and streaming layout as in cells,
    /// with the pixel measurer in the engine and the pixel style's geometry; heights in px, turned
    /// into pixel rows and formatted by the layout tasks (`PixelHeightsWriter`).
    func runInPixels(_ pixels: PixelOptions, context: CommandContext) throws -> Int32 {
        guard let (measurer, style) = try pixels.load(errors: context.errors) else { return ExitCode.failure }
        guard let reader = try input.open(errors: context.errors, command: Self.spec.name, inputIsTerminal: context.inputIsTerminal) else { return ExitCode.failure }
        let engine = LayoutEngine(measurer: measurer, style: style.bubbleStyle)
        let writer = PixelHeightsWriter(csv: csv, engine: engine, style: style)
        let started = DispatchTime.now()
        let progress = ProgressBar(total: 0, sink: context.errors, enabled: context.errorsAreTerminal)
        let (counts, rows) = try writer.write(reader, through: timelineStream(through: engine, reader: reader), to: context.output,
                                              errors: context.errors, progress: { progress.update(messages: $0) },
                                              idle: { try context.output.flush() })
        return try finish(reader, counts: counts, rows: rows, since: started, progress: progress, context: context)
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
