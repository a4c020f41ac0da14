import BubbleText
import Foundation

/// Case-insensitive search for the viewer: finds a query in message text, and marks it on drawn
/// lines (reverse video), stepping over the escape sequences we drew there ourselves.
public struct SearchMatcher: Sendable {
    /// The query, lowercased, as characters.
    public let needle: [Character]
    /// The same as UTF-8, when it is all ASCII: then texts are searched as bytes, folding ASCII
    /// case on the fly (a search over a million messages must not lowercase a million strings).
    public let asciiNeedle: [UInt8]?

    /// The query as it can appear on a drawn line, folded (`fold`): as typed, and when it holds
    /// right-to-left letters also in the visual orders `--bidi visual` draws it in (within a
    /// right-to-left paragraph and within a left-to-right one), each folded piece by piece.
    let drawnNeedles: [(folded: [Character], visual: Bool)]

    /// A matcher for `query` on lines drawn with `options` (which decide where a mirrored glyph
    /// is drawn: `VisualOrder.mirrored`).
    public init(_ query: String, options: TextOptions = TextOptions()) {
        let lowered = query.lowercased()
        needle = Array(lowered)
        asciiNeedle = lowered.utf8.allSatisfy { $0 < 0x80 } ? Array(lowered.utf8) : nil
        var needles: [(folded: [Character], visual: Bool)] = [(Self.fold(lowered), false)]
        let scalars = lowered.unicodeScalars.map(\.value)
        let rightToLeft = scalars.contains {
            let bidi = BidiTables.classValue($0)
            return bidi == BidiClass.r.rawValue || bidi == BidiClass.al.rawValue
        }
        if rightToLeft {
            for direction in [BidiDirection.rightToLeft, .leftToRight] {
                let paragraph = BidiParagraph(scalars: scalars, direction: direction)
                var folded: [Character] = []
                for grapheme in paragraph.visualGraphemes(in: 0..<scalars.count) {
                    var text = ""
                    for position in grapheme.range {
                        var value = scalars[position]
                        // L4 as drawn: a grapheme's first scalar (`VisualOrder.line`).
                        if grapheme.level & 1 == 1 && position == grapheme.range.lowerBound { value = VisualOrder.mirrored(value, options: options) }
                        if let scalar = Unicode.Scalar(value) { text.unicodeScalars.append(scalar) }
                    }
                    folded += Self.fold(text)
                }
                if !needles.contains(where: { $0.folded == folded }) { needles.append((folded, true)) }
            }
        }
        drawnNeedles = needles.filter { !$0.folded.isEmpty }
    }

