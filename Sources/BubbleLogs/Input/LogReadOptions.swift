import Foundation

/// How to read a log.
public struct LogReadOptions: Sendable {
    /// Messages from this sender are outgoing (`--me NAME`). For JSON Lines an explicit `outgoing`
    /// field wins. For a Telegram full export nil means the exporting account.
    public var me: String?
    /// Stop at the first rejected record (`--strict`): the reader yields its diagnostic and ends.
    public var strict: Bool
    /// The zone for sources that write local times without one (WhatsApp). Others carry offsets.
    public var timeZone: TimeZone
    /// Which conversation of a multi-conversation export to read: a Slack channel name (with or
    /// without `#`) or id, a Telegram chat name or id, or a native log's `conversation` value (with or
    /// without a leading `#`; see `ConversationFilter`). Nil reads all of them, in file order.
    public var conversation: String?
    /// The order of a WhatsApp file's dates (`--date-order`); nil decides it from the file.
    public var dateOrder: LogDateOrder?
    /// Show the text of spoilers (Telegram's `spoiler` entities), which are otherwise hidden as
    /// `[spoiler]`, as the app hides them until tapped (`--reveal-spoilers`).
    public var revealsSpoilers = false
    /// The year of WhatsApp dates written without one (`--year`; old Android exports wrote
    /// `18 Mar 12:14` for the year they were made in). Nil takes it from the file or its name.
    public var year: Int?

    /// The memory budget of a reader, in bytes: a document read whole (a Slack day file or
    /// listing, a LINE, Signal or iMessage text) may be at most this large, and the tree parsed
    /// from any part of a JSON document held at once (the document outside its lists of messages,
    /// or one message; a chat export's JSON is streamed, so its size is not bounded) at most a
    /// sixteenth of it, as a tree takes about eight times its text. A document past either
    /// bound is refused with an error naming it and the budget, before memory runs out.
    /// 1 GiB unless changed.
    public var memoryBudget = LogReadOptions.standardMemoryBudget

    /// 1 GiB.
    public static let standardMemoryBudget = 1 << 30

    /// The most bytes of JSON text one tree may be built from under `memoryBudget`.
    static func maximumTreeBytes(budget: Int) -> Int { max(budget / 16, 1 << 16) }

    public init(me: String? = nil, strict: Bool = false, timeZone: TimeZone = .current, conversation: String? = nil,
                dateOrder: LogDateOrder? = nil) {
        self.me = me
        self.strict = strict
        self.timeZone = timeZone
        self.conversation = conversation
        self.dateOrder = dateOrder
    }
}

/// How numeric dates are written, for exports that do not say (WhatsApp).
public enum LogDateOrder: String, Sendable, Hashable, CaseIterable {
    /// 31/12/23
    case dmy
    /// 12/31/23
    case mdy
    /// 2023-12-31
    case ymd
}
