import BubbleLayout

/// A picture with an optional caption. The pixel size is nil when the source did not say
/// (WhatsApp and Discord exports never do).
public struct LogImageMessage: ImageMessageModel, LogRecord {
    /// Every field in one immutable object, as `LogTextMessage` keeps them.
    private var storage: Storage

    private final class Storage: Sendable {
        let header: LogMessageHeader
        let pixelWidth: Int?
        let pixelHeight: Int?
        let imageName: String
        let caption: String?
        let captionSpans: [TextSpan]
        let language: String?

        init(header: LogMessageHeader, pixelWidth: Int?, pixelHeight: Int?, imageName: String, caption: String?,
             captionSpans: [TextSpan] = [], language: String? = nil) {
            self.header = header
            self.pixelWidth = pixelWidth
            self.pixelHeight = pixelHeight
            self.imageName = imageName
            self.caption = caption
            self.captionSpans = captionSpans
            self.language = language
        }
    }

    public init(header: LogMessageHeader, pixelWidth: Int?, pixelHeight: Int?, imageName: String, caption: String?,
                captionSpans: [TextSpan] = []) {
        storage = Storage(header: header, pixelWidth: pixelWidth, pixelHeight: pixelHeight, imageName: imageName, caption: caption,
                          captionSpans: captionSpans)
    }

    /// Bold, italic, code… over parts of `caption`, from the app's markup; written as `styles`.
    public var captionSpans: [TextSpan] {
        get { storage.captionSpans }
        set { storage = Storage(header: storage.header, pixelWidth: storage.pixelWidth, pixelHeight: storage.pixelHeight, imageName: storage.imageName, caption: storage.caption, captionSpans: newValue, language: storage.language) }
    }

    public var header: LogMessageHeader {
        get { storage.header }
        set { storage = Storage(header: newValue, pixelWidth: storage.pixelWidth, pixelHeight: storage.pixelHeight, imageName: storage.imageName, caption: storage.caption, captionSpans: storage.captionSpans, language: storage.language) }
    }

    public var pixelWidth: Int? {
        get { storage.pixelWidth }
        set { storage = Storage(header: storage.header, pixelWidth: newValue, pixelHeight: storage.pixelHeight, imageName: storage.imageName, caption: storage.caption, captionSpans: storage.captionSpans, language: storage.language) }
    }

    public var pixelHeight: Int? {
        get { storage.pixelHeight }
        set { storage = Storage(header: storage.header, pixelWidth: storage.pixelWidth, pixelHeight: newValue, imageName: storage.imageName, caption: storage.caption, captionSpans: storage.captionSpans, language: storage.language) }
    }

    public var imageName: String {
        get { storage.imageName }
        set { storage = Storage(header: storage.header, pixelWidth: storage.pixelWidth, pixelHeight: storage.pixelHeight, imageName: newValue, caption: storage.caption, captionSpans: storage.captionSpans, language: storage.language) }
    }

    public var caption: String? {
        get { storage.caption }
        set { storage = Storage(header: storage.header, pixelWidth: storage.pixelWidth, pixelHeight: storage.pixelHeight, imageName: storage.imageName, caption: newValue, captionSpans: storage.captionSpans, language: storage.language) }
    }

    /// The caption's language, a well-formed BCP 47 tag (native `lang`); nil when the log does not say.
    package var textLanguage: String? {
        get { storage.language }
        set {
            storage = Storage(header: storage.header, pixelWidth: storage.pixelWidth, pixelHeight: storage.pixelHeight,
                              imageName: storage.imageName, caption: storage.caption, captionSpans: storage.captionSpans,
                              language: newValue)
        }
    }

    public var senderName: String? { storage.header.senderName }
    /// Read in place, as `senderName` is (see `LogTextMessage.forwardedFrom`).
    public var forwardedFrom: String? { storage.header.forwardedFrom }
    /// The kind's one name: its cell's.
    public static var nativeType: String { ImageBubbleCell.kindName }

    public func addKindFields(to record: inout NativeRecordFields) {
        var image = NativeRecordFields()
        if let pixelWidth { image.add("width", pixelWidth) }
        if let pixelHeight { image.add("height", pixelHeight) }
        image.add("name", imageName)
        record.add("image", image)
        if let caption {
            record.add("text", caption)
            if !captionSpans.isEmpty { record.add("styles", NativeTextStyles.fields(captionSpans, in: caption)) }
            if let language = textLanguage { record.add("lang", language) }
        }
    }

    public static func == (a: LogImageMessage, b: LogImageMessage) -> Bool {
        a.storage === b.storage
            || (a.header == b.header && a.pixelWidth == b.pixelWidth && a.pixelHeight == b.pixelHeight
                && a.imageName == b.imageName && a.caption == b.caption && a.captionSpans == b.captionSpans
                && a.textLanguage == b.textLanguage)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(header)
        hasher.combine(pixelWidth)
        hasher.combine(pixelHeight)
        hasher.combine(imageName)
        hasher.combine(caption)
        hasher.combine(captionSpans)
        if let language = textLanguage { hasher.combine(language) }
    }
}

extension LogImageMessage: LanguageTaggedMessage {}
