/// The UTF-8 offsets of every extended grapheme cluster boundary in `text` (UAX #29, Unicode 15.0),
/// from 0 through `text.utf8.count`. An empty text gives `[0]`.
package func graphemeBoundaries(of text: String) -> [Int] {
    var boundaries: [Int] = []
    var breaker = GraphemeBreaker()
    var offset = 0
    for scalar in text.unicodeScalars {
        if breaker.breaksBefore(UnicodeTables.info(scalar.value)) {
            boundaries.append(offset)
        }
        offset &+= UTF8.width(scalar)
    }
    boundaries.append(offset)
    return boundaries
}
