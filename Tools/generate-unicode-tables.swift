// Generates Sources/BubbleText/Unicode/UnicodeTables.swift from the Unicode Character Database.
//
// Run from the package root:
//
//     swift Tools/generate-unicode-tables.swift /usr/share/unicode > Sources/BubbleText/Unicode/UnicodeTables.swift
//
// The argument is a UCD directory laid out as unicode.org publishes it (Debian's `unicode-data`
// package installs Unicode 15.0 at /usr/share/unicode). Files read:
//   extracted/DerivedGeneralCategory.txt     General_Category (Mn, Me, Mc, Cc, Cn)
//   auxiliary/GraphemeBreakProperty.txt      Grapheme_Cluster_Break
//   LineBreak.txt                            Line_Break
//   extracted/DerivedLineBreak.txt           its `# @missing:` defaults (ID for CJK and emoji blocks)
//   EastAsianWidth.txt                       East_Asian_Width
//   extracted/DerivedEastAsianWidth.txt      its `# @missing:` defaults (W for CJK blocks)
//   emoji/emoji-data.txt                     Extended_Pictographic, Emoji_Presentation, Emoji_Modifier
//   DerivedCoreProperties.txt                Default_Ignorable_Code_Point
//   PropList.txt                             Bidi_Control
//   PropertyValueAliases.txt                 long value names used by the `@missing` lines
//
// Each code point gets one packed UInt32 laid out as `ScalarInfo` documents
// (Sources/BubbleText/Unicode/ScalarInfo.swift). The values go into a two-stage table: stage 1
// maps a block of code points to a deduplicated block in stage 2, whose entries index a small
// table of distinct values. All three are stored as string literals of 7-bit bytes (several
// bytes per entry), which the Swift compiler reads in an instant where array literals of the
// same size would take minutes, and which need no decoding at start-up: lookup reads the bytes
// in place.

import Foundation

// MARK: - Errors and file reading

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(("generate-unicode-tables: " + message + "\n").data(using: .utf8)!)
    exit(1)
}

guard CommandLine.arguments.count == 2 else {
    fail("usage: swift Tools/generate-unicode-tables.swift UCD_DIRECTORY > Sources/BubbleText/Unicode/UnicodeTables.swift")
}
let ucd = CommandLine.arguments[1]
let codePointCount = 0x110000

/// One data line of a UCD file: its code point range and its semicolon-separated fields.
struct DataLine {
    var file: String
    var lineNumber: Int
    var range: ClosedRange<Int>
    var fields: [String]
    var place: String { "\(file):\(lineNumber)" }
}

func readLines(_ relativePath: String) -> [String] {
    let path = ucd + "/" + relativePath
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        fail("\(path): cannot read the file (is the UCD directory right?)")
    }
    return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

func parseRange(_ text: String, place: String) -> ClosedRange<Int> {
    let parts = text.trimmingCharacters(in: .whitespaces).components(separatedBy: "..")
    guard parts.count == 1 || parts.count == 2,
          let low = Int(parts[0], radix: 16),
          let high = Int(parts[parts.count - 1], radix: 16),
          low <= high, high < codePointCount
    else { fail("\(place): bad code point range '\(text)'") }
    return low...high
}

