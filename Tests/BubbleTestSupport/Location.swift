import BubbleLayout
import BubbleText
import Foundation

// A kind with a shape of its own, only in the tests: a shared place, shown as a map box above
// the place's name. Added as the README's "Adding a kind" says: one model protocol, one cell
// subclass overriding `contentSize` and `box(for:)`, one registration line; the layout paths and
// the renderer run its overrides without knowing the kind.

/// A shared place: its name is what the bubble shows under the map.
public protocol LocationMessageModel: MessageModel {
    var place: String { get }
}

/// The map above the place's name: as wide as the content may be, at most `widestMap` cells, and
/// half as tall; the renderer frames it with the box `box(for:)` describes.
public final class LocationBubbleCell: BubbleCell, ConfigurableCell {
    public static let kindName = "location"
    /// The map box's widest, in cells.
    public static let widestMap = 16

    public static func content(of model: any LocationMessageModel) -> BubbleContent { BubbleContent(text: model.place) }

    public override class func contentSize(of content: BubbleContent, in frame: BubbleFrame, text: MeasureText) -> ContentSize {
        var size = super.contentSize(of: content, in: frame, text: text)
        size.imageColumns = min(widestMap, frame.maxContentWidth)
        size.imageRows = max(1, size.imageColumns / 2)
        size.width = max(size.width, size.imageColumns)
        return size
    }

    public override class func box(for content: BubbleContent) -> ContentBox? {
        ContentBox(icon: "📍", asciiIcon: "[map]", title: "map")
    }
}

/// A place Dana shares, for tests.
public struct Location: LocationMessageModel {
    public var id: String
    public var senderName: String? = "Dana"
    public var direction: MessageDirection
    public var date: Date
    public var place: String

    public init(id: String, direction: MessageDirection = .incoming, date: Date = may1, place: String) {
        (self.id, self.direction, self.date, self.place) = (id, direction, date, place)
    }
}
