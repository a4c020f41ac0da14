import BubbleSamples
import BubbleText
@testable import BubbleLogs
import Foundation
import Testing

/// Invariants of the input layers on random inputs with fixed seeds, each checked against a
/// simple reference that does the same job another way.
@Suite struct InputPropertyTests {
    /// Lines split the way a reader of universal newlines would (LF, CRLF, CR), whatever the chunks.
    @Test func lineBreaksDoNotDependOnChunkBoundaries() {
        var random = SeededGenerator(seed: 0x11E5_C4)
        for _ in 0..<300 {
            let count = Int.random(in: 0...200, using: &random)
            let bytes = (0..<count).map { _ in [UInt8(ascii: "a"), 0x0D, 0x0A, UInt8(ascii: "b")].randomElement(using: &random)! }
            for crIsLineBreak in [true, false] {
                let chunk = Int.random(in: 1...9, using: &random)
                let reader = LineReader(source: ChunkedSource(bytes, chunk: chunk), crIsLineBreak: crIsLineBreak)
                let got = Array(sequence(state: reader) { $0.next() }).map(\.bytes)
                #expect(got == referenceLines(bytes, crIsLineBreak: crIsLineBreak), "\(bytes) chunk \(chunk)")
            }
        }
    }

    private func referenceLines(_ bytes: [UInt8], crIsLineBreak: Bool) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x0A {
                if current.last == 0x0D { current.removeLast() }
                lines.append(current); current = []
            } else if byte == 0x0D && crIsLineBreak {
                lines.append(current); current = []
                if i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
            } else {
                current.append(byte)
            }
            i += 1
        }
        if !current.isEmpty {
            if !crIsLineBreak, current.last == 0x0D { current.removeLast() }
            lines.append(current)
        }
        return lines
    }

    /// Random scalars (BMP and beyond) in UTF-16 of either byte order decode to their UTF-8.
    @Test func utf16DecodesToTheSameScalarsAsTheStandardLibrary() {
        var random = SeededGenerator(seed: 0x0016_BE1E)
        for _ in 0..<300 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...60, using: &random) {
                let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF]
                if let scalar = Unicode.Scalar(UInt32.random(in: ranges.randomElement(using: &random)!, using: &random)) { scalars.append(scalar) }
            }
            let text = String(scalars)
            for bigEndian in [false, true] {
                let encoded: [UInt8] = text.utf16.flatMap { unit -> [UInt8] in
                    bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
                }
                let source = UTF16DecodingSource(ChunkedSource(encoded, chunk: Int.random(in: 1...11, using: &random)), bigEndian: bigEndian)
                var out: [UInt8] = []
                while source.read(appendingTo: &out) {}
                #expect(out == Array(text.utf8))
            }
        }
    }

    /// The structural scan finds the same top-level keys as the parser, on random nested objects
    /// whose strings hold braces, brackets, quotes and commas.
    @Test func structuralKeysAgreeWithTheParser() throws {
        var random = SeededGenerator(seed: 0x5_4A9E)
        let pieces = ["a", "{", "}", "[", "]", ",", ":", "\\\"", "\\\\", "é", "😀", " "]
        func string() -> String {
            "\"" + (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined() + "\""
        }
        func value(_ depth: Int) -> String {
            switch depth > 2 ? 0 : Int.random(in: 0...3, using: &random) {
            case 0: return [string(), "12", "true", "null", "-0.5"].randomElement(using: &random)!
            case 1: return "[" + (0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
            default: return object(depth + 1)
            }
        }
        func object(_ depth: Int) -> String {
            "{" + (0..<Int.random(in: 0...4, using: &random)).map { _ in string() + ":" + value(depth) }.joined(separator: ",") + "}"
        }
        for _ in 0..<500 {
            let text = object(0)
            let parsed = try #require(try JSONParser().parse(Array(text.utf8)).objectValue)
            let parsedKeys = Set(parsed.members.map(\.key).filter { !$0.contains("\\") && !$0.contains("\"") && $0.utf8.count <= 64 })
            let shape = JSONShape(Array(text.utf8))
            #expect(shape.closes, "\(text)")
            #expect(shape.topLevelKeys == parsedKeys, "\(text)")
        }
    }
}
