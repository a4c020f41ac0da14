import BubbleLayout
import BubbleText

extension TranscriptRenderer {
    /// SGR parameters for a span style: bold, italic, underline and strikethrough as the
    /// terminal draws them, code in its own colour.
    func sgrParameters(_ style: TextSpanStyle) -> String {
        switch style {
        case .bold: "1"
        case .italic: "3"
        case .underline: "4"
        case .strikethrough: "9"
        case .code:
            switch options.colorDepth {
            case .none: ""
            case .palette256: "38;5;\(Self.codeColor.paletteIndex)"
            case .trueColor: "38;2;\(Self.codeColor.red);\(Self.codeColor.green);\(Self.codeColor.blue)"
            }
        }
    }

    static let codeColor = TerminalColor(red: 0xE5, green: 0x9A, blue: 0x5C)

    /// The `drawn` lines of `text` (`lines`, substrings of it, drawn by SafeText in `style`)
    /// drawn again in pieces where `spans` style them (with colour on) and where web addresses
    /// are (as OSC 8 hyperlinks, when `links`). Each piece is SafeText's drawing of that part of
    /// the line, styled pieces between our SGR and a reset, linked ones between our link escapes;
    /// an address wrapped over lines keeps one id, and every line closes the links it opens. A
    /// line whose pieces would not come out exactly as wide as the line drawn whole (a span
    /// ending inside a grapheme) keeps its plain drawing: styles never change what is measured.
    /// `addresses`: the text's web addresses when already found (`webAddresses(in:)`).
    /// Only the addresses that reach the lines are looked at, so a few lines of a tall text cost
    /// what they hold.
    func styledLines(_ drawn: [VisualOrder.Line], lines: [Substring], in text: String, spans: [TextSpan],
                     links: Bool, message: RowDrawing<PreparedText>.Message, limit: Int, style: TextStyle,
                     addresses known: [Range<Int>]? = nil) -> [VisualOrder.Line] {
        let spans = sgr.isEnabled ? spans.filter { $0.start < $0.end && !sgrParameters($0.style).isEmpty } : []
        guard !drawn.isEmpty, links || !spans.isEmpty else { return drawn }
        let utf8 = text.utf8
        var addresses: [Range<Int>] = []
        var targets: [String?] = []
        // The addresses reaching the lines: found in order and apart, so a run of them.
        var reaching = 0..<0
        if links {
            addresses = known ?? Self.webAddresses(in: text)
            let offsets = lines.map { utf8.distance(from: utf8.startIndex, to: $0.startIndex) }
            let linesStart = offsets.min() ?? 0
            let linesEnd = zip(offsets, lines).map { $0 + $1.utf8.count }.max() ?? 0
            var low = 0, high = addresses.count
            while low < high {
                let middle = (low + high) / 2
                if addresses[middle].upperBound > linesStart { high = middle } else { low = middle + 1 }
            }
            var end = low
            while end < addresses.count && addresses[end].lowerBound < linesEnd { end += 1 }
            reaching = low..<end
            targets = [String?](repeating: nil, count: addresses.count)
            for k in reaching {
                let address = addresses[k]
                let start = utf8.index(utf8.startIndex, offsetBy: address.lowerBound)
                targets[k] = Hyperlink.target(text[start..<utf8.index(start, offsetBy: address.count)])
            }
        }
        guard !spans.isEmpty || reaching.contains(where: { targets[$0] != nil }) else { return drawn }
        var result = drawn
        for (n, line) in lines.enumerated() where n < drawn.count && !line.isEmpty {
            let lineStart = utf8.distance(from: utf8.startIndex, to: line.startIndex)
            let lineEnd = lineStart + line.utf8.count
            // Where a style or a link starts or ends inside the line.
            var cuts: Set<Int> = [lineStart, lineEnd]
            for span in spans where span.end > lineStart && span.start < lineEnd {
                cuts.insert(max(span.start, lineStart))
                cuts.insert(min(span.end, lineEnd))
            }
            for k in reaching where targets[k] != nil && addresses[k].upperBound > lineStart && addresses[k].lowerBound < lineEnd {
                let address = addresses[k]
                cuts.insert(max(address.lowerBound, lineStart))
                cuts.insert(min(address.upperBound, lineEnd))
            }
            guard cuts.count > 2 || spans.contains(where: { $0.start <= lineStart && $0.end >= lineEnd })
                || reaching.contains(where: { targets[$0] != nil && addresses[$0].lowerBound <= lineStart && addresses[$0].upperBound >= lineEnd })
            else { continue }
            let bounds = cuts.sorted()
            var output = ""
            var width = 0
            for (from, to) in zip(bounds, bounds.dropFirst()) {
                let start = utf8.index(utf8.startIndex, offsetBy: from)
                let piece = safe.draw(text[start..<utf8.index(start, offsetBy: to - from)], limit: max(0, limit - width), style: style)
                var pieceText = piece.text
                let parameters = spans.filter { $0.start <= from && $0.end >= to }.map { sgrParameters($0.style) }
                if !parameters.isEmpty && !pieceText.isEmpty {
                    pieceText = "\u{1B}[" + parameters.joined(separator: ";") + "m" + pieceText + "\u{1B}[0m"
                }
                if let k = reaching.first(where: { addresses[$0].lowerBound <= from && addresses[$0].upperBound >= to }), let target = targets[k] {
                    pieceText = Hyperlink.open(target, id: Hyperlink.id(messageID: message.id, revision: message.revision, index: k))
                        + pieceText + Hyperlink.close
                }
                output += pieceText
                width += piece.width
            }
            guard width == drawn[n].drawn.width else { continue }
            result[n].drawn = DrawnText(output, width: width)
        }
        return result
    }

    /// The web addresses in `text` (`URLSpans`), as UTF-8 offset ranges, in order.
    static func webAddresses(in text: String) -> [Range<Int>] {
        text.utf8.withContiguousStorageIfAvailable { bytes in
            URLSpans.mayContain(bytes) ? URLSpans.find(in: bytes) : []
        } ?? URLSpans.find(in: Array(text.utf8))
    }
}
