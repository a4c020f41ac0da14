import Synchronization

/// What a row draws: a kind, named once (by its cell's `ConfigurableCell.kindName`, or
/// `DateSeparatorCell.kindName`), with a compact id for the packed layouts the cache holds. Ids are handed
/// out by name the first time a name is seen, process-wide, so every registry and cache agrees
/// on them; the name is what `heights` and the renderer print. No table of built-in kinds: the
/// standard cells name theirs like any kind an app adds.
public struct RowKind: Hashable, Sendable, CustomStringConvertible {
    /// The compact id: its place in the process's table of kind names.
    package let rawValue: UInt8

    /// The kind with this id. For unpacking stored layouts; use `init(named:)` to make a kind.
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The kind named `name`: the id it was given, or the next free one. At most 256 kinds.
    package init(named name: String) {
        rawValue = Self.names.withLock { names in
            if let i = names.firstIndex(of: name) { return UInt8(i) }
            precondition(names.count <= Int(UInt8.max), "more than 256 row kinds: cannot name \"\(name)\"")
            names.append(name)
            return UInt8(names.count - 1)
        }
    }

    /// The kind names, by id. Append-only: an id never changes its name.
    private static let names = Mutex<[String]>([])

    /// A date separator row.
    package static let date = RowKind(named: DateSeparatorCell.kindName)
    /// The standard cells' kinds, by their cells' names.
    package static let text = RowKind(named: TextBubbleCell.kindName)
    package static let image = RowKind(named: ImageBubbleCell.kindName)
    package static let system = RowKind(named: SystemNoticeCell.kindName)

    /// The name the kind was made with ("text", "voice"); "kind<N>" for an id no name was given.
    package var name: String {
        Self.names.withLock { names in Int(rawValue) < names.count ? names[Int(rawValue)] : "kind\(rawValue)" }
    }

    /// The kind's name (its cell's `kindName`).
    public var description: String { name }
}

/// Where a row sits across the container.
package enum RowAlignment: UInt8, Hashable, Sendable {
    case left, right, center
}

/// How much chrome a bubble keeps as the container narrows.
package enum CompactLevel: UInt8, Hashable, Sendable, Comparable {
    /// Rounded border and padding all round.
    case full
    /// Top and bottom rules only: the side borders and padding are gone.
    case noSideBorders
    /// No border at all: content lines indented by `BubbleStyle.plainIndent`.
    case plain

    package static func < (a: CompactLevel, b: CompactLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Where a bubble's footer (time, "edited", status) is drawn.
package enum FooterPlacement: UInt8, Hashable, Sendable {
    /// No footer on this row.
    case none
    /// Inside the bottom border: costs no row.
    case inBottomBorder
    /// On its own row below the bubble.
    case ownLine
}

/// The chrome parts a row has, besides its content.
package struct ChromeParts: OptionSet, Hashable, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A sender-name row above the bubble.
    package static let nameLine = ChromeParts(rawValue: 1 << 0)
    /// A one-row quote of the replied-to message, inside the bubble above the content.
    package static let replyQuote = ChromeParts(rawValue: 1 << 1)
    /// A top border (or rule) row.
    package static let topBorder = ChromeParts(rawValue: 1 << 2)
    /// A bottom border (or rule) row.
    package static let bottomBorder = ChromeParts(rawValue: 1 << 3)
    /// Vertical border cells on both sides.
    package static let sideBorders = ChromeParts(rawValue: 1 << 4)
    /// The bubble's tail: it closes a group.
    package static let tail = ChromeParts(rawValue: 1 << 5)
    /// `──` rules flanking centred text (system notices, date separators).
    package static let rules = ChromeParts(rawValue: 1 << 6)
}
