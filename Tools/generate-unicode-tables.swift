// Generates Sources/BubbleText/Unicode/UnicodeTables.swift from the Unicode Character Database.
//
// Run from the package root (Tools/generate.sh compiles it with Tools/UCD.swift, the UCD reading
// the generators share):
//
//     Tools/generate.sh generate-unicode-tables /usr/share/unicode > Sources/BubbleText/Unicode/UnicodeTables.swift
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
// and, for cell widths only, Unicode 17.0's East_Asian_Width of the code points 15.0 assigns
// (Corpora/unicode/ucd-17.0/EastAsianWidth.txt, Tools/fetch-ucd-17.sh): Unicode 16 made 188
// symbols Wide (the Yijing hexagrams, the Tai Xuan Jing and counting-rod symbols, the trigrams
// and digrams), and the terminals the `unicode` profile stands for draw them in 2 cells. Line
// breaking (LB30's East Asian test) keeps 15.0's value, as its conformance file does.
//
// Each code point gets one packed UInt32 laid out as `ScalarInfo` documents
// (Sources/BubbleText/Unicode/ScalarInfo.swift). The values go into a two-stage table: stage 1
// maps a block of code points to a deduplicated block in stage 2, whose entries index a small
// table of distinct values. All three are stored as string literals of 7-bit bytes (several
// bytes per entry), which the Swift compiler reads in an instant where array literals of the
// same size would take minutes, and which need no decoding at start-up: lookup reads the bytes
// in place.

import Foundation

/// A string property: `@missing` defaults from `defaultsFile`, then the explicit values of `file`.
func stringProperty(file: String, defaultsFile: String, alias property: String) -> [String] {
    let aliases = valueAliases(property)
    var values = [String](repeating: "", count: codePointCount)
    for line in dataLines(defaultsFile, missing: true) {
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

/// East_Asian_Width as terminals on Unicode 16 and later draw it: for cell widths only.
let drawnEastAsianWidth = laterValues("EastAsianWidth.txt", current: eastAsianWidth, category: generalCategory)

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
let graphemeAttaching = Set(["Extend", "ZWJ", "SpacingMark"].map { graphemeBreakNames.firstIndex(of: $0)! })

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
    } else if ["W", "F"].contains(drawnEastAsianWidth[cp]) || (extendedPictographic[cp] && gc == "Cn") {
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
    // Extend, ZWJ and SpacingMark join whatever is before them (GB9, GB9a), on screen too: a
    // grapheme-clustering terminal joins one that starts a grapheme of ours (at a text's start,
    // after a control or a line break) to the bubble's padding or a control's visible form. The
    // bit lets the width reader and the renderer leave such a scalar out with one test, the wide
    // ones (U+302E HANGUL SINGLE DOT TONE MARK, the skin-tone modifiers…) included.
    if graphemeAttaching.contains(Int(graphemeBreak[cp])) { raw |= 1 << 20 }
    return raw
}

var infos = [UInt32](repeating: 0, count: codePointCount)
for cp in 0..<codePointCount { infos[cp] = packedInfo(cp) }

// MARK: - Tables

let (tables, distinctValues) = smallestTwoStage(infos.map { Int($0) })
let valueBytes = bytesFor(distinctValues.max()!)

let blockMask = (1 << tables.shift) - 1

print("""
// GENERATED FILE: do not edit. Regenerate from the Unicode Character Database with
//
//     Tools/generate.sh generate-unicode-tables /usr/share/unicode > Sources/BubbleText/Unicode/UnicodeTables.swift
//
// Unicode \(unicodeVersion). \(distinctValues.count) distinct values; stage 1: \(tables.stage1.count) entries × \(tables.stage1Bytes) bytes, \
stage 2: \(tables.stage2.count / (blockMask + 1)) blocks of \(blockMask + 1) × \(tables.stage2Bytes) bytes, \
values: \(distinctValues.count) × \(valueBytes) bytes; \(tables.size + distinctValues.count * valueBytes) bytes in all.
// Every table byte carries 7 bits, so the tables can live in string literals that compile fast.

/// The Unicode Character Database properties of every scalar, one table lookup each.
package enum UnicodeTables {
    /// The Unicode version the tables were generated from.
    package static let unicodeVersion: String = "\(unicodeVersion)"

    /// The packed properties of `scalar`. Values above U+10FFFF read as U+10FFFF (unassigned).
    @inlinable @inline(__always)
    package static func info(_ scalar: UInt32) -> ScalarInfo {
\(lookupStatements(tables, valueBytes: valueBytes))
        return ScalarInfo(raw: \(entryRead("values", "at3", width: valueBytes, as: "UInt32")))
    }

\(tableLiterals(tables, distinctValues: distinctValues, valueBytes: valueBytes))
}
""")
