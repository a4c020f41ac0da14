import BubbleLayout
import Foundation

/// The fields every log record shares, whatever its kind.
public struct LogMessageHeader: Sendable, Hashable {
    public var id: String
    /// Display name of the sender; nil for unknown senders (and always nil on system notices).
    public var senderName: String?
    public var direction: MessageDirection
    public var date: Date
    public var status: DeliveryStatus?
    public var isEdited: Bool
    public var replyToID: String?
    /// The conversation the message belongs to (native `conversation`), when a log carries several.
    public var conversationID: String?

    public init(
        id: String, senderName: String?, direction: MessageDirection = .incoming, date: Date,
        status: DeliveryStatus? = nil, isEdited: Bool = false, replyToID: String? = nil
    ) {
        self.id = id
        self.senderName = senderName
        self.direction = direction
        self.date = date
        self.status = status
        self.isEdited = isEdited
        self.replyToID = replyToID
    }

    /// Every field given, the conversation too (the public initializer leaves it nil).
    init(
        id: String, senderName: String?, direction: MessageDirection, date: Date, status: DeliveryStatus?,
        isEdited: Bool, replyToID: String?, conversationID: String?
    ) {
        self.id = id
        self.senderName = senderName
        self.direction = direction
        self.date = date
        self.status = status
        self.isEdited = isEdited
        self.replyToID = replyToID
        self.conversationID = conversationID
    }
}
