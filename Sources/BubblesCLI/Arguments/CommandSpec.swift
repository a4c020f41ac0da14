/// One option a command accepts. Parsing, `--help`, the man page and the shell completions all
/// come from this declaration.
public struct OptionSpec: Sendable {
    /// Long name with dashes (`--width`), plus any short alias (`-w`).
    public var names: [String]
    /// Placeholder for the value (`N`, `FILE`); nil for a flag that takes no value. `FILE`, `DIR`
    /// and `COMMAND` complete file, folder and command names in the shells.
    public var valueName: String?
    /// The one line `--help` prints for the option (the man page prints it too).
    public var help: String
    /// Whether the option may be given more than once (`--width 40 --width 80`).
    public var repeats: Bool
    /// The values the option accepts when they are a fixed set (`--color auto|always|never`):
    /// `ParsedArguments.choice` accepts only these, and the shells complete them.
    public var choices: [String]

    public init(_ names: String..., value valueName: String? = nil, choices: [String] = [], repeats: Bool = false, help: String) {
        self.names = names
        self.valueName = valueName
        self.help = help
        self.repeats = repeats
        self.choices = choices
    }

    var primaryName: String { names[0] }
    var isFlag: Bool { valueName == nil }
    /// What a shell offers for the option's value.
    var valueCompletion: ValueCompletion { ValueCompletion(valueName: valueName, choices: choices) }
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
    public var name: String
    public var help: String
    public var isOptional: Bool
    /// The values it accepts when they are a fixed set (`bubbles completions SHELL`).
    public var choices: [String]

    public init(_ name: String, optional: Bool = false, choices: [String] = [], help: String) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.choices = choices
    }

    /// What a shell offers for the argument.
    var valueCompletion: ValueCompletion { ValueCompletion(valueName: name, choices: choices) }
}

/// What a shell completes for a value: a fixed set of words, file names, folder names, the names
/// of the commands (`COMMAND`), or nothing (a number, a name, a zone).
enum ValueCompletion: Equatable {
    case none
    case words([String])
    case files
    case directories
    case commands

    init(valueName: String?, choices: [String]) {
        if !choices.isEmpty {
            self = .words(choices)
        } else if valueName == "FILE" {
            self = .files
        } else if valueName == "DIR" {
            self = .directories
        } else if valueName == "COMMAND" {
            self = .commands
        } else {
            self = .none
        }
    }
}

/// A command's static configuration, in the spirit of swift-argument-parser: name, one-line
/// abstract, positionals and options, from which both the parser and the help text are made.
public struct CommandSpec: Sendable {
    public var name: String
    public var abstract: String
    /// Paragraphs of prose; a line indented by two spaces is an example, kept as it is.
    public var discussion: String
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    /// Tables printed after the options (`view`'s keys), in the help and the man page.
    public var sections: [HelpSection]

    public init(name: String, abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [], options: [OptionSpec],
                sections: [HelpSection] = []) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options + [Self.helpOption]
        self.sections = sections
    }

    /// `--help`, which every command takes.
    public static let helpOption = OptionSpec("--help", "-h", help: "Show this help.")

    /// `usage: bubbles render [FILE] [options]`
    public var usage: String { "usage: " + synopsis }

    /// `bubbles render [FILE] [options]`: the usage line without its label.
    var synopsis: String {
        var parts = ["bubbles \(name)"]
        for argument in arguments {
            parts.append(argument.isOptional ? "[\(argument.name)]" : argument.name)
        }
        parts.append("[options]")
        return parts.joined(separator: " ")
    }

    /// The full help: usage, abstract, arguments and options, aligned.
    public var help: String {
        var lines = [usage, "", abstract]
        if !discussion.isEmpty { lines += ["", discussion] }
        let rows: [(String, String)] =
            arguments.map { ($0.name, $0.help) }
            + options.map { option in
                let names = option.names.joined(separator: ", ")
                return (option.valueName.map { "\(names) \($0)" } ?? names, option.help)
            }
        let column = min(30, (rows.map { $0.0.count }.max() ?? 0) + 2)
        if !arguments.isEmpty {
            lines += ["", "arguments:"]
            for (name, help) in rows.prefix(arguments.count) { lines.append(Self.row(name, help, column)) }
        }
        lines += ["", "options:"]
        for (name, help) in rows.dropFirst(arguments.count) { lines.append(Self.row(name, help, column)) }
        for section in sections {
            let column = min(30, (section.rows.map { $0.name.count }.max() ?? 0) + 2)
            lines += ["", section.title + ":"]
            for row in section.rows { lines.append(Self.row(row.name, row.text, column)) }
        }
        return lines.joined(separator: "\n")
    }

    private static func row(_ name: String, _ help: String, _ column: Int) -> String {
        let head = "  " + name
        if head.count + 1 >= column + 2 { return head + "\n" + String(repeating: " ", count: column + 2) + help }
        return head + String(repeating: " ", count: column + 2 - head.count) + help
    }
}

/// A table of a command's help after its options, such as the viewer's keys.
public struct HelpSection: Sendable {
    public var title: String
    public var rows: [(name: String, text: String)]

    public init(title: String, rows: [(name: String, text: String)]) {
        self.title = title
        self.rows = rows
    }
}
