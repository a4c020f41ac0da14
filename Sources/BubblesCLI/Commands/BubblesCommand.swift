import BubbleTerminal
import BubbleText
/// What a command runs with: its streams and environment, injectable for tests.
public struct CommandContext {
    package var output: TextSink
    package var errors: TextSink
    public var environment: [String: String]
    /// Whether standard output and standard error are terminals.
    public var outputIsTerminal: Bool
    public var errorsAreTerminal: Bool
    /// Whether standard output is a regular file (`render > chat.txt`), not a pipe or a terminal.
    public var outputIsFile: Bool
    /// Asks the terminal how it counts cells (`--cell-widths auto`); nil never asks.
    public var probeWidths: ((TextOptions) -> WidthProbe.Result)?
    /// Whether standard input is a terminal (`render` with no file then says how to give one).
    public var inputIsTerminal: Bool
    /// Columns of the terminal the output is shown in: standard output's, else the controlling
    /// terminal's (`render | less -R`); nil for none (80 columns are drawn).
    public var terminalColumns: (() -> Int?)?
    /// The file that sets the system's time zone (`ZoneName.localtimePath`); nil for none, so UTC
    /// unless `TZ` says otherwise.
    public var localtimePath: String?
    /// glibc's locale sources, which say a locale's clock (`ClockStyle.locale`); nil to use
    /// Foundation's locale data alone.
    public var localeDirectory: String?
    /// How output that is not a terminal (`render > file`, `heights | …`) is counted by default,
    /// for the terminals it is most likely shown in later; nil counts as the engine's `unicode`.
    /// The `bubbles` executable sets `CellWidthsOption.laterDisplayDefault`.
    public var laterDisplayProfile: WidthProfile?

    package init(output: TextSink, errors: TextSink, environment: [String: String], outputIsTerminal: Bool = false, errorsAreTerminal: Bool = false,
                outputIsFile: Bool = false, probeWidths: ((TextOptions) -> WidthProbe.Result)? = nil,
                inputIsTerminal: Bool = false, terminalColumns: (() -> Int?)? = nil, localtimePath: String? = nil,
                localeDirectory: String? = nil, laterDisplayProfile: WidthProfile? = nil) {
        self.laterDisplayProfile = laterDisplayProfile
        self.probeWidths = probeWidths
        self.inputIsTerminal = inputIsTerminal
        self.terminalColumns = terminalColumns
        self.localtimePath = localtimePath
        self.localeDirectory = localeDirectory
        self.output = output
        self.errors = errors
        self.environment = environment
        self.outputIsTerminal = outputIsTerminal
        self.errorsAreTerminal = errorsAreTerminal
        self.outputIsFile = outputIsFile
    }
}

/// A `bubbles` subcommand: a static spec that drives parsing and help, and a `run()`.
public protocol BubblesCommand {
    static var spec: CommandSpec { get }
    /// Reads the parsed arguments; throws a `UsageError` for a bad value.
    init(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError)
    /// Does the work and returns the exit code.
    func run(context: CommandContext) throws -> Int32
}

/// Exit codes shared by every command.
public enum ExitCode {
    public static let success: Int32 = 0
    /// Some input records were rejected (each one reported on stderr).
    public static let rejectedInput: Int32 = 1
    public static let usage: Int32 = 2
    /// The input could not be read at all.
    public static let failure: Int32 = 3
}
