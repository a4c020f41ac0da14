import BubbleText

/// How text in right-to-left scripts is drawn (`render --bidi`).
public enum BidiMode: String, Sendable, CaseIterable {
    /// Lines in visual order (UAX #9), right-to-left paragraphs right-aligned, Arabic shaped:
    /// for terminals that draw cells as they come (most of them).
    case visual
    /// Lines in logical (memory) order, exactly as drawn before bidi support: for terminals that
    /// reorder by themselves, or for programs reading the output.
    case logical
}

/// Puts lines drawn by `SafeText` into visual order. It works on SafeText's output, so
/// controls are already visible forms (or gone) when the bidi algorithm sees the text, and no
/// bidi control can reach the terminal. Graphemes only move within their line, and every
/// shaped form is one cell like its letter; only a lam-alef ligature draws two measured cells
/// as one, and its line gives the other back at its end (`Line`).
struct VisualOrder {
    let resolver = BidiResolver()
    /// How the layout measured the text: a mirrored glyph is drawn only where it is as wide.
    let options: TextOptions

    init(options: TextOptions) {
        self.options = options
    }

    /// `scalar` as drawn at an odd level (UAX #9 L4): its Bidi_Mirroring_Glyph, unless that
    /// takes a different number of cells than the layout measured for `scalar` (five pairs
    /// differ in East_Asian_Width, such as ≓ U+2253, Neutral, and ≒ U+2252, Ambiguous: two cells
    /// with `--ambiguous-wide`). Then the glyph stays as written, facing the logical way, so the
    /// line still ends on the bubble's border.
    static func mirrored(_ scalar: UInt32, options: TextOptions) -> UInt32 {
        guard let mirror = BidiTables.mirror(of: scalar) else { return scalar }
        return CellWidth.ofScalar(mirror, options: options) == CellWidth.ofScalar(scalar, options: options) ? mirror : scalar
    }

    /// A line in visual order. Blanks that end up at its right end (a right-to-left line's
    /// leading blanks) are not in `drawn`, whose width leaves them out: a caller places the line
    /// by its full width and moves on over them, so no output line ends in blanks.
    ///
    /// A lam-alef ligature whose lam joins nothing before it (or has a mark) draws the two cells
    /// the layout measured for its letters as one (a joined lam's cell is a tatweel instead:
    /// `ArabicShaping`), and the spare cell is not in `drawn`'s width either: a caller that places `drawn` against the
    /// line's alignment edge (the right edge for a right-to-left paragraph, the left for a
    /// left-to-right one, the middle for a notice) leaves it at the other end, as a blank before
    /// the border, so the word stays whole and the row still ends where the layout measured.
    /// Measuring the shaped text instead (one cell for the ligature) would make heights depend on
    /// `--bidi` and on the terminal: in logical order, and in terminals that shape by themselves,
    /// lam and alef keep two cells (VTE leaves ligatures out of its shaping on purpose:
    /// `VTE_ARABIC_SHAPING_FLAGS` in its `src/bidi.cc`).
    struct Line {
        var drawn: DrawnText
        var trailingBlanks: Int
        var rightToLeft: Bool
        var fullWidth: Int { drawn.width + trailingBlanks }
    }

    /// SafeText's output as scalars, each with the SGR prefix it is drawn under.
    struct Styled {
        var scalars: [UInt32] = []
        /// Index into `prefixes` per scalar; -1 for scalars that are not drawn (hung spaces).
        var styles: [Int32] = []
        var prefixes: [String] = [""]
        /// Scalars of a visible form (`^[`, `<RLO>`): read as strong left-to-right.
        var labels: [Bool] = []

        mutating func append(_ drawn: DrawnText) {
            var prefix = ""
            var escape = ""
            var inEscape = false
            for scalar in drawn.text.unicodeScalars {
                if inEscape {
                    escape.unicodeScalars.append(scalar)
                    if scalar == "m" {
                        inEscape = false
                        prefix = escape == "\u{1B}[0m" ? "" : prefix + escape
                    }
                    continue
                }
                if scalar == "\u{1B}" {
                    inEscape = true
                    escape = "\u{1B}"
                    continue
                }
                scalars.append(scalar.value)
                styles.append(style(prefix))
            }
        }

