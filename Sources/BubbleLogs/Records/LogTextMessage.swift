import BubbleLayout

/// A text message. Media that cannot be drawn as a picture (files, voice messages, stickers,
/// videos) also arrive as text, with a bracketed label such as "[voice message 0:12]".
public struct LogTextMessage: TextMessageModel, LogRecord {
    public var header: LogMessageHeader
    public var text: String
    /// `.notice` for the app's note in the sender's place ("This message was deleted").
    public var textStyle: MessageTextStyle

    public init(header: LogMessageHeader, text: String, textStyle: MessageTextStyle = .body) {
        self.header = header
        self.text = text
        self.textStyle = textStyle
    }

    public var senderName: String? { header.senderName }
    /// The kind's one name: its cell's.
    public static var nativeType: String { TextBubbleCell.kindName }

    public func addKindFields(to record: inout NativeRecordFields) {
        record.add("text", text)
        if textStyle == .notice { record.add("style", textStyle.rawValue) }
    }
}
