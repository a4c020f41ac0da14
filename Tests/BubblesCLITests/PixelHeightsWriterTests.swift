import BubbleFonts
import BubbleLayout
import BubbleLogs
import BubbleSamples
import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// `heights --font` writes its records from the layout tasks (`PixelHeightsWriter`): the bytes
/// must be those of the row-by-row path it replaced (`PixelHeights.row` per width, each row's
/// content read through `LayoutEngine.content(of:)`, fields formatted as strings by
/// `HeightsCommand.PixelRowFormatter`), in both formats, at fixed and font-dependent line heights.
@Suite struct PixelHeightsWriterTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// The committed Noto subsets the performance article's pixel commands use.
    static func engine(lineHeight: LineHeight) throws -> (LayoutEngine<PixelLayoutMeasurer>, PixelStyle) {
        let names = ["NotoSans-Subset.ttf", "NotoSansCJK-Subset.ttc", "NotoSansArabic-Subset.ttf", "NotoSansHebrew-Subset.ttf",
                     "NotoSansThai-Subset.ttf", "NotoSansDevanagari-Subset.ttf", "NotoColorEmoji-Subset.ttf"]
        let fonts = try names.map { try OpenTypeFont(contentsOf: corpus("fonts/\($0)")) }
        let measurer = PixelLayoutMeasurer(PixelMeasurer(chain: try FontChain(fonts: fonts, size: 16), lineHeight: lineHeight))
        let style = PixelStyle()
        return (LayoutEngine(measurer: measurer, style: style.bubbleStyle), style)
    }

    /// The sample three times over, then every other committed JSON Lines log that reads cleanly
    /// enough to lay out (conversations, languages, Indic marks): scripts, emoji, images, notices,
    /// replies, conversation ids.
    static func log() throws -> [UInt8] {
        var log: [UInt8] = []
        for name in ["sample.jsonl", "sample.jsonl", "sample.jsonl", "conversations.jsonl", "languages.jsonl",
                     "indic-spacing-marks.jsonl", "hostile.jsonl"] {
            log += try [UInt8](Data(contentsOf: URL(fileURLWithPath: corpus("logs/\(name)"))))
            if log.last != 0x0A { log.append(0x0A) }
        }
        return log
    }

    /// The records as the row-by-row path wrote them.
    static func reference(_ log: [UInt8], engine: LayoutEngine<PixelLayoutMeasurer>, style: PixelStyle, widths: [Int],
                          csv: Bool, chunkSize: Int) throws -> String {
        var stream = TimelineStream(engine: engine, widths: widths, decorationOptions: DecorationOptions(timeZone: utc))
        stream.remembering = false
        stream.chunkSize = chunkSize
        var formatter = HeightsCommand.PixelRowFormatter(csv: csv, registry: engine.registry)
        var heights = PixelHeights(engine: engine, style: style)
        var buffer = OutputBuffer()
        if csv { buffer.append(utf8: PixelHeightsWriter.csvHeader) }
        let reader = try LogSource.open(bytes: log, name: "log.jsonl", options: LogReadOptions(timeZone: utc))
        _ = try stream.run(reader, errors: StringSink()) { chunk in
            for r in chunk.rows.indices {
                let rows = chunk.widths.indices.map { w in heights.row(r, of: chunk, widthIndex: w) }
                formatter.format(row: r, of: chunk, pixelRows: rows, into: &buffer)
            }
        }
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    static func written(_ log: [UInt8], engine: LayoutEngine<PixelLayoutMeasurer>, style: PixelStyle, widths: [Int],
                        csv: Bool, chunkSize: Int) throws -> (text: String, rows: Int) {
        var stream = TimelineStream(engine: engine, widths: widths, decorationOptions: DecorationOptions(timeZone: utc))
        stream.remembering = false
        stream.chunkSize = chunkSize
        let reader = try LogSource.open(bytes: log, name: "log.jsonl", options: LogReadOptions(timeZone: utc))
        let sink = StringSink()
        let (_, rows) = try PixelHeightsWriter(csv: csv, engine: engine, style: style).write(reader, through: stream, to: sink,
                                                                                             errors: StringSink())
        return (sink.text, rows)
    }

    @Test(arguments: [LineHeight.pixels(20), .normal, .factor(1.4)])
    func recordsAreTheRowByRowPathsBytes(lineHeight: LineHeight) throws {
        let (engine, style) = try Self.engine(lineHeight: lineHeight)
        let log = try Self.log()
        for csv in [false, true] {
            for (widths, chunkSize) in [([240, 320], 8192), ([96, 375, 1000], 7), ([13], 1)] {
                let expected = try Self.reference(log, engine: engine, style: style, widths: widths, csv: csv, chunkSize: chunkSize)
                let (text, rows) = try Self.written(log, engine: engine, style: style, widths: widths, csv: csv, chunkSize: chunkSize)
                #expect(rows > 500)
                #expect(text.count(where: { $0 == "\n" }) == rows * widths.count + (csv ? 1 : 0))
                #expect(text == expected, "csv \(csv), widths \(widths), \(lineHeight)")
            }
        }
    }

    /// Px written into a record are `PixelRow.pixels`' text: whole, with a fraction of up to six
    /// decimals, and negative.
    @Test func pixelsAreWrittenAsPixelRowWritesThem() {
        var values = Array(-300...3000)
        var generator = SeededGenerator(seed: 36)
        for _ in 0..<2000 { values.append(Int.random(in: -(1 << 40)...(1 << 40), using: &generator)) }
        values += [Int.max, Int.min + 1, Int.max - 63, 64 * 1_000_000 + 1]
        for value in values {
            var out = OutputBuffer()
            out.write(reserving: 40) { PixelRowsFormatter.pixels(value, into: &$0) }
            #expect(String(decoding: out.bytes, as: UTF8.self) == PixelRow.pixels(value), "\(value)")
        }
    }
}
