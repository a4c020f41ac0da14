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
            b/PgUp (a page), d/u (half a page), g/G/Home/End (the log's start and end), / and ? to
            search with n/N, a count before a key to repeat it (50j, 3n), h or F1 for the list of
            keys, q to quit. The mouse wheel scrolls. A log of several conversations (Slack,
            Telegram, JSON Lines with conversation) shows one at a time under a header line naming
            it: ] and [ go to the next and the previous; --channel NAME opens just one. Keys come
            from the terminal, so the log may come on standard input.
            Notes about the input are shown on the status line; they and rejected records are
            reported on stderr when the viewer closes.
            Ended by a signal (SIGTERM, SIGHUP, SIGQUIT), it gives the terminal back and exits with
            128 plus the signal's number.
            """,
        arguments: [ArgumentSpec("FILE", optional: true, help: "Log or export to read; - for standard input (the default).")],
        options: [Options.follow, Options.color, RenderCommand.Options.ascii, CellWidthsOption.ambiguousWide,
                  RenderCommand.Options.bidi, RenderCommand.Options.noHyperlinks, CellWidthsOption.spec, InputOptions.Options.clock] + InputOptions.specs,
        sections: [HelpSection(title: "keys", rows: ViewerKeyHelp.bindings.map { ($0.keys, $0.action) })])

    /// The options, each declared once: the spec lists them and `init` reads them.
    enum Options {
        static let follow = OptionSpec("--follow", "-f", help: "Show messages appended to the file as they arrive (JSON Lines logs); a file truncated or replaced is read again.")
        static let color = OptionSpec("--color", value: "WHEN", choices: ColorChoice.allCases.map(\.rawValue), help: "auto, always or never (default auto; NO_COLOR turns it off).")
    }

    let input: InputOptions
    let follow: Bool
    let colorChoice: ColorChoice
    let ascii: Bool
    let noHyperlinks: Bool
    let askedProfile: WidthProfile?
    let baseOptions: TextOptions
    let bidi: BidiMode

    init(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) {
        input = try InputOptions(arguments, context: context)
        follow = arguments.flag(Options.follow)
        if follow && input.path == "-" { throw UsageError("--follow needs a FILE, not standard input") }
        colorChoice = try arguments.choice(Options.color).flatMap(ColorChoice.init) ?? .auto
        ascii = arguments.flag(RenderCommand.Options.ascii)
        noHyperlinks = arguments.flag(RenderCommand.Options.noHyperlinks)
        askedProfile = try CellWidthsOption.parse(arguments)
        baseOptions = TextOptions(ambiguousWidth: arguments.flag(CellWidthsOption.ambiguousWide) ? 2 : 1)
        bidi = try arguments.choice(RenderCommand.Options.bidi).flatMap(BidiMode.init) ?? .visual
    }

    /// The lines opening wrote, for the status line: without the `bubbles: ` prefix, joined.
    static func statusNotice(_ text: String) -> String? {
        let lines = text.split(separator: "\n").map { line in
            line.hasPrefix("bubbles: ") ? String(line.dropFirst("bubbles: ".count)) : String(line)
        }
        return lines.isEmpty ? nil : lines.joined(separator: "; ")
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
            device.enterRawMode(signalsFromKeys: true)
            let outcome = TerminalProbe.probe(device, base: baseOptions)
            probe = outcome.result
            if outcome.complete {
                device.discardInput()
                device.restoreMode()
            } else {
                // Late replies: not echoed while the log loads; the viewer drops them as keys.
                QuietTerminal.hold(device)
            }
            if baseOptions.ambiguousWidth == 2 { probe.options.ambiguousWidth = 2 }
        }
        let size = device.size ?? (24, 80)
        let engine = LayoutEngine(textOptions: probe.options)
        var decoration = DecorationOptions()
        decoration.timeZone = input.timeZone
        let colorDepth = ColorDepth.resolve(colorChoice, environment: context.environment, outputIsTerminal: true)
        var renderOptions = RenderOptions(width: size.columns, colorDepth: colorDepth, asciiBorders: ascii, timeZone: input.timeZone)
        renderOptions.bidi = bidi
        renderOptions.hyperlinks = RenderCommand.hyperlinks(disabled: noHyperlinks, environment: context.environment, outputIsTerminal: true)

        // What opening says (a guess about the dates, the time zone used) goes on the status
        // line while the viewer runs, which would hide it, and on stderr once it is closed.
        let opening = StringSink()
        var openingWritten = false
        func writeOpening() throws {
            guard !openingWritten else { return }
            openingWritten = true
            try context.errors.write(opening.text)
        }
        defer { try? writeOpening() }
        guard let reader = try input.open(errors: opening, command: Self.spec.name) else { return ExitCode.failure }
        decoration.clock = input.clock(for: reader)
        renderOptions.clock = decoration.clock
        if follow, let reason = ViewLoader.cannotFollow(reader.format, path: input.path, head: ViewLoader.head(of: input.path)) {
            try context.errors.write("bubbles: --follow: \(reason)\n")
            return ExitCode.usage
        }
        let loader = ViewLoader(path: input.path, readOptions: input.readOptions, registry: engine.registry)
        let handover: ViewerHandover?
        let source: ViewerSource
        // The index reads every record as UTF-8 bytes; a chosen conversation is read through the
        // reader's filter, and decoded UTF-16 has no byte offsets to index.
        if reader.format == .jsonl, input.readOptions.conversation == nil, !reader.decodedFromUTF16, let start = loader.plainFileStart() {
            if let tail = loader.tail(tailFirstBytes: Self.tailFirstBytes, tailBytes: Self.tailBytes) {
                source = tail
                let waiting = ViewerHandover()
                handover = waiting
                loader.indexInBackground(from: start, into: waiting, tail: tail)
            } else if loader.isLarge(Self.tailFirstBytes) {
                // A large file whose end holds no whole line (one long line): nothing to show
                // yet, and the whole is read behind the open screen, whose keys are answered.
                source = ViewerMessages()
                let waiting = ViewerHandover()
                handover = waiting
                loader.indexInBackground(from: start, into: waiting, tail: nil)
            } else {
                source = loader.index(from: start)
                handover = nil
            }
        } else if input.readOptions.conversation == nil {
            // Read behind the open screen, whose keys and signals are answered meanwhile.
            source = ViewerMessages()
            let waiting = ViewerHandover()
            handover = waiting
            loader.loadInBackground(reader, into: waiting)
        } else {
            source = loader.load(reader)
            handover = nil
            // Before the screen is taken: a --channel that chose nothing is said as on opening.
            try input.checkChosenConversation(of: reader)
        }
        let screen = ViewerScreen(source: source, engine: engine, decoration: decoration,
                                  title: input.path == "-" ? "<stdin>" : input.path,
                                  rows: size.rows, columns: size.columns, renderOptions: renderOptions)
        screen.note = handover != nil ? "loading…" : loader.note
        screen.notice = Self.statusNotice(opening.text)
        let session = ViewerSession(screen: screen, device: device)
        session.graphemeClusteringEnabled = probe.enableGraphemeClustering
        session.bidiModeSwitch = bidi == .visual
            ? TerminalBidi.explicitModeSwitch(environment: context.environment, outputIsTerminal: true) : nil
        session.handover = handover
        if follow {
            session.follow = { loader.readAppended(into: screen.source) }
            session.followHasMore = { loader.followHasMore }
        }
        let status = session.run()
        try writeOpening()
        // Quit before the whole log was read: its counts are not known yet.
        guard loader.isLoaded else { return status >= 128 ? status : ExitCode.success }
        for line in loader.diagnostics { try context.errors.write(line + "\n") }
        if let file = loader.fileSource {
            try loader.reportEnd(of: file, me: input.readOptions.me, to: context.errors)
        } else {
            try input.reportEnd(of: loader.lastReader ?? reader, done: "shown", to: context.errors)
        }
        if status >= 128 { return status }
        return loader.rejected > 0 ? ExitCode.rejectedInput : ExitCode.success
    }
}

/// Reads the log for the viewer: a JSON Lines file is indexed (its end first when it is large,
/// the whole behind it on another thread), any other input is read whole into memory; and what
/// is appended to the file later. Diagnostics are kept to be printed once the screen is given
/// back.
final class ViewLoader: @unchecked Sendable {  // the loader thread and the loop never touch it at once: see `ready`
    let path: String
    let readOptions: LogReadOptions
    let registry: CellRegistry
    private var memoryDiagnostics: [String] = []
    private var memoryRejected = 0
    private var memoryWarnings = 0
    /// The whole file's source, once indexed (its diagnostics are the run's).
    private(set) var fileSource: JSONLinesFileSource?
    private(set) var lastReader: LogReader?
    /// Set by the loader thread when it has finished: appends may start.
    private let ready = NSCondition()
    private var loaded = false

    init(path: String, readOptions: LogReadOptions, registry: CellRegistry) {
        self.path = path
        self.readOptions = readOptions
        self.registry = registry
    }

    var diagnostics: [String] { memoryDiagnostics + (fileSource?.diagnostics ?? []) }
    var rejected: Int { memoryRejected + (fileSource.map { $0.rejected + $0.rejectedEarlier } ?? 0) }
    /// Records read with a warning.
    var warnings: Int { memoryWarnings + (fileSource?.warnings ?? 0) }
    /// Whether `--me` was given and matched no sender in what was read.
    var meMatchedNoSender: Bool {
        guard readOptions.me != nil else { return false }
        if let fileSource { return fileSource.outgoing == 0 && fileSource.count > 0 }
        if let lastReader { return lastReader.outgoingMessages == 0 && lastReader.counts.messagesOut > 0 }
        return false
    }

    /// For the status line once the log is read: what will be reported on stderr at exit.
    var note: String? {
        var parts: [String] = []
        if rejected > 0 { parts.append("\(rejected) rejected") }
        if warnings > 0 { parts.append("\(warnings) warning\(warnings == 1 ? "" : "s")") }
        if meMatchedNoSender { parts.append("--me matched no sender") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ") + " (listed on exit)"
    }

    /// Why `--follow` cannot read the input at `path`, of `format`, whose first bytes are `head`,
    /// or nil when it can. What the file is (a zip, UTF-16) is said before what its format is:
    /// either is read whole, not indexed, so appended bytes would never be read.
    static func cannotFollow(_ format: LogFormat, path: String, head: [UInt8]) -> String? {
        if path == "-" { return "it needs a FILE, not standard input" }
        if !isRegularFile(path) && !isDirectory(path) {
            return "a pipe or FIFO is read once, to its end (follow the file it comes from)"
        }
        if head.starts(with: [0x50, 0x4B]) {
            return "a zip archive is read whole: its files are compressed and listed at its end, so it is rewritten, not appended to (follow the file it holds, unzipped)"
        }
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) {
            return "a UTF-16 file is read whole, decoded into memory, not indexed as UTF-8 is (save it as UTF-8 to follow it)"
        }
        switch format {
        case .jsonl: return nil
        case .whatsapp:
            return "a WhatsApp .txt is read whole: whether its dates are day or month first is decided from all of them, and a message goes on over the lines after it"
        case .telegram, .discord:
            let name = format == .telegram ? "a Telegram Desktop export (result.json)" : "a DiscordChatExporter file"
            return "\(name) is one JSON document: new messages go inside it, before its closing brackets, so it is rewritten, not appended to"
        case .slack:
            return "a Slack export is a folder (or zip) of day files, not one growing file"
        case .imessage:
            return "an imessage-exporter .txt or .html is written anew by each export: a message's replies and reactions are written inside its block"
        case .signal:
            return "a signal-export chat is read whole: each export writes it anew"
        case .line:
            return "a LINE chat history is read whole: each export writes it anew"
        case .matrix:
            return "an Element export is one JSON document, written anew by each export"
        case .googlechat:
            return "a Google Chat group is one JSON document per group, written anew by each Takeout export"
        case .hangouts:
            return "a Hangouts.json is one JSON document, written anew by each Takeout export"
        case .skype:
            return "a Skype export is one JSON document, written anew by each export"
        case .messenger:
            return "a Messenger or Instagram thread is one JSON document per file, newest message first: it is rewritten, not appended to"
        case .auto:
            return "the format is not known"
        }
    }

    /// The first 4 bytes of the file at `path` (fewer for a shorter one; none for standard
    /// input, a folder or a file that cannot be read).
    static func head(of path: String) -> [UInt8] {
        // A FIFO or a process substitution was opened and read by the reader already: opening
        // it again would wait for a writer that has gone, or take bytes meant for the reader.
        guard path != "-", isRegularFile(path), let handle = regularFileHandle(path) else { return [] }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: 4)) ?? Data())
    }

    /// Where a JSON Lines FILE's lines start (after a UTF-8 byte order mark), when it is a plain
    /// UTF-8 file the viewer can index; nil for standard input, a zip or UTF-16.
    func plainFileStart() -> UInt64? {
        guard path != "-", Self.isRegularFile(path), FileManager.default.isReadableFile(atPath: path) else { return nil }
        let head = Self.head(of: path)
        if head.starts(with: [0x50, 0x4B]) || head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) { return nil }
        return head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// Whether `path` names a regular file (following links), which can be opened again and
    /// indexed; not a pipe, a FIFO or a process substitution's `/dev/fd/N`.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// `path` opened for reading when it is a regular file, never waiting (a name replaced by a
    /// FIFO since it was looked at is not opened: `JSONLinesFileSource.openRegularFile`).
    static func regularFileHandle(_ path: String) -> FileHandle? {
        guard case let .opened(fd) = JSONLinesFileSource.openRegularFile(path) else { return nil }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Every record of `reader`, in memory (inputs that cannot be indexed).
    func load(_ reader: LogReader) -> ViewerSource {
        var models: [any MessageModel] = []
        for entry in reader {
            switch entry {
            case let .message(record, _): models.append(record)
            case let .diagnostic(diagnostic):
                if diagnostic.isWarning { memoryWarnings += 1 } else { memoryRejected += 1 }
                memoryDiagnostics.append(diagnostic.description)
            }
        }
        let source = ViewerMessages(models, registry: registry)
        for (id, error) in source.refused {
            memoryRejected += 1
            memoryDiagnostics.append("\(DiagnosticText.escaped(path)): message \(DiagnosticText.escaped(id)): \(error)")
        }
        lastReader = reader
        markLoaded()
        return source
    }

    /// `load(reader)` on another thread, handed over when done (the reader is used by that
    /// thread only; what `load` keeps is read once `isLoaded` says so).
    func loadInBackground(_ reader: LogReader, into handover: ViewerHandover) {
        let box = ReaderBox(reader: reader)
        let thread = Thread { [self] in
            let source = load(box.reader)
            handover.deliver(source, shift: 0, note: note)
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The whole file, indexed from `start`.
    func index(from start: UInt64) -> ViewerSource {
        guard let source = JSONLinesFileSource(path: path, readOptions: readOptions, registry: registry, start: start) else {
            return ViewerMessages()
        }
        source.index(upTo: source.fileSize)
        fileSource = source
        markLoaded()
        return source
    }

    private func markLoaded() {
        ready.lock()
        loaded = true
        ready.unlock()
    }

    /// The last `tailBytes` of a file of at least `tailFirstBytes`, from its first whole line, as
    /// a source; nil for a smaller file. Its diagnostics are left to the full read.
    func tail(tailFirstBytes: Int, tailBytes: Int) -> JSONLinesFileSource? {
        guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber,
              size.uint64Value >= UInt64(tailFirstBytes), let handle = Self.regularFileHandle(path) else { return nil }
        defer { try? handle.close() }
        let from = size.uint64Value - UInt64(tailBytes)
        guard (try? handle.seek(toOffset: from)) != nil, let data = try? handle.read(upToCount: tailBytes),
              let firstNewline = data.firstIndex(of: 0x0A) else { return nil }
        let start = from + UInt64(firstNewline - data.startIndex + 1)
        guard let source = JSONLinesFileSource(path: path, readOptions: readOptions, registry: registry, start: start) else { return nil }
        source.index(upTo: size.uint64Value)
        // Names are decided by the file's first messages (`PartyWindow`), not the tail's: read
        // the head until they are, so the tail names as the whole file will.
        if let headStart = plainFileStart(),
           let head = JSONLinesFileSource(path: path, readOptions: readOptions, registry: registry, start: headStart) {
            var end = min(start, headStart + (1 << 16))
            // So are each conversation's (one the head has not seen is counted from its first
            // messages, in the tail).
            while true {
                head.index(upTo: end)
                // A conversation of a few messages is never decided: past 4 MB of head, the
                // tail is shown with what is known, and the whole file's index names it right.
                let sectionsDone = source.sections!.decidedIn(head.sections!) || end - headStart >= 1 << 22
                if (head.parties.isDecided && sectionsDone) || end >= start { break }
                end = min(start, headStart + 2 * (end - headStart))
            }
            source.parties = head.parties
            source.sections!.takeParties(from: head.sections!)
        }
        return source.count > 0 ? source : nil
    }

    /// Whether the file is at least `bytes` long.
    func isLarge(_ bytes: Int) -> Bool { fileSizeNow >= UInt64(bytes) }

    private var fileSizeNow: UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(max(0, info.st_size)) : 0
    }

    /// Indexes the whole file on another thread and hands it over, with the shift that takes
    /// the tail's positions to the whole file's (found by the tail's first line's offset).
    func indexInBackground(from start: UInt64, into handover: ViewerHandover, tail: JSONLinesFileSource?) {
        let tailStart = tail?.offsets.first ?? 0
        let tailEnd = tail?.indexedEnd ?? fileSizeNow
        let thread = Thread { [self] in
            guard let whole = JSONLinesFileSource(path: path, readOptions: readOptions, registry: registry, start: start) else { return }
            whole.index(upTo: tailEnd)
            var low = 0, high = whole.offsets.count
            while low < high {
                let middle = (low + high) / 2
                if whole.offsets[middle] < tailStart { low = middle + 1 } else { high = middle }
            }
            fileSource = whole
            markLoaded()
            handover.deliver(whole, shift: low, note: note)
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Reads what was appended to the file into `source` (the indexed file), or, when the bytes
    /// already read changed (truncated, rewritten, replaced), the whole file again, as `tail -f`
    /// starts over on a truncated file. Nothing before the whole file is indexed.
    func readAppended(into source: ViewerSource) -> ViewerFollowUpdate {
        guard isLoaded, let fileSource, source === fileSource else { return .unchanged }
        var notice: String?
        if let change = fileSource.change() {
            if fileSource.readAgain(because: change) {
                followNotice = nil
                return .readAgain(note: "\(change): read again")
            }
            // Said once, while it lasts; the file opened before is followed on meanwhile.
            if let refusal = fileSource.refusal, followNotice != refusal.description {
                followNotice = refusal.description
                notice = refusal.description
            }
        } else if followNotice != nil {
            followNotice = nil
        }
        let grew = fileSource.index(budget: Self.followBudget) > 0
        if let notice { return .notice(notice, grew: grew) }
        return grew ? .grew : .unchanged
    }

    /// Bytes a follow tick reads at most: a huge append is read over several ticks, with keys
    /// answered between them.
    static let followBudget: UInt64 = 4 << 20
    /// What the status line was last told about the followed name (said once while it lasts).
    private var followNotice: String?

    /// Whether the last follow tick stopped at its budget with more to read (the loop then
    /// ticks again at once).
    var followHasMore: Bool { fileSource?.stoppedAtBudget ?? false }

    /// The counts line after an indexed file, as `InputOptions.reportEnd` writes it for a reader
    /// (only when records were rejected), and the `--me` warning.
    func reportEnd(of file: JSONLinesFileSource, me: String?, to errors: TextSink) throws {
        if let me, file.outgoing == 0, file.count > 0 {
            try errors.write("bubbles: --me '\(DiagnosticText.escaped(me))' matched no sender in \(DiagnosticText.escaped(path)) (names must match exactly)\n")
        }
        guard file.rejected > 0 else { return }
        let records = file.count + file.rejected
        var line = "bubbles: \(DiagnosticText.escaped(path)): \(records) record\(records == 1 ? "" : "s"), \(file.count) shown, \(file.rejected) rejected"
        if file.blankLines > 0 { line += ", \(file.blankLines) blank line\(file.blankLines == 1 ? "" : "s") skipped" }
        try errors.write(line + "\n")
    }

    /// Whether the whole file has been read (so its counts and diagnostics are complete).
    var isLoaded: Bool {
        ready.lock()
        defer { ready.unlock() }
        return loaded
    }
}
