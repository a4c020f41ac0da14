/// Running totals of a read. They reconcile: `messagesOut + rejected == recordsIn`.
///
/// A record is one non-blank line of JSON Lines, one dated message of a WhatsApp file (its
/// continuation lines belong to it), one element of an export's message list, or one conversation
/// header when an export holding several conversations is read whole. Blank lines are skipped and
/// counted only in `blankLinesSkipped`: they are neither records nor rejections.
public struct LogCounts: Sendable, Hashable, CustomStringConvertible {
    public var recordsIn = 0
    public var messagesOut = 0
    public var rejected = 0
    public var blankLinesSkipped = 0
    /// Warnings about records that were still read (not part of the reconciliation).
    public var warnings = 0

    public init() {}

    public var reconciles: Bool { messagesOut + rejected == recordsIn }

    public var description: String {
        "\(recordsIn) records in, \(messagesOut) messages out, \(rejected) rejected, \(blankLinesSkipped) blank lines skipped"
    }
}
