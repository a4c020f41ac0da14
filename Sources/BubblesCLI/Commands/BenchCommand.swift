import BubbleBenchmarks
import BubbleFonts
import BubbleLayout
import BubbleLogs
import BubbleText
import Foundation

/// `bubbles bench`: how fast the text engine and the layout cache are, as figures.
struct BenchCommand: BubblesCommand {
    static let spec = CommandSpec(
        name: "bench",
        abstract: "Benchmark the text engine and the layout cache (cold, warm, new width).",
        discussion: """
            Without FILE, lays out a reproducible synthetic log (seeded: several people and days, short
            and long messages in a dozen scripts, emoji, URLs, images, system notices, replies, edits).
            Prints the text engine's prepare and layout cost, the bidi algorithm's cost on the messages with
            right-to-left text (resolve and reorder, per scalar), then the layout cache's phases: cold (empty
            cache), warm (all hits) and re-layout at each further width (prepared texts reused), with
            rows/s, ns per row and per scalar, p50/p99 per row, hit rate, bytes per entry and peak
            memory. Then the pipeline: heights (first width, then all widths) and convert run end to end
            through the real reader, streaming layout and writer on the file, with wall and CPU time
            (user + sys), CPU ns per input scalar, MB/s and rows/s. Run it from a release build:
            swift run -c release bubbles bench. --save-log FILE writes the synthetic log and exits.
            --pixels benchmarks the pixel measurer instead (fonts loaded, prepare with words new and
            seen, re-layout at two widths), on the synthetic log's texts and the Chromium sweep's.
            --font FILE (with --size, --line-height, --lang, --style, as heights takes them) runs the
            same text, layout-cache and pipeline phases in px with those fonts, in the same tables,
            so the two engines compare line by line; widths are then in px (default 240,320,400).
            """,
        arguments: [ArgumentSpec("FILE", optional: true, help: "Log or export to benchmark on (default: a synthetic log).")],
        options: [Options.messages, Options.widths, Options.seed, Options.json, Options.saveLog, Options.viewer, Options.pixels, Options.fonts, Options.serve]
            + PixelOptions.specs + InputOptions.specs)

    /// The options, each declared once: the spec lists them and `init` reads them.
    enum Options {
        static let messages = OptionSpec("--messages", "-n", value: "N", help: "Messages in the synthetic log (default 100000).")
        static let widths = OptionSpec("--widths", "--width", value: "LIST", repeats: true, help: "Widths, first for cold/warm, the rest for re-layout (default 40,80,120).")
        static let seed = OptionSpec("--seed", value: "N", help: "Seed of the synthetic log (default fixed).")
        static let json = OptionSpec("--json", help: "Print the figures as one JSON object, for tracking.")
        static let saveLog = OptionSpec("--save-log", value: "FILE", help: "Write the synthetic log to FILE and exit (for timing the commands on it).")
        static let pixels = OptionSpec("--pixels", help: "Benchmark the pixel measurer instead: loading each font, prepare (words new and seen) and re-layout, in ns per scalar.")
        static let fonts = OptionSpec("--fonts", value: "DIR", help: "With --pixels: the fonts folder (default Corpora/fonts, run from the repository).")
        static let serve = OptionSpec("--serve", help: "Benchmark bubbles serve instead, in process: append-then-rows on a warm conversation of N messages (default 10000) and resizes, in requests/s and p50/p99 ms.")
        static let viewer = OptionSpec("--viewer", help: "Benchmark bubbles view instead, on FILE (JSON Lines) or a synthetic log: first screen, key press and resize frames, search, memory (try -n 1000000).")
    }

    let input: InputOptions?
    let messageCount: Int
    let widths: [Int]
    let seed: UInt64
    let json: Bool
    let saveLog: String?
    let viewer: Bool
    let pixels: Bool
    let serve: Bool
    /// Whether -n was given (each benchmark has its own default).
    let messagesGiven: Bool
    let fontsDirectory: String
    /// `--font` and its options: the layout benchmark in px; nil for cells.
    let fontOptions: PixelOptions?

