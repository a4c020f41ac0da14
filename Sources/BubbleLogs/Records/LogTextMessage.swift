import BubbleLayout

/// A text message. Media that cannot be drawn as a picture (files, voice messages, stickers,
/// videos) also arrive as text, with a bracketed label such as "[voice message 0:12]".
public struct LogTextMessage: TextMessageModel, LogRecord {
    /// Every field in one immutable object. The record is then one reference: it fits in an
    /// existential's inline buffer, so becoming `any LogRecord` and then `any MessageModel`
    /// allocates no box and copies no string; a copy is one retain and freeing it one release.
    /// A setter makes a new object (records are built whole and rarely changed).
    private var storage: Storage

    private final class Storage: Sendable {
        let header: LogMessageHeader
        let text: String
        let textStyle: MessageTextStyle
        let spans: [TextSpan]
        let language: String?

        init(header: LogMessageHeader, text: String, textStyle: MessageTextStyle, spans: [TextSpan], language: String? = nil) {
            self.header = header
            self.text = text
            self.textStyle = textStyle
            self.spans = spans
            self.language = language
        }
    }

    public init(header: LogMessageHeader, text: String, textStyle: MessageTextStyle = .body, spans: [TextSpan] = []) {
        storage = Storage(header: header, text: text, textStyle: textStyle, spans: spans)
    }

    public var header: LogMessageHeader {
        get { storage.header }
        set {
            storage = Storage(header: newValue, text: storage.text, textStyle: storage.textStyle, spans: storage.spans,
                              language: storage.language)
        }
    }

    public var text: String {
        get { storage.text }
        set {
            storage = Storage(header: storage.header, text: newValue, textStyle: storage.textStyle, spans: storage.spans,
                              language: storage.language)
        }
    }

    /// `.notice` for the app's note in the sender's place ("This message was deleted").
    public var textStyle: MessageTextStyle {
        get { storage.textStyle }
        set {
            storage = Storage(header: storage.header, text: storage.text, textStyle: newValue, spans: storage.spans,
                              language: storage.language)
        }
    }

    /// Bold, italic, code… over parts of `text`, from the app's markup; written as `styles`.
    public var textSpans: [TextSpan] {
        get { storage.spans }
        set {
            storage = Storage(header: storage.header, text: storage.text, textStyle: storage.textStyle, spans: newValue,
                              language: storage.language)
        }
    }

    /// The text's language, a well-formed BCP 47 tag (native `lang`); nil when the log does not say.
    package var textLanguage: String? {
        get { storage.language }
        set {
            storage = Storage(header: storage.header, text: storage.text, textStyle: storage.textStyle, spans: storage.spans,
                              language: newValue)
        }
    }

    public var senderName: String? { storage.header.senderName }
    /// Read in place, as `senderName` is: the decorator asks every message, and through the
    /// shared `header` getter each ask copied the whole header.
    public var forwardedFrom: String? { storage.header.forwardedFrom }
    /// The kind's one name: its cell's.
    public static var nativeType: String { TextBubbleCell.kindName }

    public func addKindFields(to record: inout NativeRecordFields) {
        record.add("text", text)
        if textStyle == .notice { record.add("style", textStyle.rawValue) }
        if !textSpans.isEmpty { record.add("styles", NativeTextStyles.fields(textSpans, in: text)) }
        if let language = textLanguage { record.add("lang", language) }
    }

    public static func == (a: LogTextMessage, b: LogTextMessage) -> Bool {
        a.storage === b.storage
            || (a.header == b.header && a.text == b.text && a.textStyle == b.textStyle && a.textSpans == b.textSpans
                && a.textLanguage == b.textLanguage)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(header)
        hasher.combine(text)
        hasher.combine(textStyle)
        hasher.combine(textSpans)
        if let language = textLanguage { hasher.combine(language) }
    }
}

extension LogTextMessage: LanguageTaggedMessage {}
