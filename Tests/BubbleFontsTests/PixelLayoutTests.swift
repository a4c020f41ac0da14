import Foundation
import Testing
import BubbleLayout
import BubbleLogs
import BubbleText
import BubbleTestSupport
@testable import BubbleFonts

/// The pixel measurer inside the layout engine: the same cells and decorations as in terminal
/// cells, the geometry from `PixelStyle`, heights in 1/64 px.
@Suite struct PixelLayoutTests {
    static func measurer(lineHeight: LineHeight) throws -> PixelLayoutMeasurer {
        let chain = try FontChain(fonts: [FontFixtures.font("NotoSans-Subset.ttf"), FontFixtures.font("NotoColorEmoji-Subset.ttf")],
                                  size: 16)
        return PixelLayoutMeasurer(PixelMeasurer(chain: chain, lineHeight: lineHeight))
    }

    /// A small group chat: several senders (names shown), a reply, an edit, an image with and
    /// without a caption, a notice, a day change, and texts from one word to several lines.
    static func models() -> [any MessageModel] {
        let start = Date(timeIntervalSince1970: 1_714_557_600)
        var models: [any MessageModel] = []
        var generator = SplitMix(seed: 14)
        let words = ["hello", "the", "meeting", "is", "at", "10:30", "tomorrow", "😂", "👍🏽", "okay!", "https://example.com/a/b?c=d",
                     "Привет", "καλημέρα", "we'll", "bring", "coffee", "—", "see", "you", "there"]
        for i in 0..<120 {
            let date = start.addingTimeInterval(Double(i) * 400)
            let sender = ["Ana", "Ben", "Chloé"][Int(generator.next() % 3)]
            let outgoing = generator.next() % 4 == 0
            switch i % 17 {
            case 5:
                models.append(Picture(id: "p\(i)", senderName: sender, direction: outgoing ? .outgoing : .incoming, date: date,
                                      pixelWidth: 1200, pixelHeight: 900 + i, caption: i % 2 == 0 ? "the view from the top" : nil))
            case 11:
                models.append(Notice(id: "n\(i)", date: date, notice: "\(sender) changed the group's name to \"Trip 🏔️\""))
            default:
                let count = 1 + Int(generator.next() % 40)
                let text = (0..<count).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined(separator: " ")
                models.append(TextNote(id: "m\(i)", senderName: sender, direction: outgoing ? .outgoing : .incoming, date: date,
                                       status: outgoing ? .read : nil, isEdited: i % 7 == 0,
                                       replyToID: i % 9 == 0 && i > 0 ? "m\(i - 1)" : nil, text: text))
            }
        }
        return models
    }

    @Test(arguments: [LineHeight.pixels(20), .normal, .factor(1.4)])
    func bubbleHeightsAreTextHeightPlusTheStylesFixedParts(lineHeight: LineHeight) throws {
        let measurer = try Self.measurer(lineHeight: lineHeight)
        var style = PixelStyle()
        style.nameHeight = 17
        style.footerHeight = 15
        let engine = LayoutEngine(measurer: measurer, style: style.bubbleStyle)
        let models = Self.models()
        let widths = [240, 320, 375, 768]
        let batch = try engine.layoutBatch(models, widths: widths)
        var kinds: Set<RowKind> = [], names = 0, quotes = 0
        for w in widths.indices {
            for r in batch.rows.indices {
                let row = engine.pixelRow(r, of: batch, widthIndex: w, style: style) {
                    measurer.textHeight(of: $0, lineCount: $1, width: $2)
                }
                let layout = row.layout
                kinds.insert(layout.kind)
                let spacing = layout.spacingAbove * 64
                switch layout.kind {
                case .date:
                    #expect(row.height64 == spacing + style.dateHeight * 64)
                case .system:
                    #expect(row.height64 == spacing + row.textHeight64 + 2 * style.noticeVerticalPadding * 64)
                default:
                    // Independently of PixelRow: the parts this row shows, summed here.
                    var fixed = 2 * style.verticalPadding
                    if layout.parts.contains(.nameLine) { fixed += style.nameHeight; names += 1 }
                    if layout.parts.contains(.replyQuote) { fixed += style.replyQuoteHeight; quotes += 1 }
                    if layout.imageRows > 0 { fixed += layout.imageRows + (layout.textLines > 0 ? style.imageCaptionGap : 0) }
                    if layout.footer != .none { fixed += style.footerHeight }
                    #expect(row.height64 == spacing + fixed * 64 + row.textHeight64)
                    #expect(row.bubbleWidth >= style.minimumWidth && row.bubbleWidth <= widths[w])
                }
                // The text's height is the measurer's own for the text wrapped at the row's wrap width.
                if layout.textLines > 0, !batch.rows[r].isDateSeparator,
                   let text = engine.content(of: batch.models[batch.rows[r].messageIndex]).body.text {
                    let prepared = measurer.prepare(text)
                    #expect(measurer.pixels.height(of: prepared, width: layout.wrapWidth * 64) == row.textHeight64)
                    #expect(prepared.metrics(width: layout.wrapWidth * 64).lineCount == layout.textLines)
                }
            }
        }
        #expect(kinds == [.text, .image, .system, .date])
        #expect(names > 0 && quotes > 0)
    }

