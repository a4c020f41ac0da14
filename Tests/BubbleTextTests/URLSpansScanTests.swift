import BubbleSamples
import Testing
@testable import BubbleText

/// `URLSpans.mayContain`, the quick test before `find`, reads eight bytes at a time: it must say
/// true exactly when `://` comes after the first byte, wherever it lies against the words.
@Suite struct URLSpansScanTests {
    /// The definition, a byte at a time.
    func contains(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        return (1..<bytes.count - 2).contains { bytes[$0] == 0x3A && bytes[$0 + 1] == 0x2F && bytes[$0 + 2] == 0x2F }
    }

    func scan(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { URLSpans.mayContain($0) }
    }

    @Test func theSeparatorIsFoundAtEveryPlaceAndLength() {
        for length in 0...40 {
            for at in 0..<max(1, length) {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                for (k, byte) in "://".utf8.enumerated() where at + k < length { bytes[at + k] = byte }
                #expect(scan(bytes) == contains(bytes), "length \(length), at \(at)")
            }
        }
    }

    @Test func bytesNearAColonAreNotTakenForOne() {
        // 0xBA is a colon with the high bit set, 0x3B and 0x39 its neighbours: the word test may
        // flag them, and each flagged byte is then checked exactly.
        var random = SeededGenerator(seed: 0x3A2F)
        let alphabet: [UInt8] = [0x3A, 0x2F, 0xBA, 0xAF, 0x3B, 0x39, 0x00, 0x41, 0xE3]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0..<24, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            #expect(scan(bytes) == contains(bytes), "\(bytes)")
        }
    }
}
