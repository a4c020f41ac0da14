import BubbleFonts
import BubbleLayout
import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing
@testable import BubblePictures

/// A document's rows spilled to its temporary file (`DocumentSpill`) come back as they went out:
/// a document written with a spill after every row is byte for byte the one kept in memory, its
/// embedded fonts cut to the same code points, and a page started after a spill holds only its
/// own rows. Rows made from a batch that kept its texts are the rows made from one that did not.
@Suite struct DocumentSpillTests {
    static let fontNames = ["NotoSans-Subset.ttf", "NotoSansHebrew-Subset.ttf", "NotoSansArabic-Subset.ttf", "NotoSansCJK-Subset.ttc",
                            "NotoColorEmoji-Subset.ttf"]
    static let fontBytes = fontNames.map { [UInt8](try! Data(contentsOf: URL(fileURLWithPath: corpus("fonts/" + $0)))) }
    static let measurer = PixelLayoutMeasurer(PixelMeasurer(chain: try! FontChain(fonts: fontBytes.map { try! OpenTypeFont(bytes: $0) }, size: 16),
                                                            lineHeight: .normal))
    static let utc = TimeZone(identifier: "UTC")!

    static func models(_ path: String) throws -> [any MessageModel] {
        let reader = try LogSource.open(path: corpus(path), options: LogReadOptions(timeZone: utc))
        return reader.compactMap { $0.record }
    }

    /// The rows of `models` at `width`, from a batch laid out keeping its texts or not.
    static func rows(_ models: [any MessageModel], width: Int, keeping: Bool) throws -> [PictureRow] {
        let style = PixelStyle()
        let engine = LayoutEngine(measurer: measurer, style: style.bubbleStyle)
        var layout = StreamingLayout(engine: engine, widths: [width], options: DecorationOptions(timeZone: utc), remembering: false,
                                     inInputOrder: true, keepingTexts: keeping)
        for model in models { layout.append(model) }
        let batch = try layout.flush(final: true)
        #expect((batch.keptTexts != nil) == keeping)
        var maker = PictureRowMaker(engine: engine, style: style, timeZone: utc)
        return batch.rows.indices.map { maker.row($0, of: batch) }
    }

    static func describe(_ row: PictureRow) -> String {
        func lines(_ lines: [PictureLine]) -> String {
            lines.map { line in
                line.runs.map { "\($0.rightToLeft ? "<" : ">")\($0.text)" }.joined() + " \(line.width) \(line.height64) \(line.rightToLeft)"
            }.joined(separator: " | ")
        }
        return "\(row.id) \(row.kind) \(row.pixels) \(row.x) \(row.width) \(row.contentX) \(row.contentWidth) \(row.image.map { "\($0.width)x\($0.height)" } ?? "-")"
            + " [\(lines(row.lines))] [\(lines(row.imageLabel))]"
    }

    @Test(arguments: ["logs/sample.jsonl", "exports/whatsapp/ios-de_DE-media.txt", "exports/telegram/message-kinds/result.json"])
    func rowsFromKeptTextsAreTheRowsMadeAfresh(path: String) throws {
        let models = try Self.models(path)
        for width in [180, 375] {
            let fresh = try Self.rows(models, width: width, keeping: false).map(Self.describe)
            let kept = try Self.rows(models, width: width, keeping: true).map(Self.describe)
            #expect(kept == fresh, "\(path) at \(width)")
            #expect(fresh.count > 5)
        }
    }

    static func documents(_ rows: [PictureRow], embedding: Bool, threshold: Int?) -> [[UInt8]] {
        let fonts = PictureFonts(fontNames.indices.map {
            PictureFonts.Source(path: corpus("fonts/" + fontNames[$0]), embeddedBytes: embedding ? fontBytes[$0] : nil)
        })
        var svg = TranscriptSVG(style: PixelStyle(), theme: .dark, fonts: fonts, measurer: measurer.pixels)
        var html = TranscriptHTML(style: PixelStyle(), theme: .light, fonts: fonts, measurer: measurer.pixels, width: 300)
        if let threshold {
            svg.spill.threshold = threshold
            html.spill.threshold = threshold
        }
        for row in rows {
            svg.append(row)
            html.append(row)
        }
        var streamed: [UInt8] = []
        svg.writeDocument(width: 300) { streamed.append(contentsOf: $0) }
        #expect(streamed == svg.documentBytes(width: 300))
        #expect(String(decoding: streamed, as: UTF8.self).contains(svg.body), "the body is the rows of the document")
        return [svg.documentBytes(width: 300), html.documentBytes(width: 300), Array(svg.body.utf8), Array(html.body.utf8)]
    }

    @Test(arguments: [false, true])
    func aSpilledDocumentIsTheDocumentKeptInMemory(embedding: Bool) throws {
        let rows = try Self.rows(Self.models("logs/sample.jsonl"), width: 300, keeping: true)
        let inMemory = Self.documents(rows, embedding: embedding, threshold: nil)
        // A threshold of one byte spills after every row; 4 KiB after every few.
        for threshold in [1, 4096] {
            let spilled = Self.documents(rows, embedding: embedding, threshold: threshold)
            #expect(spilled == inMemory, "threshold \(threshold)")
        }
        #expect(inMemory[0].count > 20_000, "the sample is many rows of SVG")
    }

    @Test func aPageAfterASpillHoldsOnlyItsOwnRows() throws {
        let rows = try Self.rows(Self.models("logs/sample.jsonl"), width: 300, keeping: true)
        let half = rows.count / 2
        let fonts = PictureFonts([PictureFonts.Source(path: corpus("fonts/NotoSans-Subset.ttf"), embeddedBytes: Self.fontBytes[0])])
        var paged = TranscriptSVG(style: PixelStyle(), theme: .light, fonts: fonts, measurer: Self.measurer.pixels)
        paged.spill.threshold = 1
        for row in rows[..<half] { paged.append(row) }
        let first = paged.documentBytes(width: 300)
        paged.clear()
        for row in rows[half...] { paged.append(row) }
        var fresh = TranscriptSVG(style: PixelStyle(), theme: .light, fonts: fonts, measurer: Self.measurer.pixels)
        for row in rows[half...] { fresh.append(row) }
        #expect(paged.documentBytes(width: 300) == fresh.documentBytes(width: 300))
        var whole = TranscriptSVG(style: PixelStyle(), theme: .light, fonts: fonts, measurer: Self.measurer.pixels)
        for row in rows[..<half] { whole.append(row) }
        #expect(first == whole.documentBytes(width: 300))
    }
}
