import BubbleLayout
import BubbleLogs
import BubbleText
import Foundation

/// Options shared by the commands that read a log.
struct InputOptions {
    static let specs: [OptionSpec] = [Options.input, Options.me, Options.strict, Options.tz, Options.channel, Options.dateOrder, Options.year,
                                      Options.revealSpoilers, Options.verbose]

    /// The options, each declared once: `specs` lists them and `init` reads them.
    enum Options {
        static let input = OptionSpec("--input", value: "FORMAT", choices: LogFormat.allCases.map(\.rawValue), help: "Input format: \(LogFormat.allCases.map(\.rawValue).joined(separator: ", ")) (default auto).")
        static let me = OptionSpec("--me", value: "NAME", help: "Whose messages are outgoing (drawn on the right).")
        static let strict = OptionSpec("--strict", help: "Stop at the first rejected record.")
        static let tz = OptionSpec("--tz", value: "ZONE", help: "Time zone for times and date separators: a tz database name in any case (Europe/Berlin, utc, EST) or an offset (+05:30). Default: the system's zone, as date shows it (TZ, else /etc/localtime), else UTC.")
        static let channel = OptionSpec("--channel", value: "NAME", help: "For an input with several conversations (a Slack, Telegram, Messenger, Skype, Google Chat or Hangouts export, JSON Lines with \"conversation\"): the one to read.")
        static let dateOrder = OptionSpec("--date-order", value: "ORDER", choices: LogDateOrder.allCases.map(\.rawValue), help: "How a WhatsApp export writes its dates: dmy, mdy or ymd (default: decided from the file).")
        static let year = OptionSpec("--year", value: "YEAR", help: "The year of WhatsApp dates written without one (old Android's \"18 Mar 12:14\"): the year the export was made (default: from the file or its name).")
        static let revealSpoilers = OptionSpec("--reveal-spoilers", help: "Show the text of spoilers (Telegram's, Discord's ||…||; hidden as [spoiler] by default).")
        static let verbose = OptionSpec("--verbose", "-v", help: "Also say on stderr how the input was read and its counts (a clean run says nothing otherwise).")
        /// For the commands that draw times (render, view, heights), not in `specs`.
        static let clock = OptionSpec("--clock", value: "12|24", choices: ["12", "24"], help: "Footer times in 12-hour (4:56 PM) or 24-hour (16:56) form (default: the export's own, as WhatsApp writes it, else the locale's: LC_ALL, LC_TIME or LANG).")
    }

    var path: String
    var format: LogFormat
    var readOptions: LogReadOptions
    var timeZone: TimeZone
    /// Said on stderr when the input is opened: a `TZ` that names no zone.
    var timeZoneWarning: String?
    /// Where `timeZone` came from, when `--tz` did not give it: "from TZ", "the system's zone".
    var timeZoneDefault: String?
    /// `--verbose`: notes on how the input was read and the counts, even on a clean run.
    var verbose: Bool
    /// `--clock`, when given.
    var askedClock: ClockStyle?
    /// The locale's clock, for an input that writes none of its own.
    var localeClock: ClockStyle
    /// No file was named: standard input is read.
    var pathGiven: Bool

