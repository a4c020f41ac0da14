// What the table generators share (Tools/generate.sh compiles this file with each): reading UCD
// files, and writing two-stage tables as string literals of 7-bit bytes. The generators keep
// the properties and the tables that are their own.

import Foundation

let codePointCount = 0x110000

/// The generator's name (its executable's), for messages.
let generatorName = URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent

func fail(_ message: String) -> Never {
    FileHandle.standardError.write((generatorName + ": " + message + "\n").data(using: .utf8)!)
    exit(1)
}

/// The UCD directory, the generator's one argument, laid out as unicode.org publishes it.
let ucd: String = {
    guard CommandLine.arguments.count == 2 else {
        fail("usage: Tools/generate.sh \(generatorName) UCD_DIRECTORY > OUTPUT_FILE")
    }
    return CommandLine.arguments[1]
}()

// MARK: - Reading UCD files

func readLines(_ relativePath: String, in directory: String = ucd) -> [String] {
    let path = directory + "/" + relativePath
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        fail("\(path): cannot read the file (is the UCD directory right?)")
    }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

func parseCodePoint(_ text: String, place: String) -> Int {
    guard let value = Int(text.trimmingCharacters(in: .whitespaces), radix: 16), value < codePointCount else {
        fail("\(place): bad code point '\(text)'")
    }
    return value
}

func parseRange(_ text: String, place: String) -> ClosedRange<Int> {
    let parts = text.trimmingCharacters(in: .whitespaces).components(separatedBy: "..")
    guard parts.count == 1 || parts.count == 2 else { fail("\(place): bad code point range '\(text)'") }
    let low = parseCodePoint(parts[0], place: place)
    let high = parseCodePoint(parts[parts.count - 1], place: place)
    guard low <= high else { fail("\(place): empty range '\(text)'") }
    return low...high
}

/// One data line of a UCD file: where it is, its code point range, and the fields after it.
struct DataLine {
    var place: String
    var range: ClosedRange<Int>
    var fields: [String]
    /// The first field after the range (the property value, in most files).
    var value: String { fields[0] }
}

