import BubbleText

/// A text's lines in visual order (UAX #9, as the terminal renderer orders them): each paragraph
/// resolved once, its direction from its first strong character, and each line reordered on its
/// own (L1, L2). Texts without a right-to-left character skip all of it.
struct BidiText {
    let text: String
    let mayContainRightToLeft: Bool
    private let resolver = BidiResolver()
    /// The last paragraph resolved: its scalars' indices in `text` (one past the end last) and levels.
    private var paragraph: (indices: [String.Index], resolved: BidiParagraph)?

    init(_ text: String) {
        self.text = text
        mayContainRightToLeft = BidiTables.mayContainRightToLeft(text)
    }

    /// Where `index` is in the sorted `indices`, by binary search; nil when it is not there.
    static func position(of index: String.Index, in indices: [String.Index]) -> Int? {
        var lower = 0, upper = indices.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if indices[middle] < index { lower = middle + 1 } else { upper = middle }
        }
        return lower < indices.count && indices[lower] == index ? lower : nil
    }

    /// A paragraph separator (Bidi_Class B).
    static func isParagraphSeparator(_ value: UInt32) -> Bool {
        value == 0x0A || value == 0x0D || (0x1C...0x1E).contains(value) || value == 0x85 || value == 0x2029
    }

    /// `line` (a slice of `text`) as runs left to right, and whether its paragraph is right to left.
    mutating func runs(of line: Substring) -> (runs: [(text: Substring, rightToLeft: Bool)], rightToLeft: Bool) {
        guard mayContainRightToLeft, !line.isEmpty else { return ([(line, false)], false) }
        let scalars = text.unicodeScalars
        if paragraph == nil || !(paragraph!.indices.first! <= line.startIndex && line.endIndex <= paragraph!.indices.last!) {
            var start = line.startIndex
            while start > scalars.startIndex {
                let before = scalars.index(before: start)
                if Self.isParagraphSeparator(scalars[before].value) { break }
                start = before
            }
            var end = line.endIndex
            while end < scalars.endIndex {
                let value = scalars[end].value
                end = scalars.index(after: end)
                if Self.isParagraphSeparator(value) { break }
            }
            var indices: [String.Index] = []
            var values: [UInt32] = []
            var i = start
            while i < end {
                indices.append(i)
                values.append(scalars[i].value)
                i = scalars.index(after: i)
            }
            indices.append(end)
            let direction = BidiParagraph.direction(of: scalars[start..<end]) ?? .auto
            paragraph = (indices, BidiParagraph(scalars: values, direction: direction, resolver: resolver))
        }
        let (indices, resolved) = paragraph!
        guard let first = Self.position(of: line.startIndex, in: indices), let last = Self.position(of: line.endIndex, in: indices) else {
            return ([(line, false)], false)
        }
        var runs: [(text: Substring, rightToLeft: Bool)] = []
        var current: (from: Int, to: Int, odd: Bool)?
        func flush() {
            guard let run = current else { return }
            runs.append((Substring(scalars[indices[run.from]..<indices[run.to]]), run.odd))
        }
        for grapheme in resolved.visualGraphemes(in: first..<last) {
            let odd = grapheme.level & 1 == 1
            if var run = current, run.odd == odd,
               odd ? grapheme.range.upperBound == run.from : grapheme.range.lowerBound == run.to {
                // Visually adjacent and logically adjacent: the same run.
                if odd { run.from = grapheme.range.lowerBound } else { run.to = grapheme.range.upperBound }
                current = run
            } else {
                flush()
                current = (grapheme.range.lowerBound, grapheme.range.upperBound, odd)
            }
        }
        flush()
        return (runs, resolved.isRightToLeft)
    }
}
