/// The input formats (`--input`).
public enum LogFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Decide from the content: a folder is a Slack export, JSON Lines has an object on its first
    /// line, a JSON document is Telegram or Discord by its keys, and dated lines are WhatsApp.
    case auto
    case jsonl
    case telegram
    case whatsapp
    case discord
    case slack

    /// Parses a `--input` value, case-insensitively. Nil for anything else.
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }

    /// "auto|jsonl|telegram|whatsapp|discord|slack", for usage text.
    public static var argumentChoices: String { allCases.map(\.rawValue).joined(separator: "|") }

    /// Whether an input of this format can hold several conversations, so that choosing one
    /// (`LogReadOptions.conversation`) means something: a Slack export or a Telegram export.
    /// Native JSON Lines may too (records with `conversation`): that is known only as it is read.
    public var mayHoldSeveralConversations: Bool {
        switch self {
        case .auto, .telegram, .slack: true
        case .jsonl, .whatsapp, .discord: false
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
        }
    }
}