    @Test func textWrapsAtTheContentWidthInWholePixels() throws {
        let measurer = try Self.measurer(lineHeight: .pixels(20))
        let style = PixelStyle()
        let engine = LayoutEngine(measurer: measurer, style: style.bubbleStyle)
        let text = "The meeting moved to 10:30 tomorrow, we'll bring coffee for everyone 😂"
        let batch = try engine.layoutBatch([TextNote(id: "a", text: text)], widths: [200, 375, 1000])
        for (w, width) in batch.widths.enumerated() {
            let row = try #require(batch.rows.firstIndex { !$0.isDateSeparator })
            let layout = batch.layout(row: row, widthIndex: w)
            // 0.75 of the container, at least 240 px, at most the container; 12 px padding each side.
            let maxOuter = min(width, max(240, width * 3 / 4))
            #expect(layout.wrapWidth == maxOuter - 24)
            let lu = measurer.pixels.layout(measurer.prepare(text), width: layout.wrapWidth * 64)
            #expect(layout.textLines == lu.lineCount)
            #expect(layout.bubbleWidth >= (lu.widestLine + 63) / 64 + 24)
        }
    }

    @Test func normalLineHeightFollowsTheFontsOnEachLine() throws {
        let chain = try FontChain(fonts: [FontFixtures.font("NotoSans-Subset.ttf"), FontFixtures.font("NotoSansCJK-Subset.ttc")],
                                  size: 16)
        let measurer = PixelLayoutMeasurer(PixelMeasurer(chain: chain, lineHeight: .normal))
        // Noto Sans CJK is taller than Noto Sans: a line with a CJK character is taller.
        #expect(measurer.pixels.uniformLineHeight64 == nil)
        let plain = measurer.textHeight(of: "plain words", lineCount: 1, width: 300)
        let cjk = measurer.textHeight(of: "words 東京", lineCount: 1, width: 300)
        #expect(plain == 22 * 64)
        #expect(cjk == 24 * 64)
        // Wrapped at 60 px, "plain words 東京" is three lines of which one holds CJK.
        #expect(measurer.textHeight(of: "plain words 東京", lineCount: 3, width: 60) == (22 + 22 + 24) * 64)
        let explicit = try Self.measurer(lineHeight: .pixels(20))
        #expect(explicit.textHeight(of: "words 😂", lineCount: 3, width: 300) == 60 * 64)
    }

    @Test func pixelsArePrintedExactly() {
        #expect(PixelRow.pixels(1280) == "20")
        #expect(PixelRow.pixels(1433) == "22.390625")
        #expect(PixelRow.pixels(32) == "0.5")
        #expect(PixelRow.pixels(0) == "0")
    }

    @Test func aStyleFileSetsTheKeysItNamesAndRejectsTheRest() throws {
        let style = try PixelStyle(json: Array(#"{"horizontalPadding": 10, "maxWidthFraction": 0.8, "nameHeight": 20}"#.utf8), file: "s.json")
        var expected = PixelStyle()
        expected.horizontalPadding = 10
        expected.maxWidthFraction = 0.8
        expected.nameHeight = 20
        #expect(style == expected)
        let bad: [(String, String)] = [
            (#"{"padding": 4}"#, "unknown key 'padding'"),
            (#"{"nameHeight": 12.5}"#, "'nameHeight' must be a whole number of px"),
            (#"{"nameHeight": "12"}"#, "'nameHeight' must be a whole number of px"),
            (#"{"nameHeight": true}"#, "'nameHeight' must be a number"),
            (#"{"groupSpacing": 300}"#, "from 0 to 255"),
            (#"{"horizontalPadding": 0}"#, "from 1 to"),
            (#"{"maxWidthFraction": 1.5}"#, "'maxWidthFraction' must be a number above 0 and at most 1"),
            (#"[1, 2]"#, "expected a JSON object"),
            (#"{"nameHeight": 12"#, "not valid JSON"),
        ]
        for (json, reason) in bad {
            #expect(throws: PixelStyleError.self) { try PixelStyle(json: Array(json.utf8), file: "s.json") }
            do {
                _ = try PixelStyle(json: Array(json.utf8), file: "s.json")
            } catch {
                #expect(error.file == "s.json")
                #expect(error.reason.contains(reason), "\(json): \(error.reason)")
            }
        }
    }

    @Test func aStyleFileSyntaxErrorNamesItsLineAndColumn() {
        #expect(throws: PixelStyleError(file: "s.json", line: 2, column: 16, reason: "not valid JSON: expected ':' after the member name \"nameHeight\"")) {
            try PixelStyle(json: Array("{\n  \"nameHeight\" 12}".utf8), file: "s.json")
        }
        #expect(PixelStyleError(file: "s.json", line: 2, column: 17, reason: "r").description == "s.json:2:17: r")
        #expect(PixelStyleError(file: "s.json", reason: "r").description == "s.json: r")
    }
}

/// A small fixed-seed generator, so the randomised chat is the same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
