import BubbleLogs

/// `bubbles.1`: the man page, in roff with the man(7) macros, made from the commands' specs, the
/// exit codes and the environment declared in `ProgramReference.swift`. `bubbles manpage` prints
/// it; `Tools/man/bubbles.1` is its committed copy, which `.ci/run` checks.
enum ManPage {
    /// The whole page.
    static func text() -> String {
        var page = Page()
        page.raw(".\\\" Made by 'bubbles manpage' from the option declarations; edit those, not this file.")
        page.raw(".TH BUBBLES 1 \"\" \"bubbles \(bubblesVersion)\" \"User Commands\"")
        // Left-aligned and unhyphenated: option names, zones and paths are not to be split.
        page.raw(".nh")
        page.raw(".ad l")
        page.raw(".SH NAME")
        page.text("bubbles - lay out chat logs as chat bubbles in the terminal, and measure them")

        page.raw(".SH SYNOPSIS")
        page.raw(".nf")
        page.raw("\\fBbubbles\\fR \\fIcommand\\fR [\\fIoptions\\fR]")
        for command in BubblesCommandLine.commands { page.raw(synopsis(command.spec)) }
        page.raw("\\fBbubbles\\fR \\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR")
        page.raw(".fi")

        page.raw(".SH DESCRIPTION")
        page.text("bubbles reads a message log, or a chat app's export, and lays it out as chat bubbles: incoming messages on the left, outgoing on the right, system notices centred, images as sized boxes, with date separators, names and times. It draws a transcript in the terminal (render), shows one full screen (view), computes row heights in batch at one or many widths, in terminal cells or in pixels from font files (heights), converts exports to its native JSON Lines (convert), and benchmarks its text engine and layout cache (bench).")
        page.raw(".PP")
        page.text("Text from the input (bodies, names, file names) never reaches the terminal raw: control characters and bidi controls are drawn in a visible form. A bad record is reported on standard error as file:line: reason, and the run goes on without it.")
        page.raw(".PP")
        page.text("Each command prints its options with bubbles COMMAND --help, or bubbles help COMMAND.")

        page.raw(".SH OPTIONS")
        page.text("These come before a command.")
        for option in BubblesCommandLine.options { page.option(option) }

        page.raw(".SH COMMANDS")
        for command in BubblesCommandLine.commands { page.command(command.spec) }

        page.raw(".SH \"EXIT STATUS\"")
        for status in ExitCode.statuses {
            page.raw(".TP")
            page.raw("\\fB\(status.code)\\fR")
            page.text(status.summary + (status.detail.isEmpty ? "" : " " + status.detail))
        }

        page.raw(".SH ENVIRONMENT")
        for variable in ProgramEnvironment.variables {
            page.raw(".TP")
            page.raw(variable.names.map { "\\fB\(escape($0))\\fR" }.joined(separator: ", "))
            page.text(variable.meaning)
        }

        page.raw(".SH FILES")
        page.text("The input (FILE, or standard input) is one of these formats, detected from its content unless --input names it:")
        for format in LogFormat.allCases where format != .auto {
            page.raw(".TP")
            page.raw("\\fB\(escape(format.rawValue))\\fR")
            page.text(formatNote(format))
        }
        page.raw(".PP")
        page.text("A zip is read without unpacking it. Text is UTF-8, or UTF-16 (with a byte order mark, or told from its first bytes). heights --font reads TrueType and OpenType fonts (.ttf, .otf, .ttc); its --style reads a JSON file of bubble geometry in pixels.")

        page.raw(".SH \"SHELL COMPLETION\"")
        page.text("bubbles completions SHELL prints a completion script for bash, zsh or fish. To load it into the running shell:")
        page.example(["source <(bubbles completions bash)    # bash", "source <(bubbles completions zsh)     # zsh", "bubbles completions fish | source     # fish"])
        page.text("To install it: bash, as bubbles in ~/.local/share/bash-completion/completions (or /usr/share/bash-completion/completions); zsh, as _bubbles in a folder on fpath, before compinit runs; fish, as bubbles.fish in ~/.config/fish/completions.")

        page.raw(".SH \"SEE ALSO\"")
        page.raw(".BR less (1),")
        page.raw(".BR tmux (1),")
        page.raw(".BR environ (7)")
        page.raw(".PP")
        page.text("The README of the BubbleLayout package says how to build and install bubbles; its DocC catalogs document the Swift libraries.")
        return page.lines.joined(separator: "\n") + "\n"
    }

