import BubbleLayout
import BubbleLogs
import BubbleText
import Foundation

/// Writes `heights` records (JSON Lines, or CSV after its header) as the streaming layout lays
/// rows out: each layout task formats the rows it laid out, on its thread, as soon as they are
/// laid out (`TimelineStream.run(finishing:)`), so formatting runs on all cores beside layout,
/// and the streaming thread only writes the tasks' bytes, in row order. `heights` in cells and
/// the pipeline benchmark write through it.
struct HeightsWriter {
    /// The CSV header line of heights in cells.
    static let csvHeader = "row,id,kind,width,height,textLines,wrapWidth,bubbleWidth,conversation\n"

    /// A row's fields after its kind, as `heights` in cells writes them (the formatter below
    /// writes the same bytes from pieces made once per width).
    static func fields(of layout: RowLayout, width: Int) -> [(String, String)] {
        [("width", String(width)), ("height", String(layout.height)), ("textLines", String(layout.textLines)),
         ("wrapWidth", String(layout.wrapWidth)), ("bubbleWidth", String(layout.bubbleWidth))]
    }

    let csv: Bool
    /// The formatting the layout tasks share, its pieces made for the stream's widths.
    private let formatting: HeightsRowFormatter.Shared
    private let buffers = FormattedRows.Pool()

    init(csv: Bool, registry: CellRegistry, widths: [Int]) {
        self.csv = csv
        var formatter = HeightsRowFormatter(csv: csv, registry: registry)
        formatter.preparePieces(for: widths)
        formatting = formatter.shared
    }

    /// Streams `reader` through `stream` (made for the widths given to `init`), writing the CSV
    /// header first and then every window's records to `output` in row order. Returns the
    /// input's counts and the rows written.
    func write(_ reader: LogReader, through stream: TimelineStream<CellMeasurer>, to output: TextSink, errors: TextSink,
               progress: ((Int) -> Void)? = nil, idle: () throws -> Void = {}) throws -> (counts: LogCounts, rows: Int) {
        if csv { try output.write(Self.csvHeader) }
        let formatting = self.formatting, buffers = self.buffers
        var rowCount = 0
        let counts = try stream.run(reader, errors: errors, progress: progress, idle: idle,
                                    finishing: { rows in buffers.take().filled(with: rows, by: formatting) }) { chunk, parts in
            for part in parts { try part.buffer.withBytes { try output.write(contentsOf: $0) } }
            buffers.give(back: parts)
            rowCount += chunk.rows.count
        }
        return (counts, rowCount)
    }

    /// One layout task's rows, formatted on its thread; then only written, in row order, by the
    /// thread that streams, and given back to the pool for a later window. Owned by one thread at
    /// a time (the pool's lock hands it over): the task that fills it, then the one that writes it.
    final class FormattedRows: @unchecked Sendable {
        private(set) var buffer = OutputBuffer()

        /// `rows` formatted into this buffer, in place of what it held.
        func filled(with rows: LaidOutRows, by formatter: HeightsRowFormatter.Shared) -> FormattedRows {
            buffer.removeAll()
            var kindNames = HeightsRowFormatter.KindNames()
            formatter.format(rows, kindNames: &kindNames, into: &buffer)
            return self
        }

        /// This buffer emptied and then filled by `body` (`PixelHeightsWriter`'s rows).
        func filled(by body: (inout OutputBuffer) -> Void) -> FormattedRows {
            buffer.removeAll()
            body(&buffer)
            return self
        }

        /// Buffers kept from window to window: a buffer made for each task of each window would
        /// give its memory back to the system when freed and fault it in again. An `NSLock`, which
        /// ThreadSanitizer sees.
        final class Pool: @unchecked Sendable {
            private let lock = NSLock()
            private var free: [FormattedRows] = []

            func take() -> FormattedRows {
                lock.lock()
                defer { lock.unlock() }
                return free.popLast() ?? FormattedRows()
            }

            func give(back buffers: [FormattedRows]) {
                lock.lock()
                free.append(contentsOf: buffers)
                lock.unlock()
            }
        }
    }
}

/// Formats rows into bytes: each row's id, conversation and kind are escaped once for all
/// its widths, and kind names once per run.
struct HeightsRowFormatter: ~Copyable {
    let csv: Bool
    let registry: CellRegistry
    private var kindNames = KindNames()
    private var scratch = OutputBuffer()
    /// The constant bytes of a record after its head, by width (see `pieces(for:)`).
    private var pieces: [UInt8] = []
    private var piecesWidths: [Int] = []
    /// Where in `pieces` the bytes before the height, for each width, end; then the three
    /// separators before textLines, wrapWidth and bubbleWidth.
    private var pieceEnds: [Int] = []

    init(csv: Bool, registry: CellRegistry) {
        self.csv = csv
        self.registry = registry
    }

    /// Each kind's name as the format writes it, made the first time the kind is met.
    struct KindNames {
        var names: [[UInt8]?] = Array(repeating: nil, count: 256)

        mutating func note(_ kind: RowKind, csv: Bool, registry: CellRegistry) {
            guard names[Int(kind.rawValue)] == nil else { return }
            var scratch = OutputBuffer(capacity: 64)
            let name = registry.name(of: kind)
            if csv { scratch.appendCSVField(name) } else { scratch.appendJSONString(name) }
            names[Int(kind.rawValue)] = scratch.bytes
        }
    }

    /// What formatting needs once the pieces are made, and nothing it changes: so the layout
    /// tasks can format their rows at once, each with kind names of its own.
    struct Shared: Sendable {
        let csv: Bool
        let registry: CellRegistry
        let pieces: [UInt8]
        let pieceEnds: [Int]
    }

