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
        // Read and decoded on the feed's thread while this one writes; output is flushed whenever
        // no input is waiting, so from a slow pipe each record comes out as it comes in.
        let feed = EntryFeed(reader: reader, capacity: 16_384)
        var buffer: [UInt8] = []
        var ended = false
        do {
            while !ended {
                let taken = try feed.take(max: 8_192, beforeWaiting: {
                    try context.errors.flush()
                    try context.output.flush()
                })
                ended = taken.ended
                buffer.removeAll(keepingCapacity: true)
                for entry in taken.entries {
                    switch entry {
                    case .message(let record, _):
                        buffer.append(contentsOf: record.nativeLine.utf8)
                        buffer.append(0x0A)
                    case .diagnostic(let diagnostic):
                        try context.output.write(bytes: buffer)
                        buffer.removeAll(keepingCapacity: true)
                        try context.errors.write("\(diagnostic)\n")
                    }
                }
                try context.output.write(bytes: buffer)
            }
        } catch {
            feed.stop()
            throw error
        }
        try context.output.flush()
        let counts = reader.counts
        try context.errors.write("convert: read as \(reader.format)\n")
        try input.reportEnd(of: reader, done: "written", countsAlways: true, to: context.errors)
        return exitCode(for: counts)
    }
}
