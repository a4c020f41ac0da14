import BubbleLayout
import BubbleLogs
import BubbleTerminal
import BubbleText
import Dispatch
import Foundation

/// `bubbles heights`: the row height of every row of a log at one or more widths, in input order.
struct HeightsCommand: BubblesCommand {
    static let spec = CommandSpec(
        name: "heights",
        abstract: "Compute row heights in batch, at one or many widths.",
        discussion: """
            Prints one record per row and width, in input order:
              {"row":0,"id":"41","kind":"text","width":80,"height":4,"textLines":1,"wrapWidth":56,"bubbleWidth":12}
            kind is text, image, system or date (date rows have ids like date:2024-05-01). Records of a
            log with conversations carry "conversation" after "row". Rows are written as they are
            decided, each held back only until the next message of its conversation. With --verbose a
            summary goes to stderr. Exit code 1 when some records were rejected (each is reported as file:line: reason).
            """,
        arguments: [ArgumentSpec("FILE", optional: true, help: "Log or export to read; - for standard input (the default).")],
        options: [
            Options.width, Options.format, CellWidthsOption.ambiguousWide, CellWidthsOption.spec, InputOptions.Options.clock,
        ] + PixelOptions.specs + InputOptions.specs)

    /// The options, each declared once: the spec lists them and `init` reads them.
    enum Options {
        static let width = OptionSpec("--width", "-w", value: "N", repeats: true, help: "Container width in cells (in px with --font); repeat or list (40,80) for several, each once (default 80).")
        static let format = OptionSpec("--format", value: "FORMAT", choices: ["jsonl", "csv"], help: "Output format: jsonl or csv (default jsonl).")
    }

    let input: InputOptions
    let widths: [Int]
    let csv: Bool
    let textOptions: TextOptions
    /// The probe turned mode 2027 on: turned off again when the command ends.
    let graphemeClusteringEnabled: Bool
    /// `--font` and its options: heights in px; nil for cells.
    let pixels: PixelOptions?

    init(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) {
        input = try InputOptions(arguments, context: context)
        let widths = try arguments.integers(Options.width, in: 1...BubbleStyle.maximumContainerWidth, distinct: true)
        self.widths = widths.isEmpty ? [80] : widths
        csv = try arguments.choice(Options.format) == "csv"
        pixels = try PixelOptions(arguments)
        // In px there are no cells to count, and no terminal is asked how it counts them.
        let cellWidths = pixels != nil ? WidthProbe.Result(options: TextOptions(), enableGraphemeClustering: false, answered: false) : CellWidthsOption.resolve(try CellWidthsOption.parse(arguments),
                                                  base: TextOptions(ambiguousWidth: arguments.flag(CellWidthsOption.ambiguousWide) ? 2 : 1), context: context)
        textOptions = cellWidths.options
        graphemeClusteringEnabled = cellWidths.enableGraphemeClustering
    }

    func run(context: CommandContext) throws -> Int32 {
        if let pixels { return try runInPixels(pixels, context: context) }
        guard let reader = try input.open(errors: context.errors, command: Self.spec.name, inputIsTerminal: context.inputIsTerminal) else { return ExitCode.failure }
        let engine = LayoutEngine(textOptions: textOptions)
        let status = try streamFormattingInParallel(reader, through: engine, context: context)
        if graphemeClusteringEnabled { try context.output.write(TerminalProbe.disableGraphemeClustering) }
        try context.output.flush()
        return status
    }

