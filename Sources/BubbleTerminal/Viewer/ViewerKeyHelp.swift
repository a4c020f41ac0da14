/// One line of the viewer's key list: the keys, as a person types them, and what they do.
package struct ViewerKeyBinding: Sendable {
    package let keys: String
    package let action: String

    package init(keys: String, action: String) {
        self.keys = keys
        self.action = action
    }
}

/// The viewer's keys, declared once: the help screen (`h`, F1) lists them, and so does the man
/// page. `ViewerScreen.handle(_:)` acts on exactly these.
package enum ViewerKeyHelp {
    package static let bindings: [ViewerKeyBinding] = [
        ViewerKeyBinding(keys: "j  e  Down  Enter  ctrl-N", action: "forward one line"),
        ViewerKeyBinding(keys: "k  y  Up  ctrl-P", action: "back one line"),
        ViewerKeyBinding(keys: "Space  f  z  PgDn  ctrl-F", action: "forward one page"),
        ViewerKeyBinding(keys: "b  w  PgUp  ctrl-B", action: "back one page"),
        ViewerKeyBinding(keys: "d  ctrl-D", action: "forward half a page"),
        ViewerKeyBinding(keys: "u  ctrl-U", action: "back half a page"),
        ViewerKeyBinding(keys: "mouse wheel", action: "three lines down or up"),
        ViewerKeyBinding(keys: "g  <  Home", action: "the start of the log (with a count N: message N of the conversation shown)"),
        ViewerKeyBinding(keys: "G  >  End", action: "the end of the log (with a count N: message N of the conversation shown)"),
        ViewerKeyBinding(keys: "]  [", action: "the next or the previous conversation (a log of several)"),
        ViewerKeyBinding(keys: "/text  ?text", action: "search forward or backward (Enter runs it, Esc cancels)"),
        ViewerKeyBinding(keys: "n  N", action: "the next or the previous match"),
        ViewerKeyBinding(keys: "Esc", action: "stop highlighting the matches"),
        ViewerKeyBinding(keys: "a number, then a key", action: "repeat the key that many times (50j, 10b, 3n)"),
        ViewerKeyBinding(keys: "h  H  F1", action: "this list of keys (any key returns)"),
        ViewerKeyBinding(keys: "ctrl-L", action: "draw the screen again"),
        ViewerKeyBinding(keys: "ctrl-Z", action: "suspend (fg resumes)"),
        ViewerKeyBinding(keys: "q  Q  ctrl-C", action: "quit"),
    ]
}
