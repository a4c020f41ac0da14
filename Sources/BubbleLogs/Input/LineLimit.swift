/// The longest line a line-based reader takes (JSON Lines, WhatsApp text), and how a longer one
/// is reported: every command that reads lines, the viewer's index included, applies the same.
package enum LineLimit {
    /// Bytes in a line, its line break not counted.
    package static let bytes = 16 << 20
    /// The reason a longer line is rejected with.
    package static var reason: String { "line longer than \(bytes >> 20) MiB" }
}
