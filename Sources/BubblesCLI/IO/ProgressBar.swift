import Foundation

/// A one-line progress bar on standard error, drawn only for a terminal and only once a run
/// has lasted long enough to be worth watching.
final class ProgressBar {
    private let sink: TextSink
    private let enabled: Bool
    private let total: Int
    private let started = DispatchTime.now()
    private var lastDrawn: UInt64 = 0
    private var drawn = false
    /// Runs shorter than this never show a bar.
    private let delayNanoseconds: UInt64 = 500_000_000

    init(total: Int, sink: TextSink, enabled: Bool) {
        self.total = max(1, total)
        self.sink = sink
        self.enabled = enabled
    }

    func update(done: Int) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let elapsed = now - started.uptimeNanoseconds
        guard elapsed >= delayNanoseconds, now - lastDrawn >= 100_000_000 else { return }
        lastDrawn = now
        let fraction = min(1, Double(done) / Double(total))
        let cells = 30
        let filled = Int(fraction * Double(cells))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled)
        try? sink.write("\r\(bar) \(Int(fraction * 100))% \(done)/\(total) rows")
        try? sink.flush()
        drawn = true
    }

    /// Clears the bar so the summary starts on a clean line.
    func finish() {
        guard drawn else { return }
        // Spaces rather than an erase sequence: the only escapes we emit are colours.
        try? sink.write("\r" + String(repeating: " ", count: 60) + "\r")
        try? sink.flush()
    }
}
