import BubbleLogs

/// The `bubbles` command line: picks the subcommand and turns errors into exit codes.
public enum BubblesCommandLine {
    /// Every subcommand, in the order `--help` lists them.
    static var commands: [any BubblesCommand.Type] { [RenderCommand.self, HeightsCommand.self, ViewCommand.self, BenchCommand.self, ConvertCommand.self, ServeCommand.self] }

    static var usage: String {
        var lines = ["usage: bubbles <command> [options]", "", "Lays out chat logs as terminal bubbles.", "", "commands:"]
        let column = (commands.map { $0.spec.name.count }.max() ?? 0) + 4
        for command in commands {
            let name = command.spec.name
            lines.append("  " + name + String(repeating: " ", count: column - name.count) + command.spec.abstract)
        }
        lines += ["", "  --help, -h    Show this help; 'bubbles <command> --help' for a command.",
                  "  --version     Print the version."]
        return lines.joined(separator: "\n")
    }

    /// Runs `arguments` (without the program name) and returns the process exit code.
    public static func run(_ arguments: [String], context: CommandContext) -> Int32 {
        do {
            let code = try dispatch(arguments, context: context)
            try context.output.flush()
            try context.errors.flush()
            return code
        } catch is OutputClosed {
            return ExitCode.success
        } catch {
            try? context.errors.write("bubbles: \(error)\n")
            try? context.errors.flush()
            return ExitCode.failure
        }
    }

    private static func dispatch(_ arguments: [String], context: CommandContext) throws -> Int32 {
        guard let first = arguments.first else {
            try context.errors.write(usage + "\n")
            return ExitCode.usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            try context.output.write(usage + "\n")
            return ExitCode.success
        }
        if first == "--version" {
            try context.output.write("bubbles \(bubblesVersion)\n")
            return ExitCode.success
        }
        guard let command = commands.first(where: { $0.spec.name == first }) else {
            try context.errors.write("bubbles: unknown command '\(DiagnosticText.escaped(first))'\n\n\(usage)\n")
            return ExitCode.usage
        }
        let spec = command.spec
        do {
            let parsed = try ParsedArguments(Array(arguments.dropFirst()), spec: spec, elsewhere: commands.map { $0.spec })
            if parsed.flag(CommandSpec.helpOption) {
                try context.output.write(spec.help + "\n")
                return ExitCode.success
            }
            let instance = try command.init(parsed, context: context)
            return try instance.run(context: context)
        } catch let error as UsageError {
            try context.errors.write("bubbles \(spec.name): \(error.message)\n\(spec.usage)\nSee 'bubbles \(spec.name) --help'.\n")
            return ExitCode.usage
        }
    }
}
