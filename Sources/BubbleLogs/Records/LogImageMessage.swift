import BubbleLayout

/// A picture with an optional caption. The pixel size is nil when the source did not say
/// (WhatsApp and Discord exports never do).
public struct LogImageMessage: ImageMessageModel, LogRecord {
    public var header: LogMessageHeader
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    public var imageName: String
    public var caption: String?

    public init(header: LogMessageHeader, pixelWidth: Int?, pixelHeight: Int?, imageName: String, caption: String?) {
        self.header = header
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.imageName = imageName
        self.caption = caption
    }

    public var senderName: String? { header.senderName }
    /// The kind's one name: its cell's.
    public static var nativeType: String { ImageBubbleCell.kindName }

    public func addKindFields(to record: inout NativeRecordFields) {
        var image = NativeRecordFields()
        if let pixelWidth { image.add("width", pixelWidth) }
        if let pixelHeight { image.add("height", pixelHeight) }
        image.add("name", imageName)
        record.add("image", image)
        if let caption { record.add("text", caption) }
    }
}
