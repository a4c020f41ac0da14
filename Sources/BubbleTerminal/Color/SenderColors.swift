/// The colours handed out to the senders of one transcript.
///
/// A sender gets its palette colour (`SenderPalette.color(for:)`, the same in every transcript) when
/// no earlier sender holds it; otherwise the first colour nobody holds yet. So the first
/// `palette.colors.count` senders never share a colour, which hashing alone cannot promise (in the
/// bundled sample, Noa and Ploy hash to the same one). A sender's colour never changes once given.
package struct SenderColors {
    let palette: SenderPalette
    /// Only senders that got a colour other than their hashed one need remembering, plus which
    /// colours are taken; once every colour is taken, later senders take their hashed colour.
    private var given: [String: TerminalColor] = [:]
    private var taken: Set<TerminalColor> = []

    package init(palette: SenderPalette) {
        self.palette = palette
    }

    package mutating func color(for sender: String) -> TerminalColor {
        if let color = given[sender] { return color }
        let hashed = palette.color(for: sender)
        guard taken.count < palette.colors.count else { return hashed }
        let color = taken.contains(hashed) ? palette.colors.first { !taken.contains($0) }! : hashed
        given[sender] = color
        taken.insert(color)
        return color
    }
}
