import BubbleLayout
import BubbleText
import BubbleTestSupport
import Testing
@testable import BubbleTerminal

/// A picture of unknown size is drawn as its whole label, wrapped, in the lines its cell
/// measured; a picture of known size keeps its box.
@Suite struct UnknownSizeImageTests {
    static let names = ["photo (not included in the export)", "IMG_0001.jpg", "صورة العائلة.png", "家族の写真をみんなで見た日.jpg",
                        "👨‍👩‍👧 family picnic by the lake on a sunny afternoon.heic",
                        "verylongfilenamewithoutanybreakwhatsoeverthatgoesonandonandon.jpeg", "a"]

    /// The label's characters, spaces aside, in the order drawn: what the drawn lines must hold.
    func letters(_ text: String) -> String { String(text.filter { !$0.isWhitespace }) }

    @Test func theWholeLabelIsDrawnInTheRowsMeasured() throws {
        for ascii in [false, true] {
            for name in Self.names {
                for width in [14, 20, 33, 47, 60, 80, 120] {
                    let picture = Picture(id: "1", imageName: name, caption: "and a caption")
                    let rendered = try render([picture], width: width, ascii: ascii)
                    let row = try #require(rendered.rows.firstIndex { !$0.isDateSeparator })
                    let layout = rendered.layouts[row]
                    let lines = rendered.lines[row]
                    #expect(lines.count == layout.height, "\(name) at \(width)")
                    #expect(layout.imageRows >= 1)
                    // Compact: the label's lines, not a 4:3 box.
                    // The label wrapped at the bubble's wrap width: as many rows as lines.
                    let label = wrap(ImageContent.labelPrefix + name, width: layout.wrapWidth)
                    #expect(label.lineCount == layout.imageRows && label.widestLine == layout.imageColumns)
                    // The label rows sit after the name line and top border; together they hold the whole label.
                    let first = layout.spacingAbove + (layout.parts.contains(.nameLine) ? 1 : 0) + (layout.parts.contains(.topBorder) ? 1 : 0)
                    let drawn = lines[first..<first + layout.imageRows].map { stripSGR($0) }
                        .map { ascii ? $0.replacingOccurrences(of: "|", with: "") : $0.replacingOccurrences(of: "│", with: "") }
                    let whole = ImageContent.labelPrefix + name
                    if !BidiTables.mayContainRightToLeft(name) {
                        #expect(letters(drawn.joined()) == letters(whole), "\(name) at \(width): \(drawn)")
                    }
                    #expect(!drawn.joined().contains(ascii ? "..." : "…"))
                }
            }
        }
    }

    @Test func aShortLabelTakesOneRowAndAKnownSizeKeepsItsBox() throws {
        let unknown = try render([Picture(id: "1", imageName: "photo (not included in the export)")], width: 80)
        let known = try render([Picture(id: "1", pixelWidth: 1200, pixelHeight: 900, imageName: "photo.jpg")], width: 80)
        let u = unknown.layouts[unknown.rows.firstIndex { !$0.isDateSeparator }!]
        let k = known.layouts[known.rows.firstIndex { !$0.isDateSeparator }!]
        #expect(u.imageRows == 1 && u.imageColumns == "[image] photo (not included in the export)".count)
        #expect(k.imageRows == BubbleStyle().imageMaxRows)
        #expect(unknown.text.contains("[image] photo (not included in the export)"))
        #expect(known.text.contains("📷 photo.jpg"))
    }

    @Test func theBatchPathAndABoundCellAgreeOnACompactImage() throws {
        let models: [any MessageModel] = Self.names.enumerated().map { i, name in
            Picture(id: "\(i)", imageName: name, caption: i % 2 == 0 ? "caption \(i)" : nil)
        }
        let rows = try LayoutEngine().decorate(models, options: DecorationOptions(timeZone: utc))
        let widths = [14, 33, 80]
        // The one-pass path (not remembering) prepares each part itself; the other goes through the store.
        for remembering in [false, true] {
            let batch = LayoutEngine().layoutRows(rows, of: models, widths: widths, remembering: remembering)
            let engine = LayoutEngine()
            for (w, width) in widths.enumerated() {
                for (r, row) in rows.enumerated() {
                    #expect(engine.layout(row, in: models, width: width) == batch[w * rows.count + r])
                }
            }
        }
    }
}
