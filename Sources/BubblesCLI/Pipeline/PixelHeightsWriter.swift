import BubbleFonts
import BubbleLayout
import BubbleLogs

/// Writes `heights --font` records (JSON Lines, or CSV after its header) as `HeightsWriter` writes
/// heights in cells: each layout task turns the rows it laid out into pixel rows (`PixelHeights`,
/// each row's content read once for all its widths) and formats them on its thread, as soon as
/// they are laid out; the streaming thread only writes the tasks' bytes, in row order. The bytes
/// are those of `HeightsCommand.PixelRowFormatter`, written without a string per field.
struct PixelHeightsWriter {
    /// The CSV header line of heights in px.
    static let csvHeader = "row,id,kind,width,height,textHeight,textLines,wrapWidth,bubbleWidth,conversation\n"

    let csv: Bool
    let engine: LayoutEngine<PixelLayoutMeasurer>
    let style: PixelStyle
    private let buffers = HeightsWriter.FormattedRows.Pool()

    init(csv: Bool, engine: LayoutEngine<PixelLayoutMeasurer>, style: PixelStyle) {
        self.csv = csv
        self.engine = engine
        self.style = style
    }

    /// Streams `reader` through `stream` (over this writer's engine), writing the CSV header first
    /// and then every window's records to `output` in row order. Returns the input's counts and
    /// the rows written.
    func write(_ reader: LogReader, through stream: TimelineStream<PixelLayoutMeasurer>, to output: TextSink, errors: TextSink,
               progress: ((Int) -> Void)? = nil, idle: () throws -> Void = {}) throws -> (counts: LogCounts, rows: Int) {
        if csv { try output.write(Self.csvHeader) }
        let formatter = PixelRowsFormatter(csv: csv, engine: engine, style: style), buffers = self.buffers
        var rowCount = 0
        let counts = try stream.run(reader, errors: errors, progress: progress, idle: idle,
                                    finishing: { rows in buffers.take().filled(by: { formatter.format(rows, into: &$0) }) }) { chunk, parts in
            for part in parts { try part.buffer.withBytes { try output.write(contentsOf: $0) } }
            buffers.give(back: parts)
            rowCount += chunk.rows.count
        }
        return (counts, rowCount)
    }
}

/// Formats laid-out rows in px into bytes, as `HeightsCommand.PixelRowFormatter` does: a row's
/// head (number, conversation, id, kind) written once and copied for its other widths, numbers
/// written in place.
struct PixelRowsFormatter: Sendable {
    let csv: Bool
    let engine: LayoutEngine<PixelLayoutMeasurer>
    let style: PixelStyle

    /// The longest a record's part after its head can be: the field names and eight numbers, two of
    /// them px with a fraction.
    private static let maximumTail = 128 + 8 * 28

    /// Every row of `rows.range` at every width, row after row.
    func format(_ rows: LaidOutRows, into out: inout OutputBuffer) {
        let widthCount = rows.widths.count
        let rowCount = rows.rows.count
        guard widthCount > 0, !rows.range.isEmpty else { return }
        var heights = PixelHeights(engine: engine, style: style)
        var kindNames = HeightsRowFormatter.KindNames()
        let registry = engine.registry
        let models = rows.models
        rows.withLayouts { layouts in
            for r in rows.range {
                let row = rows.rows[r]
                let number = rows.firstRowNumber + r
                let conversation = row.conversationID(in: models)
                let id = row.id(in: models)
                let content = heights.content(of: row, in: models)
                var headStart = 0, headCount = 0, headKind: RowKind?
                for w in 0..<widthCount {
                    let pixels = heights.row(layouts[w * rowCount + r], content: content)
                    let kind = pixels.layout.kind
                    // A row's kind is its cell's at every width; were it not, that width's head is written anew.
                    let copiesHead = kind == headKind
                    if !copiesHead {
                        kindNames.note(kind, csv: csv, registry: registry)
                        headStart = out.count
                        writeHead(number: number, conversation: conversation, id: id, kind: kindNames.names[Int(kind.rawValue)]!,
                                  into: &out)
                        headCount = out.count - headStart
                        headKind = kind
                    }
                    let width = rows.widths[w]
                    let csv = self.csv
                    out.write(reserving: (copiesHead ? headCount : 0) + Self.maximumTail) { cursor in
                        if copiesHead { cursor.copyWritten(headStart..<(headStart + headCount)) }
                        Self.field(csv ? "," : ",\"width\":", into: &cursor)
                        cursor.decimal(width)
                        Self.field(csv ? "," : ",\"height\":", into: &cursor)
                        Self.pixels(pixels.height64, into: &cursor)
                        Self.field(csv ? "," : ",\"textHeight\":", into: &cursor)
                        Self.pixels(pixels.textHeight64, into: &cursor)
                        Self.field(csv ? "," : ",\"textLines\":", into: &cursor)
                        cursor.decimal(pixels.layout.textLines)
                        Self.field(csv ? "," : ",\"wrapWidth\":", into: &cursor)
                        cursor.decimal(pixels.layout.wrapWidth)
                        Self.field(csv ? "," : ",\"bubbleWidth\":", into: &cursor)
                        cursor.decimal(pixels.bubbleWidth)
                        if !csv { cursor.byte(UInt8(ascii: "}")); cursor.byte(0x0A) }
                    }
                    if csv { out.appendCSVRecordEnd(conversation: conversation) }
                }
            }
        }
    }

    /// The head of a record: its row number, conversation (JSON only; CSV puts it last), id and kind.
    private func writeHead(number: Int, conversation: String?, id: String, kind: [UInt8], into out: inout OutputBuffer) {
        if csv {
            out.append(number)
            out.append(",")
            out.appendCSVField(id)
            out.append(",")
        } else {
            out.append("{\"row\":")
            out.append(number)
            if let conversation {
                out.append(",\"conversation\":")
                out.appendJSONString(conversation)
            }
            out.append(",\"id\":")
            out.appendJSONString(id)
            out.append(",\"kind\":")
        }
        out.append(bytes: kind)
    }

    /// The ASCII bytes of `text`, a literal.
    @inline(__always)
    private static func field(_ text: StaticString, into cursor: inout ByteCursor) {
        text.withUTF8Buffer { bytes in for byte in bytes { cursor.byte(byte) } }
    }

    /// `value64` LayoutUnits as px, exactly, as `PixelRow.pixels` writes them: `22.390625`, `20`
    /// (at most 28 bytes).
    @inline(__always)
    static func pixels(_ value64: Int, into cursor: inout ByteCursor) {
        if value64 < 0 { cursor.byte(UInt8(ascii: "-")) }
        let magnitude = value64.magnitude
        cursor.decimal(Int(magnitude / 64))
        var fraction = Int(magnitude % 64)
        guard fraction != 0 else { return }
        cursor.byte(UInt8(ascii: "."))
        // 1/64 = 0.015625: at most six decimals, each exact.
        while fraction != 0 {
            fraction *= 10
            cursor.byte(UInt8(truncatingIfNeeded: fraction / 64) &+ 0x30)
            fraction %= 64
        }
    }
}
