// libFuzzer harness: prepare + layout at widths and options taken from the input's hash.
// Invariants: the fast paths (ASCII, runs) lay out and measure exactly as the scalar-by-scalar
// path; no line is wider than the width unless it is one grapheme; no line starts or ends inside
// a grapheme or holds a mandatory break; each line is as wide as it measures on its own; and the
// lines give the text back (between them lie only hung spaces and tabs and the breaks).
@testable import BubbleText

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let raw = UnsafeRawBufferPointer(start: data, count: size)
    let hash = inputHash(raw)
    let options = TextOptions(ambiguousWidth: hash & 1 == 0 ? 1 : 2, tabStop: [8, 4, 3, 1][Int(hash >> 1 & 3)])
    let text = String(decoding: raw, as: UTF8.self)
    let prepared = PreparedText(text, options: options)
    let general = PreparedText(text, options: options, allowASCIIPath: false, allowRuns: false)
    let runs = PreparedText(text, options: options, allowASCIIPath: false, allowRuns: true)
    require(prepared.naturalWidth == general.naturalWidth,
            "natural width \(prepared.naturalWidth), scalar by scalar \(general.naturalWidth)")
    let boundaries = graphemeBoundaries(text)
    for width in [1 + Int((hash >> 3) % 97), 1 + Int((hash >> 12) % 13), Int.max] {
        let layout = prepared.layout(width: width)
        require(layout == general.layout(width: width), "the fast paths lay out differently at \(width)")
        require(layout == runs.layout(width: width), "runs lay out differently at \(width)")
        require(prepared.measure(width: width) == layout.metrics, "measure differs from layout at \(width)")
        require(general.measure(width: width) == layout.metrics, "general measure differs at \(width)")
        checkLines(layout, text: text, width: width, options: options, boundaries: boundaries)
    }
    return 0
}

/// UTF-8 offsets where graphemes start, and the text's end, in ascending order (they are found
/// in order, so no set or sort is needed).
private func graphemeBoundaries(_ text: String) -> [Int] {
    var breaker = GraphemeBreaker()
    var boundaries: [Int] = []
    var offset = 0
    for scalar in text.unicodeScalars {
        if breaker.breaksBefore(UnicodeTables.info(scalar.value)) && boundaries.last != offset { boundaries.append(offset) }
        offset += UTF8.width(scalar)
    }
    if boundaries.last != offset { boundaries.append(offset) }
    return boundaries
}

/// The mandatory breaks: LF, VT, FF, CR, NEL, LS, PS. A switch, not a set: hashing every
/// scalar of every line at three widths was 3% of the harness.
private func isBreak(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
    default: false
    }
}

/// The index of the first element of `sorted` not below `value`.
private func lowerBound(_ sorted: [Int], _ value: Int) -> Int {
    var low = 0, high = sorted.count
    while low < high {
        let middle = (low + high) / 2
        if sorted[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low
}

/// Whether `value` is in `sorted`.
private func contains(_ sorted: [Int], _ value: Int) -> Bool {
    let index = lowerBound(sorted, value)
    return index < sorted.count && sorted[index] == value
}

private func checkLines(_ layout: TextLayout, text: String, width: Int, options: TextOptions, boundaries: [Int]) {
    let utf8 = Array(text.utf8)
    var previousEnd = 0
    var widest = 0
    for (index, line) in layout.lines.enumerated() {
        let range = line.utf8Range
        // Made only for a failure's message: formatting it for every line was 8% of the run.
        func context() -> String { "line \(index) \(range) at width \(width)" }
        require(range.lowerBound >= previousEnd && range.upperBound <= utf8.count, "\(context()): out of order or past the end")
        require(contains(boundaries, range.lowerBound) && contains(boundaries, range.upperBound),
                "\(context()): starts or ends inside a grapheme")
        let gap = String(decoding: utf8[previousEnd..<range.lowerBound], as: UTF8.self)
        require(gap.unicodeScalars.allSatisfy { $0 == " " || $0 == "\t" || isBreak($0) },
                "\(context()): text lost between lines: \(gap.debugDescription)")
        let slice = String(decoding: utf8[range], as: UTF8.self)
        require(!slice.unicodeScalars.contains(where: isBreak), "\(context()): holds a mandatory break")
        require(line.width == CellWidth.of(slice, options: options),
                "\(context()): width \(line.width), measured alone \(CellWidth.of(slice, options: options))")
        // Counted by binary search in the sorted boundaries: a filter over all of them on every
        // line made a long input's check quadratic.
        let graphemes = lowerBound(boundaries, range.upperBound) - lowerBound(boundaries, range.lowerBound)
        require(line.width <= width || graphemes == 1, "\(context()): \(line.width) cells in \(graphemes) graphemes")
        widest = max(widest, line.width)
        previousEnd = range.upperBound
    }
    let tail = String(decoding: utf8[previousEnd...], as: UTF8.self)
    require(tail.unicodeScalars.allSatisfy { $0 == " " || $0 == "\t" || isBreak($0) },
            "text lost after the last line at width \(width): \(tail.debugDescription)")
    require(layout.widestLine == widest, "widest line \(layout.widestLine), lines say \(widest)")
}
