import BubbleLayout

/// A text message. Media that cannot be drawn as a picture (files, voice messages, stickers,
/// videos) also arrive as text, with a bracketed label such as "[voice message 0:12]".
public struct LogTextMessage: TextMessageModel, LogRecord {
    public var header: LogMessageHeader
    public var text: String

    public init(header: LogMessageHeader, text: String) {
        self.header = header
        self.text = text
    }

    public var senderName: String? { header.senderName }
    public static var nativeType: String { "text" }

    public func addKindFields(to record: inout NativeRecordFields) {
        record.add("text", text)
    }
}
