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
    /// without `#`) or id, or a Telegram chat name or id. Nil reads all of them, in file order.
    public var conversation: String?

    public init(me: String? = nil, strict: Bool = false, timeZone: TimeZone = .current, conversation: String? = nil) {
        self.me = me
        self.strict = strict
        self.timeZone = timeZone
        self.conversation = conversation
    }
}
