import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// The results of Tools/pictures/browser-check.py (headless Chromium), committed: they are of the
/// layout we have now, and they pass.
@Suite struct PictureBrowserCheckTests {
    static func results() throws -> [String: Any] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tools/pictures/results/browser-check.json")
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// Every row's height Chromium saw is the one `heights --font` gives now, so the results are
    /// not stale, and the browser found no failure (differences in the scripts the engine
    /// approximates are listed as mismatches, not failures).
    @Test func theBrowserCheckIsOfTheCurrentLayoutAndPasses() throws {
        let cases = try #require(try Self.results()["cases"] as? [[String: Any]])
        #expect(cases.count == 18)
        for entry in cases {
            let failures = try #require(entry["failures"] as? [[String: Any]])
            #expect(failures.isEmpty, "\(entry["log"]!) at \(entry["width"]!) px, \(entry["format"]!): \(failures)")
            #expect((entry["rows"] as? Int ?? 0) > 0)
            guard entry["format"] as? String == "html", let log = entry["log"] as? String, log.hasPrefix("Corpora/") else { continue }
            let width = try #require(entry["width"] as? Int)
            let recorded = try #require(entry["heights"] as? [String: Double])
            let now = try PictureCommandTests.heights(corpus(String(log.dropFirst("Corpora/".count))), width: width,
                                                       fonts: PictureBrowserCheckTests.fonts)
            #expect(recorded.count == now.count)
            for (id, height) in recorded {
                #expect((now[id]?["height"] as? NSNumber)?.doubleValue == height, "\(log) \(id) at \(width) px")
            }
        }
    }

    /// The chain browser-check.py renders with.
    static let fonts = ["NotoSans-Subset.ttf", "NotoSansCJK-Subset.ttc", "NotoSansArabic-Subset.ttf", "NotoSansHebrew-Subset.ttf",
                        "NotoSansThai-Subset.ttf", "NotoSansDevanagari-Subset.ttf", "NotoColorEmoji-Subset.ttf"]
        .flatMap { ["--font", corpus("fonts/" + $0)] }
}
