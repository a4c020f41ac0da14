import BubbleText

/// Measures `PreparedText`: prepare cost per scalar, re-layout cost per message and per scalar,
/// and the memory the prepared form takes. Produces figures, not pass/fail results; run it from
/// a release build.
public enum TextBenchmark {
    /// Benchmarks `texts` as one set, and its ASCII-only and non-ASCII subsets, laying out at each
    /// of `widths`. Each timing repeats until it has run at least `minimumSeconds`.
    public static func run(texts: [String], widths: [Int] = [40, 80], name: String = "texts",
                           minimumSeconds: Double = 0.3) -> TextBenchmarkReport {
        let ascii = texts.filter { $0.utf8.allSatisfy { $0 < 0x80 } }
        let other = texts.filter { !$0.utf8.allSatisfy { $0 < 0x80 } }
        var rows: [TextBenchmarkReport.Row] = []
        for (label, set) in [(name, texts), ("\(name), ASCII only", ascii), ("\(name), non-ASCII", other)] where !set.isEmpty {
            rows.append(measure(label, set, widths: widths, minimumSeconds: minimumSeconds))
        }
        return TextBenchmarkReport(rows: rows, widths: widths)
    }

    /// The same figures for `measurer` (cells, or pixels from fonts): prepare with `measurer`
    /// (a fresh one each round from `makeMeasurer`, so a word cache starts cold), measure and lay
    /// out at `widths`, and the prepared form's bytes by `footprint`.
    public static func run<Measurer: TextMeasurer>(texts: [String], makeMeasurer: () -> Measurer, widths: [Int] = [40, 80],
                                                   name: String = "texts", minimumSeconds: Double = 0.3,
                                                   footprint: (Measurer.Prepared) -> Int) -> TextBenchmarkReport {
        let ascii = texts.filter { $0.utf8.allSatisfy { $0 < 0x80 } }
        let other = texts.filter { !$0.utf8.allSatisfy { $0 < 0x80 } }
        var rows: [TextBenchmarkReport.Row] = []
        for (label, set) in [(name, texts), ("\(name), ASCII only", ascii), ("\(name), non-ASCII", other)] where !set.isEmpty {
            rows.append(measure(label, set, widths: widths, minimumSeconds: minimumSeconds, makeMeasurer: makeMeasurer,
                                footprint: footprint))
        }
        return TextBenchmarkReport(rows: rows, widths: widths)
    }

    static func measure(_ label: String, _ texts: [String], widths: [Int], minimumSeconds: Double) -> TextBenchmarkReport.Row {
        // `PreparedText(text)` is what `CellMeasurer.prepare` does less its invisible-formatting
        // pass: the text engine alone.
        measure(label, texts, widths: widths, minimumSeconds: minimumSeconds, prepare: { PreparedText($0) },
                measure: { $0.measure(width: $1) }, layout: { $0.layout(width: $1) }, footprint: { $0.memoryFootprint },
                segments: { $0.segmentCount })
    }

    static func measure<Measurer: TextMeasurer>(_ label: String, _ texts: [String], widths: [Int], minimumSeconds: Double,
                                                makeMeasurer: () -> Measurer,
                                                footprint: (Measurer.Prepared) -> Int) -> TextBenchmarkReport.Row {
        var measurer = makeMeasurer()
        return measure(label, texts, widths: widths, minimumSeconds: minimumSeconds, fresh: { measurer = makeMeasurer() },
                       prepare: { measurer.prepare($0) }, measure: { measurer.measure($0, width: $1) },
                       layout: { measurer.layout($0, width: $1) }, footprint: footprint, segments: { _ in 0 })
    }

    @inline(__always)
    static func measure<Prepared>(_ label: String, _ texts: [String], widths: [Int], minimumSeconds: Double,
                                  fresh: () -> Void = {}, prepare: (String) -> Prepared,
                                  measure: (Prepared, Int) -> TextMetrics, layout: (Prepared, Int) -> TextLayout,
                                  footprint: (Prepared) -> Int, segments: (Prepared) -> Int) -> TextBenchmarkReport.Row {
        let scalars = texts.reduce(0) { $0 + $1.unicodeScalars.count }
        let bytes = texts.reduce(0) { $0 + $1.utf8.count }
        var sink = 0
        var prepared: [Prepared] = []
        // Freeing the previous round's texts is timed on its own, before the clock for the next
        // round starts: it is a cost of keeping prepared texts, not of preparing them. The next
        // round's array is allocated in the same window, because allocating it is when glibc
        // finishes the work the frees deferred (merging the freed chunks), a cost of freeing too.
        var freeSeconds = Double.infinity
        let prepareSeconds = timePerRound(minimumSeconds, before: {
            let start = ContinuousClock.now
            let freeing = !prepared.isEmpty
            prepared = []
            prepared.reserveCapacity(texts.count)
            if freeing { freeSeconds = min(freeSeconds, seconds(ContinuousClock.now - start)) }
            fresh()
        }) {
            for text in texts { prepared.append(prepare(text)) }
            sink &+= prepared.count
        }
        var measureSeconds = 0.0
        var layoutSeconds = 0.0
        var lines = 0
        for width in widths {
            measureSeconds += timePerRound(minimumSeconds) {
                for text in prepared { sink &+= measure(text, width).lineCount }
            }
            layoutSeconds += timePerRound(minimumSeconds) {
                for text in prepared { sink &+= layout(text, width).lines.count }
            }
            lines += prepared.reduce(0) { $0 + measure($1, width).lineCount }
        }
        measureSeconds /= Double(widths.count)
        layoutSeconds /= Double(widths.count)
        let footprintBytes = prepared.reduce(0) { $0 + footprint($1) }
        let segmentCount = prepared.reduce(0) { $0 + segments($1) }
        blackHole(sink)
        return TextBenchmarkReport.Row(
            label: label, messages: texts.count, scalars: scalars, utf8Bytes: bytes, segments: segmentCount,
            linesPerWidth: Double(lines) / Double(widths.count),
            prepareSeconds: prepareSeconds, freeSeconds: freeSeconds, measureSeconds: measureSeconds, layoutSeconds: layoutSeconds,
            memoryBytes: footprintBytes)
    }

