import BubbleSamples
import BubbleTestSupport
import BubbleText
@testable import BubbleLogs
import Foundation
import Testing

/// Inflate against raw deflate streams written by zlib (Corpora/zip/deflate, made by
/// Corpora/tools/make_zip_fixtures.sh), and against damaged streams.
@Suite struct InflateTests {
    static let source = Array(FileManager.default.contents(atPath: corpus("unicode/GraphemeBreakTest.txt"))!)
    static let strategies = ["level9", "level1", "level0", "fixed", "huffman-only", "rle"]

    static func stream(_ strategy: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: corpus("zip/deflate/GraphemeBreakTest.\(strategy).deflate"))!)
    }

    /// A stream decoded a chunk at a time: each read hands out at most one output chunk (and a
    /// match's overrun), the compressed bytes are fetched once each, in order, a chunk at a time,
    /// and the chunks make the original (about 1 MiB, so back-references reach across chunks).
    @Test(arguments: strategies)
    func aStreamIsDecodedInBoundedChunks(strategy: String) throws {
        let compressed = Self.stream(strategy)
        var fetched: [Range<Int>] = []
        let stream = InflateStream(compressedCount: compressed.count, size: Self.source.count) { offset, length in
            fetched.append(offset..<(offset + length))
            return Array(compressed[offset..<(offset + length)])
        }
        var out: [UInt8] = []
        var chunk: [UInt8] = []
        var reads = 0
        while try stream.read(appendingTo: &chunk) {
            #expect(!chunk.isEmpty && chunk.count <= InflateStream.outputChunk + 257)
            out += chunk
            chunk.removeAll()
            reads += 1
        }
        #expect(out == Self.source)
        #expect(reads >= Self.source.count / (InflateStream.outputChunk + 257))
        #expect(fetched.allSatisfy { $0.count <= InflateStream.inputChunk })
        #expect(fetched.map(\.lowerBound) == Array(stride(from: 0, to: compressed.count, by: InflateStream.inputChunk)))
        // The end was reached once; reading on stays at the end.
        #expect(try !stream.read(appendingTo: &chunk) && chunk.isEmpty)
    }

    @Test(arguments: strategies)
    func everyZlibStrategyInflatesToTheOriginal(strategy: String) throws {
        let out = try Inflate.inflate(Self.stream(strategy), size: Self.source.count)
        #expect(out == Self.source)
        #expect(CRC32.checksum(out) == CRC32.checksum(Self.source))
    }

    @Test func aStatedSizeThatDiffersFromTheDataIsAnError() {
        let stream = Self.stream("level9")
        #expect(throws: InflateError("decompresses to more than the size its header states")) {
            try Inflate.inflate(stream, size: Self.source.count - 1)
        }
        #expect(throws: InflateError("decompresses to \(Self.source.count) bytes, not the \(Self.source.count + 1) its header states")) {
            try Inflate.inflate(stream, size: Self.source.count + 1)
        }
    }

    @Test func handMadeBlocks() throws {
        // A final stored block of 3 bytes: header bits 1,00, then LEN 3, NLEN ~3.
        #expect(try Inflate.inflate([0x01, 0x03, 0x00, 0xFC, 0xFF, 0x61, 0x62, 0x63], size: 3) == Array("abc".utf8))
        // An empty final fixed block: 1, 01 (fixed), then end-of-block (seven zero bits).
        #expect(try Inflate.inflate([0x03, 0x00], size: 0) == [])
        #expect(throws: InflateError("a stored block's length and its complement disagree")) {
            try Inflate.inflate([0x01, 0x03, 0x00, 0xFD, 0xFF, 0x61, 0x62, 0x63], size: 3)
        }
        #expect(throws: InflateError("invalid block type 3")) { try Inflate.inflate([0x07], size: 0) }
        #expect(throws: InflateError("truncated: a stored block is cut off")) {
            try Inflate.inflate([0x01, 0x03, 0x00, 0xFC, 0xFF, 0x61], size: 3)
        }
        #expect(throws: InflateError("truncated: the deflate data ends inside a block")) { try Inflate.inflate([], size: 0) }
    }

    @Test func aBackReferenceBeforeTheStartIsAnError() {
        // zlib's own output for "aaaa…" starts with a literal; make it start with a match instead:
        // fixed block, length code 257 (3 bytes, code 0000001), distance code 0 (00000).
        var bits: [Int] = [1, 1, 0]                 // final, fixed (01 sent low bit first)
        bits += [0, 0, 0, 0, 0, 0, 1]               // 257, Huffman codes are sent most significant bit first
        bits += [0, 0, 0, 0, 0]                     // distance 1
        bits += [0, 0, 0, 0, 0, 0, 0]               // end of block
        var bytes = [UInt8](repeating: 0, count: (bits.count + 7) / 8)
        for (i, bit) in bits.enumerated() where bit == 1 { bytes[i / 8] |= 1 << (i % 8) }
        #expect(throws: InflateError("a back-reference reaches 1 bytes back, before the start of the data")) {
            try Inflate.inflate(bytes, size: 3)
        }
    }

    /// Every short prefix and 40 longer ones spread over the stream: an error, never a crash.
    @Test(arguments: strategies)
    func everyTruncationIsAnError(strategy: String) {
        let stream = Self.stream(strategy)
        for length in Array(0..<32) + Array(stride(from: 32, to: stream.count, by: stream.count / 40)) {
            #expect(throws: InflateError.self) { try Inflate.inflate(Array(stream[..<length]), size: Self.source.count) }
        }
    }

    /// Seeded random damage: each result is an error or exactly the stated size; nothing crashes.
    @Test(arguments: strategies)
    func randomCorruptionNeverCrashes(strategy: String) {
        let stream = Self.stream(strategy)
        var random = SeededGenerator(seed: 0x1951)
        var errors = 0
        for _ in 0..<120 {
            var damaged = stream
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            do {
                let out = try Inflate.inflate(damaged, size: Self.source.count)
                #expect(out.count == Self.source.count)
            } catch {
                errors += 1
            }
        }
        // Damage in a stored block's data goes unnoticed by inflate (the CRC catches it); the
        // coded streams must notice most of it.
        if strategy != "level0" { #expect(errors > 60) }
    }
}