    /// The run both outputs share (cells and pixels): one pass of the streaming layout, each
    /// message laid out once at every width from one preparing of its text, so the layout cache
    /// and the text store would only be filled, never read; each chunk's rows formatted into one
    /// buffer and written at once; then the summary and the input's counts.
    func stream<Measurer: TextMeasurer>(_ reader: LogReader, through engine: LayoutEngine<Measurer>, context: CommandContext,
                                        csvHeader: String,
                                        format: (LaidOutChunk, inout OutputBuffer) -> Void) throws -> Int32 {
        let stream = timelineStream(through: engine, reader: reader)
        let output = context.output
        if csv { try output.write(csvHeader) }
        let started = DispatchTime.now()
        let progress = ProgressBar(total: 0, sink: context.errors, enabled: context.errorsAreTerminal)
        var rowCount = 0
        var buffer = OutputBuffer()
        let counts = try stream.run(reader, errors: context.errors, progress: { progress.update(messages: $0) },
                                    idle: { try output.flush() }) { chunk in
            buffer.removeAll()
            format(chunk, &buffer)
            try buffer.withBytes { try output.write(contentsOf: $0) }
            rowCount += chunk.rows.count
        }
        return try finish(reader, counts: counts, rows: rowCount, since: started, progress: progress, context: context)
    }

    /// The streaming layout both runs use: each message laid out once at every width from one
    /// preparing of its text, so the layout cache and the text store would only be filled, never
    /// read (`remembering` off).
    private func timelineStream<Measurer: TextMeasurer>(through engine: LayoutEngine<Measurer>, reader: LogReader) -> TimelineStream<Measurer> {
        var options = DecorationOptions()
        options.timeZone = input.timeZone
        options.clock = input.clock(for: reader)
        var stream = TimelineStream(engine: engine, widths: widths, decorationOptions: options)
        stream.remembering = false
        return stream
    }

    /// The end both runs share: output flushed, then the summary and the input's counts.
    private func finish(_ reader: LogReader, counts: LogCounts, rows: Int, since started: DispatchTime, progress: ProgressBar,
                        context: CommandContext) throws -> Int32 {
        try context.output.flush()
        progress.finish()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        if input.verbose { try context.errors.write(Self.summary(rows: rows, widths: widths.count, seconds: seconds)) }
        try input.reportEnd(of: reader, done: "laid out", to: context.errors)
        return exitCode(for: counts)
    }

    /// `stream` with each window's rows formatted by the layout tasks that laid them out, on their
    /// threads, as soon as they are laid out (`TimelineStream.run(finishing:)`): formatting then
    /// runs on all cores beside layout, and this thread only writes the tasks' bytes in row order.
    func streamFormattingInParallel(_ reader: LogReader, through engine: LayoutEngine<CellMeasurer>,
                                    context: CommandContext) throws -> Int32 {
        let stream = timelineStream(through: engine, reader: reader)
        var formatter = RowFormatter(csv: csv, registry: engine.registry)
        formatter.preparePieces(for: widths)
        let shared = formatter.shared
        let output = context.output
        if csv { try output.write("row,id,kind,width,height,textLines,wrapWidth,bubbleWidth,conversation\n") }
        let started = DispatchTime.now()
        let progress = ProgressBar(total: 0, sink: context.errors, enabled: context.errorsAreTerminal)
        var rowCount = 0
        let buffers = FormattedRows.Pool()
        let counts = try stream.run(reader, errors: context.errors, progress: { progress.update(messages: $0) },
                                    idle: { try output.flush() },
                                    finishing: { rows in buffers.take().filled(with: rows, by: shared) }) { chunk, parts in
            for part in parts { try part.buffer.withBytes { try output.write(contentsOf: $0) } }
            buffers.give(back: parts)
            rowCount += chunk.rows.count
        }
        return try finish(reader, counts: counts, rows: rowCount, since: started, progress: progress, context: context)
    }

    /// One layout task's rows, formatted on its thread; then only written, in row order, by the
    /// thread that streams, and given back to the pool for a later window. Owned by one thread at
    /// a time (the pool's lock hands it over): the task that fills it, then the one that writes it.
    final class FormattedRows: @unchecked Sendable {
        private(set) var buffer = OutputBuffer()

