import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// A file mostly rejected lists a screenful of reasons and counts the rest; a file mostly read
/// lists every problem.
@Suite struct RejectedListLimitTests {
    private func file(_ lines: [String]) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bubbles-reject-\(UUID().uuidString).jsonl").path
        _ = FileManager.default.createFile(atPath: path, contents: Data((lines.joined(separator: "\n") + "\n").utf8))
        return path
    }

    private func good(_ n: Int) -> String { #"{"id":"m\#(n)","type":"text","from":"Ana","date":"2024-01-13T20:15:00Z","text":"hi"}"# }
    private let bad = #"{"kind":"not ours"}"#

    @Test func aMostlyRejectedFileListsAScreenfulAndCountsTheRest() throws {
        let path = file([good(1), good(2)] + Array(repeating: bad, count: 500))
        defer { try? FileManager.default.removeItem(atPath: path) }
        for command in [["convert", path], ["heights", path, "--width", "40"]] {
            let run = bubbles(command)
            #expect(run.code == 1)
            let reports = run.errors.split(separator: "\n").filter { $0.hasPrefix(path + ":") && !$0.hasPrefix(path + ": ") }
            #expect(reports.count == DiagnosticList.screenful, "\(command[0])")
            #expect(run.errors.contains("bubbles: 480 more problems not listed: most of the input was rejected (the first 20 are above)"), "\(command[0])")
            #expect(run.errors.contains("502 records"), "\(command[0])")
        }
    }

    @Test func aMostlyReadFileListsEveryProblem() throws {
        var lines: [String] = []
        for n in 0..<30 { lines += [good(2 * n), good(2 * n + 1), bad] }
        let path = file(lines)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = bubbles("convert", path)
        let reports = run.errors.split(separator: "\n").filter { $0.hasPrefix(path + ":") && !$0.hasPrefix(path + ": ") }
        #expect(reports.count == 30)
        #expect(!run.errors.contains("not listed"))
    }
}
