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
}
