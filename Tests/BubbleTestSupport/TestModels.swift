import BubbleLayout
import Foundation

/// 2024-05-01T10:00:00Z: the default date of the test models.
public let may1 = Date(timeIntervalSince1970: 1_714_557_600)

/// A text message for tests, with every field settable.
public struct TextNote: TextMessageModel {
    public var id: String
    public var revision: Int
    public var senderName: String?
    public var direction: MessageDirection
    public var date: Date
    public var status: DeliveryStatus?
    public var isEdited: Bool
    public var replyToID: String?
    public var text: String

    public init(id: String, revision: Int = 0, senderName: String? = "Alice", direction: MessageDirection = .incoming,
                date: Date = may1, status: DeliveryStatus? = nil, isEdited: Bool = false, replyToID: String? = nil,
                text: String) {
        self.id = id
        self.revision = revision
        self.senderName = senderName
        self.direction = direction
        self.date = date
        self.status = status
        self.isEdited = isEdited
        self.replyToID = replyToID
        self.text = text
    }
}

/// An image message for tests; a nil pixel size is an image of unknown size.
public struct Picture: ImageMessageModel {
    public var id: String
    public var senderName: String?
    public var direction: MessageDirection
    public var date: Date
    public var status: DeliveryStatus?
    public var isEdited: Bool
    public var replyToID: String?
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    public var imageName: String
    public var caption: String?

    public init(id: String, senderName: String? = "Bob", direction: MessageDirection = .incoming, date: Date = may1,
                status: DeliveryStatus? = nil, isEdited: Bool = false, replyToID: String? = nil,
                pixelWidth: Int? = nil, pixelHeight: Int? = nil, imageName: String = "IMG_0001.jpg", caption: String? = nil) {
        self.id = id
        self.senderName = senderName
        self.direction = direction
        self.date = date
        self.status = status
        self.isEdited = isEdited
        self.replyToID = replyToID
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.imageName = imageName
        self.caption = caption
    }
}

/// A system notice for tests.
public struct Notice: SystemMessageModel {
    public var id: String
    public var direction: MessageDirection
    public var date: Date
    public var notice: String

    public init(id: String, direction: MessageDirection = .incoming, date: Date = may1, notice: String) {
        self.id = id
        self.direction = direction
        self.date = date
        self.notice = notice
    }
}
