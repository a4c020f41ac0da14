import BubbleLogs

/// `bubbles convert`: any supported log or export, written as native JSON Lines.
struct ConvertCommand: BubblesCommand {
    static let spec = CommandSpec(
        name: "convert",
        abstract: "Convert a chat export (Telegram, WhatsApp, Discord, Slack) to native JSON Lines.",
        discussion: """
            Writes one native record per message to standard output. Rejected records are reported on
            stderr as file:line: reason, and the exit code is 1 when there were any.
            """,
        arguments: [ArgumentSpec("FILE", optional: true, help: "Export file, Slack folder or export .zip; - for standard input (the default).")],
        options: InputOptions.specs)

    let input: InputOptions

    init(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) {
        input = try InputOptions(arguments, environment: context.environment)
    }

    func run(context: CommandContext) throws -> Int32 {
        guard let reader = try input.open(errors: context.errors) else { return ExitCode.failure }
        for entry in reader {
            switch entry {
            case .message(let record, _):
                try context.output.write(record.nativeLine + "\n")
            case .diagnostic(let diagnostic):
                try context.errors.write("\(diagnostic)\n")
            }
        }
        try context.output.flush()
        let counts = reader.counts
        try context.errors.write("convert: read as \(reader.format)\n")
        try input.reportEnd(of: reader, done: "written", countsAlways: true, to: context.errors)
        return exitCode(for: counts)
    }
}
