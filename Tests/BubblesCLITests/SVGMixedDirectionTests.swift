import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// Hebrew and English on one line: the space between a right-to-left run and the run before it
/// is drawn. Chromium gives a space that ends a `<text>`'s content no width, so a right-to-left
/// run that ends the line keeps its spaces outside its override, where they are seen (measured in
/// Chromium: each line's getComputedTextLength is then within 1 px of our `data-width`).
@Suite struct SVGMixedDirectionTests {
    static let lines = [
        "Meeting with שלום עליכם at 5 pm", "שלום world, how are you", "מחר בבוקר we meet at the office",
        "I said תודה רבה to him and left", "אני אוהב את the new design",
    ]

    @Test func spacesBesideARightToLeftRunAreOutsideItsOverride() throws {
        let folder = NSTemporaryDirectory() + "bubbles-mixed-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/mixed.jsonl"
        let records = Self.lines.enumerated().map { n, text in
            "{\"id\":\"\(n)\",\"type\":\"text\",\"from\":\"Ana\",\"date\":\"2024-05-01T09:0\(n):00Z\",\"text\":\"\(text)\"}"
        }
        try records.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
        let fonts = ["--font", corpus("fonts/NotoSans-Subset.ttf"), "--font", corpus("fonts/NotoSansHebrew-Subset.ttf")]
        let run = bubbles(["render", path, "--format", "svg", "--width", "600"] + fonts)
        #expect(run.code == 0, "\(run.errors)")
        let expected = [
            ">Meeting with <tspan class=\"r\">שלום עליכם</tspan> at 5 pm</text>",
            ">world, how are you <tspan class=\"r\">שלום</tspan></text>",
            ">we meet at the office <tspan class=\"r\">מחר בבוקר</tspan></text>",
            ">I said <tspan class=\"r\">תודה רבה</tspan> to him and left</text>",
            ">the new design <tspan class=\"r\">אני אוהב את</tspan></text>",
        ]
        for line in expected { #expect(run.output.contains(line), "\(line)") }
        // No line's content ends with a space, inside an override or out.
        #expect(!run.output.contains(" </tspan></text>") && !run.output.contains(" </text>"))
    }
}
