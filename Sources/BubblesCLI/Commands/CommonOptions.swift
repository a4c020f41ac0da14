import BubbleLayout
import BubbleLogs
import BubbleText
import Foundation

/// Options shared by the commands that read a log.
struct InputOptions {
    static let specs: [OptionSpec] = [
        OptionSpec("--input", value: "FORMAT", help: "Input format: \(LogFormat.argumentChoices) (default auto)."),
        OptionSpec("--me", value: "NAME", help: "Whose messages are outgoing (drawn on the right)."),
        OptionSpec("--strict", help: "Stop at the first rejected record."),
        OptionSpec("--tz", value: "ZONE", help: "Time zone for times and date separators (default: TZ, else UTC)."),
        OptionSpec("--channel", value: "NAME", help: "For a Slack or Telegram export with several conversations: the one to read."),
    ]

    var path: String
    var format: LogFormat
    var readOptions: LogReadOptions
    var timeZone: TimeZone

    init(_ arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        path = arguments.positional(0) ?? "-"
        if let text = arguments.string("--input") {
            guard let format = LogFormat(argument: text) else {
                throw UsageError("invalid value '\(text)' for --input: expected one of \(LogFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self.format = format
        } else {
            format = .auto
        }
        if let zone = arguments.string("--tz") {
            guard let timeZone = TimeZone(identifier: zone) else {
                throw UsageError("invalid value '\(zone)' for --tz: expected a zone name such as UTC or Europe/Berlin")
            }
            self.timeZone = timeZone
        } else {
            timeZone = ZoneClock.environmentTimeZone
        }
        readOptions = LogReadOptions(me: arguments.string("--me"), strict: arguments.flag("--strict"),
                                     timeZone: timeZone, conversation: arguments.string("--channel"))
    }

    /// Opens the input, or reports why it cannot be read at all.
    func open(errors: TextSink) throws -> LogReader? {
        do {
            return try LogSource.open(path: path, format: format, options: readOptions)
        } catch {
            try errors.write("bubbles: \(error)\n")
            return nil
        }
    }
}

/// The exit code for a finished read: 1 when any record was rejected.
func exitCode(for counts: LogCounts) -> Int32 {
    counts.rejected > 0 ? ExitCode.rejectedInput : ExitCode.success
}