    /// The formatter's state for `Shared.format`, after `preparePieces`.
    var shared: Shared { Shared(csv: csv, registry: registry, pieces: pieces, pieceEnds: pieceEnds) }

    /// What goes before each field of a record, and after the last, in each format.
    fileprivate static let jsonPunctuation: [StaticString] =
        ["{\"row\":", ",\"kind\":", ",\"width\":", ",\"height\":", ",\"textLines\":", ",\"wrapWidth\":", ",\"bubbleWidth\":"]
    fileprivate static let csvPunctuation: [StaticString] = ["", ",", ",", ",", ",", ",", ","]

    /// Builds, once per set of widths, the bytes between a record's head and its numbers:
    /// for each width `,"width":80,"height":`, then `,"textLines":`, `,"wrapWidth":` and
    /// `,"bubbleWidth":` (commas alone in CSV).
    mutating func preparePieces(for widths: [Int]) {
        guard widths != piecesWidths else { return }
        let punctuation = csv ? Self.csvPunctuation : Self.jsonPunctuation
        scratch.removeAll()
        pieceEnds = []
        for width in widths {
            scratch.append(punctuation[2])
            scratch.append(width)
            scratch.append(punctuation[3])
            pieceEnds.append(scratch.count)
        }
        for k in 4...6 {
            scratch.append(punctuation[k])
            pieceEnds.append(scratch.count)
        }
        pieces = scratch.bytes
        piecesWidths = widths
    }

    /// Every row of `chunk` at every width, as JSON Lines or CSV records, row after row (see
    /// `Shared.format`).
    mutating func format(chunk: BatchLayout, into out: inout OutputBuffer) {
        guard !chunk.widths.isEmpty, !chunk.rows.isEmpty else { return }
        preparePieces(for: chunk.widths)
        let shared = self.shared
        chunk.withAllRows { rows in shared.format(rows, kindNames: &kindNames, into: &out) }
    }
}

extension HeightsRowFormatter.Shared {
    /// Every row of `rows.range` at every width, as JSON Lines or CSV records, row after row. The
    /// head (row number, conversation, id and kind, which every width of a row shares) is
    /// written once and copied from the buffer for the other widths; the rest of each record
    /// is constant bytes (`preparePieces`) and four numbers, written in one reserved stretch.
    /// What the rows share is looked up once a chunk: the pieces, the kind names, the layouts
    /// in place (formatting row by row, each row looking them up, cost 2.3 times as much).
    func format(_ chunk: LaidOutRows, kindNames: inout HeightsRowFormatter.KindNames, into out: inout OutputBuffer) {
        let widthCount = chunk.widths.count
        let rowCount = chunk.rows.count
        let range = chunk.range
        guard widthCount > 0, !range.isEmpty else { return }
        precondition(pieceEnds.count == widthCount + 3, "HeightsRowFormatter: pieces made for other widths")
        chunk.withLayouts { layouts in
            // Every kind name the rows need, made before the loop so the loop only reads them.
            for w in 0..<widthCount {
                for r in range { kindNames.note(layouts[w * rowCount + r].kind, csv: self.csv, registry: registry) }
            }
        }
        let names = kindNames.names
        let pieces = self.pieces, ends = pieceEnds, csv = self.csv
        let punctuation = csv ? HeightsRowFormatter.csvPunctuation : HeightsRowFormatter.jsonPunctuation
        let lines = ends[widthCount], wrap = ends[widthCount + 1], bubble = ends[widthCount + 2]
        let afterWidths = ends[widthCount - 1]
        let models = chunk.models
        let maximumRecord = pieces.count + 2 + 4 * 20
        pieces.withByteView { pieces in
            chunk.withLayouts { layouts in
                for r in range {
                    let row = chunk.rows[r]
                    let number = chunk.firstRowNumber + r
                    let conversation = row.conversationID(in: models)
                    let id = row.id(in: models)
                    func writeHead(_ kind: RowKind, into out: inout OutputBuffer) {
                        out.append(punctuation[0])
                        out.append(number)
                        if csv {
                            out.append(",")
                            out.appendCSVField(id)
                        } else {
                            if let conversation {
                                out.append(",\"conversation\":")
                                out.appendJSONString(conversation)
                            }
                            out.append(",\"id\":")
                            out.appendJSONString(id)
                        }
                        out.append(punctuation[1])
                        out.append(bytes: names[Int(kind.rawValue)]!)
                    }
                    let firstKind = layouts[r].kind
                    let headStart = out.count
                    writeHead(firstKind, into: &out)
                    let headCount = out.count - headStart
                    for w in 0..<widthCount {
                        let layout = layouts[w * rowCount + r]
                        // A row's kind is its cell's at every width; were it not, that width's head is written anew.
                        let copiesHead = w > 0 && layout.kind == firstKind
                        if w > 0 && !copiesHead { writeHead(layout.kind, into: &out) }
                        let pieceStart = w == 0 ? 0 : ends[w - 1]
                        let pieceEnd = ends[w]
                        out.write(reserving: headCount + maximumRecord) { cursor in
                            if copiesHead { cursor.copyWritten(headStart..<(headStart + headCount)) }
                            cursor.copy(pieces.bytes(pieceStart..<pieceEnd))
                            cursor.decimal(layout.height)
                            cursor.copy(pieces.bytes(afterWidths..<lines))
                            cursor.decimal(layout.textLines)
                            cursor.copy(pieces.bytes(lines..<wrap))
                            cursor.decimal(layout.wrapWidth)
                            cursor.copy(pieces.bytes(wrap..<bubble))
                            cursor.decimal(layout.bubbleWidth)
                            if !csv { cursor.byte(UInt8(ascii: "}")); cursor.byte(0x0A) }
                        }
                        if csv { out.appendCSVRecordEnd(conversation: conversation) }
                    }
                }
            }
        }
    }
}
