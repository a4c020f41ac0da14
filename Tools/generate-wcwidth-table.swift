// Generates Sources/BubbleText/Unicode/WcwidthTable.swift from the Unicode Character Database:
// the width of each code point as glibc's `wcwidth` gives it, for the `wcwidth` width profile.
//
// Run from the package root (Tools/generate.sh compiles it with Tools/UCD.swift, the UCD reading
// the generators share):
//
//     Tools/generate.sh generate-wcwidth-table /usr/share/unicode > Sources/BubbleText/Unicode/WcwidthTable.swift
//
// glibc builds its width table from the UCD (localedata/unicode-gen): a code point it does not
// know (unassigned in the Unicode version glibc was built with) has no width; Mn, Me and Cf less
// U+00AD, the Hangul medial vowels and final consonants (U+1160–11FF, U+D7B0–D7FF) and U+200B
// are 0, except the prepended concatenation marks (U+0600–0605 and the like), which are 1; East_Asian_Width W and
// F are 2, and so are two blocks glibc widens on its own (U+3248–324F, U+4DC0–4DFF); everything
// else assigned is 1. glibc 2.36 (Debian 12,
// which CI runs) carries Unicode 14.0, so code points assigned later are "unknown" here, and
// tmux 3.3a (checked by the tmux tests) draws an unknown code point as nothing: 0. Controls
// (Cc, Zl, Zp) have no width in glibc; they never reach a terminal from us (they are neutralised
// or break lines), so they are written as 1 and callers use their visible form.
//
// Files read: extracted/DerivedGeneralCategory.txt, EastAsianWidth.txt, DerivedAge.txt, PropList.txt.

import Foundation

/// The Unicode version of glibc 2.36's tables: code points assigned after it are unknown.
let knownAge = (14, 0)

var category = [String](repeating: "Cn", count: codePointCount)
for line in dataLines("extracted/DerivedGeneralCategory.txt") { for cp in line.range { category[cp] = line.value } }
var eastAsianWidth = [String](repeating: "N", count: codePointCount)
for line in dataLines("EastAsianWidth.txt") { for cp in line.range { eastAsianWidth[cp] = line.value } }
var prependedMark = [Bool](repeating: false, count: codePointCount)
for line in dataLines("PropList.txt") where line.value == "Prepended_Concatenation_Mark" { for cp in line.range { prependedMark[cp] = true } }
var known = [Bool](repeating: false, count: codePointCount)
for line in dataLines("DerivedAge.txt") {
    let parts = line.value.split(separator: ".").compactMap { Int($0) }
    guard parts.count == 2 else { fail("\(line.place): bad age '\(line.value)'") }
    if parts[0] < knownAge.0 || (parts[0] == knownAge.0 && parts[1] <= knownAge.1) {
        for cp in line.range { known[cp] = true }
    }
}

func width(_ cp: Int) -> Int {
    let gc = category[cp]
    if gc == "Cc" || gc == "Zl" || gc == "Zp" { return 1 }
    if gc == "Cs" || gc == "Cn" || !known[cp] { return 0 }
    if cp == 0xAD || prependedMark[cp] { return 1 }
    if gc == "Mn" || gc == "Me" || gc == "Cf" { return 0 }
    if (0x1160...0x11FF).contains(cp) || (0xD7B0...0xD7FF).contains(cp) || cp == 0x200B { return 0 }
    if (0x3248...0x324F).contains(cp) || (0x4DC0...0x4DFF).contains(cp) { return 2 }
    let ea = eastAsianWidth[cp]
    return ea == "W" || ea == "F" ? 2 : 1
}

// Two stages: stage 1 maps each block of 128 code points to a deduplicated block of stage 2,
// whose bytes are the widths as the digits "0", "1", "2" (string literals compile fast).
let shift = 7
var blockIndex: [[UInt8]: Int] = [:]
var stage1: [Int] = []
var stage2: [UInt8] = []
for start in stride(from: 0, to: codePointCount, by: 1 << shift) {
    let block = (start..<(start + (1 << shift))).map { UInt8(0x30 + width($0)) }
    if let index = blockIndex[block] {
        stage1.append(index)
    } else {
        blockIndex[block] = blockIndex.count
        stage1.append(blockIndex.count - 1)
        stage2 += block
    }
}

func literal(_ bytes: [UInt8]) -> String {
    var lines: [String] = []
    for chunkStart in stride(from: 0, to: bytes.count, by: 96) {
        lines.append(String(decoding: bytes[chunkStart..<min(bytes.count, chunkStart + 96)], as: UTF8.self))
    }
    return lines.joined(separator: "\\\n") + "\n"
}
func stage1Literal() -> String {
    // Two digits per entry, base 44, written as "0" (0x30) to "[" (0x5B): below the backslash.
    var bytes: [UInt8] = []
    for index in stage1 { bytes += [UInt8(0x30 + index / 44), UInt8(0x30 + index % 44)] }
    return literal(bytes)
}
guard blockIndex.count < 44 * 44 else { fail("too many distinct blocks for two base-44 digits") }
let unicodeVersion = version(of: "DerivedAge.txt")

print("""
// GENERATED FILE: do not edit. Regenerate from the Unicode Character Database with
//
//     Tools/generate.sh generate-wcwidth-table /usr/share/unicode > Sources/BubbleText/Unicode/WcwidthTable.swift
//
// Unicode \(unicodeVersion), known code points as of Unicode \(knownAge.0).\(knownAge.1) (glibc 2.36). \
stage 1: \(stage1.count) entries × 2 bytes, stage 2: \(blockIndex.count) blocks of \(1 << shift) bytes.

/// Each code point's width as glibc's `wcwidth` gives it (see Tools/generate-wcwidth-table.swift),
/// for `WidthProfile.wcwidth`.
package enum WcwidthTable {
    /// Cells glibc gives `scalar` (0, 1 or 2); unknown code points are 0, controls 1.
    @inlinable @inline(__always)
    package static func width(_ scalar: UInt32) -> Int {
        let codePoint = Int(scalar <= 0x10FFFF ? scalar : 0x10FFFF)
        let stage1 = stage1Bytes.utf8Start
        let at1 = (codePoint &>> \(shift)) &* 2
        let block = (Int(stage1[at1]) &- 0x30) &* 44 &+ (Int(stage1[at1 &+ 1]) &- 0x30)
        return Int(stage2Bytes.utf8Start[block &<< \(shift) | codePoint & \((1 << shift) - 1)]) &- 0x30
    }

    @inlinable
    static var stage1Bytes: StaticString {
""\"
\(stage1Literal())""\"
    }

    @inlinable
    static var stage2Bytes: StaticString {
""\"
\(literal(stage2))""\"
    }
}
""")
