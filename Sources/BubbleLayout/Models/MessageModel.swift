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
    case sending, sent, delivered, read, failed
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
    var direction: MessageDirection { get }
    var date: Date { get }
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
    public var revision: Int { 0 }
    public var status: DeliveryStatus? { nil }
    public var isEdited: Bool { false }
    public var replyToID: String? { nil }
    public var forwardedFrom: String? { nil }
    public var conversationID: String? { nil }
}

extension MessageModel {
    /// True for a conversation's heading as exports read together write it: a notice without a
    /// sender, in a conversation (`conversationID`), whose id ends in `/conversation`
    /// (`333/conversation`, `C01GENERAL/conversation`). As its conversation's first message it is
    /// drawn first, above the conversation's first date, as a heading rather than a notice.
    public var isConversationHeading: Bool {
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
    var text: String { get }
    /// `.notice` when the text is the app's note in the sender's place; `.body` by default.
    var textStyle: MessageTextStyle { get }
    /// Bold, italic, code… over parts of `text` (none by default). Drawn, never measured.
    var textSpans: [TextSpan] { get }
}

extension TextMessageModel {
    public var textStyle: MessageTextStyle { .body }
    public var textSpans: [TextSpan] { [] }
}

/// A picture, drawn as a box of its aspect ratio, with an optional caption below.
public protocol ImageMessageModel: MessageModel {
    /// Pixel size when known; nil means unknown (a 4:3 default box keeps the height stable).
    var pixelWidth: Int? { get }
    var pixelHeight: Int? { get }
    /// File name or label shown inside the box.
    var imageName: String { get }
    var caption: String? { get }
    /// Bold, italic, code… over parts of `caption` (none by default). Drawn, never measured.
    var captionSpans: [TextSpan] { get }
}

extension ImageMessageModel {
    public var captionSpans: [TextSpan] { [] }
}

/// A notice from the chat itself: a join, a rename, a pin, a call.
public protocol SystemMessageModel: MessageModel {
    var notice: String { get }
}

extension SystemMessageModel {
    public var senderName: String? { nil }
}
