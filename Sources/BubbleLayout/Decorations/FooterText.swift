import BubbleText
import Foundation

/// The footer of a bubble: `HH:mm` (or `h:mm AM`, `ClockStyle`), then ` edited` when edited, then the status mark. The one
/// builder of footers: layout reserves `Widths.width(status:isEdited:)`, measured from these same
/// strings, and the renderer draws `FooterText`'s parts (styling them, and swapping the mark for an
/// ASCII one when asked), so the width reserved is the width drawn.
package struct FooterText: Sendable, Hashable {
    /// The wall-clock time, `HH:mm` or `h:mm AM`.
    package var time: String
    /// True when the footer says ` edited`.
    package var isEdited: Bool
    /// The delivery status whose mark ends the footer; nil for none.
    package var status: DeliveryStatus?

    /// The footer of a message with this date, status and edit flag, in `clock`'s zone.
    package init(date: Date, status: DeliveryStatus?, isEdited: Bool, clock: inout ZoneClock) {
        time = clock.clockTime(of: date)
        self.isEdited = isEdited
        self.status = status
    }

    /// The label after the time of an edited message.
    package static let editedLabel = "edited"
    /// What a time is measured as: every `HH:mm` is as wide as this.
    static let timeSample = "00:00"
    /// What 12-hour times are measured as: one-digit hours (`4:56 PM`) and two-digit ones
    /// (`12:05 AM`); `AM` and `PM` are measured alike, as every measurer of ASCII does.
    static let twelveHourSamples = ("0:00 AM", "00:00 AM")

    /// The time and the edited label: the part drawn before the status mark.
    package var timeAndLabel: String { isEdited ? time + " " + Self.editedLabel : time }

    /// The whole footer as plain text, with `mark` giving each status's glyph.
    package func plain(mark: (DeliveryStatus) -> String = FooterText.mark(for:)) -> String {
        guard let status else { return timeAndLabel }
        return timeAndLabel + " " + mark(status)
    }

    /// The status mark: `…` sending, `✓` sent, `✓✓` delivered and read (the renderer colours read
    /// marks), `✗` failed.
    package static func mark(for status: DeliveryStatus) -> String {
        switch status {
        case .sending: "…"
        case .sent: "✓"
        case .delivered, .read: "✓✓"
        case .failed: "✗"
        }
    }

    /// Cells a footer takes, from the strings above measured once with `measurer`.
    package struct Widths: Sendable, Hashable {
        var timeWidth: Int
        /// `twelveHourSamples`' widths: one-digit and two-digit hours.
        var twelveHourWidths: (Int, Int)
        var editedWidth: Int
        var markWidths: [Int]
        /// The measurer the widths came from, for the one label decoration measures per message
        /// (a forward's quote line). Left out of equality: it is what made the widths compared.
        private let measurer: any TextMeasurer

        package init<M: TextMeasurer>(measurer: M) {
            timeWidth = measurer.width(of: FooterText.timeSample)
            twelveHourWidths = (measurer.width(of: FooterText.twelveHourSamples.0), measurer.width(of: FooterText.twelveHourSamples.1))
            editedWidth = 1 + measurer.width(of: FooterText.editedLabel)
            markWidths = DeliveryStatus.allCases.map { measurer.width(of: FooterText.mark(for: $0)) }
            self.measurer = measurer
        }

        /// Equal when every width is equal; the measurer they were taken with is left out.
        package static func == (a: Widths, b: Widths) -> Bool {
            a.timeWidth == b.timeWidth && a.twelveHourWidths == b.twelveHourWidths && a.editedWidth == b.editedWidth && a.markWidths == b.markWidths
        }

        /// Hashes what `==` compares.
        package func hash(into hasher: inout Hasher) {
            hasher.combine(timeWidth)
            hasher.combine(twelveHourWidths.0)
            hasher.combine(twelveHourWidths.1)
            hasher.combine(editedWidth)
            hasher.combine(markWidths)
        }

        /// Width of the quote row's line for a message forwarded from `origin`, arrow included
        /// (`ReplyPreviews.forwardArrow`, as wide as the ASCII one drawn instead).
        package func forwardQuoteWidth(from origin: String) -> Int {
            measurer.width(of: ReplyPreviews.forwardArrow + " " + ReplyPreviews.forwardQuote(from: origin))
        }

        /// Width of a forward's line and the separator before a reply's quote, for a forward that
        /// is also a reply (the reply's quote comes after, at its own minimum width or more).
        /// A width leaves out trailing blanks, so the separator is measured with the reply's arrow after it.
        package func forwardReplyPrefixWidth(from origin: String) -> Int {
            let prefix = ReplyPreviews.forwardArrow + " " + ReplyPreviews.forwardQuote(from: origin)
                + ReplyPreviews.forwardReplySeparator
            return measurer.width(of: prefix + "↩") - measurer.width(of: "↩")
        }

        /// Width of a footer with this status and edit flag, its time written in `style` with a
        /// one- or two-digit hour (`ZoneClock.hasTwoDigitHour(at:)`; 24-hour times always have two).
        package func width(status: DeliveryStatus?, isEdited: Bool, style: ClockStyle = .twentyFourHour,
                          twoDigitHour: Bool = true) -> Int {
            var width = style == .twentyFourHour ? timeWidth : twoDigitHour ? twelveHourWidths.1 : twelveHourWidths.0
            if isEdited { width += editedWidth }
            if let status, let i = DeliveryStatus.allCases.firstIndex(of: status) { width += 1 + markWidths[i] }
            return width
        }
    }
}
