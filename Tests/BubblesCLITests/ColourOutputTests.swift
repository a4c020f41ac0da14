import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// What a person sees in colour.
@Suite struct ColourOutputTests {
    @Test func theSampleShowsEverySenderNameInADifferentColour() {
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--width", "80", "--color", "always", "--tz", "UTC")
        var colourOf: [String: Substring] = [:]
        for line in run.outputLines where line.hasPrefix("\u{1B}[38;5;") {
            // A name line: ESC [ 38;5;N m NAME ESC [ 0 m
            let parts = line.dropFirst(2).split(separator: "m", maxSplits: 1)
            colourOf[String(parts[1].prefix { $0 != "\u{1B}" })] = parts[0]
        }
        #expect(Set(colourOf.keys) == ["Yuki", "Omar", "Noa", "Ploy"])
        #expect(Set(colourOf.values).count == colourOf.count)
    }
}
