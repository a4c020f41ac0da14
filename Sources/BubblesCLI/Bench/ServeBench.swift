import BubbleBenchmarks
import BubbleLayout
import BubbleLogs
import Dispatch
import Foundation

/// `bubbles bench --serve`: what `bubbles serve` answers in, in process (requests parsed and
/// responses written as on its pipes, without the pipes): a conversation of the synthetic log's
/// first N messages is opened and appended, then each further message is appended and its row
/// read back (two requests, the pair timed), then the conversation is resized back and forth.
/// Reports requests per second and p50/p99 latency for each.
struct ServeBench {
    let messageCount: Int
    let seed: UInt64
    let width: Int
    /// Messages appended one at a time (each followed by a `rows` request), and resizes.
    var rounds = 2000
    var resizes = 40

    struct Phase {
        var name: String
        var requests: Int
        var seconds: Double
        var latencies: [Double]

        func percentile(_ p: Double) -> Double {
            let sorted = latencies.sorted()
            guard !sorted.isEmpty else { return 0 }
            return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
        }
    }

    func run(output: TextSink) throws {
        let lines = SyntheticLog(messageCount: messageCount + rounds, seed: seed).lines()
        let service = ServeService(defaultTimeZone: TimeZone(identifier: "UTC")!, budget: 4 << 30)
        let answered = DispatchSemaphore(value: 0)
        let last = LastResponse()
        func request(_ text: String) {
            service.handle(Array(text.utf8)) { last.set($0); answered.signal() }
            answered.wait()
        }
        var id = 0
        func call(_ method: String, _ params: String) {
            id += 1
            request("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"\(method)\",\"params\":{\"conversation\":\"bench\"\(params)}}")
        }
        call("open", ",\"width\":\(width),\"timeZone\":\"UTC\",\"me\":\(JSONString.quoted(SyntheticLog.me))")
        let loadStart = DispatchTime.now()
        call("append", ",\"messages\":[" + lines.prefix(messageCount).joined(separator: ",") + "]")
        let load = Phase(name: "append \(messageCount) (one request)", requests: 1, seconds: Self.seconds(since: loadStart),
                         latencies: [Self.seconds(since: loadStart)])
        guard last.value.contains("\"result\"") else {
            try output.write("bubbles bench --serve: the service refused the log: \(last.value.prefix(200))\n")
            return
        }
        var pairs: [Double] = []
        let pairStart = DispatchTime.now()
        for line in lines.dropFirst(messageCount) {
            let start = DispatchTime.now()
            call("append", ",\"messages\":[\(line)]")
            let idStart = line.range(of: "\"id\":")!.upperBound
            let idValue = line[idStart...].prefix { $0 != "," }
            call("rows", ",\"ids\":[\(idValue)]")
            pairs.append(Self.seconds(since: start))
        }
        let appendPhase = Phase(name: "append 1 + rows (warm)", requests: 2 * rounds, seconds: Self.seconds(since: pairStart), latencies: pairs)
        var resizeTimes: [Double] = []
        let resizeStart = DispatchTime.now()
        for i in 0..<resizes {
            let start = DispatchTime.now()
            call("resize", ",\"width\":\(i % 2 == 0 ? width * 2 : width)")
            resizeTimes.append(Self.seconds(since: start))
        }
        let resizePhase = Phase(name: "resize (\(messageCount + rounds) messages)", requests: resizes, seconds: Self.seconds(since: resizeStart),
                                latencies: resizeTimes)
        service.drain()
        var table = "bubbles serve, in process, \(BenchCommand.isDebugBuild ? "debug" : "release") build, width \(width)\n"
        table += "phase                              requests/s      p50 ms      p99 ms\n"
        for phase in [load, appendPhase, resizePhase] {
            let perSecond = phase.seconds > 0 ? Double(phase.requests) / phase.seconds : 0
            table += phase.name.padding(toLength: 33, withPad: " ", startingAt: 0)
                + Format.fixed(perSecond, 0).leftPadded(12) + Format.fixed(phase.percentile(0.5) * 1000, 3).leftPadded(12)
                + Format.fixed(phase.percentile(0.99) * 1000, 3).leftPadded(12) + "\n"
        }
        try output.write(table)
    }

    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// The response to the request in flight (one at a time).
    final class LastResponse: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        var value: String { lock.withLock { text } }
        func set(_ value: String) { lock.withLock { text = value } }
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
