import BubbleSamples
import BubbleText
@testable import BubbleLogs
import Foundation
import Testing

/// UTF-16 input, damaged as well as whole, decodes as the standard library decodes it, whatever
/// the chunks the bytes arrive in (issue 15: the JSON Lines fuzzer's finding).
@Suite struct UTF16DecodingTests {
    /// The standard library's decoding of `bytes` (no byte order mark) to UTF-8, with an odd last
    /// byte (half a code unit) as one U+FFFD, as the Unicode standard's and WHATWG's decoders do.
    private func referenceUTF8(_ bytes: [UInt8], bigEndian: Bool) -> [UInt8] {
        var units: [UInt16] = []
        for i in stride(from: 0, to: bytes.count - 1, by: 2) {
            units.append(bigEndian ? UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]) : UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i]))
        }
        if bytes.count % 2 == 1 { units.append(0xFFFD) }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    /// Random code units biased toward what breaks decoders: lone and reversed surrogates, pairs
    /// cut by a chunk boundary, CR and LF (one byte of each unit zero), an odd byte at the end;
    /// read in random chunk sizes, odd ones included, and compared with the standard library.
    @Test func damagedUTF16DecodesAsTheStandardLibraryInAnyChunks() {
        var random = SeededGenerator(seed: 0x0F16_D3C0)
        let units: [UInt16] = [0x41, 0x0A, 0x0D, 0x20, 0xE9, 0x4E00, 0xD83D, 0xDE00, 0xDBFF, 0xDC00, 0xFFFD, 0xFEFF, 0x00, 0x7B]
        for round in 0..<2000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                let unit = Int.random(in: 0..<4, using: &random) == 0
                    ? UInt16.random(in: 0...0xFFFF, using: &random) : units.randomElement(using: &random)!
                bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
            }
            if Bool.random(using: &random) { bytes.append(UInt8.random(in: 0...0xFF, using: &random)) }
            if !bytes.isEmpty && Int.random(in: 0..<4, using: &random) == 0 {
                bytes.remove(at: Int.random(in: 0..<bytes.count, using: &random))  // a byte dropped mid-stream
            }
            for bigEndian in [true, false] {
                let input = bigEndian ? bytes : bytes.chunkedPairsSwapped()
                let chunk = Int.random(in: 1...13, using: &random)
                let source = UTF16DecodingSource(ChunkedSource(input, chunk: chunk), bigEndian: bigEndian)
                var out: [UInt8] = []
                while source.read(appendingTo: &out) {}
                #expect(out == referenceUTF8(input, bigEndian: bigEndian), "round \(round) \(input) chunk \(chunk)")
            }
        }
    }

    /// The finding itself (Corpora/findings/jsonl-utf16-line-count.bin): a big-endian JSON
    /// Lines file with a byte dropped mid-stream and an odd byte count. Its last line is that odd
    /// byte, one U+FFFD: the standard library's decoding has 6 lines, so 6 records, not the 5 the
    /// harness counted when it dropped the odd byte.
    @Test func theFuzzersDamagedUTF16FileHasARecordPerDecodedLine() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Corpora/findings/jsonl-utf16-line-count.bin").path
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.starts(with: [0xFE, 0xFF]) && bytes.count % 2 == 1)
        let decoded = referenceUTF8(Array(bytes.dropFirst(2)), bigEndian: true)
        let lines = decoded.split(separator: 0x0A, omittingEmptySubsequences: false)
            .filter { !$0.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }
        #expect(lines.count == 6)
        #expect(lines.last.map(Array.init) == Array("\u{FFFD}".utf8))
        let reader = try LogSource.open(path: path, format: .jsonl, options: LogReadOptions(timeZone: TimeZone(identifier: "UTC")!))
        var records = 0
        var lastLine = 0
        for entry in reader {
            records += 1
            switch entry {
            case .message(_, let position): lastLine = max(lastLine, position.line ?? 0)
            case .diagnostic(let diagnostic): lastLine = max(lastLine, diagnostic.line ?? 0)
            }
        }
        #expect(records == lines.count)
        #expect(reader.counts.recordsIn == lines.count)
        #expect(lastLine == 6)
    }
}

private extension Array where Element == UInt8 {
    /// The bytes with each pair swapped (big-endian units as little-endian); an odd last byte stays.
    func chunkedPairsSwapped() -> [UInt8] {
        var out = self
        var i = 0
        while i + 1 < out.count {
            out.swapAt(i, i + 1)
            i += 2
        }
        return out
    }
}
