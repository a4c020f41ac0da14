import BubbleText
import Foundation

/// The footer of a bubble: `HH:mm`, then ` edited` when edited, then the status mark. Layout and
/// renderer both build it here, so the width layout reserves is the width drawn.
public enum FooterText {
    /// The status mark: `…` sending, `✓` sent, `✓✓` delivered and read (the renderer colours read
    /// marks), `✗` failed.
    public static func mark(for status: DeliveryStatus) -> String {
        switch status {
        case .sending: "…"
        case .sent: "✓"
        case .delivered, .read: "✓✓"
        case .failed: "✗"
        }
    }

    /// The footer of a message with this date, status and edit flag.
    public static func text(date: Date, status: DeliveryStatus?, isEdited: Bool, clock: inout ZoneClock) -> String {
        var text = clock.clockTime(of: date)
        if isEdited { text += " edited" }
        if let status { text += " " + mark(for: status) }
        return text
    }

    /// Cells the footer takes, measured once per status with `measurer`; times are 5 cells.
    public struct Widths: Sendable, Hashable {
        var markWidths: [Int]

        public init<M: TextMeasurer>(measurer: M) {
            markWidths = DeliveryStatus.allCases.map { measurer.width(of: FooterText.mark(for: $0)) }
        }

        /// Width of a footer with this status and edit flag.
        public func width(status: DeliveryStatus?, isEdited: Bool) -> Int {
            var width = 5
            if isEdited { width += 7 }
            if let status, let i = DeliveryStatus.allCases.firstIndex(of: status) { width += 1 + markWidths[i] }
            return width
        }
    }
}
