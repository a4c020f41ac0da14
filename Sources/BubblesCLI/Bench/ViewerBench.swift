import BubbleBenchmarks
import BubbleLayout
import BubbleLogs
import BubbleTerminal
import BubbleText
import Dispatch
import Foundation

/// `bubbles bench --viewer [FILE]`: what `bubbles view` costs on a JSON Lines log (FILE, or a
/// synthetic log of N messages), done as the command does it but with no terminal (frames are
/// built, not written): the first screen (the end of the file indexed first), the whole file
/// indexed behind it, a key press's frame, a resize's frame, a search, and memory, with where
/// the bytes go.
struct ViewerBench {
    let messageCount: Int
    let seed: UInt64
    /// A log to read instead of a synthetic one (then memory is the viewer's alone: no log was
    /// generated in this process).
    var path: String?
    let rows = 50
    let columns = 100

    static func milliseconds(_ start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
    }

    /// CPU seconds the whole process has used (every thread).
    static func processCPUSeconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// The calling thread's context switches (involuntary: preempted by the scheduler; voluntary:
    /// it waited, for a page from disk or a lock) and page faults (major: read from disk).
    struct ThreadWaits {
        var involuntary = 0, voluntary = 0, majorFaults = 0

        static func now() -> ThreadWaits {
            var usage = rusage()
            // RUSAGE_THREAD (1), which Glibc's Swift module does not name.
            guard getrusage(__rusage_who_t(1), &usage) == 0 else { return ThreadWaits() }
            return ThreadWaits(involuntary: usage.ru_nivcsw, voluntary: usage.ru_nvcsw, majorFaults: usage.ru_majflt)
        }

        static func - (a: ThreadWaits, b: ThreadWaits) -> ThreadWaits {
            ThreadWaits(involuntary: a.involuntary - b.involuntary, voluntary: a.voluntary - b.voluntary,
                        majorFaults: a.majorFaults - b.majorFaults)
        }
    }

    /// Runs the phases and writes the report; false when the log held no message to view.
    func run(output: TextSink) throws -> Bool {
        var logPath = path
        var temporary: URL?
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        if logPath == nil {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-viewer-bench-\(getpid()).jsonl")
            let lines = SyntheticLog(messageCount: messageCount, seed: seed).lines()
            try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: false, encoding: .utf8)
            temporary = url
            logPath = url.path
        }
        guard let logPath else { return false }
        let fileBytes = (try FileManager.default.attributesOfItem(atPath: logPath)[.size] as? NSNumber)?.intValue ?? 0
        let residentBefore = ProcessMemory.read()?.residentBytes ?? 0
        var decoration = DecorationOptions()
        decoration.timeZone = TimeZone(identifier: "UTC")!
        let engine = LayoutEngine(textOptions: TextOptions(widthProfile: .wcwidth))
        let readOptions = LogReadOptions(me: path == nil ? SyntheticLog.me : nil)
        let loader = ViewLoader(path: logPath, readOptions: readOptions, registry: engine.registry)
        let renderOptions = RenderOptions(width: columns, colorDepth: .palette256, timeZone: decoration.timeZone)
        let start = loader.plainFileStart() ?? 0

        // First screen: as `view` opens a large file.
        let openStart = DispatchTime.now()
        let openCPU = ThreadClock.seconds()
        let source: ViewerSource
        let tail = loader.tail(tailFirstBytes: ViewCommand.tailFirstBytes, tailBytes: ViewCommand.tailBytes)
        source = tail ?? loader.index(from: start)
        let screen = ViewerScreen(source: source, engine: engine, decoration: decoration, title: (logPath as NSString).lastPathComponent,
                                  rows: rows, columns: columns, renderOptions: renderOptions)
        let firstFrame = screen.frameText()
        let firstScreen = Self.milliseconds(openStart)
        let firstScreenCPU = (ThreadClock.seconds() - openCPU) * 1000