@Suite struct CRC32Tests {
    @Test func knownCheckValues() {
        // The check value every CRC-32 catalogue gives for "123456789".
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
        var split = CRC32()
        split.update(Array("12345".utf8))
        split.update(Array("6789".utf8))
        #expect(split.value == 0xCBF4_3926)
    }
}

/// The two-level table against a plain canonical-code encoder, on random complete codes with
/// lengths up to 15 (so subtables of every width occur), with fixed seeds.
@Suite struct HuffmanTableTests {
    /// Code lengths of a random complete prefix code: split random leaves of a binary tree until
    /// there are `leaves`, then give them to random symbols among `symbols`.
    static func randomLengths(symbols: Int, leaves: Int, using random: inout SeededGenerator) -> [UInt8] {
        var depths = [0]
        while depths.count < leaves {
            let splittable = depths.indices.filter { depths[$0] < 15 }
            // Prefer deep leaves now and then, to reach 15-bit codes.
            let i = Bool.random(using: &random) ? splittable.max { depths[$0] < depths[$1] }! : splittable.randomElement(using: &random)!
            let depth = depths.remove(at: i) + 1
            depths += [depth, depth]
        }
        var lengths = [UInt8](repeating: 0, count: symbols)
        for (symbol, depth) in zip(Array(0..<symbols).shuffled(using: &random), depths) { lengths[symbol] = UInt8(depth) }
        return lengths
    }

    /// Canonical codes as RFC 1951 §3.2.2 assigns them, written most significant bit first.
    static func codes(_ lengths: [UInt8]) -> [Int] {
        var codes = [Int](repeating: 0, count: lengths.count)
        var code = 0
        for length in 1...15 {
            for symbol in lengths.indices where lengths[symbol] == length {
                codes[symbol] = code
                code += 1
            }
            code <<= 1
        }
        return codes
    }

    @Test func randomCodesDecodeToTheSymbolsEncoded() throws {
        var random = SeededGenerator(seed: 0x4855_4646)
        var longest = 0
        for round in 0..<60 {
            let symbols = round % 2 == 0 ? 286 : 30
            let lengths = Self.randomLengths(symbols: symbols, leaves: Int.random(in: 2...symbols, using: &random), using: &random)
            let table = try HuffmanTable(lengths: lengths[...], rootBits: round % 3 == 0 ? 10 : 8, allowsSingleCode: false)
            let codes = Self.codes(lengths)
            longest = max(longest, Int(lengths.max()!))
            let used = lengths.indices.filter { lengths[$0] > 0 }
            let message = (0..<400).map { _ in used.randomElement(using: &random)! }
            // Encode: each code's bits most significant first, packed least significant bit first.
            var bits: [Bool] = []
            for symbol in message {
                let length = Int(lengths[symbol])
                for k in stride(from: length - 1, through: 0, by: -1) { bits.append(codes[symbol] >> k & 1 == 1) }
            }
            var position = 0
            for symbol in message {
                var window: UInt64 = 0
                for k in 0..<15 where position + k < bits.count && bits[position + k] { window |= 1 << UInt64(k) }
                let decoded = try #require(table.decode(window))
                #expect(decoded.symbol == symbol && decoded.length == Int(lengths[symbol]))
                position += decoded.length
            }
        }
        #expect(longest == 15)
    }

    @Test func overSubscribedAndIncompleteCodesAreRefused() {
        #expect(throws: HuffmanTable.BuildError.overSubscribed) { try HuffmanTable(lengths: [1, 1, 1][...], rootBits: 8, allowsSingleCode: true) }
        #expect(throws: HuffmanTable.BuildError.incomplete) { try HuffmanTable(lengths: [1, 2][...], rootBits: 8, allowsSingleCode: true) }
        #expect(throws: HuffmanTable.BuildError.incomplete) { try HuffmanTable(lengths: [0, 1][...], rootBits: 8, allowsSingleCode: false) }
        // The one incomplete code RFC 1951 allows: a single one-bit code; the other bit is no code.
        let single = try? HuffmanTable(lengths: [0, 1][...], rootBits: 8, allowsSingleCode: true)
        #expect(single?.decode(0)?.symbol == 1 && single?.decode(1) == nil)
        // No codes at all: every lookup fails.
        #expect((try? HuffmanTable(lengths: [0, 0][...], rootBits: 8, allowsSingleCode: false))?.decode(0) == nil)
    }
}
