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
        input = try InputOptions(arguments, context: context)
    }

    func run(context: CommandContext) throws -> Int32 {
        guard let reader = try input.open(errors: context.errors, command: Self.spec.name, inputIsTerminal: context.inputIsTerminal) else { return ExitCode.failure }
        try Self.write(reader, to: context.output, errors: context.errors)
        if input.verbose, reader.readZonelessTimes, let source = input.timeZoneDefault {
            // The instants written depend on a zone the user did not choose: say which.
            try context.errors.write("bubbles: note: \(DiagnosticText.escaped(reader.file)): its times carry no zone and were read in \(input.timeZone.identifier == "GMT" ? "UTC" : input.timeZone.identifier) (\(source)); give --tz with the zone of the device that made the export if it was another\n")
        }
        let counts = reader.counts
        try input.reportEnd(of: reader, done: "written", to: context.errors)
        return exitCode(for: counts)
    }

    /// Writes every message of `reader` to `output` as native JSON Lines and each diagnostic to
    /// `errors`, in input order. One thread, output in one byte buffer: a native log's plain
    /// records are written straight from the input's bytes. Output is written out whenever the next
    /// record has not all been read yet, so from a slow pipe each record comes out as it comes in.
    static func write(_ reader: LogReader, to output: TextSink, errors: TextSink) throws {
        var buffer = OutputBuffer(capacity: 1 << 17)
        var diagnostics = DiagnosticList()
        func writeOut(_ buffer: inout OutputBuffer) throws {
            try buffer.withBytes { try output.write(contentsOf: $0) }
            buffer.removeAll()
        }
        while true {
            if reader.mayWaitForInput {
                try writeOut(&buffer)
                try errors.flush()
                try output.flush()
            }
            guard let step = reader.nextNative(into: &buffer) else { break }
            switch step {
            case .written:
                diagnostics.noteRecord()
                if buffer.count >= 1 << 16 { try writeOut(&buffer) }
            case .diagnostic(let diagnostic):
                try writeOut(&buffer)
                try diagnostics.report(diagnostic, to: errors)
            }
        }
        try writeOut(&buffer)
        try diagnostics.finish(errors: errors)
        try output.flush()
    }
}