    /// Seconds one call of `body` takes: the fastest of as many calls as fit in `minimumSeconds`
    /// (at least 5). The minimum, not the mean, because on a shared machine other work only ever
    /// adds time.
    static func timePerRound(_ minimumSeconds: Double, before: () -> Void = {}, _ body: () -> Void) -> Double {
        before()
        body()  // warm up
        let clock = ContinuousClock()
        var rounds = 0
        var elapsed = Duration.zero
        var fastest = Double.infinity
        while rounds < 5 || seconds(elapsed) < minimumSeconds {
            before()
            let start = clock.now
            body()
            let round = clock.now - start
            elapsed += round
            fastest = min(fastest, seconds(round))
            rounds += 1
        }
        return fastest
    }

    static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) * 1e-18
    }

    @inline(never)
    static func blackHole(_ value: Int) {
        if value == 0x7FFF_FFFF_FFFF_FFFF { print("") }
    }
}

/// The figures `TextBenchmark.run` measured, printable as a table.
public struct TextBenchmarkReport: Sendable, CustomStringConvertible {
    public struct Row: Sendable {
        public var label: String
        public var messages: Int
        public var scalars: Int
        public var utf8Bytes: Int
        public var segments: Int
        public var linesPerWidth: Double
        /// Seconds to prepare every message once (freeing earlier results not included).
        public var prepareSeconds: Double
        /// Seconds to free every prepared message once (its storage and its hold on the text),
        /// with the allocator work that freeing defers to the next large allocation.
        public var freeSeconds: Double
        /// Seconds to `measure(width:)` every message once, averaged over the widths.
        public var measureSeconds: Double
        /// Seconds to `layout(width:)` every message once, averaged over the widths.
        public var layoutSeconds: Double
        /// Sum of the prepared messages' `memoryFootprint`.
        public var memoryBytes: Int

        public var prepareNanosecondsPerScalar: Double { prepareSeconds * 1e9 / Double(max(1, scalars)) }
        public var prepareMegabytesPerSecond: Double { Double(utf8Bytes) / prepareSeconds / 1e6 }
        public var freeNanosecondsPerScalar: Double { freeSeconds * 1e9 / Double(max(1, scalars)) }
        public var measureNanosecondsPerMessage: Double { measureSeconds * 1e9 / Double(max(1, messages)) }
        public var measureNanosecondsPerScalar: Double { measureSeconds * 1e9 / Double(max(1, scalars)) }
        public var layoutNanosecondsPerMessage: Double { layoutSeconds * 1e9 / Double(max(1, messages)) }
        public var layoutNanosecondsPerScalar: Double { layoutSeconds * 1e9 / Double(max(1, scalars)) }
        public var layoutMegabytesPerSecond: Double { Double(utf8Bytes) / measureSeconds / 1e6 }
        public var memoryBytesPerScalar: Double { Double(memoryBytes) / Double(max(1, scalars)) }
    }

    public var rows: [Row]
    public var widths: [Int]

    public var description: String {
        var out = "text benchmark (widths \(widths.map(String.init).joined(separator: ", ")); measure = line count and widest line, layout = the lines)\n"
        for row in rows {
            out += "\n\(row.label): \(row.messages) messages, \(row.scalars) scalars, \(row.utf8Bytes) UTF-8 bytes, \(row.segments) segments, \(fixed(row.linesPerWidth, 0)) lines per width\n"
            out += "  prepare  \(fixed(row.prepareNanosecondsPerScalar, 2)) ns/scalar   \(fixed(row.prepareMegabytesPerSecond, 1)) MB/s\n"
            out += "  free     \(fixed(row.freeNanosecondsPerScalar, 2)) ns/scalar\n"
            out += "  measure  \(fixed(row.measureNanosecondsPerMessage, 1)) ns/message   \(fixed(row.measureNanosecondsPerScalar, 3)) ns/scalar   \(fixed(row.layoutMegabytesPerSecond, 0)) MB/s\n"
            out += "  layout   \(fixed(row.layoutNanosecondsPerMessage, 1)) ns/message   \(fixed(row.layoutNanosecondsPerScalar, 3)) ns/scalar\n"
            out += "  memory   \(fixed(row.memoryBytesPerScalar, 2)) bytes/scalar   \(fixed(Double(row.memoryBytes) / Double(max(1, row.messages)), 0)) bytes/message\n"
        }
        return out
    }

    /// `value` with `digits` decimals, without Foundation's formatting.
    func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "–" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * scale).rounded()
        let whole = Int(scaled / scale)
        if digits == 0 { return String(whole) }
        let fraction = Int(abs(scaled) - abs(Double(whole)) * scale)
        let fractionText = String(fraction)
        return "\(whole).\(String(repeating: "0", count: max(0, digits - fractionText.count)))\(fractionText)"
    }
}
