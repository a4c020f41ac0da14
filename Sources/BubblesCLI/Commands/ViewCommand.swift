import BubbleLayout
import BubbleLogs
import BubbleTerminal
import BubbleText
import Foundation

/// `bubbles view`: a log in a full-screen, scrollable, searchable viewer. The screen model and the
/// terminal handling live in BubbleTerminal (`ViewerScreen`, `ViewerSession`); this command reads
/// the input and wires them up.
struct ViewCommand: BubblesCommand {
    static let spec = CommandSpec(
        name: "view",
        abstract: "View a message log full screen: scroll, search and follow it.",
        discussion: """
            Opens on the latest messages. Keys as in less: j/k or arrows (a line), space/f/PgDn and
            b/PgUp (a page), d/u (half a page), g/G/Home/End, / and ? to search with n/N, q to quit.
            The mouse wheel scrolls. Keys come from the terminal, so the log may come on standard input.
            Rejected records are reported on stderr when the viewer closes.
            """,
        arguments: [ArgumentSpec("FILE", optional: true, help: "Log or export to read; - for standard input (the default).")],
        options: [
            OptionSpec("--follow", "-f", help: "Show messages appended to the file as they arrive (JSON Lines logs)."),
            OptionSpec("--color", value: "WHEN", help: "auto, always or never (default auto; NO_COLOR turns it off)."),
            OptionSpec("--ascii", help: "Draw with plain ASCII instead of rounded box drawing."),
            OptionSpec("--ambiguous-wide", help: "Measure East Asian Ambiguous characters as 2 cells."),
            OptionSpec("--bidi", value: "MODE", help: "visual (default: right-to-left text reordered, right-aligned and Arabic shaped, for terminals that do not reorder) or logical (text in memory order, for terminals that reorder by themselves)."),
            CellWidthsOption.spec,
        ] + InputOptions.specs)

    let input: InputOptions
    let follow: Bool
    let colorChoice: ColorChoice
    let ascii: Bool
    let askedProfile: WidthProfile?
    let baseOptions: TextOptions
    let bidi: BidiMode

    init(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) {
        input = try InputOptions(arguments, environment: context.environment)
        follow = arguments.flag("--follow")
        if follow && input.path == "-" { throw UsageError("--follow needs a FILE, not standard input") }
        colorChoice = try arguments.choice("--color", from: ColorChoice.allCases.map(\.rawValue)).flatMap(ColorChoice.init) ?? .auto
        ascii = arguments.flag("--ascii")
        askedProfile = try CellWidthsOption.parse(arguments)
        baseOptions = TextOptions(ambiguousWidth: arguments.flag("--ambiguous-wide") ? 2 : 1)
        bidi = try arguments.choice("--bidi", from: BidiMode.allCases.map(\.rawValue)).flatMap(BidiMode.init) ?? .visual
    }

    /// A file at least this large in JSON Lines opens on its end first; the rest loads behind it.
    static let tailFirstBytes = 4 << 20
    /// How much of the end is read for the first screen.
    static let tailBytes = 256 << 10

