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
    func styledLines(_ drawn: [VisualOrder.Line], lines: [Substring], in text: String, spans: [TextSpan],
                     links: Bool, message: RowDrawing<PreparedText>.Message, limit: Int, style: TextStyle) -> [VisualOrder.Line] {
        let spans = sgr.isEnabled ? spans.filter { $0.start < $0.end && !sgrParameters($0.style).isEmpty } : []
        guard !drawn.isEmpty, links || !spans.isEmpty else { return drawn }
        let utf8 = text.utf8
        var addresses: [Range<Int>] = []
        var targets: [String?] = []
        if links {
            addresses = text.utf8.withContiguousStorageIfAvailable { bytes in
                URLSpans.mayContain(bytes) ? URLSpans.find(in: bytes) : []
            } ?? URLSpans.find(in: Array(utf8))
            for address in addresses {
                let start = utf8.index(utf8.startIndex, offsetBy: address.lowerBound)
                targets.append(Hyperlink.target(text[start..<utf8.index(start, offsetBy: address.count)]))
            }
        }
        guard !spans.isEmpty || targets.contains(where: { $0 != nil }) else { return drawn }
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
            for (k, address) in addresses.enumerated() where targets[k] != nil && address.upperBound > lineStart && address.lowerBound < lineEnd {
                cuts.insert(max(address.lowerBound, lineStart))
                cuts.insert(min(address.upperBound, lineEnd))
            }
            guard cuts.count > 2 || spans.contains(where: { $0.start <= lineStart && $0.end >= lineEnd })
                || addresses.enumerated().contains(where: { targets[$0.offset] != nil && $0.element.lowerBound <= lineStart && $0.element.upperBound >= lineEnd })
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
                if let k = addresses.firstIndex(where: { $0.lowerBound <= from && $0.upperBound >= to }), let target = targets[k] {
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
}
