import BubbleTerminal
import BubbleText

/// `--cell-widths auto|unicode|wcwidth|ghostty`: how cells are counted (see `WidthProfile`). `auto`, the
/// default, asks the terminal when the output is one (`TerminalProbe`), and is `unicode` when it
/// does not answer. Output that is not a terminal (a file, a pipe) cannot be asked: it is counted
/// as `laterDisplayDefault`, for the terminals it is most likely shown in.
public enum CellWidthsOption {
    static let spec = OptionSpec("--cell-widths", value: "PROFILE", choices: ["auto"] + WidthProfile.allCases.map(\.rawValue),
                                 help: "How the terminal counts cells: auto (the default: ask the terminal; output that is not one, a file or a pipe, is counted per code point, as wcwidth), unicode (grapheme clusters), wcwidth (per code point, as glibc, tmux, xterm, VTE, Konsole and Alacritty) or ghostty (grapheme clusters, 2 cells once a later code point takes room, as Ghostty 1.3+).")

    /// How output that is not a terminal is counted: per code point, as the terminals that count
    /// so (xterm, VTE, Konsole, Alacritty, tmux, and `less` itself) draw it, so a saved transcript
    /// fits the width asked for in them; Ghostty 1.3 draws Indic clusters no wider than that.
    public static let laterDisplayDefault = WidthProfile.wcwidth
    /// `--ambiguous-wide`, which every command that measures cells takes.
    static let ambiguousWide = OptionSpec("--ambiguous-wide", help: "Measure East Asian Ambiguous characters as 2 cells.")

    /// The profile asked for, or nil for `auto`.
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> WidthProfile? {
        guard let text = try arguments.choice(spec), text != "auto" else { return nil }
        return WidthProfile(rawValue: text)
    }

    /// `base` with the profile asked for, or, for `auto` on a terminal, the one the probe found.
    /// `drawnLater` says the output is a transcript that will be drawn, when it is not a terminal
    /// now, by whatever pager or `cat` it reaches (`render | less -R`).
    static func resolve(_ asked: WidthProfile?, base: TextOptions, context: CommandContext, drawnLater: Bool = false) -> WidthProbe.Result {
        var options = base
        if let asked {
            options.widthProfile = asked
            return WidthProbe.Result(options: options, enableGraphemeClustering: false, answered: false)
        }
        // A transcript piped on inside tmux is drawn by tmux, whatever the pager: tmux counts per
        // code point (its maintainer has declined mode 2027 and grapheme clusters), as the probe
        // finds when it can ask. Nothing can be asked through a pipe, so tmux's own variable says it.
        if drawnLater, !context.outputIsTerminal, !context.outputIsFile, let tmux = context.environment["TMUX"], !tmux.isEmpty {
            options.widthProfile = .wcwidth
            return WidthProbe.Result(options: options, enableGraphemeClustering: false, answered: false)
        }
        // Anything else that is not a terminal is shown later, wherever: counted for the terminals
        // it is most likely shown in.
        if !context.outputIsTerminal, let later = context.laterDisplayProfile {
            options.widthProfile = later
            return WidthProbe.Result(options: options, enableGraphemeClustering: false, answered: false)
        }
        // A dumb terminal understands no queries: nothing to ask.
        guard context.outputIsTerminal, context.environment["TERM"] != "dumb", let probe = context.probeWidths else {
            return WidthProbe.Result(options: options, enableGraphemeClustering: false, answered: false)
        }
        var result = probe(base)
        // An explicit --ambiguous-wide wins over what the probe saw.
        if base.ambiguousWidth == 2 { result.options.ambiguousWidth = 2 }
        return result
    }
}
