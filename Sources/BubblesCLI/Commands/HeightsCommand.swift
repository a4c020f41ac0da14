import BubbleLayout
import BubbleLogs
import BubbleTerminal
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
            kind is text, image, system or date (date rows have ids like date:2024-05-01). A summary goes
            to stderr. Exit code 1 when some records were rejected (each is reported as file:line: reason).
            """,
        arguments: [ArgumentSpec("FILE", optional: true, help: "Log or export to read; - for standard input (the default).")],
        options: [
            OptionSpec("--width", "-w", value: "N", repeats: true, help: "Container width in cells; repeat or list (40,80) for several (default 80)."),
            OptionSpec("--format", value: "FORMAT", help: "Output format: jsonl or csv (default jsonl)."),
            OptionSpec("--ambiguous-wide", help: "Measure East Asian Ambiguous characters as 2 cells."),
            CellWidthsOption.spec,
        ] + InputOptions.specs)

    let input: InputOptions
    let widths: [Int]
    let csv: Bool
    let textOptions: TextOptions
    /// The probe turned mode 2027 on: turned off again when the command ends.
    let graphemeClusteringEnabled: Bool

    init(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) {
        input = try InputOptions(arguments, environment: context.environment)
        let widths = try arguments.integers("--width", in: 1...BubbleStyle.maximumContainerWidth)
        self.widths = widths.isEmpty ? [80] : widths
        csv = try arguments.choice("--format", from: ["jsonl", "csv"]) == "csv"
        let cellWidths = CellWidthsOption.resolve(try CellWidthsOption.parse(arguments),
                                                  base: TextOptions(ambiguousWidth: arguments.flag("--ambiguous-wide") ? 2 : 1), context: context)
        textOptions = cellWidths.options
        graphemeClusteringEnabled = cellWidths.enableGraphemeClustering
    }

    func run(context: CommandContext) throws -> Int32 {
        guard let reader = try input.open(errors: context.errors) else { return ExitCode.failure }
        let engine = LayoutEngine(textOptions: textOptions)
        var options = DecorationOptions()
        options.timeZone = input.timeZone
        let stream = TimelineStream(engine: engine, widths: widths, decorationOptions: options)
        let output = context.output
        if csv { try output.write("row,id,kind,width,height,textLines,wrapWidth,bubbleWidth\n") }
        let started = DispatchTime.now()
        let progress = ProgressBar(total: 0, sink: context.errors, enabled: context.errorsAreTerminal)
        var rowCount = 0
        let counts = try stream.run(reader, errors: context.errors, progress: { progress.update(messages: $0) }) { chunk in
            for (r, row) in chunk.rows.enumerated() {
                let id = row.id(in: chunk.models)
                for (w, width) in chunk.widths.enumerated() {
                    let layout = chunk.layout(row: r, widthIndex: w)
                    let kind = engine.registry.name(of: layout.kind)
                    try output.write(csv ? Self.csvLine(chunk.firstRowNumber + r, id, kind, width, layout)
                                         : Self.jsonLine(chunk.firstRowNumber + r, id, kind, width, layout))
                }
            }
            rowCount += chunk.rows.count
        }
        if graphemeClusteringEnabled { try output.write(TerminalProbe.disableGraphemeClustering) }
        try output.flush()
        progress.finish()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let stats = engine.cache.statistics
        try context.errors.write(Self.summary(rows: rowCount, widths: widths.count, seconds: seconds, hitRate: stats.hitRate))
        try input.reportEnd(of: reader, done: "laid out", countsAlways: true, to: context.errors)
        return exitCode(for: counts)
    }

    static func jsonLine(_ row: Int, _ id: String, _ kind: String, _ width: Int, _ layout: RowLayout) -> String {
        "{\"row\":\(row),\"id\":\(JSONString.quoted(id)),\"kind\":\(JSONString.quoted(kind)),\"width\":\(width),"
            + "\"height\":\(layout.height),\"textLines\":\(layout.textLines),\"wrapWidth\":\(layout.wrapWidth),"
            + "\"bubbleWidth\":\(layout.bubbleWidth)}\n"
    }

    static func csvLine(_ row: Int, _ id: String, _ kind: String, _ width: Int, _ layout: RowLayout) -> String {
        "\(row),\(OutputEscaping.csvField(id)),\(OutputEscaping.csvField(kind)),\(width),\(layout.height),\(layout.textLines),"
            + "\(layout.wrapWidth),\(layout.bubbleWidth)\n"
    }

    static func summary(rows: Int, widths: Int, seconds: Double, hitRate: Double) -> String {
        let perSecond = seconds > 0 ? Double(rows * widths) / seconds : 0
        return "heights: \(rows) rows × \(widths) width\(widths == 1 ? "" : "s") in \(Format.fixed(seconds, 3)) s "
            + "(\(Format.grouped(Int(perSecond))) rows/s), cache hit rate \(Format.fixed(hitRate * 100, 1))%\n"
    }
}
