import BubbleLogs

/// The `bubbles` command line: picks the subcommand and turns errors into exit codes.
public enum BubblesCommandLine {
    /// Every subcommand, in the order `--help` lists them.
    static var commands: [any BubblesCommand.Type] {
        [RenderCommand.self, HeightsCommand.self, ViewCommand.self, BenchCommand.self, ConvertCommand.self,
         ServeCommand.self, HelpCommand.self, ManpageCommand.self, CompletionsCommand.self]
    }

    /// The options `bubbles` takes before a command.
    enum Options {
        static let help = OptionSpec("--help", "-h", help: "Show this help; 'bubbles help <command>' or 'bubbles <command> --help' for a command.")
        static let version = OptionSpec("--version", help: "Print the version.")
    }
    static let options = [Options.help, Options.version]

    /// What the program does, in a line.
    static let abstract = "Lays out chat logs as terminal bubbles."

    static func command(named name: String) -> (any BubblesCommand.Type)? {
        commands.first { $0.spec.name == name }
    }

    /// What follows "unknown command 'NAME'": the command it most likely meant, by the rule that
    /// suggests options (`rendr` → `render`, `Render` → `render`), else nothing.
    static func suggestion(forCommand name: String) -> String {
        let dashed = commands.map { "--" + $0.spec.name }
        guard !name.hasPrefix("-"), let near = ParsedArguments.closestName(to: "--" + name, among: dashed) else { return "" }
        return " (did you mean '\(near.dropFirst(2))'?)"
    }

    /// The top-level help: the commands, the options and the exit codes.
    static var usage: String {
        var lines = ["usage: bubbles <command> [options]", "", abstract, "", "commands:"]
        let column = (commands.map { $0.spec.name.count }.max() ?? 0) + 4
        for command in commands {
            let name = command.spec.name
            lines.append("  " + name + String(repeating: " ", count: column - name.count) + command.spec.abstract)
        }
        lines += ["", "options:"]
        let names = options.map { $0.names.joined(separator: ", ") }
        let optionColumn = (names.map(\.count).max() ?? 0) + 4
        for (name, option) in zip(names, options) {
            lines.append("  " + name + String(repeating: " ", count: optionColumn - name.count) + option.help)
        }
        lines += ["", "exit status:"]
        for status in ExitCode.statuses { lines.append("  \(status.code)  \(status.summary)") }
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
        if Options.help.names.contains(first) {
            try context.output.write(usage + "\n")
            return ExitCode.success
        }
        if Options.version.names.contains(first) {
            try context.output.write("bubbles \(bubblesVersion)\n")
            return ExitCode.success
        }
        guard let command = command(named: first) else {
            try context.errors.write("bubbles: unknown command '\(DiagnosticText.escaped(first))'\(suggestion(forCommand: first))\n\n\(usage)\n")
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
            try context.errors.write("bubbles: \(error.message)\n\(spec.usage)\nSee 'bubbles \(spec.name) --help'.\n")
            return ExitCode.usage
        }
    }
}
