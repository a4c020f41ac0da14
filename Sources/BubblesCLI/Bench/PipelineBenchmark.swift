import BubbleLayout
import BubbleLogs
import BubbleText
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The bench's pipeline phase: the real reader → streaming layout → formatter path of `heights`
/// (and the reader → writer path of `convert`) end to end on a file, output counted and dropped.
/// Figures are per input scalar and byte, with CPU time (user + sys, every thread) apart from
/// wall time, so they are what a user's whole run costs.
enum PipelineBenchmark {
    struct Phase {
        var name: String
        var seconds: Double
        var cpuSeconds: Double
        var rows: Int
        var outputBytes: Int
    }

    struct Report {
        var file: String
        var bytes: Int
        var scalars: Int
        /// Messages laid out, and the records read (rejected ones too).
        var messages: Int
        var records = 0
        var phases: [Phase]

        func cpuNanosecondsPerScalar(_ phase: Phase) -> Double { phase.cpuSeconds * 1e9 / Double(max(1, scalars)) }
        func megabytesPerSecond(_ phase: Phase) -> Double { Double(bytes) / 1e6 / max(phase.seconds, 1e-9) }
        func cpuMegabytesPerSecond(_ phase: Phase) -> Double { Double(bytes) / 1e6 / max(phase.cpuSeconds, 1e-9) }
    }

    /// Runs `heights` at `widths` (and at the first width alone) and `convert` over the log at `path`;
    /// with `fonts`, `heights --font` (in px, the fonts loaded inside the timing, as the command
    /// loads them).
    static func run(path: String, format: LogFormat, options: LogReadOptions, widths: [Int],
                    decoration: DecorationOptions, fonts: PixelOptions? = nil) throws -> Report {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let scalars = data.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        var report = Report(file: path, bytes: data.count, scalars: scalars, messages: 0, phases: [])
        var widthSets = [Array(widths.prefix(1))]
        if widths.count > 1 { widthSets.append(widths) }
        for set in widthSets {
            let sink = CountingSink()
            var rows = 0
            let (seconds, cpu) = try timed {
                let reader = try LogSource.open(path: path, format: format, options: options)
                if let fonts {
                    (report.messages, report.records, rows) = try pixelHeights(reader, fonts: fonts, widths: set,
                                                                               decoration: decoration, sink: sink)
                    return
                }
                var stream = TimelineStream(engine: LayoutEngine(), widths: set, decorationOptions: decoration)
                stream.remembering = false
                // Written as `heights` writes: formatted by the layout tasks, beside layout.
                let writer = HeightsWriter(csv: false, registry: .standard, widths: set)
                let counts: LogCounts
                (counts, rows) = try writer.write(reader, through: stream, to: sink, errors: sink)
                report.messages = counts.messagesOut
                report.records = counts.recordsIn
            }
            report.phases.append(Phase(name: "heights \(set.map(String.init).joined(separator: ","))", seconds: seconds,
                                       cpuSeconds: cpu, rows: rows * set.count, outputBytes: sink.bytes))
        }
        let sink = CountingSink()
        var records = 0
        let (seconds, cpu) = try timed {
            let reader = try LogSource.open(path: path, format: format, options: options)
            try ConvertCommand.write(reader, to: sink, errors: CountingSink())
            records = reader.counts.messagesOut
        }
        report.phases.append(Phase(name: "convert", seconds: seconds, cpuSeconds: cpu, rows: records, outputBytes: sink.bytes))
        return report
    }

    /// `heights --font` on `reader`: the fonts loaded, the rows laid out and written in px to `sink`.
    /// Returns the messages and records read and the rows written.
    private static func pixelHeights(_ reader: LogReader, fonts: PixelOptions, widths: [Int], decoration: DecorationOptions,
                                     sink: CountingSink) throws -> (messages: Int, records: Int, rows: Int) {
        guard let (measurer, style) = try fonts.load(errors: sink) else { return (0, 0, 0) }
        let engine = LayoutEngine(measurer: measurer, style: style.bubbleStyle)
        var stream = TimelineStream(engine: engine, widths: widths, decorationOptions: decoration)
        stream.remembering = false
        // Written as `heights --font` writes: turned into pixel rows and formatted by the layout tasks.
        let writer = PixelHeightsWriter(csv: false, engine: engine, style: style)
        let (counts, rows) = try writer.write(reader, through: stream, to: sink, errors: sink)
        return (counts.messagesOut, counts.recordsIn, rows)
    }

    /// Wall and CPU (user + sys) seconds of `body`.
    private static func timed(_ body: () throws -> Void) throws -> (Double, Double) {
        let cpuBefore = cpuSeconds()
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return (wall, cpuSeconds() - cpuBefore)
    }

    private static func cpuSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        #else
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        #endif
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// Counts what is written and drops it.
final class CountingSink: TextSink {
    private(set) var bytes = 0
    func write(_ text: String) throws { bytes += text.utf8.count }
    func write(bytes: [UInt8]) throws { self.bytes += bytes.count }
    func write(contentsOf bytes: ByteView) throws { self.bytes += bytes.count }
    func flush() throws {}
}

extension BenchReport {
    /// The pipeline section of the table.
    static func pipelineTable(_ p: PipelineBenchmark.Report) -> String {
        let rejected = p.records > p.messages ? " (of \(Format.grouped(p.records)) records)" : ""
        let out = "\nPipeline (the real reader → layout → writer on \(Format.grouped(p.messages)) messages\(rejected), "
            + "\(Format.fixed(Double(p.bytes) / 1e6, 1)) MB, \(Format.grouped(p.scalars)) scalars; CPU = user + sys of every thread)\n"
        let header = ["command", "wall s", "CPU s", "CPU ns/scalar", "MB/s", "MB/s per CPU s", "rows/s", "wall/CPU"]
        let rows = p.phases.map { phase in
            [phase.name, Format.fixed(phase.seconds, 3), Format.fixed(phase.cpuSeconds, 3),
             Format.fixed(p.cpuNanosecondsPerScalar(phase), 1), Format.fixed(p.megabytesPerSecond(phase), 1),
             Format.fixed(p.cpuMegabytesPerSecond(phase), 1), Format.grouped(Int(Double(phase.rows) / max(phase.seconds, 1e-9))),
             Format.fixed(phase.seconds / max(phase.cpuSeconds, 1e-9), 2)]
        }
        return out + render([header] + rows)
    }

    /// The pipeline section as a JSON member value.
    static func pipelineJSON(_ p: PipelineBenchmark.Report) -> String {
        let phases = p.phases.map { phase in
            "{\"command\":\(JSONString.quoted(phase.name)),\"seconds\":\(Format.fixed(phase.seconds, 6)),"
                + "\"cpuSeconds\":\(Format.fixed(phase.cpuSeconds, 6)),\"cpuNsPerScalar\":\(Format.fixed(p.cpuNanosecondsPerScalar(phase), 2)),"
                + "\"MBps\":\(Format.fixed(p.megabytesPerSecond(phase), 2)),\"rows\":\(phase.rows),"
                + "\"rowsPerSecond\":\(Format.fixed(Double(phase.rows) / max(phase.seconds, 1e-9), 0))}"
        }
        return "{\"messages\":\(p.messages),\"bytes\":\(p.bytes),\"scalars\":\(p.scalars),\"phases\":[\(phases.joined(separator: ","))]}"
    }
}