    /// What each input format is, for FILES.
    static func formatNote(_ format: LogFormat) -> String {
        switch format {
        case .auto: ""
        case .jsonl: "Native JSON Lines: one JSON object per message (what convert writes)."
        case .telegram: "A Telegram Desktop export, result.json (one chat, or a full export of several)."
        case .whatsapp: "A WhatsApp chat export, the .txt the app makes (Android and iOS), or its .zip."
        case .discord: "A DiscordChatExporter JSON export of one channel."
        case .slack: "A Slack workspace export: its folder, or its .zip."
        case .messenger: "A Facebook Messenger or Instagram \"Download your information\" export in JSON: the zip, its folder, a thread's folder or one message_1.json (--input instagram reads the same)."
        case .imessage: "An iMessage chat as imessage-exporter writes it: its txt or its html format (one file per conversation, pictures from the export's attachments folder)."
        case .signal: "A Signal chat as signal-export writes it: chat.md, or data.json."
        case .line: "A LINE chat history, the .txt the app saves."
        case .matrix: "A Matrix room as Element's Export chat writes it in JSON."
        case .googlechat: "Google Chat from Google Takeout: the Takeout zip or folder, a group's folder (Google Chat/Groups/NAME), or its messages.json."
        case .hangouts: "Google Hangouts from Google Takeout: the Takeout zip (Takeout/Hangouts/Hangouts.json inside), or Hangouts.json."
        case .skype: "A Skype export: the messages.json of Export chat history (Conversations), or the export's .tar."
        }
    }

    /// `bubbles render [FILE] [options]` with the roff fonts.
    static func synopsis(_ spec: CommandSpec) -> String {
        var parts = ["\\fBbubbles \(escape(spec.name))\\fR"]
        for argument in spec.arguments {
            let name = "\\fI\(escape(argument.name))\\fR"
            parts.append(argument.isOptional ? "[\(name)]" : name)
        }
        parts.append("[\\fIoptions\\fR]")
        return parts.joined(separator: " ")
    }

    /// The roff lines of a page, with the escaping of text in one place.
    struct Page {
        var lines: [String] = []

        /// A line as it is: a request, or text already escaped.
        mutating func raw(_ line: String) { lines.append(line) }

        /// Prose, escaped; each line of `text` becomes one roff line (filled with the others).
        mutating func text(_ text: String) {
            for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
                lines.append(escapeLine(String(line)))
            }
        }

        /// Lines shown as they are, indented.
        mutating func example(_ examples: [String]) {
            raw(".PP")
            raw(".RS 4")
            raw(".nf")
            for line in examples { lines.append(escapeLine(line)) }
            raw(".fi")
            raw(".RE")
            raw(".PP")
        }

        mutating func option(_ option: OptionSpec) {
            raw(".TP")
            var tag = option.names.map { "\\fB\(escape($0))\\fR" }.joined(separator: ", ")
            if let value = option.valueName { tag += " \\fI\(escape(value))\\fR" }
            raw(tag)
            text(option.help)
            if let details = ReferenceDetails.options[option.names[0]] {
                raw(".IP")
                text(details)
            }
        }

        mutating func command(_ spec: CommandSpec) {
            raw(".SS \"\(escape(spec.synopsis))\"")
            text(spec.abstract)
            discussion(spec.discussion)
            if !spec.arguments.isEmpty {
                raw(".PP")
                text("Arguments:")
                for argument in spec.arguments {
                    raw(".TP")
                    raw("\\fI\(escape(argument.name))\\fR")
                    text(argument.help)
                }
            }
            raw(".PP")
            text("Options:")
            for option in spec.options { self.option(option) }
            for section in spec.sections {
                raw(".PP")
                text(section.title.prefix(1).uppercased() + section.title.dropFirst() + ":")
                for row in section.rows {
                    raw(".TP")
                    raw("\\fB\(escape(row.name))\\fR")
                    text(row.text)
                }
            }
            if let notes = ReferenceDetails.commands[spec.name] {
                raw(".PP")
                text(notes)
            }
        }

        /// A command's discussion: prose lines filled into paragraphs, lines indented by two
        /// spaces kept as examples.
        mutating func discussion(_ discussion: String) {
            guard !discussion.isEmpty else { return }
            raw(".PP")
            var examples: [String] = []
            for line in discussion.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("  ") {
                    examples.append(String(line.dropFirst(2)))
                    continue
                }
                if !examples.isEmpty {
                    example(examples)
                    examples = []
                }
                if line.allSatisfy(\.isWhitespace) { raw(".PP") } else { text(String(line)) }
            }
            if !examples.isEmpty { example(examples) }
            if lines.last == ".PP" { lines.removeLast() }
        }
    }

    /// `text` escaped for a roff text line that is not at a line's start: backslashes, hyphens
    /// (`\-`, so options copy as typed), quotes as typed, and anything beyond ASCII as `\[uXXXX]`.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "'": out += "\\(aq"
            case "`": out += "\\(ga"
            case "\"": out += "\\(dq"
            case "\t": out += " "
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: break
            case _ where scalar.value < 0x80: out.unicodeScalars.append(scalar)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            }
        }
        return out
    }

    /// A whole roff text line: escaped, and guarded when it would begin with a control character
    /// (`.` or `'`) or a space (which would break the filling).
    static func escapeLine(_ text: String) -> String {
        let escaped = escape(text)
        if escaped.hasPrefix(".") || escaped.hasPrefix(" ") { return "\\&" + escaped }
        return escaped
    }
}
