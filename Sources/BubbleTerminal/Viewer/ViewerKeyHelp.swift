/// One line of the viewer's key help: the keys (as a user types them, comma-separated) and what
/// they do.
package struct ViewerKeyBinding: Sendable {
    package let keys: String
    package let action: String

    package init(_ keys: String, _ action: String) {
        self.keys = keys
        self.action = action
    }
}

/// The keys `bubbles view` handles (`ViewerKeyDecoder`, `ViewerScreen.handle`), declared once: the
/// viewer's help screen (`h`, F1), `bubbles view --help` and the man page list these. Key names: a
/// printable character as itself, `Space`, `Enter`, `Esc`, `Backspace`, `Up`, `Down`, `PgUp`,
/// `PgDn`, `Home`, `End`, `F1`, `Ctrl-X`, `Mouse wheel`, and `0-9` for the digits of a count.
package enum ViewerKeyHelp {
    package static let bindings: [ViewerKeyBinding] = [
        ViewerKeyBinding("j, e, Down, Enter, Ctrl-N", "Scroll down one line."),
        ViewerKeyBinding("k, y, Up, Ctrl-P", "Scroll up one line."),
        ViewerKeyBinding("Space, f, z, PgDn, Ctrl-F", "Scroll down one page."),
        ViewerKeyBinding("b, w, PgUp, Ctrl-B", "Scroll up one page."),
        ViewerKeyBinding("d, Ctrl-D", "Scroll down half a page."),
        ViewerKeyBinding("u, Ctrl-U", "Scroll up half a page."),
        ViewerKeyBinding("Mouse wheel", "Scroll three lines."),
        ViewerKeyBinding("g, <, Home", "Go to the start of the log (after a count N: message N of the conversation shown)."),
        ViewerKeyBinding("G, >, End", "Go to the end of the log (after a count N: message N of the conversation shown)."),
        ViewerKeyBinding("]", "Go to the next conversation (a log of several)."),
        ViewerKeyBinding("[", "Go to the previous conversation."),
        ViewerKeyBinding("/", "Search forward: type the text, then Enter (empty: the last search again); Esc cancels."),
        ViewerKeyBinding("?", "Search backward."),
        ViewerKeyBinding("n", "Go to the next match, in the search's direction."),
        ViewerKeyBinding("N", "Go to the next match in the other direction."),
        ViewerKeyBinding("Esc", "Clear the search, or a count being typed."),
        ViewerKeyBinding("0-9", "A count before a key repeats it that many times (50j, 10b, 3n)."),
        ViewerKeyBinding("h, H, F1", "Show this list of keys (any key returns)."),
        ViewerKeyBinding("Ctrl-L", "Redraw the screen."),
        ViewerKeyBinding("Ctrl-Z", "Suspend the viewer (fg resumes it)."),
        ViewerKeyBinding("q, Q, Ctrl-C", "Quit."),
    ]
}
