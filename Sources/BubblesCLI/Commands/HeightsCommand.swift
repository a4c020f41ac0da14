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
        let writer = HeightsWriter(csv: csv, registry: engine.registry, widths: widths)
        let started = DispatchTime.now()
        let progress = ProgressBar(total: 0, sink: context.errors, enabled: context.errorsAreTerminal)
        let (counts, rows) = try writer.write(reader, through: timelineStream(through: engine, reader: reader), to: context.output,
                                              errors: context.errors, progress: { progress.update(messages: $0) },
                                              idle: { try context.output.flush() })
        let status = try finish(reader, counts: counts, rows: rows, since: started, progress: progress, context: context)
        if graphemeClusteringEnabled { try context.output.write(TerminalProbe.disableGraphemeClustering) }
        try context.output.flush()
        return status
    }

    /// The streaming layout both runs use: each message laid out once at every width from one
    /// preparing of its text, so the layout cache and the text store would only be filled, never
    /// read (`remembering` off).
    func timelineStream<Measurer: TextMeasurer>(through engine: LayoutEngine<Measurer>, reader: LogReader) -> TimelineStream<Measurer> {
        var options = DecorationOptions()
        options.timeZone = input.timeZone
        options.clock = input.clock(for: reader)
        var stream = TimelineStream(engine: engine, widths: widths, decorationOptions: options)
        stream.remembering = false
        return stream
    }

    /// The end both runs share: output flushed, then the summary and the input's counts.
    func finish(_ reader: LogReader, counts: LogCounts, rows: Int, since started: DispatchTime, progress: ProgressBar,
                        context: CommandContext) throws -> Int32 {
        try context.output.flush()
        progress.finish()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        if input.verbose { try context.errors.write(Self.summary(rows: rows, widths: widths.count, seconds: seconds)) }
        try input.reportEnd(of: reader, done: "laid out", to: context.errors)
        return exitCode(for: counts)
    }
}

extension HeightsCommand {
    static func summary(rows: Int, widths: Int, seconds: Double) -> String {
        let perSecond = seconds > 0 ? Double(rows * widths) / seconds : 0
        return "bubbles: \(rows) rows × \(widths) width\(widths == 1 ? "" : "s") in \(Format.fixed(seconds, 3)) s "
            + "(\(Format.grouped(Int(perSecond))) rows/s)\n"
    }
}
