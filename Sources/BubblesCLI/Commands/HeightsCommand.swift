import BubbleLayout
import BubbleLogs
import BubbleText
import Dispatch

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
            decided, each held back only until the next message of its conversation. A summary goes
            to stderr. Exit code 1 when some records were rejected (each is reported as file:line: reason).
            """,
        arguments: [ArgumentSpec("FILE", optional: true, help: "Log or export to read; - for standard input (the default).")],
        options: [
            OptionSpec("--width", "-w", value: "N", repeats: true, help: "Container width in cells; repeat or list (40,80) for several (default 80)."),
            OptionSpec("--format", value: "FORMAT", help: "Output format: jsonl or csv (default jsonl)."),
            OptionSpec("--ambiguous-wide", help: "Measure East Asian Ambiguous characters as 2 cells."),
        ] + InputOptions.specs)

    let input: InputOptions
    let widths: [Int]
    let csv: Bool
    let textOptions: TextOptions

    init(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) {
        input = try InputOptions(arguments, environment: context.environment)
        let widths = try arguments.integers("--width", in: 1...BubbleStyle.maximumContainerWidth)
        self.widths = widths.isEmpty ? [80] : widths
        csv = try arguments.choice("--format", from: ["jsonl", "csv"]) == "csv"
        textOptions = TextOptions(ambiguousWidth: arguments.flag("--ambiguous-wide") ? 2 : 1)
    }

    func run(context: CommandContext) throws -> Int32 {
        guard let reader = try input.open(errors: context.errors) else { return ExitCode.failure }
        let engine = LayoutEngine(textOptions: textOptions)
        var options = DecorationOptions()
        options.timeZone = input.timeZone
        // One pass: each message is laid out once, at every width from one preparing of its text,
        // so the layout cache and the text store would only be filled, never read.
        var stream = TimelineStream(engine: engine, widths: widths, decorationOptions: options)
        stream.remembering = false
        let output = context.output
        if csv { try output.write("row,id,kind,width,height,textLines,wrapWidth,bubbleWidth,conversation\n") }
        let started = DispatchTime.now()
        let progress = ProgressBar(total: 0, sink: context.errors, enabled: context.errorsAreTerminal)
        var rowCount = 0
        var buffer = OutputBuffer()
        let counts = try stream.run(reader, errors: context.errors, progress: { progress.update(messages: $0) },
                                    idle: { try output.flush() }) { chunk in
            buffer.bytes.removeAll(keepingCapacity: true)
            for r in chunk.rows.indices {
                Self.format(row: r, of: chunk, csv: csv, registry: engine.registry, into: &buffer)
            }
            try output.write(bytes: buffer.bytes)
            rowCount += chunk.rows.count
        }
        try output.flush()
        progress.finish()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        try context.errors.write(Self.summary(rows: rowCount, widths: widths.count, seconds: seconds))
        try input.reportEnd(of: reader, done: "laid out", countsAlways: true, to: context.errors)
        return exitCode(for: counts)
    }

    /// Row `r` of `chunk` at every width, as JSON Lines or CSV records.
    static func format(row r: Int, of chunk: LaidOutChunk, csv: Bool, registry: CellRegistry, into out: inout OutputBuffer) {
        let row = chunk.rows[r]
        let id = row.id(in: chunk.models)
        let conversation = row.conversationID(in: chunk.models)
        for (w, width) in chunk.widths.enumerated() {
            let layout = chunk.layout(row: r, widthIndex: w)
            let kind = registry.name(of: layout.kind)
            if csv {
                out.append(chunk.firstRowNumber + r)
                out.append(",")
                out.appendCSVField(id)
                out.append(",")
                out.appendCSVField(kind)
                out.append(",")
                out.append(width)
                out.append(",")
                out.append(layout.height)
                out.append(",")
                out.append(layout.textLines)
                out.append(",")
                out.append(layout.wrapWidth)
                out.append(",")
                out.append(layout.bubbleWidth)
                out.append(",")
                if let conversation { out.appendCSVField(conversation) }
                out.append("\n")
            } else {
                out.append("{\"row\":")
                out.append(chunk.firstRowNumber + r)
                if let conversation {
                    out.append(",\"conversation\":")
                    out.appendJSONString(conversation)
                }
                out.append(",\"id\":")
                out.appendJSONString(id)
                out.append(",\"kind\":")
                out.appendJSONString(kind)
                out.append(",\"width\":")
                out.append(width)
                out.append(",\"height\":")
                out.append(layout.height)
                out.append(",\"textLines\":")
                out.append(layout.textLines)
                out.append(",\"wrapWidth\":")
                out.append(layout.wrapWidth)
                out.append(",\"bubbleWidth\":")
                out.append(layout.bubbleWidth)
                out.append("}\n")
            }
        }
    }

    static func summary(rows: Int, widths: Int, seconds: Double) -> String {
        let perSecond = seconds > 0 ? Double(rows * widths) / seconds : 0
        return "heights: \(rows) rows × \(widths) width\(widths == 1 ? "" : "s") in \(Format.fixed(seconds, 3)) s "
            + "(\(Format.grouped(Int(perSecond))) rows/s)\n"
    }
}