    init(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) {
        input = arguments.positional(0) == nil ? nil : try InputOptions(arguments, context: context)
        messageCount = try arguments.integer(Options.messages, in: 1...10_000_000) ?? 100_000
        let widths = try arguments.integers(Options.widths, in: 1...BubbleStyle.maximumContainerWidth, distinct: true)
        fontOptions = try PixelOptions(arguments, cellOptions: false)
        self.widths = widths.isEmpty ? (fontOptions == nil ? [40, 80, 120] : [240, 320, 400]) : widths
        seed = UInt64(try arguments.integer(Options.seed, in: 0...Int.max) ?? Int(SyntheticLog.defaultSeed))
        json = arguments.flag(Options.json)
        saveLog = arguments.string(Options.saveLog)
        viewer = arguments.flag(Options.viewer)
        pixels = arguments.flag(Options.pixels)
        serve = arguments.flag(Options.serve)
        messagesGiven = arguments.string(Options.messages) != nil
        fontsDirectory = arguments.string(Options.fonts) ?? "Corpora/fonts"
        // Options that mean nothing in the mode chosen are said, not ignored.
        if [viewer, pixels, serve].filter({ $0 }).count > 1 { throw UsageError("--viewer, --pixels and --serve are three benchmarks: choose one") }
        if serve && (input != nil || json) { throw UsageError("--serve runs on the synthetic log and prints its own table: it takes no FILE or --json") }
        if json && (viewer || pixels) {
            throw UsageError("--json writes the figures of the layout benchmark; --\(viewer ? "viewer" : "pixels") prints its own table")
        }
        if arguments.string(Options.fonts) != nil && !pixels { throw UsageError("--fonts is for --pixels") }
        if pixels && input != nil { throw UsageError("--pixels measures the test fonts on its own texts: it takes no FILE") }
        if fontOptions != nil && (viewer || pixels || serve) {
            throw UsageError("--font runs the layout benchmark in px; --viewer, --pixels and --serve are other benchmarks")
        }
        if viewer && input?.path == "-" {
            throw UsageError("--viewer needs a FILE: it indexes the file as view does, which standard input cannot be")
        }
    }

    func run(context: CommandContext) throws -> Int32 {
        if let saveLog {
            return try saveSyntheticLog(to: saveLog, context: context)
        }
        if serve {
            if Self.isDebugBuild { try context.errors.write("bubbles bench: this is a debug build; for real figures run: swift run -c release bubbles bench --serve\n") }
            let count = messagesGiven ? messageCount : 10_000
            try ServeBench(messageCount: count, seed: seed, width: widths[0]).run(output: context.output)
            return ExitCode.success
        }
        if pixels {
            if Self.isDebugBuild { try context.errors.write("bubbles: this is a debug build; for real figures run: swift run -c release bubbles bench --pixels\n") }
            let rows: [PixelBenchmark.Row]
            do {
                rows = try PixelBenchmark.run(fontsDirectory: fontsDirectory, syntheticTexts: PixelBenchmark.syntheticTexts(),
                                              sweepTexts: true)
            } catch let missing as PixelBenchmark.MissingFile {
                // The default folder is relative: outside the repository it is not there.
                try context.errors.write("bubbles: \(DiagnosticText.escaped(missing.description)): --pixels measures the test fonts of the repository's Corpora/fonts; run it from the repository, or give their folder with --fonts DIR\n")
                return ExitCode.failure
            }
            try context.output.write(PixelBenchmark.table(rows))
            return ExitCode.success
        }
        if viewer {
            if Self.isDebugBuild { try context.errors.write("bubbles: this is a debug build; for real figures run: swift run -c release bubbles bench --viewer\n") }
            if let input {
                // A FIFO would be read here and then indexed again (empty); a missing file is said as every command says it.
                guard FileManager.default.fileExists(atPath: input.path) else {
                    _ = try input.open(errors: context.errors, command: Self.spec.name)
                    return ExitCode.failure
                }
                guard ViewLoader.isRegularFile(input.path) else {
                    try context.errors.write("bubbles: --viewer: \(DiagnosticText.escaped(input.path)): not a regular file (a pipe, a FIFO or a folder): --viewer indexes a JSON Lines file as view does\n")
                    return ExitCode.failure
                }
            }
            let ran = try ViewerBench(messageCount: messageCount, seed: seed, path: input?.path).run(output: context.output)
            return ran ? ExitCode.success : ExitCode.failure
        }
        // The synthetic log goes through the real reader, so it is exactly what a user's file would be.
        var temporary: URL?
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        if input == nil {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-bench-\(getpid()).jsonl")
            try writeSyntheticLog(to: url)
            temporary = url
        }
        guard let (loaded, source, counts) = try loadModels(context: context, synthetic: temporary) else { return ExitCode.failure }
        // Figures per scalar and per row of nothing are not figures.
        guard !loaded.isEmpty else {
            try context.errors.write("bubbles: \(DiagnosticText.escaped(input?.path ?? "the log")) holds no message to lay out: nothing to benchmark\n")
            return ExitCode.failure
        }
        if Self.isDebugBuild {
            try context.errors.write("bubbles: this is a debug build; for real figures run: swift run -c release bubbles bench\n")
            try context.errors.flush()
        }
        let registry = CellRegistry.standard
        let texts = loaded.compactMap { model in
            (try? registry.index(for: model)).map { registry.configurators[$0].previewText(model) }
        }
        var options = DecorationOptions()
        options.timeZone = input?.timeZone ?? ZoneName.systemZone(context.environment, localtimePath: context.localtimePath).zone
        let textReport: TextBenchmarkReport
        let layoutReport: LayoutBenchmark.Report
        let bidiReport = BidiBenchmark.run(texts: texts, width: widths[0], cpuClock: ThreadClock.seconds)
        var engineName = "cells"
        if let fontOptions {
            guard let (measurer, style) = try fontOptions.load(errors: context.errors) else { return ExitCode.failure }
            engineName = "px, " + fontOptions.fonts.map { ($0.path as NSString).lastPathComponent }.joined(separator: ", ")
            // A fresh measurer each round of preparing, so its word cache starts cold.
            let chain = measurer.pixels.chain, lineHeight = measurer.pixels.lineHeight
            textReport = TextBenchmark.run(texts: texts, makeMeasurer: { PixelLayoutMeasurer(PixelMeasurer(chain: chain, lineHeight: lineHeight)) },
                                           widths: Array(widths.prefix(2)), name: "message texts", footprint: { $0.memoryFootprint })
            layoutReport = try LayoutBenchmark.run(loaded, measurer: measurer, widths: widths, style: style.bubbleStyle,
                                                   options: options, memoryProbe: { ProcessMemory.peakResidentBytes })
        } else {
            textReport = TextBenchmark.run(texts: texts, widths: Array(widths.prefix(2)), name: "message texts")
            layoutReport = try LayoutBenchmark.run(loaded, widths: widths, options: options,
                                                   memoryProbe: { ProcessMemory.peakResidentBytes })
        }
        var report = BenchReport(source: source + "; " + engineName, build: Self.isDebugBuild ? "debug" : "release",
                                 text: textReport, layout: layoutReport, peakMemoryBytes: ProcessMemory.peakResidentBytes)
        // Figures per scalar of no right-to-left text are not figures.
        report.bidi = bidiReport.scalars > 0 ? bidiReport : nil
        // The pipeline phases read the whole file; a read --strict stopped early measured part of it.
        let stoppedEarly = input?.readOptions.strict == true && (counts?.rejected ?? 0) > 0
        if stoppedEarly {
            try context.errors.write("bubbles: --strict stopped the read at a rejected record: the pipeline phases, which read the whole file, are left out\n")
        }
        if !stoppedEarly, let path = temporary?.path ?? input.flatMap({ Self.isRegularFile($0.path) ? $0.path : nil }) {
            let readOptions = input?.readOptions ?? LogReadOptions(me: SyntheticLog.me)
            report.pipeline = try PipelineBenchmark.run(path: path, format: input?.format ?? .jsonl, options: readOptions,
                                                        widths: widths, decoration: options, fonts: fontOptions)
        }
        try context.output.write(json ? report.json + "\n" : report.table)
        return counts.map(exitCode(for:)) ?? ExitCode.success
    }

