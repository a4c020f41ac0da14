import BubbleLayout
import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// Streaming in chunks decides exactly what one pass over the whole log decides: the message held
/// back at each chunk boundary keeps its decoration.
@Suite struct TimelineStreamTests {
    func rows(chunkSize: Int, file: String) throws -> [(id: String, decoration: RowDecoration, layout: RowLayout)] {
        let engine = LayoutEngine()
        var options = DecorationOptions(timeZone: TimeZone(identifier: "UTC")!)
        options.otherParties = 4
        var stream = TimelineStream(engine: engine, widths: [37], decorationOptions: options)
        stream.chunkSize = chunkSize
        let reader = try LogSource.open(path: corpus(file), options: LogReadOptions(timeZone: TimeZone(identifier: "UTC")!))
        var result: [(String, RowDecoration, RowLayout)] = []
        _ = try stream.run(reader, errors: StringSink()) { chunk in
            for (r, row) in chunk.rows.enumerated() {
                result.append((row.id(in: chunk.models), row.decoration, chunk.layout(row: r, widthIndex: 0)))
            }
        }
        return result
    }

    @Test(arguments: [1, 2, 3, 7, 64])
    func smallChunksGiveTheSameRowsAsOneChunk(_ chunkSize: Int) throws {
        let whole = try rows(chunkSize: 1 << 20, file: "logs/sample.jsonl")
        let chunked = try rows(chunkSize: chunkSize, file: "logs/sample.jsonl")
        #expect(chunked.count == whole.count)
        for (a, b) in zip(whole, chunked) {
            #expect(a.id == b.id)
            #expect(a.decoration == b.decoration, "row \(a.id)")
            #expect(a.layout == b.layout, "row \(a.id)")
        }
    }

    /// Rows formatted by the layout tasks that laid them out, on their threads, and written in task
    /// order are the bytes the formatter makes of the whole window after layout: in both formats,
    /// with windows of at most one row, a few, and 4,096. (How big a streamed window is depends on
    /// how far the reading thread is ahead, so that a window is split over several tasks is checked
    /// on a window built whole, below.)
    @Test(arguments: [1, 7, 4096])
    func rowsFormattedByTheLayoutTasksEqualRowsFormattedAfterLayout(_ chunkSize: Int) throws {
        // The sample 24 times over: 3,768 messages (their ids repeat, which only adds diagnostics).
        let sample = try [UInt8](Data(contentsOf: URL(fileURLWithPath: corpus("logs/sample.jsonl"))))
        let log = Array((0..<24).map { _ in sample }.joined())
        for csv in [false, true] {
            let engine = LayoutEngine()
            var stream = TimelineStream(engine: engine, widths: [24, 40, 80], decorationOptions: DecorationOptions(timeZone: TimeZone(identifier: "UTC")!))
            stream.chunkSize = chunkSize
            stream.remembering = false
            var formatter = HeightsRowFormatter(csv: csv, registry: engine.registry)
            formatter.preparePieces(for: stream.widths)
            let shared = formatter.shared
            var serial = OutputBuffer()
            var parallel: [UInt8] = []
            var windows = 0, rows = 0
            let reader = try LogSource.open(bytes: log, name: "log.jsonl", options: LogReadOptions(timeZone: TimeZone(identifier: "UTC")!))
            _ = try stream.run(reader, errors: StringSink(), finishing: { rows in HeightsWriter.FormattedRows().filled(with: rows, by: shared) }) { chunk, parts in
                formatter.format(chunk: chunk, into: &serial)
                for part in parts { parallel += part.buffer.bytes }
                windows += 1
                rows += chunk.rows.count
            }
            #expect(rows > 3_000)
            #expect(serial.bytes.count(where: { $0 == 0x0A }) == rows * 3)
            #expect(parallel == serial.bytes, "csv \(csv), \(windows) windows")
        }
    }

    /// A window big enough to split is laid out and formatted by several tasks, and their parts,
    /// in order, are the bytes one formatter makes of the whole window.
    @Test func aWindowBigEnoughToSplitIsFormattedBySeveralTasksAsByOne() throws {
        let sample = try [UInt8](Data(contentsOf: URL(fileURLWithPath: corpus("logs/sample.jsonl"))))
        let log = Array((0..<24).map { _ in sample }.joined())
        let utc = TimeZone(identifier: "UTC")!
        for csv in [false, true] {
            let engine = LayoutEngine()
            let widths = [24, 40, 80]
            var layout = StreamingLayout(engine: engine, widths: widths, options: DecorationOptions(timeZone: utc), remembering: false)
            var formatter = HeightsRowFormatter(csv: csv, registry: engine.registry)
            formatter.preparePieces(for: widths)
            let shared = formatter.shared
            for entry in try LogSource.open(bytes: log, name: "log.jsonl", options: LogReadOptions(timeZone: utc)) {
                if let record = entry.record { layout.append(record) }
            }
            let (chunk, parts) = try layout.flush(final: true) { rows in HeightsWriter.FormattedRows().filled(with: rows, by: shared) }
            var serial = OutputBuffer()
            formatter.format(chunk: chunk, into: &serial)
            #expect(chunk.rows.count > 3_000)
            #expect(parts.count > 1, "the window was laid out by one task")
            #expect(parts.flatMap { $0.buffer.bytes } == serial.bytes, "csv \(csv)")
        }
    }
}
