import BubbleLayout
import BubbleText
import Foundation

// The help screen.
extension ViewerScreen {
    /// The help screen's lines at the width: a title, then each of `ViewerKeyHelp.bindings`, its
    /// keys in a column and its action beside them, wrapped at spaces when narrow.
    func helpLines() -> [String] {
        var lines = [safe.draw("Keys of bubbles view (q or any other key returns to the log)", limit: columns).text, ""]
        let bindings = ViewerKeyHelp.bindings
        let keyWidth = min(bindings.map { safe.width(of: $0.keys) }.max() ?? 0, max(4, columns / 2))
        let actionRoom = max(8, columns - keyWidth - 4)
        for binding in bindings {
            let keys = safe.draw(binding.keys, limit: keyWidth)
            var first = "  " + keys.text + String(repeating: " ", count: max(0, keyWidth - keys.width)) + "  "
            var words = binding.action.split(separator: " ")[...]
            var line = ""
            var wrapped: [String] = []
            while let word = words.popFirst() {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if !line.isEmpty && safe.width(of: candidate) > actionRoom {
                    wrapped.append(line)
                    line = String(word)
                } else {
                    line = candidate
                }
            }
            wrapped.append(line)
            let indent = String(repeating: " ", count: keyWidth + 4)
            for (index, part) in wrapped.enumerated() {
                let text = (index == 0 ? first : indent) + part
                lines.append(safe.draw(text, limit: columns).text)
                first = ""
            }
        }
        return lines
    }

    /// Lines of help on a screen (all rows but the status line).
    var helpPage: Int { max(1, rows - 1) }

    /// On the help screen: the scrolling keys move it when it is taller than the screen; any
    /// other key (q, h, Esc included) returns to the log, as `less`'s help does.
    func handleHelp(_ key: ViewerKey, offset: Int) -> ViewerAction {
        let last = max(0, helpLines().count - helpPage)
        var target: Int?
        switch key {
        case .character("j"), .character("e"), .down, .enter, .wheelDown: target = offset + (key == .wheelDown ? 3 : 1)
        case .character("k"), .character("y"), .up, .wheelUp: target = offset - (key == .wheelUp ? 3 : 1)
        case .character(" "), .character("f"), .pageDown: target = offset + helpPage
        case .character("b"), .pageUp: target = offset - helpPage
        case .suspend: return .suspend
        case .interrupt: return .quit
        case .redraw: return .redraw
        default: break
        }
        guard last > 0, let target else {
            keyMode = .normal
            return .redraw
        }
        keyMode = .help(offset: max(0, min(last, target)))
        return .redraw
    }
}
