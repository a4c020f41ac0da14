import BubbleText

/// Measures the bidi algorithm where it runs: on the messages that hold right-to-left text, each
/// paragraph resolved (classes looked up, P2–I2) and each of its lines at a width reordered
/// (L1, L2), as drawing in visual order does. Figures, not pass/fail; run from a release build.
public enum BidiBenchmark {
    public struct Report: Sendable {
        /// Messages that may hold right-to-left text (`PreparedText.mayContainRightToLeft`).
        public var messages: Int
        public var scalars: Int
        public var lines: Int
        /// Seconds to resolve and reorder them all once (the fastest round).
        public var seconds: Double
        /// The same round's fastest time on the thread's CPU clock, when one was given: on a
        /// shared machine, wall time also counts the time other processes held the core.
        public var cpuSeconds: Double?
        public var nanosecondsPerScalar: Double { seconds * 1e9 / Double(max(1, scalars)) }
        public var cpuNanosecondsPerScalar: Double? { cpuSeconds.map { $0 * 1e9 / Double(max(1, scalars)) } }
        /// Preparing the same texts (`PreparedText`), timed the same way in the same run: a
        /// yardstick that a busy machine slows down about as much as the bidi rounds.
        public var prepareSeconds: Double = 0
        public var prepareCPUSeconds: Double?
        /// Resolve and reorder as a multiple of preparing the same texts (by thread CPU time
        /// when there is a CPU clock).
        public var timesPrepare: Double {
            if let cpuSeconds, let prepareCPUSeconds, prepareCPUSeconds > 0 { return cpuSeconds / prepareCPUSeconds }
            return seconds / max(prepareSeconds, 1e-12)
        }
    }

    /// Benchmarks the texts of `texts` that may hold right-to-left characters, broken into lines
    /// at `width` (line breaking is not timed; it happens whatever the direction).
    /// `cpuClock`, when given, reads the thread's CPU time in seconds.
    public static func run(texts: [String], width: Int, minimumSeconds: Double = 0.3,
                           cpuClock: (() -> Double)? = nil) -> Report {
        let prepared = texts.map { PreparedText($0) }.filter(\.mayContainRightToLeft)
        // Per text: its scalars, the UTF-8 offset of each, and its lines as scalar ranges.
        var scalarTexts: [[UInt32]] = []
        var lineRanges: [[Range<Int>]] = []
        var lineCount = 0
        for text in prepared {
            var scalars: [UInt32] = []
            var offsets: [Int] = []
            var offset = 0
            for scalar in text.text.unicodeScalars {
                scalars.append(scalar.value)
                offsets.append(offset)
                offset += UTF8.width(scalar)
            }
            offsets.append(offset)
            func index(_ utf8: Int) -> Int {
                var low = 0, high = offsets.count - 1
                while low < high {
                    let middle = (low + high) / 2
                    if offsets[middle] < utf8 { low = middle + 1 } else { high = middle }
                }
                return low
            }
            let lines = text.layout(width: width).lines.map { index($0.utf8Range.lowerBound)..<index($0.utf8Range.upperBound) }
            lineCount += lines.count
            scalarTexts.append(scalars)
            lineRanges.append(lines)
        }
        let scalarCount = scalarTexts.reduce(0) { $0 + $1.count }
        var ordering = BidiLineOrdering()
        var sink = 0

        // Out of line so that instruction counters can count one round alone
        // (valgrind --tool=callgrind --toggle-collect on this closure).
        @inline(never) func round() {
            for (t, scalars) in scalarTexts.enumerated() {
                sink &+= ordering.orderLines(of: scalars, lines: lineRanges[t])
            }
        }

        var fastestCPU = Double.infinity
        let seconds = TextBenchmark.timePerRound(minimumSeconds) {
            let start = cpuClock?() ?? 0
            round()
            if let cpuClock { fastestCPU = min(fastestCPU, cpuClock() - start) }
        }
        // The yardstick: preparing the same texts, rounds interleaved with nothing else.
        let sources = prepared.map(\.text)
        var kept: [PreparedText] = []
        var fastestPrepareCPU = Double.infinity
        let prepareSeconds = TextBenchmark.timePerRound(minimumSeconds, before: {
            kept = []
            kept.reserveCapacity(sources.count)
        }) {
            let start = cpuClock?() ?? 0
            for source in sources { kept.append(PreparedText(source)) }
            if let cpuClock { fastestPrepareCPU = min(fastestPrepareCPU, cpuClock() - start) }
            sink &+= kept.count
        }
        TextBenchmark.blackHole(sink)
        var report = Report(messages: prepared.count, scalars: scalarCount, lines: lineCount, seconds: seconds,
                            cpuSeconds: cpuClock == nil ? nil : fastestCPU)
        report.prepareSeconds = prepareSeconds
        report.prepareCPUSeconds = cpuClock == nil ? nil : fastestPrepareCPU
        return report
    }
}
