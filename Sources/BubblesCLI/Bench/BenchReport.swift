import BubbleBenchmarks
import BubbleLogs
import BubbleLayout
import BubbleText

/// The figures of one `bubbles bench` run, as a table for people or JSON for tracking.
struct BenchReport {
    var source: String
    var build: String
    var text: TextBenchmarkReport
    var layout: LayoutBenchmark.Report
    var peakMemoryBytes: Int
    /// The end-to-end phase (`PipelineBenchmark`), when run on a file.
    var pipeline: PipelineBenchmark.Report? = nil
    /// The bidi algorithm on the messages with right-to-left text.
    var bidi: BidiBenchmark.Report?

    var table: String {
        var out = "bubbles bench: \(source); \(build) build\n\n"
        out += "Text engine (prepare once; measure = line count and widest line; layout = the lines)\n"
        let textHeader = ["texts", "messages", "scalars", "prepare ns/scalar", "prepare MB/s", "free ns/scalar", "measure ns/msg",
                          "measure ns/scalar", "layout ns/scalar", "bytes/scalar"]
        let textRows = text.rows.map { row in
            [row.label, Format.grouped(row.messages), Format.grouped(row.scalars),
             Format.fixed(row.prepareNanosecondsPerScalar, 2), Format.fixed(row.prepareMegabytesPerSecond, 1),
             Format.fixed(row.freeNanosecondsPerScalar, 2), Format.fixed(row.measureNanosecondsPerMessage, 1), Format.fixed(row.measureNanosecondsPerScalar, 3),
             Format.fixed(row.layoutNanosecondsPerScalar, 3), Format.fixed(row.memoryBytesPerScalar, 2)]
        }
        out += Self.render([textHeader] + textRows)
        if let bidi {
            out += "\nBidi (\(Format.grouped(bidi.messages)) messages with right-to-left text, \(Format.grouped(bidi.scalars)) scalars, "
                + "\(Format.grouped(bidi.lines)) lines at width \(layout.widths.first.map(String.init) ?? "-"))\n"
            out += "  resolve + reorder  \(Format.fixed(bidi.nanosecondsPerScalar, 2)) ns/scalar"
                + (bidi.cpuNanosecondsPerScalar.map { "   (\(Format.fixed($0, 2)) ns/scalar of thread CPU time)" } ?? "") + "\n"
            out += "  = \(Format.fixed(bidi.timesPrepare, 2))× preparing the same texts, timed alongside; goal ≤ 10 ns/scalar\n"
        } else {
            out += "\nBidi: no message holds right-to-left text, nothing to measure\n"
        }
        out += "\nLayout cache (\(Format.grouped(layout.messages)) messages, \(Format.grouped(layout.rows)) rows, "
            + "widths \(layout.widths.map(String.init).joined(separator: ",")))\n"
        let header = ["phase", "rows/s", "ns/row", "ns/scalar", "p50 ns", "p99 ns", "hit rate", "B/entry", "peak MB"]
        let rows = layout.phases.map { phase in
            [phase.name, Format.grouped(Int(phase.rowsPerSecond)), Format.fixed(phase.nanosecondsPerRow, 0),
             phase.scalars > 0 ? Format.fixed(phase.nanosecondsPerScalar, 1) : "-", phase.p50Nanoseconds.map { Format.fixed($0, 0) } ?? "-",
             phase.p99Nanoseconds.map { Format.fixed($0, 0) } ?? "-", Format.fixed(phase.cacheHitRate * 100, 1) + "%",
             Format.fixed(phase.bytesPerCacheEntry, 1), phase.peakMemoryBytes.map { Format.fixed(Double($0) / 1_048_576, 1) } ?? "-"]
        }
        out += Self.render([header] + rows)
        if let pipeline { out += Self.pipelineTable(pipeline) }
        out += "\npeak memory \(Format.fixed(Double(peakMemoryBytes) / 1_048_576, 1)) MB\n"
        return out
    }

    var json: String {
        func number(_ value: Double, _ digits: Int) -> String { value.isFinite ? Format.fixed(value, digits) : "null" }
        let textRows = text.rows.map { row in
            "{\"texts\":\(JSONString.quoted(row.label)),\"messages\":\(row.messages),\"scalars\":\(row.scalars),"
                + "\"utf8Bytes\":\(row.utf8Bytes),\"prepareNsPerScalar\":\(number(row.prepareNanosecondsPerScalar, 3)),"
                + "\"prepareMBps\":\(number(row.prepareMegabytesPerSecond, 2)),"
                + "\"freeNsPerScalar\":\(number(row.freeNanosecondsPerScalar, 3)),"
                + "\"measureNsPerMessage\":\(number(row.measureNanosecondsPerMessage, 2)),"
                + "\"measureNsPerScalar\":\(number(row.measureNanosecondsPerScalar, 4)),"
                + "\"layoutNsPerMessage\":\(number(row.layoutNanosecondsPerMessage, 2)),"
                + "\"layoutNsPerScalar\":\(number(row.layoutNanosecondsPerScalar, 4)),"
                + "\"memoryBytesPerScalar\":\(number(row.memoryBytesPerScalar, 3))}"
        }
        let phases = layout.phases.map { phase in
            "{\"phase\":\(JSONString.quoted(phase.name)),\"rows\":\(phase.rows),"
                + "\"seconds\":\(number(phase.seconds, 6)),\"rowsPerSecond\":\(number(phase.rowsPerSecond, 0)),"
                + "\"nsPerRow\":\(number(phase.nanosecondsPerRow, 1)),\"nsPerScalar\":\(number(phase.nanosecondsPerScalar, 2)),"
                + "\"p50Ns\":\(phase.p50Nanoseconds.map { number($0, 0) } ?? "null"),"
                + "\"p99Ns\":\(phase.p99Nanoseconds.map { number($0, 0) } ?? "null"),"
                + "\"hitRate\":\(number(phase.cacheHitRate, 4)),\"bytesPerEntry\":\(number(phase.bytesPerCacheEntry, 1)),"
                + "\"peakMemoryBytes\":\(phase.peakMemoryBytes.map(String.init) ?? "null")}"
        }
        return "{\"source\":\(JSONString.quoted(source)),\"build\":\"\(build)\",\"messages\":\(layout.messages),"
            + "\"rows\":\(layout.rows),\"widths\":[\(layout.widths.map(String.init).joined(separator: ","))],"
            + "\"text\":[\(textRows.joined(separator: ","))],\"layout\":[\(phases.joined(separator: ","))],"
            + (pipeline.map { "\"pipeline\":\(Self.pipelineJSON($0))," } ?? "")
            + (bidi.map { "\"bidi\":{\"messages\":\($0.messages),\"scalars\":\($0.scalars),\"lines\":\($0.lines),"
                + "\"nsPerScalar\":\(number($0.nanosecondsPerScalar, 3)),"
                + "\"cpuNsPerScalar\":\($0.cpuNanosecondsPerScalar.map { number($0, 3) } ?? "null"),"
                + "\"timesPrepare\":\(number($0.timesPrepare, 3))}," } ?? "")
            + "\"peakMemoryBytes\":\(peakMemoryBytes)}"
    }

    /// Left-aligned first column, right-aligned numbers.
    static func render(_ rows: [[String]]) -> String {
        guard let first = rows.first else { return "" }
        var widths = [Int](repeating: 0, count: first.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        return rows.map { row in
            row.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return i == 0 ? "  " + cell + pad : pad + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
