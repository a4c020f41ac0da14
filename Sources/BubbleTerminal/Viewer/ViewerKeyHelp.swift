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
/// viewer's help, `bubbles view --help` and the man page list these. Key names: a printable
/// character as itself, `Space`, `Enter`, `Esc`, `Backspace`, `Up`, `Down`, `PgUp`, `PgDn`,
/// `Home`, `End`, `Ctrl-X`, `Mouse wheel`.
package enum ViewerKeyHelp {
    package static let bindings: [ViewerKeyBinding] = [
        ViewerKeyBinding("j, e, Down, Enter, Ctrl-N", "Scroll down one line."),
        ViewerKeyBinding("k, y, Up, Ctrl-P", "Scroll up one line."),
        ViewerKeyBinding("Space, f, z, PgDn, Ctrl-F", "Scroll down one page."),
        ViewerKeyBinding("b, w, PgUp, Ctrl-B", "Scroll up one page."),
        ViewerKeyBinding("d, Ctrl-D", "Scroll down half a page."),
        ViewerKeyBinding("u, Ctrl-U", "Scroll up half a page."),
        ViewerKeyBinding("Mouse wheel", "Scroll three lines."),
        ViewerKeyBinding("g, <, Home", "Go to the first message of the conversation shown."),
        ViewerKeyBinding("G, >, End", "Go to the last message of the conversation shown."),
        ViewerKeyBinding("]", "Go to the next conversation (a log of several)."),
        ViewerKeyBinding("[", "Go to the previous conversation."),
        ViewerKeyBinding("/", "Search forward: type the text, Enter to search (an empty text repeats the last search), Esc to cancel."),
        ViewerKeyBinding("?", "Search backward."),
        ViewerKeyBinding("n", "Go to the next match, in the search's direction."),
        ViewerKeyBinding("N", "Go to the next match in the other direction."),
        ViewerKeyBinding("Esc", "Clear the search."),
        ViewerKeyBinding("Ctrl-L", "Redraw the screen."),
        ViewerKeyBinding("Ctrl-Z", "Suspend the viewer (fg resumes it)."),
        ViewerKeyBinding("q, Q, Ctrl-C", "Quit."),
    ]
}