/// The data lines of a file, comments stripped; with `missing`, its `# @missing: range; value`
/// lines instead, in file order (later lines refine earlier ones). A file with none fails.
func dataLines(_ relativePath: String, missing: Bool = false, in directory: String = ucd) -> [DataLine] {
    var result: [DataLine] = []
    for (index, line) in readLines(relativePath, in: directory).enumerated() {
        let place = "\(directory)/\(relativePath):\(index + 1)"
        var content: String
        if line.hasPrefix("# @missing:") {
            guard missing else { continue }
            content = String(line.dropFirst("# @missing:".count))
        } else {
            if missing { continue }
            content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        }
        content = content.trimmingCharacters(in: .whitespaces)
        if content.isEmpty { continue }
        let fields = content.components(separatedBy: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count >= 2 else { fail("\(place): expected 'range ; value', got '\(line)'") }
        result.append(DataLine(place: place, range: parseRange(fields[0], place: place), fields: Array(fields.dropFirst())))
    }
    guard !result.isEmpty else { fail("\(directory)/\(relativePath): no \(missing ? "'# @missing:' " : "data ")lines found") }
    return result
}

/// The version in a file's first line, e.g. "# LineBreak-15.0.0.txt" gives "15.0.0".
func version(of relativePath: String, in directory: String = ucd) -> String {
    let first = readLines(relativePath, in: directory).first ?? ""
    guard let dash = first.lastIndex(of: "-"), first.hasSuffix(".txt") else {
        fail("\(directory)/\(relativePath):1: expected a '# Name-X.Y.Z.txt' header, got '\(first)'")
    }
    return String(first[first.index(after: dash)..<first.index(first.endIndex, offsetBy: -4)])
}

/// Short value names keyed by long and short name, for one property of PropertyValueAliases.txt.
func valueAliases(_ property: String) -> [String: String] {
    var map: [String: String] = [:]
    for line in readLines("PropertyValueAliases.txt") where !line.hasPrefix("#") {
        let fields = line.components(separatedBy: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count >= 3, fields[0] == property else { continue }
        for name in fields.dropFirst() { map[name] = fields[1] }
    }
    guard !map.isEmpty else { fail("\(ucd)/PropertyValueAliases.txt: no values for property '\(property)'") }
    return map
}

// MARK: - Two-stage tables in string literals

/// Bytes per entry when each byte carries 7 bits.
func bytesFor(_ maximum: Int) -> Int {
    var bytes = 1
    while maximum >> (7 * bytes) != 0 { bytes += 1 }
    return bytes
}

/// Stage 1 maps each block of 2^`shift` code points to a deduplicated block of stage 2, whose
/// entries index the distinct values.
struct TwoStage {
    var shift: Int
    var stage1: [Int]
    var stage2: [Int]
    var stage1Bytes: Int
    var stage2Bytes: Int
    var size: Int { stage1.count * stage1Bytes + stage2.count * stage2Bytes }
}

/// The smallest two-stage table (blocks of 32 to 512 code points) for `packed`, one value per
/// code point, and its distinct values in order of first appearance.
func smallestTwoStage(_ packed: [Int]) -> (tables: TwoStage, distinctValues: [Int]) {
    var distinctValues: [Int] = []
    var valueIndex: [Int: Int] = [:]
    for value in packed where valueIndex[value] == nil {
        valueIndex[value] = distinctValues.count
        distinctValues.append(value)
    }
    func twoStage(shift: Int) -> TwoStage {
        let blockSize = 1 << shift
        var stage1: [Int] = []
        var stage2: [Int] = []
        var blockIndex: [[Int]: Int] = [:]
        for start in stride(from: 0, to: codePointCount, by: blockSize) {
            let block = packed[start..<(start + blockSize)].map { valueIndex[$0]! }
            if let index = blockIndex[block] {
                stage1.append(index)
            } else {
                let index = stage2.count / blockSize
                blockIndex[block] = index
                stage1.append(index)
                stage2 += block
            }
        }
        return TwoStage(shift: shift, stage1: stage1, stage2: stage2,
                        stage1Bytes: bytesFor(stage1.max()!), stage2Bytes: bytesFor(distinctValues.count - 1))
    }
    return ((5...9).map(twoStage).min { $0.size < $1.size }!, distinctValues)
}

/// A Swift string literal of 7-bit bytes, each entry little-endian in `width` bytes, wrapped
/// across lines with multi-line literal line continuations.
func literal(_ entries: [Int], width: Int) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(entries.count * width)
    for entry in entries {
        for byte in 0..<width { bytes.append(UInt8((entry >> (7 * byte)) & 0x7F)) }
    }
    var out = "\"\"\"\n"
    var lineLength = 0
    for (position, byte) in bytes.enumerated() {
        let piece: String
        switch byte {
        case 0x5C: piece = "\\\\"
        case 0x22: piece = "\\\""
        case 0x00: piece = "\\0"
        case 0x09: piece = "\\t"
        case 0x0A: piece = "\\n"
        case 0x0D: piece = "\\r"
        case 0x20...0x7E: piece = String(UnicodeScalar(byte))
        default: piece = "\\u{" + String(byte, radix: 16) + "}"
        }
        out += piece
        lineLength += piece.utf8.count
        if lineLength >= 110 && position != bytes.count - 1 {
            out += "\\\n"
            lineLength = 0
        }
    }
    out += "\n\"\"\""
    return out
}

/// The statements of a generated lookup function that find the value of `scalar` (a `UInt32`)
/// in `tables`, whose literals are `stage1Bytes`, `stage2Bytes` and `valueBytes`: they end with
/// `values` and `at3`, where the value's `valueBytes` bytes start.
func lookupStatements(_ tables: TwoStage, valueBytes: Int) -> String {
    let blockMask = (1 << tables.shift) - 1
    return """
            let codePoint = Int(scalar <= 0x10FFFF ? scalar : 0x10FFFF)
            let stage1 = stage1Bytes.utf8Start
            let stage2 = stage2Bytes.utf8Start
            let values = valueBytes.utf8Start
            let at1 = \(scaled("codePoint &>> \(tables.shift)", by: tables.stage1Bytes))
            let block = \(entryRead("stage1", "at1", width: tables.stage1Bytes, as: "Int"))
            let at2 = \(scaled("block &<< \(tables.shift) | codePoint & \(blockMask)", by: tables.stage2Bytes))
            let value = \(entryRead("stage2", "at2", width: tables.stage2Bytes, as: "Int"))
            let at3 = \(scaled("value", by: valueBytes))
    """
}

/// The declarations of the literals `lookupStatements` reads.
func tableLiterals(_ tables: TwoStage, distinctValues: [Int], valueBytes: Int) -> String {
    """
        @inlinable
        static var stage1Bytes: StaticString {
    \(literal(tables.stage1, width: tables.stage1Bytes))
        }

        @inlinable
        static var stage2Bytes: StaticString {
    \(literal(tables.stage2, width: tables.stage2Bytes))
        }

        @inlinable
        static var valueBytes: StaticString {
    \(literal(distinctValues, width: valueBytes))
        }
    """
}

/// Swift code reading entry `index` of `width` 7-bit bytes at `pointer`, as `type`.
func entryRead(_ pointer: String, _ index: String, width: Int, as type: String) -> String {
    (0..<width).map { byte in
        let at = byte == 0 ? index : "\(index) &+ \(byte)"
        let read = "\(type)(\(pointer)[\(at)])"
        return byte == 0 ? read : "\(read) &<< \(7 * byte)"
    }.joined(separator: " | ")
}

/// Swift code for `expression` times `width`.
func scaled(_ expression: String, by width: Int) -> String {
    width == 1 ? expression : "(\(expression)) &* \(width)"
}

// MARK: - The later Unicode that terminals draw by

/// Unicode 17.0's EastAsianWidth.txt and extracted/DerivedGeneralCategory.txt, committed
/// (Tools/fetch-ucd-17.sh), relative to the package root where the generators run.
let laterUCD = "Corpora/unicode/ucd-17.0"

/// `current` (a property of each code point in the UCD in use) with Unicode 17.0's values for
/// the code points that UCD assigns (`category` not Cn): terminals take widths from a later
/// Unicode than the engine's, and a character we know is drawn by its later properties.
/// Characters the later Unicode adds stay as the UCD in use has them, unassigned, as the rest of
/// the engine sees them. Values are as the file writes them (short names in both files read).
func laterValues(_ relativePath: String, current: [String], category: [String]) -> [String] {
    let found = version(of: relativePath, in: laterUCD)
    guard found == "17.0.0" else { fail("\(laterUCD)/\(relativePath) is Unicode \(found), not 17.0.0 (Tools/fetch-ucd-17.sh)") }
    var values = current
    for line in dataLines(relativePath, in: laterUCD) {
        for cp in line.range where category[cp] != "Cn" { values[cp] = line.value }
    }
    return values
}
