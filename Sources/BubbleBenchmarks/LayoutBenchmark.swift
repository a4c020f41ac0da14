import BubbleLayout
import BubbleSamples
import BubbleText
import Dispatch
import Foundation

/// The layout benchmark `bubbles bench` runs: cold layout (empty cache), warm layout (all hits)
/// and re-layout at a new width (cache misses, prepared texts reused), timed row by row; then a
/// `Conversation` built by appends and resized (the incremental path, prepared texts kept per
/// row, on all cores for large conversations); then cached height lookups (one key, and every
/// row's key shuffled). Figures, not pass/fail: run it from a release build.
public enum LayoutBenchmark {
    /// The figures of one phase.
    public struct Phase: Sendable, Hashable {
        public var name: String
        public var rows: Int
        public var seconds: Double
        /// Unicode scalars in the rows' texts (text, caption or notice).
        public var scalars: Int
        /// Per-row latency percentiles in nanoseconds; nil for the parallel phase.
        public var p50Nanoseconds: Double?
        public var p99Nanoseconds: Double?
        public var cacheHitRate: Double
        public var bytesPerCacheEntry: Double
        /// Peak resident memory of the process once the phase ended, from the caller's probe
        /// (nil without one).
        public var peakMemoryBytes: Int?

        public var rowsPerSecond: Double { seconds > 0 ? Double(rows) / seconds : 0 }
        public var nanosecondsPerRow: Double { rows > 0 ? seconds * 1e9 / Double(rows) : 0 }
        public var nanosecondsPerScalar: Double { scalars > 0 ? seconds * 1e9 / Double(scalars) : 0 }
    }

    /// Every phase, in the order run.
    public struct Report: Sendable, Hashable {
        public var messages: Int
        public var rows: Int
        public var widths: [Int]
        public var phases: [Phase]
    }

    /// Runs the phases over `models` with a fresh cell-measuring engine: cold and warm at
    /// `widths[0]`, then re-layout at each further width (sequential, then on all cores), then
    /// the conversation and lookup phases (for those, `rows` counts messages or lookups).
    public static func run(_ models: [any MessageModel], widths: [Int] = [80, 100],
                           style: BubbleStyle = BubbleStyle(),
                           options: DecorationOptions = DecorationOptions(),
                           memoryProbe: (() -> Int)? = nil) throws(LayoutError) -> Report {
        try run(models, measurer: CellMeasurer(), widths: widths, style: style, options: options, memoryProbe: memoryProbe)
    }

    /// The same phases with `measurer` (cells, or pixels from fonts, in `style`'s unit): one
    /// benchmark for both engines, so their tables read alike.
    public static func run<Measurer: TextMeasurer>(_ models: [any MessageModel], measurer: Measurer, widths: [Int] = [80, 100],
                                                   style: BubbleStyle = BubbleStyle(),
                                                   options: DecorationOptions = DecorationOptions(),
                                                   memoryProbe: (() -> Int)? = nil) throws(LayoutError) -> Report {
        let engine = LayoutEngine(measurer: measurer, style: style,
                                  cache: LayoutCache(maxEntries: max(1 << 16, models.count * (widths.count + 2))))
        let rows = try engine.decorate(models, options: options)
        let scalars = rows.reduce(0) { sum, row in
            row.isDateSeparator ? sum + 1 : sum + engine.registry.configurators[row.configuratorIndex]
                .previewText(models[row.messageIndex]).unicodeScalars.count
        }
        let first = widths.first ?? 80
        var phases: [Phase] = []
        func record(_ phase: Phase) {
            var phase = phase
            phase.peakMemoryBytes = memoryProbe?()
            phases.append(phase)
        }
        record(timed("cold", rows, models, width: first, engine: engine, scalars: scalars))
        record(timed("warm", rows, models, width: first, engine: engine, scalars: scalars))
        for width in widths.dropFirst() {
            record(timed("relayout \(first)→\(width)", rows, models, width: width, engine: engine, scalars: scalars))
        }
        if let last = widths.last {
            let width = last + 1
            engine.cache.resetCounters()
            let start = DispatchTime.now().uptimeNanoseconds
            _ = engine.layoutRows(rows, of: models, widths: [width])
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let stats = engine.cache.statistics
            record(Phase(name: "relayout →\(width), all cores", rows: rows.count, seconds: seconds, scalars: scalars,
                                p50Nanoseconds: nil, p99Nanoseconds: nil, cacheHitRate: stats.hitRate,
                                bytesPerCacheEntry: stats.bytesPerEntry))
        }
        conversationPhases(models, measurer: measurer, widths: widths, style: style, options: options, scalars: scalars).forEach(record)
        lookupPhases(engine, rows, models, width: first).forEach(record)
        return Report(messages: models.count, rows: rows.count, widths: widths, phases: phases)
    }