        /// Marks the visible forms SafeText drew for the controls of `raw` (the text `drawn`
        /// was made from, its scalars from `start` in `scalars`): they are labels, read left to
        /// right as drawn. Walks both texts together; a control SafeText dropped, or a tab's
        /// spaces, are stepped over.
        mutating func markLabels(from start: Int, raw: Substring.UnicodeScalarView) {
            if labels.count < scalars.count { labels += [Bool](repeating: false, count: scalars.count - labels.count) }
            var position = start
            for scalar in raw {
                guard position < scalars.count else { return }
                if scalar == "\t" {
                    while position < scalars.count && scalars[position] == 0x20 { position += 1 }
                } else if let form = SafeText.notation(of: scalar.value) {
                    let formScalars = form.unicodeScalars.map(\.value)
                    guard scalars[position...].starts(with: formScalars) else { continue }
                    for offset in 0..<formScalars.count { labels[position + offset] = true }
                    position += formScalars.count
                } else if scalars[position] == scalar.value {
                    position += 1
                }
            }
        }

        mutating func style(_ prefix: String) -> Int32 {
            if let index = prefixes.firstIndex(of: prefix) { return Int32(index) }
            prefixes.append(prefix)
            return Int32(prefixes.count - 1)
        }
    }

    /// The drawn lines of one text in visual order, each with whether its paragraph is
    /// right-to-left. `raw` are the lines as the layout cut them from `text` (substrings of it),
    /// `drawn` what SafeText made of each. A paragraph is the lines up to a paragraph separator;
    /// its direction comes from its first strong character in `text` (so an RLM written by the
    /// sender counts even though it is drawn as a label), else from the drawn text.
    func reorder(_ drawn: [DrawnText], raw: [Substring], in text: String) -> [Line] {
        var result: [Line] = []
        result.reserveCapacity(drawn.count)
        var first = 0
        while first < drawn.count {
            var last = first
            while last + 1 < drawn.count {
                let gap = text.unicodeScalars[raw[last].endIndex..<raw[last + 1].startIndex]
                if gap.contains(where: { BidiTables.properties($0.value).bidiClass == .b }) { break }
                last += 1
            }
            var styled = Styled()
            var ranges: [Range<Int>] = []
            for index in first...last {
                let start = styled.scalars.count
                styled.append(drawn[index])
                styled.markLabels(from: start, raw: raw[index].unicodeScalars)
                ranges.append(start..<styled.scalars.count)
                if index < last {
                    // The hung spaces between two lines count for the algorithm, undrawn.
                    for scalar in text.unicodeScalars[raw[index].endIndex..<raw[index + 1].startIndex] {
                        styled.scalars.append(scalar.value)
                        styled.styles.append(-1)
                    }
                }
            }
            let paragraphText = text.unicodeScalars[raw[first].startIndex..<raw[last].endIndex]
            let direction = BidiParagraph.direction(of: paragraphText) ?? .auto
            styled.labels += [Bool](repeating: false, count: styled.scalars.count - styled.labels.count)
            let paragraph = BidiParagraph(scalars: styled.scalars, direction: direction, resolver: resolver,
                                          leftToRight: styled.labels)
            for (offset, range) in ranges.enumerated() {
                var visual = line(range, of: paragraph, styled: styled, width: drawn[first + offset].width)
                visual.rightToLeft = paragraph.isRightToLeft
                result.append(visual)
            }
            first = last + 1
        }
        return result
    }

    /// One drawn line (a name, a quote) as its own paragraph, direction from its first strong
    /// character; `source` is the text SafeText drew it from.
    func reorder(_ drawn: DrawnText, source: String) -> Line {
        var styled = Styled()
        styled.append(drawn)
        styled.markLabels(from: 0, raw: Substring(source).unicodeScalars)
        styled.labels += [Bool](repeating: false, count: styled.scalars.count - styled.labels.count)
        let paragraph = BidiParagraph(scalars: styled.scalars, direction: .auto, resolver: resolver, leftToRight: styled.labels)
        var visual = line(0..<styled.scalars.count, of: paragraph, styled: styled, width: drawn.width)
        visual.rightToLeft = paragraph.isRightToLeft
        return visual
    }