        // The whole file, which `view` indexes on another thread meanwhile.
        let loadStart = DispatchTime.now()
        let processCPU = Self.processCPUSeconds()
        if let tail {
            let handover = ViewerHandover()
            loader.indexInBackground(from: start, into: handover, tail: tail)
            while handover.take(waiting: true) .map({ screen.replaceSource($0.source, shift: $0.shift) }) == nil {}
        }
        let fullLoad = Self.milliseconds(loadStart)
        let fullLoadCPU = Self.processCPUSeconds() - processCPU
        let rowCount = screen.count
        guard rowCount > 0 else {
            try output.write("bubbles bench --viewer: \(DiagnosticText.escaped(logPath)) holds no JSON Lines messages to view\n")
            return false
        }

        // Key presses, each to its frame.
        let keys: [ViewerKey] = [.character("g"), .character("j"), .character(" "), .character("d"), .down, .pageDown,
                                 .character("u"), .character("k"), .wheelDown, .character("b"), .character("G"), .up,
                                 .character("b"), .wheelUp, .home, .end]
        var keyTimes: [Double] = []
        var keyCPU: [Double] = []
        var keyWaits: [ThreadWaits] = []
        var bytes = firstFrame.utf8.count
        for round in 0..<40 {
            for key in keys {
                let start = DispatchTime.now()
                let cpu = ThreadClock.seconds()
                let waits = ThreadWaits.now()
                _ = screen.handle(key)
                bytes &+= screen.frameText().utf8.count
                keyWaits.append(ThreadWaits.now() - waits)
                keyCPU.append((ThreadClock.seconds() - cpu) * 1000)
                keyTimes.append(Self.milliseconds(start))
            }
            if round == 0 { _ = screen.handle(.character("g")) }
        }
        // Resizes, each to its frame at the new width, from well inside the log.
        var resizeTimes: [Double] = []
        var resizeCPU: [Double] = []
        _ = screen.handle(.character("g"))
        for _ in 0..<min(2_000, rowCount / 2 / max(1, rows)) { _ = screen.handle(.pageDown) }
        _ = screen.frameText()
        let middleRow = screen.topRow
        let middleID = screen.window[message: screen.topRow - screen.windowStart].model.id
        var keptTop = true
        for width in [80, 120, 60, 140, 40, columns] {
            let start = DispatchTime.now()
            let cpu = ThreadClock.seconds()
            screen.resize(rows: rows, columns: width)
            bytes &+= screen.frameText().utf8.count
            resizeCPU.append((ThreadClock.seconds() - cpu) * 1000)
            resizeTimes.append(Self.milliseconds(start))
            keptTop = keptTop && screen.topRow == middleRow && screen.window[message: screen.topRow - screen.windowStart].model.id == middleID
        }
        let searchStart = DispatchTime.now()
        let searchCPU = ThreadClock.seconds()
        _ = screen.handle(.character("g"))
        for key in "/needle-that-is-not-there" { _ = screen.handle(.character(key)) }
        _ = screen.handle(.enter)
        bytes &+= screen.frameText().utf8.count
        let search = Self.milliseconds(searchStart)
        let searchCPUms = (ThreadClock.seconds() - searchCPU) * 1000
        let wordSearchStart = DispatchTime.now()
        _ = screen.handle(.character("G"))
        for key in "?lol" { _ = screen.handle(.character(key)) }
        _ = screen.handle(.enter)
        let foundWord = screen.search?.notFound == false
        bytes &+= screen.frameText().utf8.count
        let wordSearch = Self.milliseconds(wordSearchStart)