    /// A `Conversation` built message by message with a fresh engine and cache (appends), then
    /// resized to each further width (prepared texts reused, sequential), then back to the first.
    @inline(never)
    static func conversationPhases<Measurer: TextMeasurer>(_ models: [any MessageModel], measurer: Measurer, widths: [Int],
                                                           style: BubbleStyle, options: DecorationOptions, scalars: Int) -> [Phase] {
        let engine = LayoutEngine(measurer: measurer, style: style,
                                  cache: LayoutCache(maxEntries: max(1 << 16, models.count * (widths.count + 2))))
        let first = widths.first ?? 80
        let conversation = Conversation(engine: engine, width: first, options: options)
        var phases: [Phase] = []
        func phase(_ name: String, _ body: () -> Void) {
            engine.cache.resetCounters()
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            let stats = engine.cache.statistics
            phases.append(Phase(name: name, rows: conversation.messageCount, seconds: seconds, scalars: scalars,
                                p50Nanoseconds: nil, p99Nanoseconds: nil, cacheHitRate: stats.hitRate,
                                bytesPerCacheEntry: stats.bytesPerEntry))
        }
        phase("conversation: append") {
            for model in models { try? conversation.append(model) }
        }
        for width in widths.dropFirst() {
            phase("conversation: resize →\(width)") { conversation.resize(width: width) }
        }
        if widths.count > 1 {
            phase("conversation: resize →\(first) (cached)") { conversation.resize(width: first) }
        }
        return phases
    }

