import BubbleText

/// A date separator: the day's label on one line, centred between rules when they fit
/// (`── Wed 1 May 2024 ──`), with the group spacing above it unless it is the first row. Its
/// content is the label (`CalendarDay.label`), which is never wrapped: a container narrower than
/// the label cuts it.
package class DateSeparatorCell: BubbleCell {
    /// The kind's name: what `heights` prints for a separator row.
    package static let kindName = "date"

    override package class var drawsBubble: Bool { false }

    /// What a separator shows: the day's label.
    package static func content(of day: CalendarDay) -> BubbleContent { BubbleContent(text: day.label) }

    /// Widest a label is measured at: labels are one line, measured whole.
    static let unwrapped = 1 << 30

    override package class func layout(kind: RowKind, content: BubbleContent, direction: MessageDirection,
                                     decoration: RowDecoration, containerWidth: Int, style: BubbleStyle,
                                     text: MeasureText) -> RowLayout {
        let label = content.text.map { text($0, 0, unwrapped).widestLine } ?? 0
        let frame = BubbleFrame(containerWidth: containerWidth, style: style, drawsBubble: false)
        let ruled = frame.compactLevel == .full && label + frame.horizontalChrome <= frame.containerWidth
        let outer = min(frame.containerWidth, label + (ruled ? frame.horizontalChrome : 0))
        return RowLayout(kind: kind, alignment: .center, compactLevel: ruled ? .full : .plain,
                         parts: ruled ? .rules : [], footer: .none,
                         spacingAbove: decoration.isFirstRow ? 0 : style.groupSpacing,
                         x: (frame.containerWidth - outer) / 2, bubbleWidth: outer,
                         wrapWidth: frame.containerWidth, textLines: 1)
    }

    /// The style's date row height, whatever the label (its text height is reported as 0).
    override package class func pixelRow(_ layout: RowLayout, textHeight64: Int, labelHeight64: Int?,
                                      style: PixelStyle) -> PixelRow {
        PixelRow(layout: layout, height64: (layout.spacingAbove + style.dateHeight) * 64, textHeight64: 0,
                 bubbleWidth: layout.bubbleWidth)
    }
}