    init(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) {
        let environment = context.environment
        path = arguments.positional(0) ?? "-"
        pathGiven = arguments.positional(0) != nil
        verbose = arguments.flag(Options.verbose)
        if arguments.declares(Options.clock), let text = try arguments.choice(Options.clock, from: ClockStyle.allCases.map(\.rawValue)) {
            askedClock = ClockStyle(rawValue: text)
        }
        localeClock = ClockStyle.locale(environment: environment, localeDirectory: context.localeDirectory)
        if let text = arguments.string(Options.input) {
            guard let format = LogFormat(argument: text) else {
                throw UsageError("invalid value '\(text)' for --input: expected one of \(LogFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self.format = format
        } else {
            format = .auto
        }
        if let zone = arguments.string(Options.tz) {
            guard let timeZone = ZoneName.parse(zone) else {
                throw UsageError("invalid value '\(zone)' for --tz: \(ZoneName.refusal(zone))")
            }
            self.timeZone = timeZone
        } else {
            let system = ZoneName.systemZone(environment, localtimePath: context.localtimePath)
            (timeZone, timeZoneWarning) = (system.zone, system.warning)
            switch system.source {
            case .environment: timeZoneDefault = timeZoneWarning == nil ? "from TZ" : "TZ names no zone we know"
            case .system: timeZoneDefault = "the system's zone"
            case .fallback: timeZoneDefault = "TZ is not set and the system names no zone"
            }
        }
        var dateOrder: LogDateOrder?
        if let text = arguments.string(Options.dateOrder) {
            guard let order = LogDateOrder(rawValue: text) else {
                throw UsageError("invalid value '\(text)' for --date-order: expected one of \(LogDateOrder.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            dateOrder = order
        }
        readOptions = LogReadOptions(me: arguments.string(Options.me), strict: arguments.flag(Options.strict),
                                     timeZone: timeZone, conversation: arguments.string(Options.channel), dateOrder: dateOrder)
        readOptions.revealsSpoilers = arguments.flag(Options.revealSpoilers)
        if let text = arguments.string(Options.year) {
            guard let year = Int(text), (1...9999).contains(year), text.allSatisfy(\.isASCII) else {
                throw UsageError("invalid value '\(text)' for --year: expected a year from 1 to 9999")
            }
            readOptions.year = year
        }
    }

    /// The clock footer times are written in: `--clock`, else the one `reader`'s input writes
    /// (a WhatsApp export's `4:56 PM`), else the locale's.
    func clock(for reader: LogReader?) -> ClockStyle {
        askedClock ?? reader?.writtenClock ?? localeClock
    }

    /// Opens the input, or reports why it cannot be read at all. Reading standard input that is a
    /// terminal (no file named), says first how to give a file, as `jq` and `bat` do.
    func open(errors: TextSink, command: String, inputIsTerminal: Bool = false) throws -> LogReader? {
        if let timeZoneWarning { try errors.write("bubbles: \(DiagnosticText.escaped(timeZoneWarning))\n") }
        if path == "-", !pathGiven, inputIsTerminal {
            try errors.write("bubbles: reading a log from standard input (end it with Ctrl-D); to read a file: bubbles \(command) FILE\n")
            try errors.flush()
        }
        do {
            let reader = try LogSource.open(path: path, format: format, options: readOptions)
            for warning in reader.warnings { try errors.write("bubbles: warning: \(warning)\n") }
            for note in reader.notes { try errors.write("bubbles: note: \(DiagnosticText.escaped(note))\n") }
            if verbose {
                try errors.write("bubbles: \(DiagnosticText.escaped(reader.file)): read as \(reader.format)\n")
            }
            return reader
        } catch let error as LogInputError where error.kind == .conversationNotApplicable {
            // A flag that cannot apply to this input is a usage error, not something to ignore.
            throw UsageError("--channel applies only to an input with several conversations (a Slack or Telegram export, JSON Lines with \"conversation\"): \(error.file): \(error.message)")
        } catch let error as LogInputError where error.kind == .conversationNotFound {
            // Found on opening an export; the same usage error a stream gives at its end.
            throw UsageError("--channel chose nothing: \(error.file): \(error.message)")
        } catch let error as LogInputError {
            try errors.write("bubbles: \(error)\n")
            return nil
        }
    }
}

extension InputOptions {
    /// Throws the usage error for a `--channel` that chose nothing from a stream, once it has
    /// ended (known only then; on opening an export it is found at once).
    func checkChosenConversation(of reader: LogReader) throws(UsageError) {
        if let problem = reader.endProblem {
            throw UsageError("--channel chose nothing: \(problem.file): \(problem.message)")
        }
    }

    /// What closes a read on stderr. A `--me` that matched no sender is said, since every message
    /// would otherwise be drawn as incoming without a word. Then the counts, so a user can check that
    /// nothing was dropped: "bubbles: FILE: 17 records, 8 laid out, 9 rejected, 1 blank line skipped", where
    /// `done` says what became of the records that were kept ("laid out", "written"). The counts
    /// are said with `--verbose`, else only when records were rejected or none was read.
    func reportEnd(of reader: LogReader, done: String, to errors: TextSink) throws {
        if let me = readOptions.me, reader.outgoingMessages == 0, reader.counts.messagesOut > 0 {
            try errors.write(Self.unmatchedMe(me, file: reader.file, senders: reader.firstSenders, more: reader.moreSenders))
        }
        let counts = reader.counts
        try checkChosenConversation(of: reader)
        // A run with rejections says its counts; so does one that read no record at all, which
        // would otherwise end with nothing on either stream.
        guard verbose || counts.rejected > 0 || counts.recordsIn == 0 else { return }
        var line = "bubbles: \(DiagnosticText.escaped(reader.file)): \(counts.recordsIn) record\(counts.recordsIn == 1 ? "" : "s"), \(counts.messagesOut) \(done), \(counts.rejected) rejected"
        if counts.blankLinesSkipped > 0 {
            line += ", \(counts.blankLinesSkipped) blank line\(counts.blankLinesSkipped == 1 ? "" : "s") skipped"
        }
        let others = reader.skippedOtherConversations
        if others > 0 { line += ", \(others) record\(others == 1 ? "" : "s") of other conversations skipped" }
        // Without this a strict run's counts look like a short file.
        if reader.stoppedEarly { line += "; stopped at the first rejected record (--strict)" }
        try errors.write(line + "\n")
    }
}

extension InputOptions {
    /// The warning for a `--me` that matched no sender: the senders seen, each with its
    /// invisible marks and non-ASCII spaces written out (`SenderName.visible`), so what differs from
    /// what was typed can be seen; a sender that differs only in case is pointed out.
    static func unmatchedMe(_ me: String, file: String, senders: [String], more: Bool) -> String {
        var seen = senders.map { "'\(SenderName.visible(DiagnosticText.quoted($0, limit: 60)))'" }.joined(separator: ", ")
        if more { seen += ", …" }
        var line = "bubbles: --me '\(SenderName.visible(DiagnosticText.escaped(me)))' matched no sender in \(DiagnosticText.escaped(file)) (names must match exactly, apart from invisible marks, kinds of spaces and WhatsApp's '~' before names not in contacts); "
        line += seen.isEmpty ? "it has no named senders" : "senders seen: \(seen)"
        let folded = SenderName.comparable(me).lowercased()
        if let near = senders.first(where: { SenderName.comparable($0).lowercased() == folded }) {
            line += "; '\(SenderName.visible(DiagnosticText.quoted(near, limit: 60)))' differs only in case"
        }
        return line + "\n"
    }
}

/// The exit code for a finished read: 1 when any record was rejected.
func exitCode(for counts: LogCounts) -> Int32 {
    counts.rejected > 0 ? ExitCode.rejectedInput : ExitCode.success
}
