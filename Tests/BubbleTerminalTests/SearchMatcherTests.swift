import BubbleSamples
import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal

@Suite struct SearchMatcherTests {
    /// The byte search with ASCII case folding finds what lowercasing and `contains` find.
    @Test func asciiByteSearchAgreesWithLowercasedContains() {
        var generator = SeededGenerator(seed: 23)
        let alphabet = Array("abcABC xyzXYZ-é😀Ж")
        for _ in 0..<3000 {
            let text = String((0..<Int.random(in: 0...30, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            let query = String((0..<Int.random(in: 1...3, using: &generator)).map { _ in "abcABC xyzXYZ-".randomElement(using: &generator)! })
            #expect(SearchMatcher(query).matches(text) == text.lowercased().contains(query.lowercased()), "\(query) in \(text)")
        }
        #expect(SearchMatcher("привет").matches("ПРИВЕТ мир"))
    }
}
