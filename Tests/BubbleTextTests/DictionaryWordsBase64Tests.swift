import BubbleSamples
import Foundation
import Testing
@testable import BubbleText

/// `DictionaryWords.decodeBase64`, which unpacks the generated word lists, against Foundation's
/// base64 decoder on random bytes, with newlines (which the generated literals hold) put at random
/// places, so that groups of four digits fall across them too.
@Suite struct DictionaryWordsBase64Tests {
    @Test func decodesAsFoundationDoesWithNewlinesAnywhere() {
        var rng = SeededGenerator(seed: 0xB64)
        for length in Array(0..<40) + [255, 256, 1000] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let encoded = Data(bytes).base64EncodedString()
            #expect(Data(base64Encoded: encoded).map { [UInt8]($0) } == bytes)
            var broken = ""
            for character in encoded where character != "=" {
                if rng.next() % 5 == 0 { broken.append("\n") }
                broken.append(character)
            }
            #expect(DictionaryWords.decodeBase64(broken) == bytes, "length \(length)")
            // Lines of 120 digits, as the generator writes them.
            var lines = ""
            for (i, character) in encoded.filter({ $0 != "=" }).enumerated() {
                if i > 0 && i % 120 == 0 { lines.append("\n") }
                lines.append(character)
            }
            #expect(DictionaryWords.decodeBase64(lines) == bytes, "length \(length), lines")
        }
    }

    @Test func everyWordListUnpacksWhole() {
        // The initializer checks the word count against the generated one.
        for words in [DictionaryWords.thai, DictionaryWords.lao, DictionaryWords.khmer, DictionaryWords.myanmar] {
            #expect(words.starts.count > 1000)
            #expect(words.bytes.count == Int(words.starts.last!) + Int(words.bytes[Int(words.starts.last!) - 1]))
        }
    }
}