        func percentile(_ values: [Double], _ p: Double) -> Double {
            let sorted = values.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
        }
        // Both from one reading: the peak is the process's, since it started (with no FILE, the
        // synthetic log's making included), and never below the resident size beside it.
        let memory = ProcessMemory.read() ?? ProcessMemory.Reading(residentBytes: 0, peakResidentBytes: 0)
        let resident = memory.residentBytes
        let peak = memory.peakResidentBytes
        let index = loader.fileSource?.indexBytes ?? 0
        let perMessage = { (bytes: Int) in Format.fixed(Double(bytes) / Double(max(1, screen.source.count)), 1) }
        // Every conversation's messages (the screen counts the one it shows).
        let messageTotal = screen.source.count
        var text = "bubbles bench --viewer: \(path.map { DiagnosticText.escaped($0) } ?? "synthetic log"), \(Format.grouped(messageTotal)) messages (\(Format.fixed(Double(fileBytes) / 1e6, 1)) MB), "
        text += "\(rows) × \(columns) screen, wcwidth profile\n\n"
        text += "  (wall-clock time, then the thread's CPU time: on a loaded machine the first waits for a core)\n"
        text += "  first screen (end of the file indexed and laid out first)   \(Format.fixed(firstScreen, 1)) ms wall, \(Format.fixed(firstScreenCPU, 1)) ms CPU\(tail == nil ? " (whole file: below the tail-first size)" : "")\n"
        text += "  whole file indexed (behind the first screen)                \(Format.fixed(fullLoad / 1000, 2)) s wall, \(Format.fixed(fullLoadCPU, 2)) s CPU, \(Format.grouped(messageTotal)) messages\n"
        text += "  key press → frame (\(keyTimes.count) keys), wall                       p50 \(Format.fixed(percentile(keyTimes, 0.5), 2)) ms, p99 \(Format.fixed(percentile(keyTimes, 0.99), 2)) ms, max \(Format.fixed(keyTimes.max() ?? 0, 2)) ms\n"
        text += "  key press → frame (\(keyTimes.count) keys), CPU                        p50 \(Format.fixed(percentile(keyCPU, 0.5), 2)) ms, p99 \(Format.fixed(percentile(keyCPU, 0.99), 2)) ms, max \(Format.fixed(keyCPU.max() ?? 0, 2)) ms\n"
        // Where a key's wall time beyond its CPU time went: waiting for a core (preempted), or
        // waiting on something of ours (a page of the file from disk, a lock).
        let slow = keyTimes.indices.filter { keyTimes[$0] > 2 * keyCPU[$0] + 1 }
        let preempted = slow.filter { keyWaits[$0].involuntary > 0 }.count
        let waited = slow.filter { keyWaits[$0].voluntary > 0 || keyWaits[$0].majorFaults > 0 }.count
        let unpreempted = keyTimes.indices.filter { keyWaits[$0].involuntary == 0 }.map { keyTimes[$0] }
        text += "  keys whose wall time was over twice their CPU time (+1 ms)  \(slow.count): preempted by the scheduler \(preempted), waited on a page or a lock \(waited)\n"
        text += "  key press → frame, wall, keys never preempted (\(unpreempted.count))     p50 \(Format.fixed(unpreempted.isEmpty ? 0 : percentile(unpreempted, 0.5), 2)) ms, p99 \(Format.fixed(unpreempted.isEmpty ? 0 : percentile(unpreempted, 0.99), 2)) ms\n"
        text += "  resize → frame at the new width (\(resizeTimes.count) widths)                 max \(Format.fixed(resizeTimes.max() ?? 0, 2)) ms wall, \(Format.fixed(resizeCPU.max() ?? 0, 2)) ms CPU; same message at the top: \(keptTop ? "yes" : "NO")\n"
        text += "  search over every message (no match)                        \(Format.fixed(search, 1)) ms wall, \(Format.fixed(searchCPUms, 1)) ms CPU\n"
        text += "  search backwards from the end for \"lol\"                     \(Format.fixed(wordSearch, 1)) ms wall\(foundWord ? "" : " (not found)")\n"
        text += "  windows laid out                                            \(screen.windowsBuilt), moved \(screen.windowsSlid) times (\(screen.window.messageCount) messages in the last)\n"
        text += "  memory: resident now \(Format.fixed(Double(resident) / 1e6, 1)) MB (\(Format.fixed(Double(resident - residentBefore) / 1e6, 1)) MB more than before opening), peak resident since the process started \(Format.fixed(Double(peak) / 1e6, 1)) MB\n"
        text += "          the file's index: \(Format.fixed(Double(index) / 1e6, 1)) MB, \(perMessage(index)) bytes a message (file: \(perMessage(fileBytes)) bytes a message)\n"
        text += "  (frames built: \(Format.grouped(bytes)) bytes)\n"
        try output.write(text)
        return true
    }
}
