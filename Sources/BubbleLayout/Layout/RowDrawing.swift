import Foundation

/// What a laid-out row draws, beside its geometry: the row's layout with the content its cell
/// measured, the box its cell describes, the chrome's texts (name, quote, footer) and the
/// prepared texts the layout measured. Made once per drawn row by `LayoutEngine.drawing`, through
/// the row's cell, so a renderer draws the row from this alone (it never asks the engine, the
/// registry or the text store), and a kind an app adds is drawn as its cell describes it.
package struct RowDrawing<Prepared> {
    /// The row's geometry: what parts it has, where, how many lines each takes.
    package var layout: RowLayout
    /// What the cell shows: the text (part 0) in its style, with its spans.
    package var content: BubbleContent
    /// The box above the text, as the cell describes it (`BubbleCell.box(for:)`); nil for none.
    package var box: ContentBox?
    /// The text's lines as the layout measured them (part 0), when there is a text.
    package var text: Prepared?
    /// A box drawn as its label's lines instead of a frame (a picture of unknown size), as the
    /// layout measured them (part `ImageContent.labelPart`).
    package var boxLabel: Prepared?
    /// The message the row shows, as the chrome draws it; nil for a date separator.
    package var message: Message?
    /// A date separator's label; nil for a message row.
    package var dayLabel: String?

    /// The message's texts and facts the chrome draws (name line, reply quote, footer), and its
    /// preview for later quotes.
    package struct Message {
        package var id: String
        package var revision: Int
        package var conversationID: String?
        package var senderName: String?
        package var replyToID: String?
        package var forwardedFrom: String?
        package var date: Date
        package var status: DeliveryStatus?
        package var isEdited: Bool
        /// The first row of a conversation that is its heading (drawn set apart from notices).
        package var isHeading: Bool
        /// The cells the decoration reserved for the footer.
        package var footerWidth: Int
        /// What a reply to this message quotes (`ConfigurableCell.previewText(of:)`).
        package var previewText: String
    }
}

/// What a content box shows: a title (a picture's file name, a map's place) after its kind's
/// icon, and the pixel size when there is one (`1280×720`). The renderer draws any box alike.
public struct ContentBox: Sendable, Hashable {
    /// The icon before the title, in the Unicode glyph set (two cells wide: an East Asian Wide,
    /// Emoji_Presentation character, so every terminal draws it as the engine measures it).
    package var icon: String
    /// The icon in the ASCII glyph set.
    package var asciiIcon: String
    /// The title after the icon.
    package var title: String
    /// The pixel size, when known; drawn after the title.
    package var pixelWidth: Int?
    package var pixelHeight: Int?

    /// A box titled `title` after `icon` (`asciiIcon` where only ASCII is drawn), of
    /// `pixelWidth` × `pixelHeight` px when that is known.
    public init(icon: String, asciiIcon: String, title: String, pixelWidth: Int? = nil, pixelHeight: Int? = nil) {
        self.icon = icon
        self.asciiIcon = asciiIcon
        self.title = title
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }

    /// The box of a picture: 📷 (`[img]`), its file name and size. 📷 rather than 🖼: it is
    /// Emoji_Presentation and East Asian Wide, so every terminal draws it 2 cells wide, as the
    /// engine measures it; 🖼 without VS16 is 1 cell to the engine and 2 in many terminals, which
    /// would break the box's right edge.
    package init(picture: ImageContent) {
        self.init(icon: "📷", asciiIcon: "[img]", title: picture.name, pixelWidth: picture.pixelWidth,
                  pixelHeight: picture.pixelHeight)
    }
}

extension LayoutEngine {
    /// What `row` (showing `model`, nil for a date separator) draws, laid out as `layout`: made
    /// by the row's cell from the content it measured, with the prepared texts the layout used,
    /// from the store when `keepingTexts` (where the layout left them) or prepared again.
    package func drawing(of row: DecoratedRow, model: (any MessageModel)?, layout: RowLayout,
                         keepingTexts: Bool) -> RowDrawing<Measurer.Prepared> {
        guard !row.isDateSeparator, let model else {
            return RowDrawing(layout: layout, content: BubbleContent(text: row.day.label), box: nil, text: nil,
                              boxLabel: nil, message: nil, dayLabel: row.day.label)
        }
        let configurator = registry.configurators[row.configuratorIndex]
        let content = configurator.content(model)
        func prepared(_ text: String, part: Int) -> Measurer.Prepared {
            keepingTexts ? texts.prepared(id: model.id, revision: model.revision, part: part, text: text)
                : texts.measurer.prepare(text)
        }
        let box = configurator.cellType.box(for: content)
        // A picture of unknown size is drawn as its label's lines, as its cell measured them.
        let label = content.image.flatMap { $0.hasKnownSize ? nil : prepared($0.label, part: ImageContent.labelPart) }
        let message = RowDrawing<Measurer.Prepared>.Message(
            id: model.id, revision: model.revision, conversationID: model.conversationID, senderName: model.senderName, replyToID: model.replyToID,
            forwardedFrom: model.forwardedFrom, date: model.date, status: model.status, isEdited: model.isEdited,
            isHeading: row.decoration.isFirstRow && model.isConversationHeading, footerWidth: row.decoration.footerWidth,
            previewText: configurator.previewText(model))
        return RowDrawing(layout: layout, content: content, box: box,
                          text: layout.textLines > 0 ? prepared(content.text ?? "", part: 0) : nil,
                          boxLabel: label, message: message, dayLabel: nil)
    }
}
