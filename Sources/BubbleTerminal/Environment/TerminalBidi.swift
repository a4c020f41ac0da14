/// What the terminal does with right-to-left text, as far as its environment tells.
///
/// Most terminals (xterm, tmux, screen, kitty, Alacritty, foot, WezTerm by default, Windows
/// Terminal) draw cells in the order they arrive, so `render --bidi visual` draws lines already
/// reordered. A few reorder each line themselves ("implicit" bidi): VTE-based terminals (GNOME
/// Terminal, Tilix, Terminator, xfce4-terminal; VTE 0.58 and later), Konsole, mintty and mlterm.
/// Reordered twice, our lines would read backwards again; the terminal-wg "BiDi in terminal
/// emulators" recommendation gives them BDSM: `CSI 8 l` switches to explicit mode (the
/// application reorders), `CSI 8 h` back to implicit mode, the default. VTE and mintty honour
/// it; Konsole and mlterm ignore it (neither handles mode 8), so there the README says to use
/// `--bidi logical`. WezTerm honours it but is not sent it: its `CSI 8 h` would turn on the
/// reordering its configuration leaves off by default.
public enum TerminalBidi {
    /// The escapes that switch a terminal to explicit mode and back.
    public struct ModeSwitch: Sendable, Hashable {
        /// BDSM reset: explicit mode.
        public let enter = "\u{1B}[8l"
        /// BDSM set: implicit mode, the recommendation's default, for the shell after us.
        public let exit = "\u{1B}[8h"
    }

    /// True when the environment names a terminal that reorders by itself: `VTE_VERSION` (VTE),
    /// `KONSOLE_VERSION` (Konsole), `TERM_PROGRAM=mintty`, `MLTERM`. Inside tmux or screen the
    /// outer terminal's variables may be inherited but our escapes would reach the multiplexer,
    /// which keeps its own cells in order: false there.
    public static func reordersItself(environment: [String: String]) -> Bool {
        if environment["TMUX"] != nil || environment["STY"] != nil { return false }
        if let term = environment["TERM"], term.hasPrefix("screen") || term.hasPrefix("tmux") { return false }
        return environment["VTE_VERSION"] != nil || environment["KONSOLE_VERSION"] != nil
            || environment["TERM_PROGRAM"] == "mintty" || environment["MLTERM"] != nil
    }

    /// The switch to write around visual lines: only to a terminal (piped output gets none) that
    /// reorders by itself.
    public static func explicitModeSwitch(environment: [String: String], outputIsTerminal: Bool) -> ModeSwitch? {
        outputIsTerminal && reordersItself(environment: environment) ? ModeSwitch() : nil
    }
}
