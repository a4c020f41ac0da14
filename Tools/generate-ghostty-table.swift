// Generates Sources/BubbleText/Unicode/GhosttyTable.swift from the Unicode Character Database:
// what the `ghostty` width profile needs to know of each code point to count cells as Ghostty 1.3
// and later does with grapheme clustering (mode 2027) on.
//
// Run from the package root (Tools/generate.sh compiles it with Tools/UCD.swift, the UCD reading
// the generators share):
//
//     Tools/generate.sh generate-ghostty-table /usr/share/unicode > Sources/BubbleText/Unicode/GhosttyTable.swift
//
// Ghostty takes each code point's properties from the uucode library, which defines two widths
// (read in its source, src/components.zig, and in Ghostty's src/build/uucode_config.zig):
// - alone: 0 for Cc, Cs, Zl, Zp and default-ignorables (U+00AD SOFT HYPHEN is 1); 2 for East
//   Asian Wide and Fullwidth, for regional indicators, and for TWO-EM DASH and THREE-EM DASH (3,
//   which Ghostty caps at 2); 1 otherwise;
// - "zero in a grapheme": width 0 alone, Mn, Me, the Hangul V and T jamo, Prepend scalars and
//   the emoji modifiers add nothing to the grapheme that holds them.
// Ghostty's width of a scalar that starts a cell is the first, except that a scalar zero in a
// grapheme is 0 unless it is an emoji modifier or Prepend. Any other scalar that joins the
// cell's grapheme makes the cell 2 wide (see `WidthProfile.ghostty`). VS16 and VS15 change the
// width only after a scalar that has an emoji variation sequence (emoji-variation-sequences.txt);
// a skin-tone modifier joins only an Emoji_Modifier_Base before it (uucode tailors UAX #29 so,
// after UTS #51); and Indic conjuncts join by GB9c, with Indic_Conjunct_Break derived here from
// Indic_Syllabic_Category as Unicode 15.1 first defined it (Consonant and Virama in Bengali,
// Devanagari, Gujarati, Malayalam, Oriya and Telugu; Extend for the other Extend and ZWJ
// scalars, less ZWNJ and the emoji modifiers). Unicode 16 and 17 added stacker scripts (Myanmar,
// Khmer, Balinese…) whose conjuncts Ghostty, on Unicode 17, also joins: not modelled here, since
// the UCD in use (15.0) cannot say which; README "Cell widths that match the terminal".
//
// Files read: extracted/DerivedGeneralCategory.txt, EastAsianWidth.txt, DerivedCoreProperties.txt,
// auxiliary/GraphemeBreakProperty.txt, emoji/emoji-data.txt, emoji/emoji-variation-sequences.txt,
// IndicSyllabicCategory.txt, Scripts.txt, UnicodeData.txt; and Unicode 17.0's
// East_Asian_Width and General_Category (Corpora/unicode/ucd-17.0, Tools/fetch-ucd-17.sh) for
// the code points 15.0 assigns, since Ghostty's uucode is on Unicode 17: it draws the 188
// symbols Unicode 16 made Wide (U+4DC0–4DFF…) in 2 cells, and U+1171E AHOM CONSONANT SIGN
// MEDIAL RA, a spacing mark since 16, widens the cell it joins. A sweep of every code point
// 15.0 assigns through libghostty-vt checks the whole table
// (GhosttyProfileTests.everyAssignedCodePointMeasuresWhatGhosttysTerminalCoreDraws).

import Foundation

var category = [String](repeating: "Cn", count: codePointCount)
for line in dataLines("extracted/DerivedGeneralCategory.txt") { for cp in line.range { category[cp] = line.value } }
var eastAsianWidth = [String](repeating: "N", count: codePointCount)
for line in dataLines("EastAsianWidth.txt") { for cp in line.range { eastAsianWidth[cp] = line.value } }
// Ghostty's Unicode (17.0) for what 15.0 assigns; `category` is 15.0's until both are read.
eastAsianWidth = laterValues("EastAsianWidth.txt", current: eastAsianWidth, category: category)
category = laterValues("extracted/DerivedGeneralCategory.txt", current: category, category: category)
var defaultIgnorable = [Bool](repeating: false, count: codePointCount)
for line in dataLines("DerivedCoreProperties.txt") where line.value == "Default_Ignorable_Code_Point" {
    for cp in line.range { defaultIgnorable[cp] = true }
}
var graphemeBreak = [String](repeating: "Other", count: codePointCount)
for line in dataLines("auxiliary/GraphemeBreakProperty.txt") { for cp in line.range { graphemeBreak[cp] = line.value } }
var emojiModifier = [Bool](repeating: false, count: codePointCount)
var emojiModifierBase = [Bool](repeating: false, count: codePointCount)
var extendedPictographic = [Bool](repeating: false, count: codePointCount)
for line in dataLines("emoji/emoji-data.txt") {
    switch line.value {
    case "Emoji_Modifier": for cp in line.range { emojiModifier[cp] = true }
    case "Emoji_Modifier_Base": for cp in line.range { emojiModifierBase[cp] = true }
    case "Extended_Pictographic": for cp in line.range { extendedPictographic[cp] = true }
    default: break
    }
}
var syllabicCategory = [String](repeating: "Other", count: codePointCount)
for line in dataLines("IndicSyllabicCategory.txt") { for cp in line.range { syllabicCategory[cp] = line.value } }
var script = [String](repeating: "Unknown", count: codePointCount)
for line in dataLines("Scripts.txt") { for cp in line.range { script[cp] = line.value } }

