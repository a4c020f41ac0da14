import BubbleLayout

/// A notice from the chat itself ("Alice added Bob", "Bob pinned a message"). It has no sender of
/// its own: the actor, if any, is named in the sentence.
public struct LogSystemMessage: SystemMessageModel, LogRecord {
    public var header: LogMessageHeader
    public var notice: String

    public init(header: LogMessageHeader, notice: String) {
        self.header = header
        self.notice = notice
    }

    public var senderName: String? { nil }
    /// The kind's one name: its cell's.
    public static var nativeType: String { SystemNoticeCell.kindName }

    public func addKindFields(to record: inout NativeRecordFields) {
        record.add("text", notice)
    }
}
