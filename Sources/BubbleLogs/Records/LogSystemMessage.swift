import BubbleLayout

/// A notice from the chat itself ("Alice added Bob", "Bob pinned a message"). It has no sender of
/// its own: the actor, if any, is named in the sentence.
public struct LogSystemMessage: SystemMessageModel, LogRecord {
    /// Every field in one immutable object, as `LogTextMessage` keeps them.
    private var storage: Storage

    private final class Storage: Sendable {
        let header: LogMessageHeader
        let notice: String
        let language: String?

        init(header: LogMessageHeader, notice: String, language: String? = nil) {
            self.header = header
            self.notice = notice
            self.language = language
        }
    }

    public init(header: LogMessageHeader, notice: String) {
        storage = Storage(header: header, notice: notice)
    }

    public var header: LogMessageHeader {
        get { storage.header }
        set { storage = Storage(header: newValue, notice: storage.notice, language: storage.language) }
    }

    public var notice: String {
        get { storage.notice }
        set { storage = Storage(header: storage.header, notice: newValue, language: storage.language) }
    }

    /// The notice's language, a well-formed BCP 47 tag (native `lang`); nil when the log does not say.
    package var textLanguage: String? {
        get { storage.language }
        set { storage = Storage(header: storage.header, notice: storage.notice, language: newValue) }
    }

    public var senderName: String? { nil }
    /// The kind's one name: its cell's.
    public static var nativeType: String { SystemNoticeCell.kindName }

    public func addKindFields(to record: inout NativeRecordFields) {
        record.add("text", notice)
        if let language = textLanguage { record.add("lang", language) }
    }

    public static func == (a: LogSystemMessage, b: LogSystemMessage) -> Bool {
        a.storage === b.storage || (a.header == b.header && a.notice == b.notice && a.textLanguage == b.textLanguage)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(header)
        hasher.combine(notice)
        if let language = textLanguage { hasher.combine(language) }
    }
}

extension LogSystemMessage: LanguageTaggedMessage {}