// Emoji variation sequences are "BASE FE0E ; text style; ..." lines: not ranges, read here.
var variationBase = [Bool](repeating: false, count: codePointCount)
for (index, line) in readLines("emoji/emoji-variation-sequences.txt").enumerated() {
    let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
    let fields = content.components(separatedBy: ";")
    guard fields.count >= 2 else { continue }
    let sequence = fields[0].split(separator: " ").map(String.init)
    let place = "\(ucd)/emoji/emoji-variation-sequences.txt:\(index + 1)"
    guard sequence.count == 2 else { fail("\(place): expected 'BASE SELECTOR', got '\(fields[0])'") }
    variationBase[parseCodePoint(sequence[0], place: place)] = true
}
guard variationBase.contains(true) else { fail("\(ucd)/emoji/emoji-variation-sequences.txt: no sequences found") }

// uucode widens TWO-EM DASH and THREE-EM DASH by name; found by name here too.
var dashes: [Int: Int] = [:]
for (index, line) in readLines("UnicodeData.txt").enumerated() {
    let fields = line.components(separatedBy: ";")
    guard fields.count > 1 else { continue }
    if fields[1] == "TWO-EM DASH" { dashes[parseCodePoint(fields[0], place: "UnicodeData.txt:\(index + 1)")] = 2 }
    if fields[1] == "THREE-EM DASH" { dashes[parseCodePoint(fields[0], place: "UnicodeData.txt:\(index + 1)")] = 3 }
}
guard dashes.count == 2 else { fail("\(ucd)/UnicodeData.txt: TWO-EM DASH and THREE-EM DASH not found") }

/// The scripts whose viramas link conjuncts in Unicode 15.1's Indic_Conjunct_Break.
let conjunctScripts: Set<String> = ["Bengali", "Devanagari", "Gujarati", "Malayalam", "Oriya", "Telugu"]
for name in conjunctScripts where !script.contains(name) { fail("\(ucd)/Scripts.txt: no script '\(name)'") }

func aloneWidth(_ cp: Int) -> Int {
    let gc = category[cp]
    if gc == "Cc" || gc == "Cs" || gc == "Zl" || gc == "Zp" { return 0 }
    if cp == 0xAD { return 1 }
    if defaultIgnorable[cp] { return 0 }
    if let dash = dashes[cp] { return dash }
    let ea = eastAsianWidth[cp]
    // Unassigned pictographs (emoji after Unicode 15.0) are wide in Ghostty's Unicode 17 tables,
    // as they are in the `unicode` profile's.
    if ea == "W" || ea == "F" || (extendedPictographic[cp] && gc == "Cn") { return 2 }
    if graphemeBreak[cp] == "Regional_Indicator" { return 2 }
    return 1
}

func packed(_ cp: Int) -> Int {
    let alone = aloneWidth(cp)
    let gc = category[cp]
    let gcb = graphemeBreak[cp]
    let zeroInGrapheme = alone == 0 || emojiModifier[cp] || gc == "Mn" || gc == "Me" || gcb == "V" || gcb == "T"
        || gcb == "Prepend"
    let width = zeroInGrapheme && !emojiModifier[cp] && gcb != "Prepend" ? 0 : min(2, alone)
    var conjunct = 0  // Indic_Conjunct_Break: 0 None, 1 Consonant, 2 Linker, 3 Extend
    if conjunctScripts.contains(script[cp]) && syllabicCategory[cp] == "Consonant" {
        conjunct = 1
    } else if conjunctScripts.contains(script[cp]) && syllabicCategory[cp] == "Virama" {
        conjunct = 2
    } else if (gcb == "Extend" || gcb == "ZWJ") && cp != 0x200C && !emojiModifier[cp] {
        conjunct = 3
    }
    var value = width
    if zeroInGrapheme { value |= 1 << 2 }
    if variationBase[cp] { value |= 1 << 3 }
    if emojiModifierBase[cp] { value |= 1 << 4 }
    if emojiModifier[cp] { value |= 1 << 5 }
    value |= conjunct << 6
    return value
}

let (tables, distinctValues) = smallestTwoStage((0..<codePointCount).map(packed))
let valueBytes = bytesFor(distinctValues.max()!)
let unicodeVersion = version(of: "DerivedAge.txt")

print("""
// GENERATED FILE: do not edit. Regenerate from the Unicode Character Database with
//
//     Tools/generate.sh generate-ghostty-table /usr/share/unicode > Sources/BubbleText/Unicode/GhosttyTable.swift
//
// Unicode \(unicodeVersion). \(distinctValues.count) distinct values; stage 1: \(tables.stage1.count) entries × \(tables.stage1Bytes) bytes, \
stage 2: \(tables.stage2.count >> tables.shift) blocks of \(1 << tables.shift) × \(tables.stage2Bytes) bytes.

/// What `WidthProfile.ghostty` reads of each code point (see Tools/generate-ghostty-table.swift).
package enum GhosttyTable {
    /// The entry of `scalar`. Values above U+10FFFF read as U+10FFFF (unassigned).
    @inlinable @inline(__always)
    package static func entry(_ scalar: UInt32) -> GhosttyEntry {
\(lookupStatements(tables, valueBytes: valueBytes))
        return GhosttyEntry(raw: UInt16(truncatingIfNeeded: \(entryRead("values", "at3", width: valueBytes, as: "Int"))))
    }

\(tableLiterals(tables, distinctValues: distinctValues, valueBytes: valueBytes))
}
""")