    func run(context: CommandContext) throws -> Int32 {
        guard let device = TerminalDevice() else {
            try context.errors.write("bubbles: view needs a terminal (none is attached); use bubbles render instead\n")
            return ExitCode.usage
        }
        // Probe before the input is read: the reply must not wait behind a long read.
        var probe = WidthProbe.Result(options: baseOptions, enableGraphemeClustering: false, answered: false)
        if let askedProfile {
            probe.options.widthProfile = askedProfile
        } else {
            device.enterRawMode()
            probe = TerminalProbe.run(device, base: baseOptions)
            device.discardInput()
            device.restoreMode()
            if baseOptions.ambiguousWidth == 2 { probe.options.ambiguousWidth = 2 }
        }
        let size = device.size ?? (24, 80)
        let engine = LayoutEngine(textOptions: probe.options)
        var decoration = DecorationOptions()
        decoration.timeZone = input.timeZone
        let colorDepth = ColorDepth.resolve(colorChoice, environment: context.environment, outputIsTerminal: true)
        var renderOptions = RenderOptions(width: size.columns, colorDepth: colorDepth, asciiBorders: ascii, timeZone: input.timeZone)
        renderOptions.bidi = bidi

        guard let reader = try input.open(errors: context.errors) else { return ExitCode.failure }
        let loader = ViewLoader(path: input.path, readOptions: input.readOptions, engine: engine, decoration: decoration,
                                width: size.columns)
        let handover: ViewerHandover?
        let conversation: Conversation<CellMeasurer>
        if reader.format == .jsonl, input.path != "-", let tail = loader.tail(tailFirstBytes: Self.tailFirstBytes, tailBytes: Self.tailBytes) {
            conversation = tail
            let waiting = ViewerHandover()
            handover = waiting
            loader.loadInBackground(into: waiting)
        } else {
            conversation = loader.load(reader)
            handover = nil
        }
        let screen = ViewerScreen(conversation: conversation, title: input.path == "-" ? "<stdin>" : input.path,
                                  rows: size.rows, columns: size.columns, renderOptions: renderOptions)
        screen.note = handover != nil ? "loading…" : loader.note
        let session = ViewerSession(screen: screen, device: device)
        session.graphemeClusteringEnabled = probe.enableGraphemeClustering
        session.bidiModeSwitch = bidi == .visual
            ? TerminalBidi.explicitModeSwitch(environment: context.environment, outputIsTerminal: true) : nil
        session.handover = handover
        if follow {
            guard reader.format == .jsonl else {
                try context.errors.write("bubbles: --follow reads JSON Lines logs; \(DiagnosticText.escaped(input.path)) is \(reader.format)\n")
                return ExitCode.usage
            }
            session.follow = { loader.appended() }
        }
        let status = session.run()
        // Quit before the whole log was read: its counts are not known yet.
        guard loader.isLoaded else { return status >= 128 ? status : ExitCode.success }
        for line in loader.diagnostics { try context.errors.write(line + "\n") }
        try input.reportEnd(of: loader.lastReader ?? reader, done: "shown", countsAlways: false, to: context.errors)
        if status >= 128 { return status }
        return loader.rejected > 0 ? ExitCode.rejectedInput : ExitCode.success
    }
}

/// Reads the log for the viewer: all of it, or its end first and the whole behind it, and what
/// is appended to it later. Diagnostics are kept to be printed once the screen is given back.
final class ViewLoader: @unchecked Sendable {  // the loader thread and the loop never touch it at once: see `ready`
    let path: String
    let readOptions: LogReadOptions
    let engine: LayoutEngine<CellMeasurer>
    let decoration: DecorationOptions
    let width: Int
    private(set) var diagnostics: [String] = []
    private(set) var rejected = 0
    private(set) var lastReader: LogReader?
    /// Lines and bytes of the file read so far (for `--follow`).
    private var lineCount = 0
    private var offset: UInt64 = 0
    /// Set by the loader thread when it has finished: appends may start.
    private let ready = NSCondition()
    private var loaded = false

    init(path: String, readOptions: LogReadOptions, engine: LayoutEngine<CellMeasurer>, decoration: DecorationOptions, width: Int) {
        self.path = path
        self.readOptions = readOptions
        self.engine = engine
        self.decoration = decoration
        self.width = width
    }

    var note: String? { rejected > 0 ? "\(rejected) rejected (listed on exit)" : nil }

    /// Every record of `reader` in a new conversation.
    func load(_ reader: LogReader) -> Conversation<CellMeasurer> {
        let size = fileSize()
        let conversation = Conversation(engine: engine, width: width, options: decoration)
        var models: [any MessageModel] = []
        for entry in reader {
            switch entry {
            case let .message(record, _): models.append(record)
            case let .diagnostic(diagnostic):
                rejected += 1
                diagnostics.append(diagnostic.description)
            }
        }
        append(models, to: conversation)
        lastReader = reader
        if let size { startFollowing(at: size) }
        ready.lock()
        loaded = true
        ready.unlock()
        return conversation
    }