        /// `rows` formatted into this buffer, in place of what it held.
        func filled(with rows: LaidOutRows, by formatter: RowFormatter.Shared) -> FormattedRows {
            buffer.removeAll()
            var kindNames = RowFormatter.KindNames()
            formatter.format(rows, kindNames: &kindNames, into: &buffer)
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

    /// Formats rows into bytes: each row's id, conversation and kind are escaped once for all
    /// its widths, and kind names once per run.
    struct RowFormatter: ~Copyable {
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
        mutating func format(chunk: LaidOutChunk, into out: inout OutputBuffer) {
            guard !chunk.widths.isEmpty, !chunk.rows.isEmpty else { return }
            preparePieces(for: chunk.widths)
            let shared = self.shared
            chunk.withAllRows { rows in shared.format(rows, kindNames: &kindNames, into: &out) }
        }
    }
}

extension HeightsCommand.RowFormatter.Shared {
    /// Every row of `rows.range` at every width, as JSON Lines or CSV records, row after row. The
    /// head (row number, conversation, id and kind, which every width of a row shares) is
    /// written once and copied from the buffer for the other widths; the rest of each record
    /// is constant bytes (`preparePieces`) and four numbers, written in one reserved stretch.
    /// What the rows share is looked up once a chunk: the pieces, the kind names, the layouts
    /// in place (formatting row by row, each row looking them up, cost 2.3 times as much).
    func format(_ chunk: LaidOutRows, kindNames: inout HeightsCommand.RowFormatter.KindNames, into out: inout OutputBuffer) {
        let widthCount = chunk.widths.count
        let rowCount = chunk.rows.count
        let range = chunk.range
        guard widthCount > 0, !range.isEmpty else { return }
        precondition(pieceEnds.count == widthCount + 3, "RowFormatter: pieces made for other widths")
        chunk.withLayouts { layouts in
            // Every kind name the rows need, made before the loop so the loop only reads them.
            for w in 0..<widthCount {
                for r in range { kindNames.note(layouts[w * rowCount + r].kind, csv: self.csv, registry: registry) }
            }
        }
        let names = kindNames.names
        let pieces = self.pieces, ends = pieceEnds, csv = self.csv
        let punctuation = csv ? HeightsCommand.RowFormatter.csvPunctuation : HeightsCommand.RowFormatter.jsonPunctuation
        let lines = ends[widthCount], wrap = ends[widthCount + 1], bubble = ends[widthCount + 2]
        let afterWidths = ends[widthCount - 1]
        let models = chunk.models
        let maximumRecord = pieces.count + 2 + 4 * 20
        pieces.withUnsafeBufferPointer { pieces in
            chunk.withLayouts { layouts in
                let pieceBase = pieces.baseAddress!
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
                        out.write(reserving: headCount + maximumRecord) { at, written in
                            var cursor = ByteCursor(at)
                            if copiesHead { cursor.copy(written + headStart, count: headCount) }
                            cursor.copy(pieceBase + pieceStart, count: pieceEnd - pieceStart)
                            cursor.decimal(layout.height)
                            cursor.copy(pieceBase + afterWidths, count: lines - afterWidths)
                            cursor.decimal(layout.textLines)
                            cursor.copy(pieceBase + lines, count: wrap - lines)
                            cursor.decimal(layout.wrapWidth)
                            cursor.copy(pieceBase + wrap, count: bubble - wrap)
                            cursor.decimal(layout.bubbleWidth)
                            if !csv { cursor.byte(UInt8(ascii: "}")); cursor.byte(0x0A) }
                            return cursor.position - at
                        }
                        if csv { out.appendCSVRecordEnd(conversation: conversation) }
                    }
                }
            }
        }
    }
}

extension HeightsCommand {
    static func summary(rows: Int, widths: Int, seconds: Double) -> String {
        let perSecond = seconds > 0 ? Double(rows * widths) / seconds : 0
        return "bubbles: \(rows) rows × \(widths) width\(widths == 1 ? "" : "s") in \(Format.fixed(seconds, 3)) s "
            + "(\(Format.grouped(Int(perSecond))) rows/s)\n"
    }
}