/// The data lines of a file, comments stripped.
func dataLines(_ relativePath: String) -> [DataLine] {
    var result: [DataLine] = []
    for (index, line) in readLines(relativePath).enumerated() {
        let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        if content.trimmingCharacters(in: .whitespaces).isEmpty { continue }
        let fields = content.components(separatedBy: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        let place = "\(ucd)/\(relativePath):\(index + 1)"
        guard fields.count >= 2 else { fail("\(place): expected 'range ; value', got '\(line)'") }
        result.append(DataLine(file: relativePath, lineNumber: index + 1,
                               range: parseRange(fields[0], place: place), fields: Array(fields.dropFirst())))
    }
    return result
}

/// The `# @missing: range; value` lines of a file, in file order (later lines refine earlier ones).
func missingLines(_ relativePath: String) -> [DataLine] {
    var result: [DataLine] = []
    for (index, line) in readLines(relativePath).enumerated() where line.hasPrefix("# @missing:") {
        let body = String(line.dropFirst("# @missing:".count))
        let fields = body.components(separatedBy: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        let place = "\(ucd)/\(relativePath):\(index + 1)"
        guard fields.count == 2 else { fail("\(place): expected '# @missing: range; value'") }
        result.append(DataLine(file: relativePath, lineNumber: index + 1,
                               range: parseRange(fields[0], place: place), fields: [fields[1]]))
    }
    guard !result.isEmpty else { fail("\(ucd)/\(relativePath): no '# @missing:' lines found") }
    return result
}

/// The version in a file's first line, e.g. "# LineBreak-15.0.0.txt" gives "15.0.0".
func version(of relativePath: String) -> String {
    let first = readLines(relativePath).first ?? ""
    guard let dash = first.lastIndex(of: "-"), first.hasSuffix(".txt") else {
        fail("\(ucd)/\(relativePath):1: expected a '# Name-X.Y.Z.txt' header, got '\(first)'")
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

/// A string property: `@missing` defaults from `defaultsFile`, then the explicit values of `file`.
func stringProperty(file: String, defaultsFile: String, alias property: String) -> [String] {
    let aliases = valueAliases(property)
    var values = [String](repeating: "", count: codePointCount)
    for line in missingLines(defaultsFile) {
        guard let short = aliases[line.fields[0]] else { fail("\(line.place): unknown \(property) value '\(line.fields[0])'") }
        for cp in line.range { values[cp] = short }
    }
    for line in dataLines(file) {
        guard let short = aliases[line.fields[0]] else { fail("\(line.place): unknown \(property) value '\(line.fields[0])'") }
        for cp in line.range { values[cp] = short }
    }
    return values
}

/// A binary property: true for the code points listed with `name` in `file`.
func binaryProperty(_ name: String, in file: String) -> [Bool] {
    var values = [Bool](repeating: false, count: codePointCount)
    var found = false
    for line in dataLines(file) where line.fields[0] == name {
        found = true
        for cp in line.range { values[cp] = true }
    }
    guard found else { fail("\(ucd)/\(file): property '\(name)' not found") }
    return values
}

// MARK: - Properties

let unicodeVersion = version(of: "LineBreak.txt")
for file in ["EastAsianWidth.txt", "auxiliary/GraphemeBreakProperty.txt", "DerivedCoreProperties.txt",
             "PropList.txt", "extracted/DerivedGeneralCategory.txt"] where version(of: file) != unicodeVersion {
    fail("\(ucd)/\(file) is Unicode \(version(of: file)) but LineBreak.txt is \(unicodeVersion)")
}

var generalCategory = [String](repeating: "Cn", count: codePointCount)
for line in dataLines("extracted/DerivedGeneralCategory.txt") {
    for cp in line.range { generalCategory[cp] = line.fields[0] }
}

let lineBreak = stringProperty(file: "LineBreak.txt", defaultsFile: "extracted/DerivedLineBreak.txt", alias: "lb")
let eastAsianWidth = stringProperty(file: "EastAsianWidth.txt", defaultsFile: "extracted/DerivedEastAsianWidth.txt", alias: "ea")

let graphemeBreakNames = ["Other", "CR", "LF", "Control", "Extend", "ZWJ", "Regional_Indicator", "Prepend",
                          "SpacingMark", "L", "V", "T", "LV", "LVT"]  // GraphemeBreakProperty's order
var graphemeBreak = [Int](repeating: 0, count: codePointCount)
for line in dataLines("auxiliary/GraphemeBreakProperty.txt") {
    guard let value = graphemeBreakNames.firstIndex(of: line.fields[0]) else {
        fail("\(line.place): unknown Grapheme_Cluster_Break value '\(line.fields[0])'")
    }
    for cp in line.range { graphemeBreak[cp] = value }
}

let extendedPictographic = binaryProperty("Extended_Pictographic", in: "emoji/emoji-data.txt")
let emojiPresentation = binaryProperty("Emoji_Presentation", in: "emoji/emoji-data.txt")
let emojiModifier = binaryProperty("Emoji_Modifier", in: "emoji/emoji-data.txt")
let defaultIgnorable = binaryProperty("Default_Ignorable_Code_Point", in: "DerivedCoreProperties.txt")
let bidiControl = binaryProperty("Bidi_Control", in: "PropList.txt")

// LineBreakClass's order (ScalarInfo.swift); the classes LB1 resolves away are absent.
let lineBreakClasses = ["BK", "CR", "LF", "CM", "NL", "WJ", "ZW", "GL", "SP", "ZWJ",
                        "B2", "BA", "BB", "HY", "CB", "CL", "CP", "EX", "IN", "NS", "OP", "QU", "IS", "NU", "PO", "PR", "SY",
                        "AL", "EB", "EM", "H2", "H3", "HL", "ID", "JL", "JV", "JT", "RI"]

/// UAX #14 LB1: the generator resolves the classes the algorithm never sees.
func resolvedLineBreak(_ cp: Int) -> String {
    switch lineBreak[cp] {
    case "AI", "SG", "XX": return "AL"
    case "CJ": return "NS"
    case "SA": return ["Mn", "Mc"].contains(generalCategory[cp]) ? "CM" : "AL"
    case let other: return other
    }
}

let tab = 0x09
let graphemeV = graphemeBreakNames.firstIndex(of: "V")!
let graphemeT = graphemeBreakNames.firstIndex(of: "T")!
let graphemePrepend = graphemeBreakNames.firstIndex(of: "Prepend")!

func packedInfo(_ cp: Int) -> UInt32 {
    let lbName = resolvedLineBreak(cp)
    guard let lb = lineBreakClasses.firstIndex(of: lbName) else { fail("U+\(String(cp, radix: 16)): no LineBreakClass for '\(lbName)'") }
    let gc = generalCategory[cp]
    let ea = eastAsianWidth[cp]
    let isLayoutBreak = cp == tab || ["BK", "CR", "LF", "NL"].contains(lineBreak[cp])
    // ControlNotation neutralises C0, DEL and C1 (less tab and the mandatory breaks) and the bidi controls.
    let isNeutralisedControl = (gc == "Cc" && !isLayoutBreak) || bidiControl[cp]

    // SOFT HYPHEN is default-ignorable, but terminals draw it as a hyphen in a cell of its own
    // (glibc's wcwidth and the wcwidth of xterm say 1): measured 0, it pushed a bubble's border out.
    let softHyphen = 0xAD
    let width: UInt32
    if isNeutralisedControl {
        width = 1  // never zero: a reader that forgets the control bit still sees the control take room
    } else if gc == "Mn" || gc == "Me" || (defaultIgnorable[cp] && cp != softHyphen) || graphemeBreak[cp] == graphemeV
                || graphemeBreak[cp] == graphemeT || isLayoutBreak {
        width = 0
    } else if ea == "W" || ea == "F" || (extendedPictographic[cp] && gc == "Cn") {
        width = 2
    } else {
        width = 1
    }

    var raw = UInt32(graphemeBreak[cp]) | UInt32(lb) << 4 | width << 10
    if ea == "A" { raw |= 1 << 12 }
    if isNeutralisedControl { raw |= 1 << 13 }
    if extendedPictographic[cp] { raw |= 1 << 14 }
    if emojiPresentation[cp] { raw |= 1 << 15 }
    if ea == "F" || ea == "W" || ea == "H" { raw |= 1 << 16 }
    if extendedPictographic[cp] && gc == "Cn" { raw |= 1 << 17 }
    if emojiModifier[cp] { raw |= 1 << 18 }
    // Terminals draw a Prepend scalar (U+0600 ARABIC NUMBER SIGN and the other prepended
    // concatenation marks, U+0D4E…) in a cell of its own before the scalars it joins (glibc's
    // wcwidth gives them 1, tmux puts the next scalar in the next cell): the bit sends them to the
    // width reader's slow path, which adds their cells instead of taking the widest scalar.
    if graphemeBreak[cp] == graphemePrepend { raw |= 1 << 19 }
    return raw
}

var infos = [UInt32](repeating: 0, count: codePointCount)
for cp in 0..<codePointCount { infos[cp] = packedInfo(cp) }

// MARK: - Tables

var distinctValues: [UInt32] = []
var valueIndex: [UInt32: Int] = [:]
for value in infos where valueIndex[value] == nil {
    valueIndex[value] = distinctValues.count
    distinctValues.append(value)
}

/// Bytes per entry when each byte carries 7 bits.
func bytesFor(_ maximum: Int) -> Int {
    var bytes = 1
    while maximum >> (7 * bytes) != 0 { bytes += 1 }
    return bytes
}

struct TwoStage {
    var shift: Int
    var stage1: [Int]
    var stage2: [Int]
    var stage1Bytes: Int
    var stage2Bytes: Int
    var size: Int { stage1.count * stage1Bytes + stage2.count * stage2Bytes }
}

func twoStage(shift: Int) -> TwoStage {
    let blockSize = 1 << shift
    var stage1: [Int] = []
    var stage2: [Int] = []
    var blockIndex: [[Int]: Int] = [:]
    for start in stride(from: 0, to: codePointCount, by: blockSize) {
        let block = infos[start..<(start + blockSize)].map { valueIndex[$0]! }
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

let tables = (5...9).map(twoStage).min { $0.size < $1.size }!
let valueBytes = bytesFor(Int(distinctValues.max()!))

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

func entryRead(_ pointer: String, _ index: String, width: Int, as type: String) -> String {
    (0..<width).map { byte in
        let at = byte == 0 ? index : "\(index) &+ \(byte)"
        let read = "\(type)(\(pointer)[\(at)])"
        return byte == 0 ? read : "\(read) &<< \(7 * byte)"
    }.joined(separator: " | ")
}

func scaled(_ expression: String, by width: Int) -> String {
    width == 1 ? expression : "(\(expression)) &* \(width)"
}

let blockMask = (1 << tables.shift) - 1

print("""
// GENERATED FILE: do not edit. Regenerate from the Unicode Character Database with
//
//     swift Tools/generate-unicode-tables.swift /usr/share/unicode > Sources/BubbleText/Unicode/UnicodeTables.swift
//
// Unicode \(unicodeVersion). \(distinctValues.count) distinct values; stage 1: \(tables.stage1.count) entries × \(tables.stage1Bytes) bytes, \
stage 2: \(tables.stage2.count / (blockMask + 1)) blocks of \(blockMask + 1) × \(tables.stage2Bytes) bytes, \
values: \(distinctValues.count) × \(valueBytes) bytes; \(tables.size + distinctValues.count * valueBytes) bytes in all.
// Every table byte carries 7 bits, so the tables can live in string literals that compile fast.

/// The Unicode Character Database properties of every scalar, one table lookup each.
public enum UnicodeTables {
    /// The Unicode version the tables were generated from.
    public static let unicodeVersion: String = "\(unicodeVersion)"

    /// The packed properties of `scalar`. Values above U+10FFFF read as U+10FFFF (unassigned).
    @inlinable @inline(__always)
    public static func info(_ scalar: UInt32) -> ScalarInfo {
        let codePoint = Int(scalar <= 0x10FFFF ? scalar : 0x10FFFF)
        let stage1 = stage1Bytes.utf8Start
        let stage2 = stage2Bytes.utf8Start
        let values = valueBytes.utf8Start
        let at1 = \(scaled("codePoint &>> \(tables.shift)", by: tables.stage1Bytes))
        let block = \(entryRead("stage1", "at1", width: tables.stage1Bytes, as: "Int"))
        let at2 = \(scaled("block &<< \(tables.shift) | codePoint & \(blockMask)", by: tables.stage2Bytes))
        let value = \(entryRead("stage2", "at2", width: tables.stage2Bytes, as: "Int"))
        let at3 = \(scaled("value", by: valueBytes))
        return ScalarInfo(raw: \(entryRead("values", "at3", width: valueBytes, as: "UInt32")))
    }

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
\(literal(distinctValues.map { Int($0) }, width: valueBytes))
    }
}
""")
