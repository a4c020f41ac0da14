import BubbleLogs

/// `bubbles help [COMMAND]`: the top-level help, or a command's, the same text as `COMMAND --help`.
struct HelpCommand: BubblesCommand {
    static let spec = CommandSpec(
        name: "help",
        abstract: "Show the help of bubbles or of one command.",
        discussion: "bubbles help COMMAND prints what bubbles COMMAND --help prints. The man page (bubbles manpage) has it all in one place.",
        arguments: [ArgumentSpec("COMMAND", optional: true, help: "The command to explain.")],
        options: [])

    /// The command asked about; nil for the top-level help.
    let command: (any BubblesCommand.Type)?

    init(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) {
        guard let name = arguments.positional(0) else {
            command = nil
            return
        }
        guard let command = BubblesCommandLine.command(named: name) else {
            throw UsageError("unknown command '\(name)'\(BubblesCommandLine.suggestion(forCommand: name))")
        }
        self.command = command
    }

    func run(context: CommandContext) throws -> Int32 {
        try context.output.write((command?.spec.help ?? BubblesCommandLine.usage) + "\n")
        return ExitCode.success
    }
}

/// `bubbles manpage`: the man page, `bubbles.1`, made from the commands' declarations.
struct ManpageCommand: BubblesCommand {
    static let spec = CommandSpec(
        name: "manpage",
        abstract: "Print the man page (roff) made from the option declarations.",
        discussion: "The page is committed as Tools/man/bubbles.1: read it with man ./Tools/man/bubbles.1, or install it as bubbles.1 in a man1 folder on MANPATH.",
        options: [])

    init(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) {}

    func run(context: CommandContext) throws -> Int32 {
        try context.output.write(ManPage.text())
        return ExitCode.success
    }
}

/// `bubbles completions SHELL`: a completion script for bash, zsh or fish.
struct CompletionsCommand: BubblesCommand {
    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print a shell completion script (bash, zsh or fish).",
        discussion: """
            Completes commands, options, the values of options that take one of a fixed set, and file
            names where a FILE is expected. Load it for this shell with
              source <(bubbles completions bash)
            or install it where the shell looks (see the man page, SHELL COMPLETION).
            """,
        arguments: [ArgumentSpec("SHELL", choices: CompletionShell.allCases.map(\.rawValue), help: "bash, zsh or fish.")],
        options: [])

    let shell: CompletionShell

    init(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) {
        let name = arguments.positional(0) ?? ""
        guard let shell = CompletionShell(rawValue: name) else {
            throw UsageError("invalid value '\(name)' for SHELL: expected one of \(CompletionShell.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.shell = shell
    }

    func run(context: CommandContext) throws -> Int32 {
        try context.output.write(CompletionScript.text(for: shell))
        return ExitCode.success
    }
}
