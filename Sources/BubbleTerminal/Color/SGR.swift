/// The only escape sequences BubbleLayout ever writes: SGR colours and attributes.
public struct SGR: Sendable {
    public var depth: ColorDepth

    public init(depth: ColorDepth) {
        self.depth = depth
    }

    public var isEnabled: Bool { depth != .none }

    /// `text` in the foreground `color`, reset after.
    public func foreground(_ text: String, _ color: TerminalColor) -> String {
        switch depth {
        case .none: return text
        case .palette256: return "\u{1B}[38;5;\(color.paletteIndex)m" + text + Self.reset
        case .trueColor: return "\u{1B}[38;2;\(color.red);\(color.green);\(color.blue)m" + text + Self.reset
        }
    }

    /// `text` dimmed, for times, status and separators.
    public func dim(_ text: String) -> String { wrap(text, "2") }

    public func bold(_ text: String) -> String { wrap(text, "1") }

    /// `text` dimmed and in italics: a note in a person's bubble ("This message was deleted").
    public func notice(_ text: String) -> String { wrap(text, "2;3") }

    /// `text` in reverse video, which marks neutralised controls.
    public func reverse(_ text: String) -> String { wrap(text, "7") }

    private func wrap(_ text: String, _ code: String) -> String {
        depth == .none || text.isEmpty ? text : "\u{1B}[\(code)m" + text + Self.reset
    }

    static let reset = "\u{1B}[0m"
}
