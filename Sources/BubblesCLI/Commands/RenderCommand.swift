import BubbleLayout
import BubbleLogs
import BubbleTerminal
import BubbleText

/// `bubbles render`: a log drawn as chat bubbles in the terminal.
struct RenderCommand: BubblesCommand {
    static let spec = CommandSpec(
        name: "render",
        abstract: "Render a message log as chat bubbles in the terminal.",
        discussion: """
            Incoming messages on the left, outgoing on the right, system notices centred, images as sized
            boxes, with date separators, names, times and status. Control characters in messages are shown
            in a visible form (^[, <9B>, <RLO>), never passed to the terminal. Rejected records are
            reported on stderr as file:line: reason; the exit code is then 1.
            """,
        arguments: [ArgumentSpec("FILE", optional: true, help: "Log or export to read; - for standard input (the default).")],
        options: [Options.width, Options.color, Options.ascii, CellWidthsOption.ambiguousWide, Options.bidi,
                  Options.noHyperlinks, CellWidthsOption.spec, InputOptions.Options.clock] + InputOptions.specs + PictureOptions.specs)

    /// The options, each declared once: the spec lists them and `init` reads them.
    enum Options {
        static let width = OptionSpec("--width", "-w", value: "N", help: "Width in cells (default: COLUMNS, else the terminal's: standard output's, or when it is a pipe the controlling terminal's, as for render | less -R; else 80, as for a file); in px for --format svg or html (default 375).")
        static let color = OptionSpec("--color", value: "WHEN", choices: ColorChoice.allCases.map(\.rawValue), help: "auto, always or never (default auto: only to a terminal; NO_COLOR turns it off).")
        static let ascii = OptionSpec("--ascii", help: "Draw with plain ASCII instead of rounded box drawing.")
        static let noHyperlinks = OptionSpec("--no-hyperlinks", help: "Write web addresses as plain text, not as OSC 8 hyperlinks (written by default to a terminal with colour on; never to a file or pipe, nor with --color never).")
        static let bidi = OptionSpec("--bidi", value: "MODE", choices: BidiMode.allCases.map(\.rawValue), help: "visual (default: right-to-left text reordered, right-aligned and Arabic shaped, for terminals that do not reorder) or logical (text in memory order, for terminals that reorder by themselves).")
    }

    let input: InputOptions
    let width: Int
    /// `--format svg|html` and its options; nil for the terminal.
    let pictures: PictureOptions?
    /// The container width of a picture, in px: `--width`, else 375 (a phone's).
    let pictureWidth: Int
    let colorDepth: ColorDepth
    let ascii: Bool
    /// Web addresses as OSC 8 hyperlinks.
    let hyperlinks: Bool
    let textOptions: TextOptions
    let bidi: BidiMode
    /// Escapes written before and after the transcript: BDSM's explicit mode for a terminal that
    /// would reorder our visual lines a second time.
    let bidiModeSwitch: TerminalBidi.ModeSwitch?
    /// The probe turned mode 2027 on: turned off again when the command ends.
    let graphemeClusteringEnabled: Bool

    init(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) {
        input = try InputOptions(arguments, context: context)
        // A pipe is drawn now, by a pager in the terminal the command runs in; a file later, anywhere.
        let measured = context.outputIsFile ? nil : context.terminalColumns
        let explicitWidth = try arguments.integer(Options.width, in: 1...BubbleStyle.maximumContainerWidth)
        width = TerminalWidth.resolve(explicit: explicitWidth, environment: context.environment, measured: { measured?() })
        pictures = try PictureOptions(arguments)
        pictureWidth = explicitWidth ?? 375
        let choice = try arguments.choice(Options.color).flatMap(ColorChoice.init) ?? .auto
        colorDepth = ColorDepth.resolve(choice, environment: context.environment, outputIsTerminal: context.outputIsTerminal)
        ascii = arguments.flag(Options.ascii)
        hyperlinks = Self.hyperlinks(disabled: arguments.flag(Options.noHyperlinks), environment: context.environment,
                                     outputIsTerminal: context.outputIsTerminal)
        let widths = CellWidthsOption.resolve(try CellWidthsOption.parse(arguments),
                                              base: TextOptions(ambiguousWidth: arguments.flag(CellWidthsOption.ambiguousWide) ? 2 : 1), context: context,
                                              drawnLater: true)
        textOptions = widths.options
        graphemeClusteringEnabled = widths.enableGraphemeClustering
        bidi = try arguments.choice(Options.bidi).flatMap(BidiMode.init) ?? .visual
        bidiModeSwitch = bidi == .visual
            ? TerminalBidi.explicitModeSwitch(environment: context.environment, outputIsTerminal: context.outputIsTerminal)
            : nil
    }

