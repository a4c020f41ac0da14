/// The input formats (`--input`).
public enum LogFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Decide from the content: a folder is a Slack or a Messenger export, JSON Lines has an object
    /// on its first line, a JSON document is Telegram, Discord, Messenger or Element's by its keys, and dated
    /// lines are WhatsApp's, imessage-exporter's, signal-export's or LINE's.
    case auto
    case jsonl
    case telegram
    case whatsapp
    case discord
    case slack
    /// Facebook Messenger or Instagram "Download your information" JSON (a thread's
    /// `message_1.json`, its folder, the export's folder or zip).
    case messenger
    /// `imessage-exporter`'s `.txt` or `.html` (one conversation per file).
    case imessage
    /// signal-export's `chat.md` or its JSON Lines `data.json`.
    case signal
    /// LINE's "Export chat history" `.txt`.
    case line
    /// Element's "Export chat" JSON (a Matrix room).
    case matrix
    /// Skype's "Export chat history" `messages.json`, or the export's `.tar`.
    case skype
    /// Google Chat from Google Takeout: a group's `messages.json`, its folder, or the Takeout
    /// folder or zip.
    case googlechat
    /// Google Hangouts from Google Takeout: `Hangouts.json`.
    case hangouts

    /// Parses a `--input` value, case-insensitively. Nil for anything else.
    public init?(argument: String) {
        let name = argument.lowercased()
        // Instagram's export is Messenger's format.
        self.init(rawValue: name == "instagram" ? "messenger" : name == "google-chat" ? "googlechat" : name)
    }

    /// "auto|jsonl|telegram|…", for usage text.
    public static var argumentChoices: String { allCases.map(\.rawValue).joined(separator: "|") }

    /// Whether an input of this format can hold several conversations, so that choosing one
    /// (`LogReadOptions.conversation`) means something: a Slack export or a Telegram export.
    /// Native JSON Lines may too (records with `conversation`): that is known only as it is read.
    public var mayHoldSeveralConversations: Bool {
        switch self {
        case .auto, .telegram, .slack, .messenger, .skype, .googlechat, .hangouts: true
        case .jsonl, .whatsapp, .discord, .imessage, .signal, .line, .matrix: false
        }
    }

    public var description: String {
        switch self {
        case .auto: "automatic detection"
        case .jsonl: "native JSON Lines"
        case .telegram: "Telegram Desktop export"
        case .whatsapp: "WhatsApp chat export"
        case .discord: "DiscordChatExporter JSON"
        case .slack: "Slack export folder"
        case .messenger: "Messenger or Instagram export"
        case .imessage: "imessage-exporter export"
        case .signal: "signal-export chat"
        case .line: "LINE chat history"
        case .matrix: "Element (Matrix) export"
        case .skype: "Skype export"
        case .googlechat: "Google Chat (Takeout) export"
        case .hangouts: "Google Hangouts (Takeout) export"
        }
    }
}
