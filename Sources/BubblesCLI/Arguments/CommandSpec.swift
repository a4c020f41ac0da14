/// One option a command accepts. Help text and parsing both come from this declaration.
public struct OptionSpec: Sendable {
    /// Long name with dashes (`--width`), plus any short alias (`-w`).
    public var names: [String]
    /// Placeholder for the value (`N`, `FILE`); nil for a flag that takes no value.
    public var valueName: String?
    public var help: String
    /// Whether the option may be given more than once (`--width 40 --width 80`).
    public var repeats: Bool

    public init(_ names: String..., value valueName: String? = nil, repeats: Bool = false, help: String) {
        self.names = names
        self.valueName = valueName
        self.help = help
        self.repeats = repeats
    }

    var primaryName: String { names[0] }
    var isFlag: Bool { valueName == nil }
}

/// A positional argument.
public struct ArgumentSpec: Sendable {
    public var name: String
    public var help: String
    public var isOptional: Bool

    public init(_ name: String, optional: Bool = false, help: String) {
        self.name = name
        self.help = help
        self.isOptional = optional
    }
}

/// A command's static configuration, in the spirit of swift-argument-parser: name, one-line
/// abstract, positionals and options, from which both the parser and the help text are made.
public struct CommandSpec: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]

    public init(name: String, abstract: String, discussion: String = "", arguments: [ArgumentSpec] = [], options: [OptionSpec]) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options + [Self.helpOption]
    }

    /// `--help`, which every command takes.
    public static let helpOption = OptionSpec("--help", "-h", help: "Show this help.")

    /// `usage: bubbles render [FILE] [--width N] …`
    public var usage: String {
        var parts = ["usage: bubbles \(name)"]
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
        return lines.joined(separator: "\n")
    }

    private static func row(_ name: String, _ help: String, _ column: Int) -> String {
        let head = "  " + name
        if head.count + 1 >= column + 2 { return head + "\n" + String(repeating: " ", count: column + 2) + help }
        return head + String(repeating: " ", count: column + 2 - head.count) + help
    }
}