    func run(context: CommandContext) throws -> Int32 {
        if let pictures { return try runPictures(pictures, context: context) }
        guard let reader = try input.open(errors: context.errors, command: Self.spec.name, inputIsTerminal: context.inputIsTerminal) else { return ExitCode.failure }
        let output = context.output
        if let bidiModeSwitch { try output.write(bidiModeSwitch.enter) }
        let counts: LogCounts
        do {
            counts = try draw(reader, errors: context.errors) { _, _, lines in
                for line in lines {
                    try output.write(line)
                    try output.write("\n")
                }
            }
        } catch {
            if let bidiModeSwitch { try? output.write(bidiModeSwitch.exit) }
            if graphemeClusteringEnabled { try? output.write(TerminalProbe.disableGraphemeClustering) }
            try? output.flush()
            throw error
        }
        if let bidiModeSwitch { try output.write(bidiModeSwitch.exit) }
        if graphemeClusteringEnabled { try output.write(TerminalProbe.disableGraphemeClustering) }
        try output.flush()
        try input.reportEnd(of: reader, done: "drawn", to: context.errors)
        return exitCode(for: counts)
    }

    /// Whether to write OSC 8 hyperlinks: to a terminal (not `TERM=dumb`) unless `--no-hyperlinks`;
    /// the renderer writes them only with colour on. Terminals without OSC 8 ignore the sequence
    /// (ECMA-48 string syntax), so the text still shows.
    static func hyperlinks(disabled: Bool, environment: [String: String], outputIsTerminal: Bool) -> Bool {
        !disabled && outputIsTerminal && environment["TERM"] != "dumb"
    }

    /// Lays out and draws every row of `reader` in input order, handing each row's lines (with the
    /// row's number in the transcript, and its key: its conversation, if any, a newline and its id,
    /// as `heights` prints them) to `consume`. The layouts are the ones `heights` prints.
    func draw(_ reader: LogReader, errors: TextSink, consume: (Int, String, [String]) throws -> Void) throws -> LogCounts {
        let engine = LayoutEngine(textOptions: textOptions)
        var decoration = DecorationOptions()
        decoration.timeZone = input.timeZone
        decoration.clock = input.clock(for: reader)
        var stream = TimelineStream(engine: engine, widths: [width], decorationOptions: decoration)
        // A transcript is read top to bottom: conversations read together keep the input's order.
        stream.inInputOrder = true
        // Each row is laid out and drawn once: the engine's layout cache and text store would
        // only be filled, never read, and grow with the transcript (as `heights` has them off).
        stream.remembering = false
        var options = RenderOptions(width: width, colorDepth: colorDepth, asciiBorders: ascii, timeZone: input.timeZone)
        options.bidi = bidi
        options.clock = decoration.clock
        options.hyperlinks = hyperlinks
        // Each row is drawn once: its prepared text is not kept either.
        options.keepsPreparedTexts = false
        var renderer = TranscriptRenderer(engine: engine, options: options)
        return try stream.run(reader, errors: errors) { chunk in
            for (r, row) in chunk.rows.enumerated() {
                let model = row.isDateSeparator ? nil : chunk.models[row.messageIndex]
                let key = (row.conversationID(in: chunk.models) ?? "") + "\n" + row.id(in: chunk.models)
                try consume(chunk.firstRowNumber + r, key, renderer.lines(for: row, model: model, layout: chunk.layout(row: r, widthIndex: 0)))
            }
        }
    }
}
