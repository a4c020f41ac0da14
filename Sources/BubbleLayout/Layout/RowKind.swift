/// What a row draws. The four built-in kinds have names the `heights` command prints; a kind an
/// app adds picks its own raw value (16 and up) and its cell class supplies the name
/// (`BubbleCell.kindName`, looked up with `CellRegistry.name(of:)`).
public struct RowKind: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let text = RowKind(rawValue: 0)
    public static let image = RowKind(rawValue: 1)
    public static let system = RowKind(rawValue: 2)
    public static let date = RowKind(rawValue: 3)

    /// "text", "image", "system", "date", or "kind<N>" for a kind added by an app (whose cell's
    /// `kindName`, through `CellRegistry.name(of:)`, is the better name to print).
    public var name: String {
        switch rawValue {
        case 0: "text"
        case 1: "image"
        case 2: "system"
        case 3: "date"
        default: "kind\(rawValue)"
        }
    }

    public var description: String { name }
}

/// Where a row sits across the container.
public enum RowAlignment: UInt8, Hashable, Sendable {
    case left, right, center
}

/// How much chrome a bubble keeps as the container narrows.
public enum CompactLevel: UInt8, Hashable, Sendable, Comparable {
    /// Rounded border and padding all round.
    case full
    /// Top and bottom rules only: the side borders and padding are gone.
    case noSideBorders
    /// No border at all: content lines indented by `BubbleStyle.plainIndent`.
    case plain

    public static func < (a: CompactLevel, b: CompactLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Where a bubble's footer (time, "edited", status) is drawn.
public enum FooterPlacement: UInt8, Hashable, Sendable {
    /// No footer on this row.
    case none
    /// Inside the bottom border: costs no row.
    case inBottomBorder
    /// On its own row below the bubble.
    case ownLine
}

/// The chrome parts a row has, besides its content.
public struct ChromeParts: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A sender-name row above the bubble.
    public static let nameLine = ChromeParts(rawValue: 1 << 0)
    /// A one-row quote of the replied-to message, inside the bubble above the content.
    public static let replyQuote = ChromeParts(rawValue: 1 << 1)
    /// A top border (or rule) row.
    public static let topBorder = ChromeParts(rawValue: 1 << 2)
    /// A bottom border (or rule) row.
    public static let bottomBorder = ChromeParts(rawValue: 1 << 3)
    /// Vertical border cells on both sides.
    public static let sideBorders = ChromeParts(rawValue: 1 << 4)
    /// The bubble's tail: it closes a group.
    public static let tail = ChromeParts(rawValue: 1 << 5)
    /// `──` rules flanking centred text (system notices, date separators).
    public static let rules = ChromeParts(rawValue: 1 << 6)
}