    /// Text as compared on a drawn line: lowercased, and compatibility-decomposed (NFKD), which
    /// takes the presentation forms the renderer draws shaped Arabic in back to their letters
    /// (the lam-alef ligature to lam and alef); the tatweels it draws in spare cells are dropped.
    static func fold(_ text: String) -> [Character] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return Array(text.lowercased()) }
        return Array(text.lowercased().decomposedStringWithCompatibilityMapping).filter { $0 != "\u{0640}" }
    }

    /// Whether `text` holds the query, ignoring case.
    public func matches(_ text: String) -> Bool {
        guard !needle.isEmpty else { return false }
        guard let asciiNeedle else { return text.lowercased().contains(String(needle)) }
        var text = text
        return text.withUTF8 { bytes in
            let count = asciiNeedle.count
            guard bytes.count >= count else { return false }
            let first = asciiNeedle[0]
            var start = 0
            while start <= bytes.count - count {
                if Self.folded(bytes[start]) == first {
                    var offset = 1
                    while offset < count && Self.folded(bytes[start + offset]) == asciiNeedle[offset] { offset += 1 }
                    if offset == count { return true }
                }
                start += 1
            }
            return false
        }
    }

    @inline(__always)
    public static func folded(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// Whether `line`, a drawn line with our escapes in it, shows the query.
    func isShown(in line: String) -> Bool {
        if let shown = asciiShown(in: line) { return shown }
        return highlight(line) != line
    }

    /// `isShown` by bytes, for an ASCII query of printable characters on an ASCII line (where a
    /// character is a byte and folding is ASCII's): nil for any other, which `highlight` reads.
    /// A search through a tall message reads every line of it this way.
    private func asciiShown(in line: String) -> Bool? {
        guard let needle = asciiNeedle, !needle.isEmpty, drawnNeedles.count == 1, needle.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            return nil
        }
        var line = line
        return line.withUTF8 { bytes -> Bool? in
            var visible: [UInt8] = []
            visible.reserveCapacity(bytes.count)
            var i = 0
            while i < bytes.count {
                let byte = bytes[i]
                guard byte < 0x80 else { return nil }
                if byte == 0x1B {
                    // Our escapes, read as `highlight` reads them.
                    i += 1
                    guard i < bytes.count else { break }
                    let kind = bytes[i]
                    guard kind < 0x80 else { return nil }
                    i += 1
                    if kind == 0x5B {  // [
                        while i < bytes.count {
                            let next = bytes[i]
                            guard next < 0x80 else { return nil }
                            i += 1
                            if next >= 0x40 && next <= 0x7E { break }
                        }
                    } else if kind == 0x5D {  // ]
                        var afterEscape = false
                        while i < bytes.count {
                            let next = bytes[i]
                            guard next < 0x80 else { return nil }
                            i += 1
                            if afterEscape && next == 0x5C { break }
                            afterEscape = next == 0x1B
                        }
                    }
                    continue
                }
                // CR LF would be one character; a drawn line holds neither.
                guard byte != 0x0D else { return nil }
                visible.append(Self.folded(byte))
                i += 1
            }
            guard visible.count >= needle.count else { return false }
            for start in 0...(visible.count - needle.count) where visible[start] == needle[0] {
                var offset = 1
                while offset < needle.count && visible[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            return false
        }
    }

    static let on = "\u{1B}[7m"
    static let off = "\u{1B}[27m"

    /// `line` with every match wrapped in reverse video. Only a screen's lines (and the rows a
    /// search lands in) pass here, so walking characters costs nothing that matters. A match is
    /// of any of `drawnNeedles`: the query as typed, or as `--bidi visual` draws it, where a
    /// piece that folds to several letters (a ligature) is read in visual order too.
    func highlight(_ line: String) -> String {
        guard !drawnNeedles.isEmpty else { return line }
        // The visible characters, each with the text (escapes before it included) it came from.
        var pieces: [(prefix: String, character: Character)] = []
        var escapes = ""
        var iterator = line.makeIterator()
        while let character = iterator.next() {
            if character == "\u{1B}" {
                escapes.append(character)
                if let bracket = iterator.next() {
                    escapes.append(bracket)
                    if bracket == "[" {
                        while let next = iterator.next() {
                            escapes.append(next)
                            if let ascii = next.asciiValue, (0x40...0x7E).contains(ascii) { break }
                        }
                    } else if bracket == "]" {
                        // Our OSC 8 hyperlinks: up to the string terminator, ESC \.
                        var afterEscape = false
                        while let next = iterator.next() {
                            escapes.append(next)
                            if afterEscape && next == "\\" { break }
                            afterEscape = next == "\u{1B}"
                        }
                    }
                }
                continue
            }
            pieces.append((escapes, character))
            escapes = ""
        }
        // The line folded, each folded character knowing its piece: in logical order within each
        // piece, and in visual order (a ligature's letters reversed) for the visual needles.
        var logical: [(character: Character, piece: Int)] = []
        var visual: [(character: Character, piece: Int)] = []
        for (index, piece) in pieces.enumerated() {
            let folded = Self.fold(String(piece.character))
            logical += folded.map { ($0, index) }
            visual += folded.reversed().map { ($0, index) }
        }
        var marked = [Bool](repeating: false, count: pieces.count)
        for (needle, isVisual) in drawnNeedles {
            let text = isVisual ? visual : logical
            guard text.count >= needle.count else { continue }
            var start = 0
            while start + needle.count <= text.count {
                var offset = 0
                while offset < needle.count && text[start + offset].character == needle[offset] { offset += 1 }
                if offset == needle.count {
                    // Every piece the match covers, a tatweel drawn within it (folded to nothing) too.
                    let first = text[start].piece, last = text[start + needle.count - 1].piece
                    for piece in min(first, last)...max(first, last) { marked[piece] = true }
                    start += needle.count
                } else {
                    start += 1
                }
            }
        }
        guard marked.contains(true) else { return line }
        var output = ""
        for (index, piece) in pieces.enumerated() {
            output += piece.prefix
            if marked[index] && (index == 0 || !marked[index - 1]) { output += Self.on }
            output.append(piece.character)
            if marked[index] && (index == pieces.count - 1 || !marked[index + 1]) { output += Self.off }
        }
        return output + escapes
    }
}