    /// Cached height lookups through `LayoutCache.layout(for:)`: one key again and again (hot),
    /// then every row's key in a shuffled order (each lookup likely a cache-line miss).
    static func lookupPhases<Measurer: TextMeasurer>(_ engine: LayoutEngine<Measurer>, _ rows: [DecoratedRow],
                             _ models: [any MessageModel], width: Int) -> [Phase] {
        let keys = rows.filter { !$0.isDateSeparator }.map {
            engine.key(for: models[$0.messageIndex], decoration: $0.decoration, width: width)
        }
        guard !keys.isEmpty else { return [] }
        var order = Array(keys.indices)
        var rng = SeededGenerator(seed: 7)
        for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
        var phases: [Phase] = []
        var sink = 0
        func phase(_ name: String, lookups: Int, _ body: () -> Void) {
            engine.cache.resetCounters()
            var best = Double.infinity
            for _ in 0..<3 {
                let start = DispatchTime.now().uptimeNanoseconds
                body()
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            let stats = engine.cache.statistics
            phases.append(Phase(name: name, rows: lookups, seconds: best, scalars: 0, p50Nanoseconds: nil,
                                p99Nanoseconds: nil, cacheHitRate: stats.hitRate, bytesPerCacheEntry: stats.bytesPerEntry))
        }
        let hot = keys[keys.count / 2]
        phase("cached lookup, one key", lookups: 1_000_000) {
            for _ in 0..<1_000_000 { sink &+= engine.cache.layout(for: hot)?.height ?? 0 }
        }
        phase("cached lookup, \(keys.count) keys shuffled", lookups: keys.count) {
            for i in order { sink &+= engine.cache.layout(for: keys[i])?.height ?? 0 }
        }
        precondition(sink >= 0)
        return phases
    }

    @inline(never)
    static func timed<Measurer: TextMeasurer>(_ name: String, _ rows: [DecoratedRow], _ models: [any MessageModel], width: Int,
                                              engine: LayoutEngine<Measurer>, scalars: Int) -> Phase {
        engine.cache.resetCounters()
        var samples = [UInt64](repeating: 0, count: rows.count)
        var checksum = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for (i, row) in rows.enumerated() {
            let t0 = DispatchTime.now().uptimeNanoseconds
            checksum &+= engine.layout(row, in: models, width: width).height
            samples[i] = DispatchTime.now().uptimeNanoseconds - t0
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        samples.sort()
        let stats = engine.cache.statistics
        precondition(checksum >= 0)
        return Phase(name: name, rows: rows.count, seconds: seconds, scalars: scalars,
                     p50Nanoseconds: samples.isEmpty ? 0 : Double(samples[samples.count / 2]),
                     p99Nanoseconds: samples.isEmpty ? 0 : Double(samples[min(samples.count - 1, samples.count * 99 / 100)]),
                     cacheHitRate: stats.hitRate, bytesPerCacheEntry: stats.bytesPerEntry)
    }

    /// A reproducible synthetic conversation of `count` messages: four people over several days,
    /// short and long texts in several scripts with emoji and URLs, images with and without size
    /// or caption, system notices, replies, edits and statuses.
    public static func syntheticConversation(count: Int, seed: UInt64 = 1) -> [any MessageModel] {
        var rng = SeededGenerator(seed: seed)
        let phrases = ["ok", "Hi! 👋", "see you at 10", "Let's meet tomorrow at the station near the old bridge.",
                       "https://example.com/articles/2024/05/a-rather-long-url-that-does-not-break?ref=chat",
                       "日本語のテキストも混ざっています。", "مرحبا، كيف حالك؟", "שלום, מה שלומך?",
                       "👨‍👩‍👧‍👦 family photo incoming", "Lorem ipsum dolor sit amet, consectetur adipiscing elit."]
        let people = ["Alice", "Bob", "Chen", "Me"]
        var models: [any MessageModel] = []
        models.reserveCapacity(count)
        var time = 1_714_557_600.0
        for i in 0..<count {
            time += Double(rng.next() % 600) + (rng.next() % 50 == 0 ? 40_000 : 0)
            let who = people[Int(rng.next() % 4)]
            let direction: MessageDirection = who == "Me" ? .outgoing : .incoming
            let date = Date(timeIntervalSince1970: time)
            let roll = rng.next() % 100
            if roll < 4 {
                models.append(SyntheticNotice(id: "\(i)", date: date, notice: "\(who) pinned a message"))
            } else if roll < 12 {
                let sized = rng.next() % 4 != 0
                models.append(SyntheticImage(id: "\(i)", senderName: who, direction: direction, date: date,
                                             pixelWidth: sized ? 320 + Int(rng.next() % 3000) : nil,
                                             pixelHeight: sized ? 240 + Int(rng.next() % 3000) : nil,
                                             imageName: "IMG_\(i).jpg",
                                             caption: rng.next() % 3 == 0 ? phrases[Int(rng.next() % 10)] : nil))
            } else {
                var text = phrases[Int(rng.next() % 10)]
                for _ in 0..<Int(rng.next() % 4) { text += " " + phrases[Int(rng.next() % 10)] }
                models.append(SyntheticText(id: "\(i)", senderName: who, direction: direction, date: date,
                                            status: direction == .outgoing ? .read : nil, isEdited: rng.next() % 20 == 0,
                                            replyToID: i > 0 && rng.next() % 10 == 0 ? "\(i - 1)" : nil, text: text))
            }
        }
        return models
    }
}


struct SyntheticText: TextMessageModel {
    var id: String
    var senderName: String?
    var direction: MessageDirection
    var date: Date
    var status: DeliveryStatus?
    var isEdited: Bool
    var replyToID: String?
    var text: String
}

struct SyntheticImage: ImageMessageModel {
    var id: String
    var senderName: String?
    var direction: MessageDirection
    var date: Date
    var pixelWidth: Int?
    var pixelHeight: Int?
    var imageName: String
    var caption: String?
}

struct SyntheticNotice: SystemMessageModel {
    var id: String
    var direction = MessageDirection.incoming
    var date: Date
    var notice: String
}
