import Foundation

/// Which side of the timeline a message belongs to.
public enum MessageDirection: String, Sendable, Hashable, CaseIterable {
    /// From another party: drawn on the left.
    case incoming
    /// From the user: drawn on the right.
    case outgoing
}

/// Delivery state of a message, shown in the bubble's footer.
public enum DeliveryStatus: String, Sendable, Hashable, CaseIterable {
    /// On its way to the server.
    case sending
    /// Accepted by the server.
    case sent
    /// Reached the recipient's device.
    case delivered
    /// Seen by the recipient.
    case read
    /// Could not be sent: the footer says so on every bubble.
    case failed
}

/// What every message shares, whatever its kind. Apps' own message types adopt this (through
/// one of the kind protocols) to be laid out.
public protocol MessageModel: Sendable {
    /// Stable identity within a log.
    var id: String { get }
    /// Bumped on every edit; part of the cache key so an edit never reads a stale layout.
    var revision: Int { get }
    /// Display name of the sender; nil for system notices and unknown senders.
    var senderName: String? { get }
    /// Which side the message is drawn on.
    var direction: MessageDirection { get }
    /// When it was sent: orders groups and date separators, and its footer shows the time.
    var date: Date { get }
    /// Delivery state shown in the footer of an outgoing message; nil shows none.
    var status: DeliveryStatus? { get }
    /// True once the message has been edited; the footer says so.
    var isEdited: Bool { get }
    /// The id of the message this one replies to, if any.
    var replyToID: String? { get }
    /// Who first wrote a forwarded message (Telegram's `forwarded_from`), shown on the bubble's
    /// quote row as "Forwarded from Name" ("Forwarded" when empty: the export names nobody). Nil when the
    /// message was not forwarded.
    var forwardedFrom: String? { get }
    /// The conversation the message belongs to, when one stream carries several: messages of
    /// different conversations never group, share a date separator or quote each other. Nil
    /// (the default) is one conversation of its own.
    var conversationID: String? { get }
}

extension MessageModel {
    /// 0: a type whose messages are never edited need not count revisions.
    public var revision: Int { 0 }
    /// Nil: no delivery state shown.
    public var status: DeliveryStatus? { nil }
    /// False: not edited.
    public var isEdited: Bool { false }
    /// Nil: not a reply.
    public var replyToID: String? { nil }
    /// Nil: not forwarded.
    public var forwardedFrom: String? { nil }
    /// Nil: the message is in the one conversation of its stream.
    public var conversationID: String? { nil }
}

extension MessageModel {
    /// True for a conversation's heading as exports read together write it: a notice without a
    /// sender, in a conversation (`conversationID`), whose id ends in `/conversation`
    /// (`333/conversation`, `C01GENERAL/conversation`). As its conversation's first message it is
    /// drawn first, above the conversation's first date, as a heading rather than a notice.
    package var isConversationHeading: Bool {
        conversationID != nil && senderName == nil && id.utf8.count > 13 && id.hasSuffix("/conversation")
    }
}

/// How a message's text is drawn. A note that stands in for the sender's words ("This message
/// was deleted", "Missed voice call") is told apart from what they wrote, as chat apps do with
/// italics or grey. The style never changes a text's size: layout is the same for both.
public enum MessageTextStyle: String, Sendable, Hashable, CaseIterable {
    /// The sender's own words.
    case body
    /// A note about the message, written by the app in the sender's place.
    case notice
}

/// A message whose content is text.
public protocol TextMessageModel: MessageModel {
    /// The text, laid out as it is (untrusted text is drawn safely by the renderers).
    var text: String { get }
    /// `.notice` when the text is the app's note in the sender's place; `.body` by default.
    var textStyle: MessageTextStyle { get }
    /// Bold, italic, code… over parts of `text` (none by default). Drawn, never measured.
    var textSpans: [TextSpan] { get }
}

extension TextMessageModel {
    /// `.body`: the sender's own words.
    public var textStyle: MessageTextStyle { .body }
    /// No spans: the text is drawn plain.
    public var textSpans: [TextSpan] { [] }
}

/// A picture, drawn as a box of its aspect ratio, with an optional caption below.
public protocol ImageMessageModel: MessageModel {
    /// Pixel size when known; nil means unknown (a 4:3 default box keeps the height stable).
    var pixelWidth: Int? { get }
    /// Pixel height when known; nil means unknown, as for `pixelWidth`.
    var pixelHeight: Int? { get }
    /// File name or label shown inside the box.
    var imageName: String { get }
    /// Text shown below the box, laid out like a message's text; nil for none.
    var caption: String? { get }
    /// Bold, italic, code… over parts of `caption` (none by default). Drawn, never measured.
    var captionSpans: [TextSpan] { get }
}

extension ImageMessageModel {
    /// No spans: the caption is drawn plain.
    public var captionSpans: [TextSpan] { [] }
}

/// A notice from the chat itself: a join, a rename, a pin, a call.
public protocol SystemMessageModel: MessageModel {
    /// The notice's text, drawn centred without a bubble.
    var notice: String { get }
}

extension SystemMessageModel {
    /// Nil: a notice has no sender line.
    public var senderName: String? { nil }
}
