/// The user's `--color` choice.
public enum ColorChoice: String, Sendable, CaseIterable {
    case auto, always, never
}

/// How many colours the output may use.
public enum ColorDepth: Sendable, Hashable {
    /// No escape sequences at all.
    case none
    /// The xterm 256-colour palette (SGR 38;5;N).
    case palette256
    /// 24-bit colour (SGR 38;2;R;G;B), only when COLORTERM says the terminal has it.
    case trueColor

    /// Decides the depth from the choice, the environment and whether output is a terminal.
    ///
    /// `auto` colours only a TTY, and never with NO_COLOR or TERM=dumb; CLICOLOR_FORCE or
    /// FORCE_COLOR (set and not "0") force it on. `always` and `never` are final.
    public static func resolve(_ choice: ColorChoice, environment: [String: String], outputIsTerminal: Bool) -> ColorDepth {
        let enabled: Bool
        switch choice {
        case .never: enabled = false
        case .always: enabled = true
        case .auto:
            if isSet(environment["CLICOLOR_FORCE"]) || isSet(environment["FORCE_COLOR"]) {
                enabled = true
            } else if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
                enabled = false
            } else if environment["TERM"] == "dumb" {
                enabled = false
            } else {
                enabled = outputIsTerminal
            }
        }
        guard enabled else { return .none }
        let colorTerm = environment["COLORTERM"]?.lowercased()
        return colorTerm == "truecolor" || colorTerm == "24bit" ? .trueColor : .palette256
    }

    private static func isSet(_ value: String?) -> Bool {
        guard let value, !value.isEmpty else { return false }
        return value != "0" && value.lowercased() != "false"
    }
}
