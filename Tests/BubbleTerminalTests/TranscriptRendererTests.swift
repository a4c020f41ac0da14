import BubbleLayout
import BubbleLogs
import BubbleSamples
import BubbleText
import BubbleTestSupport
import Foundation
import Testing
@testable import BubbleTerminal

/// The renderer draws exactly the layouts the engine computed: every row draws `height` lines and
/// no line is wider than the container, over many generated timelines, widths and options.
@Suite struct TranscriptRendererTests {
    static let widths = [1, 2, 5, 10, 20, 40, 80, 120, 200]

    func checkContract(_ timeline: RenderedTimeline, width: Int, colorOn: Bool, options: TextOptions,
                       context: String) -> Int {
        var failures = 0
        for (r, lines) in timeline.lines.enumerated() {
            let layout = timeline.layouts[r]
            if lines.count != layout.height {
                failures += 1
                Issue.record("\(context) row \(r) (\(layout.kind)): drew \(lines.count) lines, height \(layout.height)\n\(lines.joined(separator: "\n"))")
            }
            for line in lines {
                let drawn = CellWidth.of(stripSGR(line), options: options)
                if drawn > width {
                    failures += 1
                    Issue.record("\(context) row \(r): line \(drawn) cells wide > \(width): \(line.debugDescription)")
                }
                if !colorOn && line.utf8.contains(0x1B) {
                    failures += 1
                    Issue.record("\(context) row \(r): escape with colour off: \(line.debugDescription)")
                }
                if line.unicodeScalars.last == " " {
                    failures += 1
                    Issue.record("\(context) row \(r): trailing blank: \(line.debugDescription)")
                }
            }
            if failures > 10 { return failures }
        }
        return failures
    }

    @Test func everyRowDrawsItsHeightAndFitsTheWidth() throws {
        var generator = TimelineGenerator(random: SeededGenerator(seed: 0xB0BB1E5))
        var rowsChecked = 0
        for t in 0..<12 {
            let models = generator.timeline(count: 40)
            let engine = LayoutEngine()
            for width in Self.widths {
                for (color, ascii) in [(ColorDepth.none, false), (.none, true), (.palette256, false), (.trueColor, true)] {
                    let timeline = try render(models, width: width, color: color, ascii: ascii, engine: engine)
                    let failures = checkContract(timeline, width: width, colorOn: color != .none,
                                                 options: TextOptions(),
                                                 context: "timeline \(t) width \(width) \(color) ascii \(ascii)")
                    if failures > 0 { return }
                    rowsChecked += timeline.rows.count
                }
            }
        }
        #expect(rowsChecked > 12 * 40 * Self.widths.count * 4)
    }

    @Test func ambiguousWideEnginesGetASCIIChromeThatStillFits() throws {
        var generator = TimelineGenerator(random: SeededGenerator(seed: 42))
        let options = TextOptions(ambiguousWidth: 2, tabStop: 4)
        for t in 0..<4 {
            // Ids repeat across timelines with new content, so each gets its own cache.
            let engine = LayoutEngine(textOptions: options)
            let models = generator.timeline(count: 40)
            for width in Self.widths {
                let timeline = try render(models, width: width, color: .palette256, engine: engine)
                if checkContract(timeline, width: width, colorOn: true, options: options,
                                 context: "ambiguous-wide timeline \(t) width \(width)") > 0 { return }
                #expect(!timeline.text.contains("╭"))
            }
        }
    }

    @Test func hostileTimelinesKeepTheContract() throws {
        let models = HostileInputTests.hostileTimeline()
        for width in Self.widths {
            for (color, ascii) in [(ColorDepth.none, false), (.palette256, true)] {
                let timeline = try render(models, width: width, color: color, ascii: ascii, parties: 3)
                if checkContract(timeline, width: width, colorOn: color != .none, options: TextOptions(),
                                 context: "hostile width \(width) \(color)") > 0 { return }
            }
        }
    }