    /// Where the spare cells of the line's ligatures that left one (`ArabicShaping.ligated`: no
    /// joint before the lam, `الإمارات`) are drawn instead: each as a tatweel lengthening the
    /// nearest joint of the same word not lengthened yet (positions of `styled.scalars`, from
    /// `start`; the tatweel goes after the grapheme of the joint's second letter, which in a
    /// right-to-left run is drawn just before the first). A word with no such joint (`لا`,
    /// `الآن`) keeps the spare cell, which goes to the line's end.
    private func kashidas(for shaped: [UInt32], joints: [Bool], from start: Int) -> Set<Int> {
        guard !joints.isEmpty else { return [] }
        var chosen = Set<Int>()
        func inWord(_ i: Int) -> Bool {
            let bidiClass = BidiTables.properties(shaped[i] == ArabicShaping.ligated ? 0x0644 : shaped[i]).bidiClass
            return bidiClass != .ws && bidiClass != .s && bidiClass != .b
        }
        for (offset, value) in shaped.enumerated() where value == ArabicShaping.ligated {
            var left = offset - 1, right = offset + 1
            var leftOpen = true, rightOpen = true
            while leftOpen || rightOpen {
                if leftOpen {
                    if left < 0 || !inWord(left) { leftOpen = false }
                    else if joints[left] && !chosen.contains(start + left) { chosen.insert(start + left); break }
                    else { left -= 1 }
                }
                if rightOpen {
                    if right >= shaped.count || !inWord(right) { rightOpen = false }
                    else if joints[right] && !chosen.contains(start + right) { chosen.insert(start + right); break }
                    else { right += 1 }
                }
            }
        }
        return chosen
    }

    /// `styled.scalars[range]` in visual order: Arabic shaped (in logical order, before moving),
    /// mirrored where the level is odd (L4), each style run opened and reset once. A ligature's
    /// lam (`ArabicShaping.ligated`) is not drawn, and its cell is not in the line's width.
    func line(_ range: Range<Int>, of paragraph: BidiParagraph, styled: Styled, width: Int) -> Line {
        var shaped = Array(styled.scalars[range])
        var joints: [Bool] = []
        ArabicShaping.shape(&shaped, joints: &joints)
        let lengthened = kashidas(for: shaped, joints: joints, from: range.lowerBound)
        var text = String.UnicodeScalarView()
        var current: Int32 = 0
        var graphemes = paragraph.visualGraphemes(in: range)
        var trailingBlanks = 0
        while let last = graphemes.last, last.range.count == 1, styled.scalars[last.range.lowerBound] == 0x20 {
            graphemes.removeLast()
            trailingBlanks += 1
        }
        var fillers = 0
        for grapheme in graphemes {
            if grapheme.range.count == 1 && shaped[grapheme.range.lowerBound - range.lowerBound] == ArabicShaping.ligated {
                fillers += 1  // a lam with no marks: nothing to draw, not even its style
                continue
            }
            let style = styled.styles[grapheme.range.lowerBound]
            if style != current {
                if !styled.prefixes[Int(current)].isEmpty { text.append(contentsOf: "\u{1B}[0m".unicodeScalars) }
                text.append(contentsOf: styled.prefixes[Int(style)].unicodeScalars)
                current = style
            }
            for position in grapheme.range {
                var value = shaped[position - range.lowerBound]
                if value == ArabicShaping.ligated {
                    fillers += 1  // the lam's marks after it follow the ligature drawn just before
                    continue
                }
                if position == grapheme.range.lowerBound && grapheme.level & 1 == 1 {
                    value = Self.mirrored(value, options: options)
                }
                text.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            }
            if !lengthened.isEmpty && grapheme.range.contains(where: lengthened.contains) {
                text.append(Unicode.Scalar(ArabicShaping.tatweel)!)
                fillers -= 1  // the spare cell of a ligature in this word, drawn here
            }
        }
        if !styled.prefixes[Int(current)].isEmpty { text.append(contentsOf: "\u{1B}[0m".unicodeScalars) }
        return Line(drawn: DrawnText(String(text), width: width - trailingBlanks - fillers), trailingBlanks: trailingBlanks,
                    rightToLeft: false)
    }
}
