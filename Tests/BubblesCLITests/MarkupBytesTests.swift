import BubbleSamples
import BubbleLayout
@testable import BubblePictures
import Testing

/// The writers' byte buffer writes what the String helpers it replaced write: `appendEscaped`
/// is `MarkupText.append` and `appendPixels` is `PixelRow.pixels`, on random input (fixed seed).
@Suite struct MarkupBytesTests {
    /// Scalars from every class the escaping treats apart, and their neighbours.
    static let pool: [UInt32] = [0x00, 0x09, 0x0A, 0x1B, 0x1F, 0x20, 0x22, 0x26, 0x27, 0x3C, 0x3E, 0x41, 0x7E, 0x7F, 0x80, 0x85,
                                 0x9F, 0xA0, 0xE9, 0x5D0, 0x61B, 0x61C, 0x61D, 0x627, 0x200B, 0x200D, 0x200E, 0x200F, 0x2010,
                                 0x2029, 0x202A, 0x202E, 0x202F, 0x2060, 0x2065, 0x2066, 0x2069, 0x206A, 0x4E00, 0xFEFF,
                                 0xFFFD, 0xFFFE, 0xFFFF, 0x1F600, 0x10FFFF]

    @Test func escapingIsMarkupTextsOnRandomText() {
        var rng = SeededGenerator(seed: 2026)
        for _ in 0..<5_000 {
            var text = ""
            for _ in 0..<Int(rng.next() % 24) {
                text.unicodeScalars.append(Unicode.Scalar(Self.pool[Int(rng.next() % UInt64(Self.pool.count))])!)
            }
            var bytes = MarkupBytes()
            bytes.appendEscaped(text)
            #expect(String(decoding: bytes.bytes, as: UTF8.self) == MarkupText.escaped(text), "\(text.unicodeScalars.map(\.value))")
            // A slice of a larger string (not contiguous from its start) escapes the same.
            let sliced = Substring(("xy" + text + "z").unicodeScalars.dropFirst(2).dropLast())
            var fromSlice = MarkupBytes()
            fromSlice.appendEscaped(sliced)
            #expect(fromSlice.bytes == bytes.bytes)
        }
    }

    @Test func numbersArePixelRowsOnRandomValues() {
        var rng = SeededGenerator(seed: 34)
        let fixed = [0, 1, -1, 63, 64, 65, -64, -65, 640, 1 << 40, Int.max, Int.min + 1]
        for value in fixed + (0..<20_000).map({ _ in Int(truncatingIfNeeded: rng.next()) >> Int(rng.next() % 60) }) {
            var bytes = MarkupBytes()
            bytes.appendPixels(value)
            #expect(String(decoding: bytes.bytes, as: UTF8.self) == PixelRow.pixels(value), "\(value)")
            var whole = MarkupBytes()
            whole.append(value)
            #expect(String(decoding: whole.bytes, as: UTF8.self) == String(value))
        }
    }
}
