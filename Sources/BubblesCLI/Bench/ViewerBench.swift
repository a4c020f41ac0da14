import BubbleLayout
import BubbleLogs
import BubbleTerminal
import BubbleText
import Dispatch
import Foundation

/// `bubbles bench --viewer`: what `bubbles view` costs on a synthetic log of N messages, done as
/// the command does it but with no terminal (frames are built, not written): the first screen
/// (the end of the file read and laid out first), the whole log behind it, a key press's frame,
/// a resize's frame (and the full re-flow after it), and memory.
struct ViewerBench {
    let messageCount: Int
    let seed: UInt64
    let rows = 50
    let columns = 100

    static func milliseconds(_ start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
    }

    func run(output: TextSink) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-viewer-bench-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            let lines = SyntheticLog(messageCount: messageCount, seed: seed).lines()
            try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: false, encoding: .utf8)
        }
        let fileBytes = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        let memoryBefore = ProcessMemory.peakResidentBytes
        var decoration = DecorationOptions()
        decoration.timeZone = TimeZone(identifier: "UTC")!
        let engine = LayoutEngine(textOptions: TextOptions(widthProfile: .wcwidth))
        let readOptions = LogReadOptions(me: SyntheticLog.me)
        let loader = ViewLoader(path: url.path, readOptions: readOptions, engine: engine, decoration: decoration, width: columns)
        let renderOptions = RenderOptions(width: columns, colorDepth: .palette256, timeZone: decoration.timeZone)

        // First screen: as `view` opens a large file.
        let openStart = DispatchTime.now()
        let conversation: Conversation<CellMeasurer>
        var tailFirst = false
        if let tail = loader.tail(tailFirstBytes: ViewCommand.tailFirstBytes, tailBytes: ViewCommand.tailBytes) {
            conversation = tail
            tailFirst = true
        } else {
            conversation = loader.load(try LogSource.open(path: url.path, format: .jsonl, options: readOptions))
        }
        let screen = ViewerScreen(conversation: conversation, title: url.lastPathComponent, rows: rows, columns: columns,
                                  renderOptions: renderOptions)
        let firstFrame = screen.frameText()
        let firstScreen = Self.milliseconds(openStart)

        // The whole log, which `view` reads on another thread meanwhile.
        let loadStart = DispatchTime.now()
        if tailFirst {
            screen.replaceConversation(loader.load(try LogSource.open(path: url.path, format: .jsonl, options: readOptions)))
        }
        let fullLoad = Self.milliseconds(loadStart)
        let rowCount = screen.conversation.count

        // Key presses, each to its frame.
        let keys: [ViewerKey] = [.character("g"), .character("j"), .character(" "), .character("d"), .down, .pageDown,
                                 .character("u"), .character("k"), .wheelDown, .character("b"), .character("G"), .up,
                                 .character("b"), .wheelUp, .home, .end]
        var keyTimes: [Double] = []
        var bytes = firstFrame.utf8.count
        for round in 0..<40 {
            for key in keys {
                let start = DispatchTime.now()
                _ = screen.handle(key)
                bytes &+= screen.frameText().utf8.count
                keyTimes.append(Self.milliseconds(start))
            }
            if round == 0 { _ = screen.handle(.character("g")) }
        }
        // Resizes: the frame at the new width, then the full re-flow behind it.
        var resizeTimes: [Double] = []
        var reflowTimes: [Double] = []
        _ = screen.handle(.character("g"))
        for _ in 0..<5 { _ = screen.handle(.pageDown) }
        for width in [80, 120, 60, columns] {
            let start = DispatchTime.now()
            screen.resize(rows: rows, columns: width)
            bytes &+= screen.frameText().utf8.count
            resizeTimes.append(Self.milliseconds(start))
            let reflow = DispatchTime.now()
            screen.completeResize()
            reflowTimes.append(Self.milliseconds(reflow))
        }
        let searchStart = DispatchTime.now()
        for key in "/needle-that-is-not-there" { _ = screen.handle(.character(key)) }
        _ = screen.handle(.enter)
        bytes &+= screen.frameText().utf8.count
        let search = Self.milliseconds(searchStart)

        func percentile(_ values: [Double], _ p: Double) -> Double {
            let sorted = values.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
        }
        let peak = ProcessMemory.peakResidentBytes
        var text = "bubbles bench --viewer: synthetic log, \(Format.grouped(messageCount)) messages (\(Format.fixed(Double(fileBytes) / 1e6, 1)) MB), "
        text += "\(rows) × \(columns) screen, wcwidth profile\n\n"
        text += "  first screen (end of the file read and laid out first)   \(Format.fixed(firstScreen, 1)) ms\(tailFirst ? "" : " (whole file: below the tail-first size)")\n"
        text += "  whole log read and laid out (behind the first screen)    \(Format.fixed(fullLoad / 1000, 2)) s, \(Format.grouped(rowCount)) rows\n"
        text += "  key press → frame (\(keyTimes.count) keys)                          p50 \(Format.fixed(percentile(keyTimes, 0.5), 2)) ms, p99 \(Format.fixed(percentile(keyTimes, 0.99), 2)) ms, max \(Format.fixed(keyTimes.max() ?? 0, 2)) ms\n"
        text += "  resize → frame at the new width                          max \(Format.fixed(resizeTimes.max() ?? 0, 2)) ms\n"
        text += "  full re-flow after a resize (all rows, all cores)        max \(Format.fixed(reflowTimes.max() ?? 0, 1)) ms\n"
        text += "  search over every message (no match)                     \(Format.fixed(search, 1)) ms\n"
        text += "  peak memory                                              \(Format.fixed(Double(peak) / 1e6, 1)) MB (\(Format.fixed(Double(max(0, peak - memoryBefore)) / 1e6, 1)) MB after the log was generated)\n"
        text += "  (frames built: \(Format.grouped(bytes)) bytes)\n"
        try output.write(text)
    }
}