    /// A forward that is also a reply: the bubble widens for the forward's line, the separator and
    /// the reply's quote at its minimum, so the forward's line is whole and the reply shows
    /// wherever the bubble can be that wide; every row draws its height at widths 1 to 100.
    @Test func aForwardThatIsAlsoAReplyShowsBothAndDrawsItsHeightAtEveryWidth() throws {
        let day = Date(timeIntervalSince1970: 1_714_557_600)
        var forward = LogMessageHeader(id: "2", senderName: "Bob", date: day.addingTimeInterval(60), replyToID: "1")
        forward.forwardedFrom = "Carol"
        var anonymous = LogMessageHeader(id: "3", senderName: "Bob", date: day.addingTimeInterval(120), replyToID: "1")
        anonymous.forwardedFrom = ""
        var picture = LogMessageHeader(id: "4", senderName: "Bob", date: day.addingTimeInterval(180), replyToID: "1")
        picture.forwardedFrom = "Carol"
        let models: [any MessageModel] = [
            LogTextMessage(header: LogMessageHeader(id: "1", senderName: "Ann", date: day), text: "the original"),
            LogTextMessage(header: forward, text: "fwd reply short"),
            LogTextMessage(header: anonymous, text: "fwd reply short"),
            LogImageMessage(header: picture, pixelWidth: 40, pixelHeight: 30, imageName: "p.png", caption: nil),
        ]
        let engine = LayoutEngine()
        let measurer = CellMeasurer()
        let labels = ["Forwarded from Carol", "Forwarded", "Forwarded from Carol"]
        var bothShown = 0
        for width in 1...100 {
            let timeline = try render(models, width: width, engine: engine)
            #expect(checkContract(timeline, width: width, colorOn: false, options: TextOptions(),
                                  context: "forward and reply, width \(width)") == 0)
            for (r, row) in timeline.rows.enumerated() where !row.isDateSeparator && row.messageIndex > 0 {
                let layout = timeline.layouts[r]
                let label = "↪ " + labels[row.messageIndex - 1]
                #expect(row.decoration.quoteAddsReply && row.decoration.quoteWidth == measurer.width(of: label) + 3)  // " · ", trailing blank too
                guard layout.parts.contains(.replyQuote) else { continue }
                let maximum = BubbleFrame(containerWidth: width, style: engine.style, drawsBubble: true).maxContentWidth
                let needs = row.decoration.quoteWidth + engine.style.replyQuoteMinimumWidth
                #expect(layout.contentWidth(in: engine.style) >= min(maximum, needs), "width \(width)")
                if layout.contentWidth(in: engine.style) >= needs {
                    let quoteLine = try #require(timeline.lines[r].first { $0.contains("↪") })
                    #expect(quoteLine.contains(label + " · ↩ Ann: the orig"), "width \(width): \(quoteLine)")
                    bothShown += 1
                }
            }
        }
        #expect(bothShown > 100)
        // With room, the reply's quote gets its minimum width, cut as a reply's quote is.
        let wide = try render(Array(models.prefix(2)), width: 80, engine: engine)
        #expect(wide.text.contains("│ ↪ Forwarded from Carol · ↩ Ann: the orig… │"))
    }

    @Test func renderedHeightsEqualTheBatchHeightsAtTheSameWidth() throws {
        var generator = TimelineGenerator(random: SeededGenerator(seed: 7))
        let models = generator.timeline(count: 120)
        let engine = LayoutEngine()
        let batch = try engine.layoutBatch(models, widths: Self.widths,
                                           options: DecorationOptions(timeZone: utc))
        for (w, width) in Self.widths.enumerated() {
            var renderer = TranscriptRenderer(engine: engine, options: RenderOptions(width: width, timeZone: utc))
            let drawn = renderer.render(models, batch: batch, widthIndex: w)
            #expect(drawn.map(\.count).reduce(0, +) == batch.totalHeight(widthIndex: w))
            var streaming = TranscriptRenderer(engine: engine, options: RenderOptions(width: width, timeZone: utc))
            let again = try batch.rows.map { row in
                try streaming.lines(for: row, model: row.isDateSeparator ? nil : models[row.messageIndex])
            }
            #expect(again == drawn)
        }
    }

    /// The renderer fuzzer's findings (issue 15), whole timelines: a VS16 after a control's visible
    /// form or at the start of a line (after NEL) never reaches the output, and no line re-measured
    /// from the output is wider than the width (`^[` + VS16 measured a cell wider than drawn).
    @Test func variationSelectorsAfterControlsNeverReachTheTerminal() throws {
        let texts = ["a\u{1B}\u{FE0F}b", String(repeating: "x\u{7}\u{FE0F}", count: 40),
                     "line\u{85}\u{FE0F}next", "\u{FE0F}\u{85}\u{FE0F}"]
        let models: [any MessageModel] = texts.enumerated().map { TextNote(id: "v\($0)", text: $1) }
        for width in Self.widths {
            let timeline = try render(models, width: width)
            #expect(checkContract(timeline, width: width, colorOn: false, options: TextOptions(),
                                  context: "width \(width)") == 0)
            #expect(!timeline.text.unicodeScalars.contains("\u{FE0F}"), "width \(width)")
        }
    }


    /// Images of extreme shapes (1×100000, 100000×1, 1×1, sizes near `Int.max`, unknown), with
    /// and without captions, replies and names, at every width from 1 to 100 in Unicode and ASCII
    /// chrome: every row draws its height and fits, and every image box keeps its frame (top and
    /// bottom rules, a side on each inner row) whenever the layout gives it the 3 × 3 cells a frame
    /// needs, which it does whenever the content is 3 cells wide.
    @Test func extremeImagesKeepTheirFrameAndDrawTheirHeightAtEveryWidth() throws {
        let sizes: [(Int?, Int?)] = [(1, 100_000), (100_000, 1), (1, 1), (Int.max, 1), (1, Int.max), (1200, 900),
                                     (nil, nil), (3, 1), (1, 3), (100_000, 100_000), (16, 9), (1000, 100)]
        let models: [any MessageModel] = sizes.enumerated().map { index, size in
            Picture(id: "p\(index)", senderName: index % 4 == 0 ? "Bob" : "Alice",
                    direction: index % 3 == 1 ? .outgoing : .incoming, date: may1.addingTimeInterval(Double(index) * 600),
                    replyToID: index % 5 == 4 ? "p0" : nil, pixelWidth: size.0, pixelHeight: size.1,
                    imageName: index % 2 == 0 ? "wide.png" : "صورة 🏳️‍🌈.jpg", caption: index % 3 == 2 ? "a caption" : nil)
        }
        let engine = LayoutEngine()
        var framedBoxes = 0, failures = 0
        for width in 1...100 where failures == 0 {
            for ascii in [false, true] {
                let timeline = try render(models, width: width, ascii: ascii, engine: engine, parties: 2)
                failures += checkContract(timeline, width: width, colorOn: false, options: TextOptions(),
                                          context: "images width \(width) ascii \(ascii)")
                let glyphs = ascii ? ChromeGlyphs.ascii : ChromeGlyphs.unicode
                for (r, lines) in timeline.lines.enumerated() where timeline.layouts[r].kind == .image {
                    let layout = timeline.layouts[r]
                    let columns = min(layout.imageColumns, layout.contentWidth(in: engine.style))
                    // (A picture of unknown size is its label's lines, not a box.)
                    let picture = models[timeline.rows[r].messageIndex] as? Picture
                    guard let picture, (picture.pixelWidth ?? 0) > 0 && (picture.pixelHeight ?? 0) > 0 else { continue }
                    if layout.contentWidth(in: engine.style) >= 3 && layout.imageRows < 3 {
                        failures += 1
                        Issue.record("width \(width) row \(r): an image box of \(layout.imageRows) rows")
                    }
                    guard columns >= 3 && layout.imageRows >= 3 else { continue }
                    let start = layout.spacingAbove + (layout.parts.contains(.nameLine) ? 1 : 0)
                        + (layout.parts.contains(.topBorder) ? 1 : 0) + (layout.parts.contains(.replyQuote) ? 1 : 0)
                    let box = lines[start..<(start + layout.imageRows)].map(stripSGR)
                    let rule = String(repeating: glyphs.boxHorizontal, count: columns - 2)
                    var framed = box.first!.contains(glyphs.boxTopLeft + rule + glyphs.boxTopRight)
                        && box.last!.contains(glyphs.boxBottomLeft + rule + glyphs.boxBottomRight)
                    for line in box.dropFirst().dropLast() {
                        framed = framed && line.components(separatedBy: glyphs.boxVertical).count >= 3
                    }
                    if !framed {
                        failures += 1
                        Issue.record("width \(width) ascii \(ascii) row \(r): a \(columns)×\(layout.imageRows) box without its frame\n\(lines.joined(separator: "\n"))")
                    }
                    framedBoxes += 1
                }
            }
        }
        #expect(failures == 0)
        #expect(framedBoxes > 100 * 2 * sizes.count / 2)
    }
}
