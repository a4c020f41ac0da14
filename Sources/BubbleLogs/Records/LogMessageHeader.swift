import BubbleLayout
import Foundation

/// The fields every log record shares, whatever its kind.
///
/// The public initializer is declared in an extension on purpose, so the struct keeps its
/// memberwise initializer (internal, every field, the conversation too): the fast decoder makes
/// headers with it, and the compiler moves a header so made into its record, where a header
/// from a written-out initializer would be copied whole and the original destroyed.
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
    /// Who first wrote a forwarded message (native `forwardedFrom`); nil when not forwarded.
    public var forwardedFrom: String? = nil
}

extension LogMessageHeader {
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
}