    private func append(_ models: [any MessageModel], to conversation: Conversation<CellMeasurer>) {
        for model in models {
            do { try conversation.append(model) } catch {
                rejected += 1
                diagnostics.append("\(DiagnosticText.escaped(path)): message \(DiagnosticText.escaped(model.id)): \(error)")
            }
        }
    }

    /// The last `tailBytes` of a file of at least `tailFirstBytes`, from its first whole line, in a
    /// conversation; nil for a smaller file. Its diagnostics are left to the full read.
    func tail(tailFirstBytes: Int, tailBytes: Int) -> Conversation<CellMeasurer>? {
        guard let size = fileSize(), size >= UInt64(tailFirstBytes),
              let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: size - UInt64(tailBytes))) != nil,
              let data = try? handle.read(upToCount: tailBytes),
              let firstNewline = data.firstIndex(of: 0x0A) else { return nil }
        guard let temporary = writeTemporary(Data(data[data.index(after: firstNewline)...])) else { return nil }
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        guard let reader = try? LogSource.open(path: temporary, format: .jsonl, options: readOptions) else { return nil }
        let conversation = Conversation(engine: engine, width: width, options: decoration)
        for entry in reader { if let record = entry.record { try? conversation.append(record) } }
        return conversation.isEmpty ? nil : conversation
    }

    /// Reads the whole file on another thread and hands the conversation over.
    func loadInBackground(into handover: ViewerHandover) {
        let thread = Thread { [self] in
            guard let reader = try? LogSource.open(path: path, format: .jsonl, options: readOptions) else { return }
            let conversation = load(reader)
            handover.deliver(conversation, note: note)
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    private func fileSize() -> UInt64? {
        guard path != "-", let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? NSNumber else { return nil }
        return size.uint64Value
    }

    private func startFollowing(at size: UInt64) {
        offset = size
        // Line numbers of appended records count from here.
        if let handle = FileHandle(forReadingAtPath: path) {
            var lines = 0
            while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                lines += chunk.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            }
            try? handle.close()
            lineCount = lines
        }
    }

    /// The messages appended to the file since the last call (whole lines only), with their
    /// rejected records reported at their real lines.
    func appended() -> [any MessageModel] {
        guard isLoaded, let size = fileSize(), size > offset, let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.read(upToCount: Int(size - offset)),
              let lastNewline = data.lastIndex(of: 0x0A) else { return [] }
        let whole = Data(data[data.startIndex...lastNewline])
        offset += UInt64(whole.count)
        let firstLine = lineCount
        lineCount += whole.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        guard let temporary = writeTemporary(whole) else { return [] }
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        guard let reader = try? LogSource.open(path: temporary, format: .jsonl, options: readOptions) else { return [] }
        var models: [any MessageModel] = []
        for entry in reader {
            switch entry {
            case let .message(record, _): models.append(record)
            case let .diagnostic(diagnostic):
                rejected += 1
                var position = diagnostic.position
                position.file = path
                position.line = position.line.map { $0 + firstLine }
                diagnostics.append(LogDiagnostic(position: position, reason: diagnostic.reason).description)
            }
        }
        return models
    }

    /// Whether the whole file has been read (so its counts and diagnostics are complete).
    var isLoaded: Bool {
        ready.lock()
        defer { ready.unlock() }
        return loaded
    }

    /// `bytes` in a temporary file: the log readers read files.
    private func writeTemporary(_ bytes: Data) -> String? {
        let path = NSTemporaryDirectory() + "bubbles-view-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).jsonl"
        return FileManager.default.createFile(atPath: path, contents: bytes) ? path : nil
    }
}
