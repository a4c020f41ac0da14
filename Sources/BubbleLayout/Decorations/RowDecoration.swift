/// What the timeline decided for one row from its neighbours: grouping, the name line, the reply
/// quote, the footer. Part of the layout cache key, because a row's height depends on it.
/// Packed into 32 bits.
public struct RowDecoration: Hashable, Sendable {
    package var rawValue: UInt32

    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A decoration from its decisions.
    package init(isFirstRow: Bool = false, startsGroup: Bool = true, endsGroup: Bool = true,
                showsName: Bool = false, hasReplyQuote: Bool = false, showsFooter: Bool = false,
                footerWidth: Int = 0, quoteWidth: Int = 0, quoteAddsReply: Bool = false) {
        var raw: UInt32 = 0
        if isFirstRow { raw |= Self.firstRowBit }
        if startsGroup { raw |= Self.startsGroupBit }
        if endsGroup { raw |= Self.endsGroupBit }
        if showsName { raw |= Self.nameBit }
        if hasReplyQuote { raw |= Self.replyBit }
        if showsFooter { raw |= Self.footerBit }
        if quoteAddsReply { raw |= Self.quoteAddsReplyBit }
        raw |= UInt32(UInt8(clamping: footerWidth)) << 8
        raw |= UInt32(UInt16(clamping: quoteWidth)) << 16
        self.rawValue = raw
    }

    static let firstRowBit: UInt32 = 1 << 0
    static let startsGroupBit: UInt32 = 1 << 1
    static let endsGroupBit: UInt32 = 1 << 2
    static let nameBit: UInt32 = 1 << 3
    static let replyBit: UInt32 = 1 << 4
    static let footerBit: UInt32 = 1 << 5
    static let quoteAddsReplyBit: UInt32 = 1 << 6

    /// The first row of the whole timeline: no spacing above it.
    package var isFirstRow: Bool { rawValue & Self.firstRowBit != 0 }
    /// Opens a group (or stands alone): group spacing above.
    package var startsGroup: Bool { rawValue & Self.startsGroupBit != 0 }
    /// Closes a group (or stands alone): the bubble gets its tail.
    package var endsGroup: Bool { rawValue & Self.endsGroupBit != 0 }
    /// Shows the sender's name above the bubble.
    package var showsName: Bool { rawValue & Self.nameBit != 0 }
    /// Shows a one-line quote of the replied-to message.
    package var hasReplyQuote: Bool { rawValue & Self.replyBit != 0 }
    /// Shows the footer (time, "edited", status).
    package var showsFooter: Bool { rawValue & Self.footerBit != 0 }
    /// Cells the footer text takes.
    package var footerWidth: Int { Int((rawValue >> 8) & 0xFF) }
    /// Cells the quote row's own line needs (a forward's "↪ Forwarded from Name"), 0 when it
    /// needs no more than a reply quote's minimum: the bubble widens to it, up to its maximum.
    package var quoteWidth: Int { Int(rawValue >> 16) }
    /// The quote row is a forward's line followed by a reply's quote: `quoteWidth` is the forward's
    /// line and separator, and the reply's quote needs its minimum width after it.
    package var quoteAddsReply: Bool { rawValue & Self.quoteAddsReplyBit != 0 }
}
