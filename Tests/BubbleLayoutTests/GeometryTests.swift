import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubbleLayout

@Suite struct GeometryTests {
    let style = BubbleStyle()
    let alone = RowDecoration(isFirstRow: true)

    @Test func incomingHugsTheLeftAndOutgoingTheRight() throws {
        let text = "Hello there"
        let incoming = try layoutAlone(TextNote(id: "1", text: text), width: 80, decoration: alone)
        let outgoing = try layoutAlone(TextNote(id: "2", direction: .outgoing, text: text), width: 80, decoration: alone)
        #expect(incoming.alignment == .left && incoming.x == 0)
        #expect(outgoing.alignment == .right && outgoing.x == 80 - outgoing.bubbleWidth)
        #expect(incoming.bubbleWidth == outgoing.bubbleWidth)
    }

    @Test func aBubbleShrinksToItsWidestLine() throws {
        let text = "ok"
        let layout = try layoutAlone(TextNote(id: "1", text: text), width: 80, decoration: alone)
        #expect(layout.wrapWidth == 60 - 4)
        #expect(layout.bubbleWidth == widest(text, width: 56) + 4)
        #expect(layout.textLines == lines(text, width: 56))
        #expect(layout.height == 2 + layout.textLines)
        #expect(layout.compactLevel == .full)
        #expect(layout.parts.isSuperset(of: [.topBorder, .bottomBorder, .sideBorders]))
    }

    @Test func longTextWrapsAtThreeQuartersOfTheContainer() throws {
        let text = String(repeating: "word ", count: 60)
        for width in [40, 80, 120] {
            let layout = try layoutAlone(TextNote(id: "\(width)", text: text), width: width, decoration: alone)
            let maxOuter = min(width, max(24, width * 3 / 4))
            #expect(layout.wrapWidth == maxOuter - 4)
            #expect(layout.bubbleWidth == widest(text, width: maxOuter - 4) + 4)
            #expect(layout.bubbleWidth <= maxOuter)
            #expect(layout.textLines == lines(text, width: maxOuter - 4))
        }
    }

    @Test func theMaximumWidthHasAFloor() throws {
        let layout = try layoutAlone(TextNote(id: "1", text: String(repeating: "x", count: 100)), width: 28, decoration: alone)
        #expect(layout.wrapWidth == 24 - 4)  // ¾ of 28 is 21, under the floor of 24
        let tiny = try layoutAlone(TextNote(id: "2", text: String(repeating: "x", count: 100)), width: 16, decoration: alone)
        #expect(tiny.bubbleWidth == 16)  // the floor never exceeds the container
    }

    @Test func narrowContainersStepDownInsteadOfBreaking() throws {
        let text = "a message that needs wrapping"
        let full = try layoutAlone(TextNote(id: "a", text: text), width: 10, decoration: alone)
        #expect(full.compactLevel == .full && full.wrapWidth == 6)
        let noSides = try layoutAlone(TextNote(id: "b", text: text), width: 9, decoration: alone)
        #expect(noSides.compactLevel == .noSideBorders)
        #expect(noSides.wrapWidth == 9 && !noSides.parts.contains(.sideBorders))
        #expect(noSides.parts.isSuperset(of: [.topBorder, .bottomBorder]))
        let plain = try layoutAlone(TextNote(id: "c", text: text, ), width: 5, decoration: alone)
        #expect(plain.compactLevel == .plain && plain.wrapWidth == 4)
        #expect(!plain.parts.contains(.topBorder) && plain.height == plain.textLines)
        for width in 1...12 {
            let layout = try layoutAlone(TextNote(id: "w\(width)", direction: .outgoing, text: text), width: width, decoration: alone)
            // Outgoing bubbles hug the right edge: x is what is left of the container.
            #expect(layout.bubbleWidth <= width && layout.x == width - layout.bubbleWidth && layout.wrapWidth >= 1)
            #expect(layout.textLines == lines(text, width: layout.wrapWidth))
        }
    }

    @Test func theFooterSitsInTheBottomBorderAndWidensTheBubble() throws {
        let deco = RowDecoration(isFirstRow: true, showsFooter: true, footerWidth: 12)
        let layout = try layoutAlone(TextNote(id: "1", text: "ok"), width: 80, decoration: deco)
        #expect(layout.footer == .inBottomBorder)
        #expect(layout.bubbleWidth == 12 + style.footerBorderOverhead)
        #expect(layout.height == 2 + layout.textLines)
        let plain = try layoutAlone(TextNote(id: "2", text: "ok"), width: 5, decoration: deco)
        #expect(plain.footer == .ownLine && plain.height == plain.textLines + 1)
    }

    @Test func aReplyQuoteTakesOneRowAndAMinimumWidth() throws {
        let deco = RowDecoration(isFirstRow: true, hasReplyQuote: true)
        let layout = try layoutAlone(TextNote(id: "1", replyToID: "0", text: "ok"), width: 80, decoration: deco)
        #expect(layout.parts.contains(.replyQuote))
        #expect(layout.height == 3 + layout.textLines)
        #expect(layout.bubbleWidth == 16 + 4)
    }

