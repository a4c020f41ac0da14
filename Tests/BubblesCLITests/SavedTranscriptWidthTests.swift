import BubbleTestSupport
import BubbleText
import Foundation
import Testing
@testable import BubblesCLI

/// Output that is not a terminal is counted per code point (`CellWidthsOption.laterDisplayDefault`),
/// so a saved transcript of Indic text with spacing marks fits the width asked for in a terminal
/// that counts so; tmux, one of them, measures every line. The `unicode` count it replaced does not.
@Suite(.serialized, .enabled(if: TmuxSession.isAvailable, "tmux or the built bubbles binary is missing (.ci/run installs tmux)"))
struct SavedTranscriptWidthTests {
    @Test(arguments: [30, 44, 80])
    func aSavedTranscriptFitsItsWidthWhereItIsShown(width: Int) throws {
        let binary = try #require(TmuxSession.bubblesBinary)
        let log = corpus("logs/indic-spacing-marks.jsonl")
        let arguments = ["render", log, "--width", "\(width)", "--color", "never", "--tz", "UTC"]
        // The executable's own default, its output a pipe.
        let saved = spawn(binary, arguments)
        #expect(saved == bubbles(arguments, laterDisplayProfile: CellWidthsOption.laterDisplayDefault).output)
        #expect(saved == bubbles(arguments + ["--cell-widths", "wcwidth"]).output)
        let lines = saved.split(separator: "\n").map(String.init)
        #expect(lines.count > 20)
        let measured = try #require(try TmuxWidths.measure(lines), "tmux did not measure the lines")
        #expect(measured.count == lines.count)
        for (line, cells) in zip(lines, measured) { #expect(cells <= width, "\(cells) cells: \(line)") }
        let unicode = bubbles(arguments + ["--cell-widths", "unicode"]).outputLines.map(String.init)
        let unicodeMeasured = try #require(try TmuxWidths.measure(unicode), "tmux did not measure the lines")
        #expect(unicodeMeasured.contains { $0 > width })
    }
}
