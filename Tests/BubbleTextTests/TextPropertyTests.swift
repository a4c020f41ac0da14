import BubbleSamples
import Testing
@testable import BubbleText

/// Random texts built from pieces of the corpora, random scalars, words, spaces, tabs and breaks.
struct TextSampler {
    let lineBreakCases: [[UInt32]]
    let graphemeCases: [[UInt32]]
    let emoji: [String]

    static let shared: TextSampler = {
        let lineBreak = (try? LineBreakConformanceTests.loadCases().map(\.scalars)) ?? []
        let grapheme = (try? LineBreakCorpus.read("unicode/GraphemeBreakTest.txt")).map(scalarSequences) ?? []
        let emoji = (try? LineBreakCorpus.read("unicode/emoji-test.txt")).map(emojiSequences) ?? []
        return TextSampler(lineBreakCases: lineBreak, graphemeCases: grapheme, emoji: emoji)
    }()

    /// The hex scalar sequences of a ÷/× conformance file.
    static func scalarSequences(_ file: String) -> [[UInt32]] {
        file.split(separator: "\n").compactMap { line in
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let scalars = content.split(separator: " ").compactMap { UInt32($0, radix: 16) }
            return scalars.isEmpty ? nil : scalars
        }
    }

    /// The sequences of emoji-test.txt, as strings.
    static func emojiSequences(_ file: String) -> [String] {
        file.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let fields = line.split(separator: ";").first else { return nil }
            let scalars = fields.split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            return scalars.isEmpty ? nil : String(String.UnicodeScalarView(scalars))
        }
    }

    static let words = ["hello", "world", "a", "chat", "bubbles", "https://example.com/a/b?c=d", "don't", "1,234.56",
                        "$100", "(note)", "well-known", "漢字", "かなカナ", "한국어", "مرحبا", "שלום", "ภาษาไทย",
                        "Привет", "naïve", "e\u{301}", "«quote»", "—", "…", "!", "?"]
    static let separators = [" ", " ", " ", "  ", "\t", "\n", "\r\n", "\r", "\u{2028}", "\u{85}", "\u{0C}", "\u{3000}", "\u{200B}"]

    func text(_ random: inout SeededGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        let pieces = Int.random(in: 0...14, using: &random)
        for _ in 0..<pieces {
            switch Int.random(in: 0..<10, using: &random) {
            case 0: append(lineBreakCases.randomElement(using: &random) ?? [], to: &scalars)
            case 1: append(graphemeCases.randomElement(using: &random) ?? [], to: &scalars)
            case 2: scalars.append(contentsOf: (emoji.randomElement(using: &random) ?? "").unicodeScalars)
            case 3: append([Self.randomScalar(&random)], to: &scalars)
            case 4, 5, 6: scalars.append(contentsOf: Self.words.randomElement(using: &random)!.unicodeScalars)
            default: scalars.append(contentsOf: Self.separators.randomElement(using: &random)!.unicodeScalars)
            }
        }
        return String(scalars)
    }

    func append(_ values: [UInt32], to scalars: inout String.UnicodeScalarView) {
        for value in values {
            if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
        }
    }

    static func randomScalar(_ random: inout SeededGenerator) -> UInt32 {
        while true {
            let value: UInt32 = Bool.random(using: &random)
                ? UInt32.random(in: 0...0x10FFFF, using: &random)
                : UInt32.random(in: 0...0x3FFF, using: &random)
            if Unicode.Scalar(value) != nil { return value }
        }
    }

    static func asciiText(_ random: inout SeededGenerator) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789 .,;:!?-()[]{}\"'/$%#&*+=<>_|~`@\\".utf8)
        let rare: [UInt8] = [0x09, 0x0A, 0x0D, 0x0B, 0x0C, 0x1B, 0x00, 0x7F, 0x20, 0x20]
        var bytes: [UInt8] = []
        let count = Int.random(in: 0...80, using: &random)
        for _ in 0..<count {
            bytes.append(Int.random(in: 0..<8, using: &random) == 0
                ? rare.randomElement(using: &random)! : alphabet.randomElement(using: &random)!)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

@Suite struct TextPropertyTests {
    static let widths = Array(1...24) + [31, 40, 80]

    /// Mandatory break sequences at `offset`: their UTF-8 length, or 0.
    static func breakLength(_ bytes: [UInt8], at offset: Int) -> Int {
        let b = bytes[offset]
        if b == 0x0D { return offset + 1 < bytes.count && bytes[offset + 1] == 0x0A ? 2 : 1 }
        if b == 0x0A || b == 0x0B || b == 0x0C { return 1 }
        if b == 0xC2 && offset + 1 < bytes.count && bytes[offset + 1] == 0x85 { return 2 }
        if b == 0xE2 && offset + 2 < bytes.count && bytes[offset + 1] == 0x80 && (bytes[offset + 2] == 0xA8 || bytes[offset + 2] == 0xA9) { return 3 }
        return 0
    }

    /// Hard lines: one more than the mandatory breaks, less one for a break ending the text.
    static func hardLineCount(_ bytes: [UInt8]) -> Int {
        var count = 1
        var offset = 0
        var endsWithBreak = false
        while offset < bytes.count {
            let length = breakLength(bytes, at: offset)
            if length > 0 {
                count += 1
                offset += length
                endsWithBreak = offset == bytes.count
            } else {
                offset += 1
                endsWithBreak = false
            }
        }
        return endsWithBreak ? count - 1 : count
    }

    /// Checks every invariant of `layout(width:)` for `text`; records an issue naming the input.
    static func checkInvariants(_ text: String) {
        let prepared = PreparedText(text)
        let bytes = Array(text.utf8)
        let boundaries = Set(graphemeBoundaries(of: text))
        let describe = { "text \(text.unicodeScalars.map { String($0.value, radix: 16) })" }
        var previousCount = Int.max
        for width in widths + [prepared.naturalWidth] {
            let layout = prepared.layout(width: width)
            #expect(prepared.measure(width: width) == layout.metrics, "measure == layout at \(width), \(describe())")
            #expect(layout.lineCount >= 1)
            #expect(layout.widestLine == layout.lines.map(\.width).max(), "widest at \(width), \(describe())")
            if width >= prepared.naturalWidth && width != Int.max {
                #expect(layout.lineCount == hardLineCount(bytes), "hard lines at \(width), \(describe())")
                #expect(layout.widestLine == prepared.naturalWidth)
            }
            if width != prepared.naturalWidth || widths.contains(width) {
                if width <= 80 {
                    #expect(layout.lineCount <= previousCount, "line count grew at width \(width), \(describe())")
                    previousCount = layout.lineCount
                }
            }
            var expectedStart = 0
            for (index, line) in layout.lines.enumerated() {
                let range = line.utf8Range
                // No break inside a grapheme.
                #expect(boundaries.contains(range.lowerBound) && boundaries.contains(range.upperBound),
                        "line \(index) splits a grapheme at \(width), \(describe())")
                // The gap since the previous line holds only hung spaces and tabs, then at most one break.
                var gap = expectedStart
                while gap < range.lowerBound && (bytes[gap] == 0x20 || bytes[gap] == 0x09) { gap += 1 }
                if gap < range.lowerBound { gap += breakLength(bytes, at: gap) }
                #expect(gap == range.lowerBound, "line \(index) at \(width) does not continue the text, \(describe())")
                expectedStart = range.upperBound
                let lineText = String(decoding: bytes[range], as: UTF8.self)
                #expect(line.width == CellWidth.of(lineText), "line \(index) width at \(width), \(describe())")
                let graphemeCount = graphemeBoundaries(of: lineText).count - 1
                #expect(line.width <= width || graphemeCount == 1, "line \(index) too wide at \(width), \(describe())")
            }
            // After the last line only hung spaces, tabs and one break remain.
            var tail = expectedStart
            while tail < bytes.count && (bytes[tail] == 0x20 || bytes[tail] == 0x09) { tail += 1 }
            if tail < bytes.count { tail += breakLength(bytes, at: tail) }
            #expect(tail == bytes.count, "text lost after the last line at \(width), \(describe())")
        }
    }

    @Test func randomCorpusTextsKeepEveryInvariant() {
        var random = SeededGenerator(seed: 0xB0BB_1E5)
        let sampler = TextSampler.shared
        #expect(sampler.lineBreakCases.count == 7654 && !sampler.graphemeCases.isEmpty && sampler.emoji.count > 4000)
        for _ in 0..<600 {
            Self.checkInvariants(sampler.text(&random))
        }
    }

    @Test func emojiSequencesNeverSplitAndTakeALineEachAtWidthTwo() {
        for sequence in TextSampler.shared.emoji {
            let layout = wrap(sequence + sequence, width: 2)
            // Skin-tone modifiers alone are Extend: doubled, they make one cluster, not two.
            let graphemes = graphemeBoundaries(of: sequence + sequence).count - 1
            if graphemes == 2 {
                // Unqualified sequences (text presentation) may measure 1: then both fit on one line.
                let single = CellWidth.of(sequence)
                #expect(layout.lines.map(\.width) == (single == 2 ? [2, 2] : [2 * single]), "\(sequence.unicodeScalars.map { String($0.value, radix: 16) }) \(layout.lines)")
            }
        }
    }

    @Test func asciiPathMatchesTheGeneralPath() {
        var random = SeededGenerator(seed: 42)
        for _ in 0..<2000 {
            let text = TextSampler.asciiText(&random)
            let fast = PreparedText(text, options: TextOptions(), allowASCIIPath: true)
            let general = PreparedText(text, options: TextOptions(), allowASCIIPath: false)
            #expect(fast.scalarCount == general.scalarCount)
            #expect(fast.naturalWidth == general.naturalWidth)
            #expect(fast.segments.map(\.packed) == general.segments.map(\.packed), "\(Array(text.utf8))")
            #expect(fast.segments.map(\.contentEnd) == general.segments.map(\.contentEnd))
            #expect(fast.segments.map(\.hangEnd) == general.segments.map(\.hangEnd))
            #expect(fast.graphemeMap == general.graphemeMap)
            for width in [1, 3, 7, 20] {
                #expect(fast.layout(width: width) == general.layout(width: width), "\(Array(text.utf8)) at \(width)")
            }
        }
    }

    @Test func randomASCIITextsKeepEveryInvariant() {
        var random = SeededGenerator(seed: 7)
        for _ in 0..<300 {
            Self.checkInvariants(TextSampler.asciiText(&random))
        }
    }
}
