/// Case-insensitive search for the viewer: finds a query in message text, and marks it on drawn
/// lines (reverse video), stepping over the escape sequences we drew there ourselves.
struct SearchMatcher {
    /// The query, lowercased, as characters.
    let needle: [Character]

    init(_ query: String) {
        needle = Array(query.lowercased())
    }

    func matches(_ text: String) -> Bool {
        guard !needle.isEmpty else { return false }
        return text.lowercased().contains(String(needle))
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
