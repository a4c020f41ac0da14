import BubbleTerminal
import BubbleText
/// What a command runs with: its streams and environment, injectable for tests.
public struct CommandContext {
    public var output: TextSink
    public var errors: TextSink
    public var environment: [String: String]
    /// Whether standard output and standard error are terminals.
    public var outputIsTerminal: Bool
    public var errorsAreTerminal: Bool
    /// Whether standard output is a regular file (`render > chat.txt`), not a pipe or a terminal.
    public var outputIsFile: Bool
    /// Asks the terminal how it counts cells (`--cell-widths auto`); nil never asks.
    public var probeWidths: ((TextOptions) -> WidthProbe.Result)?

    public init(output: TextSink, errors: TextSink, environment: [String: String], outputIsTerminal: Bool = false, errorsAreTerminal: Bool = false,
                outputIsFile: Bool = false, probeWidths: ((TextOptions) -> WidthProbe.Result)? = nil) {
        self.probeWidths = probeWidths
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
