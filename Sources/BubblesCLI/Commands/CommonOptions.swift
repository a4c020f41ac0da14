import BubbleLayout
import BubbleLogs
import BubbleText
import Foundation

/// Options shared by the commands that read a log.
struct InputOptions {
    static let specs: [OptionSpec] = [Options.input, Options.me, Options.strict, Options.tz, Options.channel, Options.dateOrder, Options.revealSpoilers]

    /// The options, each declared once: `specs` lists them and `init` reads them.
    enum Options {
        static let input = OptionSpec("--input", value: "FORMAT", help: "Input format: \(LogFormat.argumentChoices) (default auto).")
        static let me = OptionSpec("--me", value: "NAME", help: "Whose messages are outgoing (drawn on the right).")
        static let strict = OptionSpec("--strict", help: "Stop at the first rejected record.")
        static let tz = OptionSpec("--tz", value: "ZONE", help: "Time zone for times and date separators: a tz database name in any case (Europe/Berlin, utc, EST) or an offset (+05:30). Default: TZ, else UTC.")
        static let channel = OptionSpec("--channel", value: "NAME", help: "For an input with several conversations (a Slack or Telegram export, JSON Lines with \"conversation\"): the one to read.")
        static let dateOrder = OptionSpec("--date-order", value: "ORDER", help: "How a WhatsApp export writes its dates: dmy, mdy or ymd (default: decided from the file).")
        static let revealSpoilers = OptionSpec("--reveal-spoilers", help: "Show the text of spoilers (Telegram's, Discord's ||…||; hidden as [spoiler] by default).")
    }

    var path: String
    var format: LogFormat
    var readOptions: LogReadOptions
    var timeZone: TimeZone
    /// Said on stderr when the input is opened: a `TZ` that names no zone.
    var timeZoneWarning: String?
    /// Where `timeZone` came from, when `--tz` did not give it: "from TZ", "TZ is not set".
    var timeZoneDefault: String?

    init(_ arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        path = arguments.positional(0) ?? "-"
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
            (timeZone, timeZoneWarning) = ZoneName.environmentZone(environment)
            timeZoneDefault = (environment["TZ"] ?? "").isEmpty ? "TZ is not set" : timeZoneWarning == nil ? "from TZ" : "TZ names no zone we know"
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
    }

    /// Opens the input, or reports why it cannot be read at all.
    func open(errors: TextSink) throws -> LogReader? {
        if let timeZoneWarning { try errors.write("bubbles: \(DiagnosticText.escaped(timeZoneWarning))\n") }
        do {
            let reader = try LogSource.open(path: path, format: format, options: readOptions)
            for warning in reader.warnings { try errors.write("bubbles: warning: \(warning)\n") }
            for note in reader.notes { try errors.write("bubbles: note: \(DiagnosticText.escaped(note))\n") }
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
    /// nothing was dropped: "FILE: 17 records, 8 laid out, 9 rejected, 1 blank line skipped", where
    /// `done` says what became of the records that were kept ("laid out", "written"). With
    /// `countsAlways` false the counts are said only when records were rejected.
    func reportEnd(of reader: LogReader, done: String, countsAlways: Bool, to errors: TextSink) throws {
        if let me = readOptions.me, reader.outgoingMessages == 0, reader.counts.messagesOut > 0 {
            var seen = reader.firstSenders.map { "'\(DiagnosticText.quoted($0, limit: 40))'" }.joined(separator: ", ")
            if reader.moreSenders { seen += ", …" }
            let senders = seen.isEmpty ? "it has no named senders" : "senders seen: \(seen)"
            try errors.write("bubbles: --me '\(DiagnosticText.escaped(me))' matched no sender in \(DiagnosticText.escaped(reader.file)) (names must match exactly, apart from invisible marks and WhatsApp's '~' before names not in contacts); \(senders)\n")
        }
        let counts = reader.counts
        try checkChosenConversation(of: reader)
        // A run with rejections says its counts; so does one that read no record at all, which
        // would otherwise end with nothing on either stream.
        guard countsAlways || counts.rejected > 0 || counts.recordsIn == 0 else { return }
        var line = "\(DiagnosticText.escaped(reader.file)): \(counts.recordsIn) record\(counts.recordsIn == 1 ? "" : "s"), \(counts.messagesOut) \(done), \(counts.rejected) rejected"
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

/// The exit code for a finished read: 1 when any record was rejected.
func exitCode(for counts: LogCounts) -> Int32 {
    counts.rejected > 0 ? ExitCode.rejectedInput : ExitCode.success
}
