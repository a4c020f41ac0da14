import BubbleTestSupport
import Foundation
import Testing

/// One long SVG or HTML document takes about what `heights --font` takes on the same log: the
/// layout's window and the rows being written, not the document (its rows go to a temporary file,
/// `DocumentSpill`, and the engine keeps no cache or text store that grows with the transcript).
/// Each run is the real `bubbles` under the address-space limit of `MemoryBoundTests`, so a
/// regression aborts the child, not the machine.
@Suite(.serialized) struct PictureMemoryTests {
    static let fonts = ["NotoSans-Subset.ttf", "NotoSansCJK-Subset.ttc", "NotoSansArabic-Subset.ttf", "NotoSansHebrew-Subset.ttf",
                        "NotoColorEmoji-Subset.ttf"].flatMap { ["--font", corpus("fonts/" + $0)] }

    @Test(.enabled(if: MemoryBoundTests.canRun, "\(MemoryBoundTests.needs)"), arguments: ["svg", "html"])
    func aLongDocumentTakesAboutWhatHeightsTakes(format: String) throws {
        let folder = try MemoryBoundTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // 25,000 messages of mixed scripts, 1 to 25 words: about 19 MB of SVG, 14 MB of HTML.
        let words = ["hello", "see", "you", "at", "the", "station", "こんにちは", "שלום", "مرحبا", "a", "much", "longer", "message", "😀"]
        let count = 25_000
        let log = (0..<count).map { n in
            let text = (0..<(1 + (n * 7) % 25)).map { words[($0 * 5 + n) % words.count] }.joined(separator: " ")
            let who = ["Ann", "Bo", "Me"][n % 3]
            return #"{"id":"m\#(n)","type":"text","from":"\#(who)","direction":"\#(who == "Me" ? "outgoing" : "incoming")","date":\#(1_714_557_600 + n * 40),"text":"\#(text)"}"# + "\n"
        }.joined()
        let path = folder + "/long.jsonl"
        try log.write(toFile: path, atomically: false, encoding: .utf8)
        let heights = try MemoryBoundTests.run(["heights", path, "--width", "375"] + Self.fonts)
        let render = try MemoryBoundTests.run(["render", path, "--format", format, "--width", "375"] + Self.fonts)
        #expect(heights.status == 0 && render.status == 0, "\(heights.stderr)\(render.stderr)")
        // Held whole, the document (and the engine's cache and store, about 2 KB a message) added
        // about 90 MiB here; streamed, the rows being written and the window's kept texts.
        let extra = render.peakBytes - heights.peakBytes
        #expect(extra < 32 << 20, "render --format \(format) peaks \(render.peakBytes >> 20) MiB, heights \(heights.peakBytes >> 20) MiB, for \(count) messages")
    }
}