    /// The models to run on: the FILE's, or the synthetic log's at `synthetic`, with a line saying which.
    private func loadModels(context: CommandContext, synthetic: URL?) throws -> ([any MessageModel], String, LogCounts?)? {
        let reader: LogReader
        let source: String
        if let input {
            guard let opened = try input.open(errors: context.errors, command: Self.spec.name) else { return nil }
            reader = opened
            source = "\(input.path) (\(opened.format))"
        } else {
            reader = try LogSource.open(path: synthetic!.path, format: .jsonl, options: LogReadOptions(me: SyntheticLog.me))
            source = "synthetic log, \(messageCount) messages, seed \(seed)"
        }
        var models: [any MessageModel] = []
        var diagnostics = DiagnosticList()
        for entry in reader {
            switch entry {
            case .message(let record, _):
                models.append(record)
                diagnostics.noteRecord()
            case .diagnostic(let diagnostic): try diagnostics.report(diagnostic, to: context.errors)
            }
        }
        try diagnostics.finish(errors: context.errors)
        try input?.reportEnd(of: reader, done: "measured", to: context.errors)
        return (models, source, input == nil ? nil : reader.counts)
    }

    /// `--save-log FILE`: the synthetic log to FILE (`-`: standard output); a file that cannot
    /// be written is said in one line, as every command says it.
    private func saveSyntheticLog(to path: String, context: CommandContext) throws -> Int32 {
        let text = SyntheticLog(messageCount: messageCount, seed: seed).lines().joined(separator: "\n") + "\n"
        if path == "-" {
            try context.output.write(text)
            return ExitCode.success
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            try context.errors.write("bubbles: cannot write \(DiagnosticText.escaped(path)): \(String(cString: strerror(errno)))\n")
            return ExitCode.failure
        }
        defer { close(fd) }
        let sink = FileSink(fileDescriptor: fd)
        do {
            try sink.write(text)
            try sink.flush()
        } catch let failed as WriteFailed {
            try context.errors.write("bubbles: cannot write \(DiagnosticText.escaped(path)): \(String(cString: strerror(failed.code)))\n")
            return ExitCode.failure
        }
        return ExitCode.success
    }

    private func writeSyntheticLog(to url: URL) throws {
        let lines = SyntheticLog(messageCount: messageCount, seed: seed).lines()
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: false, encoding: .utf8)
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return path != "-" && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
    }

    static var isDebugBuild: Bool {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }
}
