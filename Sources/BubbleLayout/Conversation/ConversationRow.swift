/// One row of a `Conversation`: a message with its decoration and layout at the conversation's
/// width, and the date separator drawn above it when it is the first message of a calendar day.
package struct ConversationRow: Sendable {
    /// The message.
    package let model: any MessageModel
    /// Position of the message's cell among the registry's configurators.
    package let configuratorIndex: Int
    /// The calendar day the message falls on, in the conversation's time zone.
    package let day: CalendarDay
    /// What the neighbours decided for the message.
    package let decoration: RowDecoration
    /// The message's layout.
    package let layout: RowLayout
    /// The date separator above the message (the day's first message), or nil.
    package let dateSeparator: RowLayout?

    /// Rows the separator (if any) and the message take together.
    package var height: Int { (dateSeparator?.height ?? 0) + layout.height }
}

/// Why a `Conversation` refused a change.
public enum ConversationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The message's kind has no registered cell.
    case layout(LayoutError)
    /// A message with this id is already in the conversation (ids identify rows).
    case duplicateID(String)
    /// No message with this id is in the conversation.
    case unknownID(String)

    /// The reason, in a sentence.
    public var description: String {
        switch self {
        case let .layout(error): error.description
        case let .duplicateID(id): "message \"\(id)\" is already in the conversation: ids must be unique"
        case let .unknownID(id): "no message \"\(id)\" in the conversation"
        }
    }
}

/// Where a conversation's row sits, in the conversation's units: terminal cells, or LayoutUnits
/// (1/64 px; divide by 64 for points) for a conversation measured in pixels.
public struct RowFrame: Hashable, Sendable {
    /// The row's top: the sum of the heights of the rows above it.
    public var y: Int
    /// The row's height, the spacing above its bubble included (what `heightForRow` returns).
    public var height: Int
    /// The left edge of the row's bubble (or of a notice's or a date separator's centred text
    /// and rules) within the conversation's width.
    public var x: Int
    /// The bubble's outer width (a notice's or a date separator's: its text and rules).
    public var width: Int
}
