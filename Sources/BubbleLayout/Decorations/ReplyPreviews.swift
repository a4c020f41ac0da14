/// Short previews of recent messages by id, for the one-line quote a reply shows. In streaming
/// mode only the last `capacity` messages are known; a reply to an older (or unknown) one shows
/// `↩ reply to a message`. The quote is one row either way, so layout never waits on this.
package struct ReplyPreviews: Sendable {
    /// Most previews kept.
    package var capacity: Int { previews.capacity }
    /// Longest preview kept, in characters (the renderer truncates to the bubble's width anyway).
    package let maximumLength: Int
    private var previews: RecentValues<RecentMessageKey, String>

    package init(capacity: Int = 4096, maximumLength: Int = 80) {
        previews = RecentValues(capacity: capacity)
        self.maximumLength = max(1, maximumLength)
    }

    /// The quote shown when the replied-to message is not known.
    package static let unknownQuote = "↩ reply to a message"

    /// What starts a forward's line on the quote row (a renderer drawing ASCII uses `>`, as wide).
    package static let forwardArrow = "↪"

    /// What stands between a forward's line and the reply's quote when a forward is also a reply.
    package static let forwardReplySeparator = " · "

    /// What the quote row says of a forwarded message (`MessageModel.forwardedFrom`): the one
    /// row a reply's quote takes, so a forward costs the same row in every measure. The bubble is
    /// made wide enough for it (`RowDecoration.quoteWidth`), up to its maximum width.
    package static func forwardQuote(from origin: String) -> String {
        origin.isEmpty ? "Forwarded" : "Forwarded from " + origin
    }

    /// Remembers `model`'s preview: its sender and its first line, as the registered cell gives it.
    package mutating func record(_ model: any MessageModel, registry: CellRegistry) {
        let body = (try? registry.configurator(for: model).previewText(model)) ?? ""
        record(body, id: model.id, sender: model.senderName, conversation: model.conversationID)
    }

    /// Remembers the preview of message `id` of `conversation`, from `sender`, whose cell's
    /// preview text is `body`.
    package mutating func record(_ body: String, id: String, sender: String?, conversation: String?) {
        let firstLine = body.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var preview = sender.map { "\($0): " } ?? ""
        preview += firstLine.prefix(maximumLength)
        previews.store(preview, for: RecentMessageKey(conversation: conversation, id: id))
    }

    /// The one-line quote for a reply to `id` from a message of `conversation` (nil for a log
    /// without conversations): only a message of that same conversation is quoted.
    package func quote(for id: String, in conversation: String? = nil) -> String {
        body(for: id, in: conversation).map { "↩ " + $0 } ?? Self.unknownQuote
    }

    /// The quote's text without its arrow (`Ann: the text`), nil when `id` is unknown. Callers
    /// that draw their own arrow take this: cutting "↩ " off `quote` fails when the name starts
    /// with a combining mark, which joins the space into one grapheme with it.
    package func body(for id: String, in conversation: String? = nil) -> String? {
        previews[RecentMessageKey(conversation: conversation, id: id)]
    }
}