    @Test func imageBoxesKeepTheAspectRatioWithinTheLimits() throws {
        // 1280×720 at W=80: content 56 wide → 56×720/1280/2 = 15.75 rows > 12, so 12 rows × 43 cells.
        let wide = try layoutAlone(Picture(id: "1", pixelWidth: 1280, pixelHeight: 720), width: 80, decoration: alone)
        #expect(wide.kind == .image)
        #expect(wide.imageRows == 12 && wide.imageColumns == 43)
        #expect(wide.bubbleWidth == 43 + 4 && wide.height == 2 + 12 && wide.textLines == 0)
        // A panorama fits the width: 56 × 100 / 1000 / 2 = 2.8 → 3 rows.
        let panorama = try layoutAlone(Picture(id: "2", pixelWidth: 1000, pixelHeight: 100), width: 80, decoration: alone)
        #expect(panorama.imageColumns == 56 && panorama.imageRows == 3)
        // Very tall: 12 rows give 12×2×10/1000 ≈ 0 cells, so the minimum width holds.
        let tall = try layoutAlone(Picture(id: "3", pixelWidth: 10, pixelHeight: 1000), width: 80, decoration: alone)
        #expect(tall.imageColumns == style.imageMinColumns && tall.imageRows == 12)
        // Very flat: the minimum height holds.
        let flat = try layoutAlone(Picture(id: "4", pixelWidth: 5000, pixelHeight: 10), width: 80, decoration: alone)
        #expect(flat.imageRows == style.imageMinRows)
    }

    @Test func anImageOfUnknownSizeIsItsLabelsLines() throws {
        // "[image] IMG_0001.jpg": 20 cells on one line.
        let unknown = try layoutAlone(Picture(id: "1"), width: 80, decoration: alone)
        #expect(unknown.imageRows == 1 && unknown.imageColumns == 20)
        let known = try layoutAlone(Picture(id: "2", pixelWidth: 800, pixelHeight: 600), width: 80, decoration: alone)
        #expect(known.imageRows > 1 && unknown.height == known.height - known.imageRows + 1)
        // A size of 0 is no size.
        let zero = try layoutAlone(Picture(id: "3", pixelWidth: 0, pixelHeight: 600), width: 80, decoration: alone)
        #expect(zero == unknown)
        // A long name wraps, whole, in as many rows as it takes.
        let long = try layoutAlone(Picture(id: "4", imageName: String(repeating: "holiday ", count: 12) + "photo.jpg"), width: 40, decoration: alone)
        #expect(long.imageRows == wrap("[image] " + String(repeating: "holiday ", count: 12) + "photo.jpg", width: long.wrapWidth).lineCount)
        #expect(long.imageRows > 2)
    }

    @Test func aCaptionWrapsBelowTheBox() throws {
        let caption = String(repeating: "caption words ", count: 12)
        let layout = try layoutAlone(Picture(id: "1", pixelWidth: 400, pixelHeight: 400, caption: caption), width: 60, decoration: alone)
        let content = 45 - 4
        #expect(layout.wrapWidth == content)
        #expect(layout.textLines == lines(caption, width: content))
        #expect(layout.height == 2 + layout.imageRows + layout.textLines)
        #expect(layout.bubbleWidth == max(layout.imageColumns, widest(caption, width: content)) + 4)
    }

    @Test func systemNoticesAreCentredWithoutABubble() throws {
        let notice = "Alice joined the group"
        let layout = try layoutAlone(Notice(id: "1", notice: notice), width: 80, decoration: alone)
        #expect(layout.kind == .system && layout.alignment == .center)
        #expect(layout.parts == .rules && layout.footer == .none)
        #expect(layout.wrapWidth == 60 - 6)  // narrower than a bubble's 56
        #expect(layout.bubbleWidth == widest(notice, width: 54) + 6)
        #expect(layout.x == (80 - layout.bubbleWidth) / 2)
        #expect(layout.height == layout.textLines)
        let narrow = try layoutAlone(Notice(id: "2", notice: notice), width: 8, decoration: alone)
        #expect(narrow.parts.isEmpty && narrow.x + narrow.bubbleWidth <= 8)
    }

    @Test func dateSeparatorsAreCentredRuledLabels() {
        let engine = LayoutEngine()
        let day = CalendarDay(daysSinceEpoch: 19844)  // 2024-05-01
        #expect(day.label == "Wed 1 May 2024" && day.isoString == "2024-05-01")
        let first = engine.dateLayout(day, decoration: RowDecoration(isFirstRow: true), width: 80)
        #expect(first.kind == .date && first.height == 1 && first.textLines == 1)
        #expect(first.bubbleWidth == 14 + 6 && first.x == (80 - 20) / 2)
        let later = engine.dateLayout(day, decoration: RowDecoration(), width: 80)
        #expect(later.height == 2)
        let narrow = engine.dateLayout(day, decoration: RowDecoration(isFirstRow: true), width: 10)
        #expect(narrow.parts.isEmpty && narrow.bubbleWidth == 10 && narrow.height == 1)
    }

    @Test func rowLayoutsAreSmall() {
        #expect(MemoryLayout<RowLayout>.size <= 24)
        #expect(MemoryLayout<LayoutKey>.size == 32)
        #expect(LayoutCache.entryStride == 48)
    }
}
