/// Case-insensitive search for the viewer: finds a query in message text, and marks it on drawn
/// lines (reverse video), stepping over the escape sequences we drew there ourselves.
public struct SearchMatcher: Sendable {
    /// The query, lowercased, as characters.
    public let needle: [Character]
    /// The same as UTF-8, when it is all ASCII: then texts are searched as bytes, folding ASCII
    /// case on the fly (a search over a million messages must not lowercase a million strings).
    public let asciiNeedle: [UInt8]?

    public init(_ query: String) {
        let lowered = query.lowercased()
        needle = Array(lowered)
        asciiNeedle = lowered.utf8.allSatisfy { $0 < 0x80 } ? Array(lowered.utf8) : nil
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
        highlight(line) != line
    }

    static let on = "\u{1B}[7m"
    static let off = "\u{1B}[27m"

    /// `line` with every match wrapped in reverse video. Only a screen's lines pass here, so
    /// walking characters costs nothing that matters.
    func highlight(_ line: String) -> String {
        guard !needle.isEmpty else { return line }
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
                    }
                }
                continue
            }
            pieces.append((escapes, character))
            escapes = ""
        }
        let lowered = pieces.map { Character($0.character.lowercased()) }
        var output = ""
        var index = 0
        var found = false
        while index < pieces.count {
            if index + needle.count <= pieces.count && Array(lowered[index..<(index + needle.count)]) == needle {
                found = true
                for offset in 0..<needle.count {
                    let piece = pieces[index + offset]
                    output += piece.prefix
                    if offset == 0 { output += Self.on }
                    output.append(piece.character)
                }
                output += Self.off
                index += needle.count
            } else {
                output += pieces[index].prefix
                output.append(pieces[index].character)
                index += 1
            }
        }
        return found ? output + escapes : line
    }
}
