/// What an exit code means, declared once: `bubbles --help` prints `summary`, the man page both.
public struct ExitStatus: Sendable {
    public let code: Int32
    /// One line.
    public let summary: String
    /// What else a user needs to know about it; may be empty.
    public let detail: String
}

extension ExitCode {
    /// Every exit code the commands return, in order.
    public static let statuses: [ExitStatus] = [
        ExitStatus(code: success, summary: "Every record was laid out (or the command's output was printed).",
                   detail: "Warnings, such as a name or a message cut by the expansion limits, are said on standard error and do not change the code. Writing into a closed pipe (bubbles render log | head) ends quietly with 0."),
        ExitStatus(code: rejectedInput, summary: "Some records were rejected; each is reported on standard error as file:line: reason.",
                   detail: "The run went on without them. A last line reconciles the counts: bad.jsonl: 17 records, 8 drawn, 9 rejected, 1 blank line skipped."),
        ExitStatus(code: usage, summary: "Usage error: an unknown command or option, a bad value, or an option that cannot apply to the input.",
                   detail: "Among them: --channel on an input that holds one conversation, or naming none of the input's conversations (a Slack or Telegram export's on opening, a JSON Lines log's at its end); --follow on an input that cannot be followed; view without a terminal. The message names the option, then the usage follows."),
        ExitStatus(code: failure, summary: "The input could not be read at all, or the output could not be written.",
                   detail: "A missing file, truncated JSON, a format bubbles does not know, a zip archive that is damaged or over a limit, a font or style file that cannot be used; or output that cannot be written (bubbles: cannot write output: No space left on device). One message says what went wrong."),
    ]
}

/// An environment variable the program reads, and what it changes.
public struct EnvironmentVariable: Sendable {
    /// The variable's name; several when they act alike (`CLICOLOR_FORCE`, `FORCE_COLOR`).
    public let names: [String]
    public let meaning: String

    init(_ names: String..., meaning: String) {
        self.names = names
        self.meaning = meaning
    }
}

/// Every environment variable any part of `bubbles` reads, for the man page. A test checks that
/// each name the sources read is listed here.
public enum ProgramEnvironment {
    public static let variables: [EnvironmentVariable] = [
        EnvironmentVariable("COLUMNS", meaning: "The width of render's transcript when --width is not given; without it, the terminal's width, else 80."),
        EnvironmentVariable("TZ", meaning: "The time zone when --tz is not given, read as POSIX reads it: a tz database name in any case, or a rule such as EST5EDT or UTC+2 whose offset counts hours west of UTC. Unset or empty is UTC; a TZ that names no zone gets a warning and UTC."),
        EnvironmentVariable("NO_COLOR", meaning: "Set and not empty: --color auto does not colour."),
        EnvironmentVariable("CLICOLOR_FORCE", "FORCE_COLOR", meaning: "Set and not empty, 0 or false: --color auto colours even output that is not a terminal, whatever NO_COLOR says."),
        EnvironmentVariable("COLORTERM", meaning: "truecolor or 24bit: colours in 24-bit; otherwise the 256-colour palette."),
        EnvironmentVariable("TERM", meaning: "dumb: --color auto does not colour, and --cell-widths auto does not query the terminal. A name beginning with screen or tmux: a multiplexer, which gets no bidi mode switch (see VTE_VERSION)."),
        EnvironmentVariable("TMUX", meaning: "Set inside tmux: render piped on (not to a terminal or a file) counts cells as wcwidth, as tmux draws them, unless --cell-widths says otherwise; no bidi mode switch is sent."),
        EnvironmentVariable("STY", meaning: "Set inside GNU screen: no bidi mode switch is sent."),
        EnvironmentVariable("VTE_VERSION", "KONSOLE_VERSION", "MLTERM", "TERM_PROGRAM",
                            meaning: "Name a terminal that reorders right-to-left text by itself (VTE, Konsole, mlterm, and TERM_PROGRAM=mintty): with --bidi visual, render and view switch it to explicit mode (CSI 8 l) while they draw, and back (CSI 8 h). Konsole and mlterm ignore the switch: use --bidi logical there."),
        EnvironmentVariable("BUBBLES_PROBE_TIMEOUT_MS", meaning: "How long --cell-widths auto waits for the terminal's replies, 1 to 5000 milliseconds (default 100), for a slow terminal such as tmux on a loaded machine."),
        EnvironmentVariable("TMPDIR", meaning: "Where an input from a pipe that must be read twice is copied, in a file removed at once (default /tmp)."),
    ]
}
