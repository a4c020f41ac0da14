// Generates Sources/BubbleText/Bidi/BidiTables.swift from the Unicode Character Database: the
// data the Unicode Bidirectional Algorithm (UAX #9) and Arabic joining need. Kept apart from
// Tools/generate-unicode-tables.swift (the text engine's measurement tables), so either can change
// without touching the other.
//
// Run from the package root (Tools/generate.sh compiles it with Tools/UCD.swift, the UCD reading
// the generators share):
//
//     Tools/generate.sh generate-bidi-tables /usr/share/unicode > Sources/BubbleText/Bidi/BidiTables.swift
//
// Files read (Unicode 15.0 in Debian's `unicode-data`):
//   extracted/DerivedBidiClass.txt       Bidi_Class, with its `# @missing:` defaults
//   BidiBrackets.txt                     Bidi_Paired_Bracket and Bidi_Paired_Bracket_Type
//   BidiMirroring.txt                    Bidi_Mirroring_Glyph
//   ArabicShaping.txt                    Joining_Type (unlisted Mn, Me and Cf are Transparent)
//   extracted/DerivedJoiningType.txt     cross-check of the Joining_Type derived here
//   extracted/DerivedGeneralCategory.txt General_Category, for the Transparent rule
//   UnicodeData.txt                      canonical singletons (U+2329 ≡ U+3008) for bracket
//                                        matching, and the <isolated>/<final>/<initial>/<medial>
//                                        decompositions of the Arabic presentation forms
//   PropertyValueAliases.txt             long value names used by the `@missing` lines
//   PropList.txt                         Bidi_Control, each control's role read from its Bidi_Class
//
// Per code point one packed value (`BidiProperties`, Sources/BubbleText/Bidi/BidiProperties.swift)
// in a two-stage table; the few code points with more data (mirrors, brackets, shaping forms) are
// in small sorted or dense tables. Everything is stored in string literals of 7-bit bytes, as the
// other generator does, which compile in an instant.

import Foundation

let unicodeVersion = version(of: "extracted/DerivedBidiClass.txt")
for file in ["BidiBrackets.txt", "BidiMirroring.txt", "ArabicShaping.txt", "extracted/DerivedJoiningType.txt", "PropList.txt",
             "extracted/DerivedGeneralCategory.txt"] where version(of: file) != unicodeVersion {
    fail("\(ucd)/\(file) is Unicode \(version(of: file)) but DerivedBidiClass.txt is \(unicodeVersion)")
}

// MARK: - Bidi_Class

// BidiClass's order (Sources/BubbleText/Bidi/BidiClass.swift); keep the two in step.
let bidiClassNames = ["L", "R", "AL", "EN", "ES", "ET", "AN", "CS", "NSM", "BN", "B", "S", "WS", "ON",
                      "LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"]
let bidiAliases = valueAliases("bc")
var bidiClass = [Int](repeating: -1, count: codePointCount)
for line in dataLines("extracted/DerivedBidiClass.txt", missing: true) + dataLines("extracted/DerivedBidiClass.txt") {
    guard let short = bidiAliases[line.fields[0]], let value = bidiClassNames.firstIndex(of: short) else {
        fail("\(line.place): unknown Bidi_Class '\(line.fields[0])'")
    }
    for cp in line.range { bidiClass[cp] = value }
}
if let gap = bidiClass.firstIndex(of: -1) { fail("U+\(String(gap, radix: 16)): no Bidi_Class (no @missing line covers it)") }

// MARK: - Joining_Type

var generalCategory = [String](repeating: "Cn", count: codePointCount)
for line in dataLines("extracted/DerivedGeneralCategory.txt") {
    for cp in line.range { generalCategory[cp] = line.fields[0] }
}
// JoiningType's order (Sources/BubbleText/Bidi/BidiProperties.swift).
let joiningNames = ["U", "T", "D", "R", "L", "C"]
var joining = [Int](repeating: 0, count: codePointCount)
for cp in 0..<codePointCount where ["Mn", "Me", "Cf"].contains(generalCategory[cp]) { joining[cp] = 1 }
for line in dataLines("ArabicShaping.txt") {
    guard line.fields.count >= 2, let value = joiningNames.firstIndex(of: line.fields[1]) else {
        fail("\(line.place): unknown Joining_Type in '\(line.fields)'")
    }
    for cp in line.range { joining[cp] = value }
}
// The derived file says the same, or the rule above is wrong.
var derivedJoining = [Int](repeating: 0, count: codePointCount)
let joiningAliases = valueAliases("jt")
for line in dataLines("extracted/DerivedJoiningType.txt") {
    guard let short = joiningAliases[line.fields[0]], let value = joiningNames.firstIndex(of: short) else {
        fail("\(line.place): unknown Joining_Type '\(line.fields[0])'")
    }
    for cp in line.range { derivedJoining[cp] = value }
}
if let differing = (0..<codePointCount).first(where: { joining[$0] != derivedJoining[$0] }) {
    fail("U+\(String(differing, radix: 16)): Joining_Type from ArabicShaping.txt is \(joiningNames[joining[differing]]), DerivedJoiningType.txt says \(joiningNames[derivedJoining[differing]])")
}

// MARK: - UnicodeData.txt: canonical singletons and presentation-form decompositions

var canonicalSingleton: [Int: Int] = [:]
/// forms[base] = [isolated, final, initial, medial], 0 where the UCD has none.
var forms: [Int: [Int]] = [:]
/// Lam with a second letter: (second, isolated, final).
var lamLigatures: [(second: Int, isolated: Int, final: Int)] = []
let formKinds = ["<isolated>", "<final>", "<initial>", "<medial>"]
let lam = 0x0644
for (index, line) in readLines("UnicodeData.txt").enumerated() where !line.isEmpty {
    let fields = line.components(separatedBy: ";")
    let place = "\(ucd)/UnicodeData.txt:\(index + 1)"
    guard fields.count >= 6 else { fail("\(place): expected 15 fields") }
    let cp = parseCodePoint(fields[0], place: place)
    let decomposition = fields[5].split(separator: " ").map(String.init)
    guard !decomposition.isEmpty else { continue }
    if decomposition.count == 1 {
        canonicalSingleton[cp] = parseCodePoint(decomposition[0], place: place)
        continue
    }
    // Presentation forms of Arabic letters: Forms-B (FE70-FEFF) first, then Forms-A (FB50-FDFF)
    // for the letters Forms-B lacks (Persian, Urdu and other extensions).
    guard (0xFB50...0xFDFF).contains(cp) || (0xFE70...0xFEFF).contains(cp),
          let kind = formKinds.firstIndex(of: decomposition[0]) else { continue }
    let parts = decomposition.dropFirst().map { parseCodePoint($0, place: place) }
    if parts.count == 1 {
        var entry = forms[parts[0]] ?? [0, 0, 0, 0]
        let fromFormsB = cp >= 0xFE70
        if entry[kind] == 0 || fromFormsB { entry[kind] = cp }
        forms[parts[0]] = entry
    } else if parts.count == 2, parts[0] == lam, kind <= 1, cp >= 0xFE70 {  // lam-alef: the Forms-B ligatures
        if let at = lamLigatures.firstIndex(where: { $0.second == parts[1] }) {
            if kind == 0 { lamLigatures[at].isolated = cp } else { lamLigatures[at].final = cp }
        } else {
            lamLigatures.append((parts[1], kind == 0 ? cp : 0, kind == 1 ? cp : 0))
        }
    }
}
// Only letters that join: a form for a non-joining base would never be chosen.
forms = forms.filter { joining[$0.key] >= 2 }
lamLigatures.sort { $0.second < $1.second }
guard !lamLigatures.isEmpty, lamLigatures.allSatisfy({ $0.isolated != 0 && $0.final != 0 }) else {
    fail("\(ucd)/UnicodeData.txt: expected isolated and final lam-alef ligatures")
}

// MARK: - Brackets and mirrors

/// (scalar, paired bracket, is opening).
var brackets: [(scalar: Int, pair: Int, opening: Bool)] = []
for line in dataLines("BidiBrackets.txt") {
    guard line.fields.count >= 2, line.range.count == 1 else { fail("\(line.place): expected 'cp; pair; o|c'") }
    let pair = parseCodePoint(line.fields[0], place: line.place)
    guard ["o", "c"].contains(line.fields[1]) else { fail("\(line.place): bracket type '\(line.fields[1])'") }
    brackets.append((line.range.lowerBound, pair, line.fields[1] == "o"))
}
brackets.sort { $0.scalar < $1.scalar }

var mirrors: [(scalar: Int, mirror: Int)] = []
for line in dataLines("BidiMirroring.txt") {
    guard line.range.count == 1 else { fail("\(line.place): expected one code point") }
    mirrors.append((line.range.lowerBound, parseCodePoint(line.fields[0], place: line.place)))
}
mirrors.sort { $0.scalar < $1.scalar }

// MARK: - Packed values

let hasMirror = Set(mirrors.map(\.scalar))
let bracketType = Dictionary(uniqueKeysWithValues: brackets.map { ($0.scalar, $0.opening ? 1 : 2) })
var packed = [Int](repeating: 0, count: codePointCount)
for cp in 0..<codePointCount {
    packed[cp] = bidiClass[cp] | (bracketType[cp] ?? 0) << 5 | (hasMirror.contains(cp) ? 1 << 7 : 0) | joining[cp] << 8
}

let (tables, distinctValues) = smallestTwoStage(packed)
let valueBytes = bytesFor(distinctValues.max()!)

// Bidi_Class alone, for the algorithm's per-scalar lookup: a table of its own whose stage 2
// holds the class itself (two loads, where `properties` needs three and a mask). Without the
// other properties its blocks repeat more, so it is small.
let (classTables, classValues) = smallestTwoStage(bidiClass)
let classStage2 = classTables.stage2.map { classValues[$0] }
guard classTables.stage1Bytes == 1, classValues.max()! < 0x80 else { fail("the class table needs one byte per entry") }
let classBlockMask = (1 << classTables.shift) - 1

/// RTL ranges: where a scalar of class R, AL or AN can be, as few ranges as cover them with gaps
/// of other classes up to 64 code points folded in (a cheap test for the preparer).
var rightToLeftRanges: [ClosedRange<Int>] = []
for cp in 0..<codePointCount where [1, 2, 6].contains(bidiClass[cp]) {
    if let last = rightToLeftRanges.last, cp - last.upperBound <= 64 {
        rightToLeftRanges[rightToLeftRanges.count - 1] = last.lowerBound...cp
    } else {
        rightToLeftRanges.append(cp...cp)
    }
}
// Bidi controls that start right-to-left text are part of the test too (RLM, RLE, RLO, RLI, FSI,
// ALM): they are drawn as visible labels, but they mark a message as written right to left.
// (RLM and ALM are of class R and AL, so in the ranges already.)
let rightToLeftControls = (0..<codePointCount).filter { cp in [16, 17, 20, 21].contains(bidiClass[cp]) }

/// Bit `b - 0xC0` set when UTF-8 lead byte `b` starts some scalar `mayBeRightToLeft` accepts:
/// a scan of UTF-8 need decode only the scalars behind those leads.
func mayBeRightToLeft(_ cp: Int) -> Bool {
    rightToLeftRanges.contains { $0.contains(cp) } || rightToLeftControls.contains(cp)
}
var leadByteMask: UInt64 = 0
for lead in 0xC0...0xFF {
    let scalars: ClosedRange<Int>
    switch lead {
    case 0xC0...0xDF: scalars = ((lead & 0x1F) << 6)...((lead & 0x1F) << 6 | 0x3F)
    case 0xE0...0xEF: scalars = ((lead & 0x0F) << 12)...((lead & 0x0F) << 12 | 0xFFF)
    case 0xF0...0xF4: scalars = ((lead & 0x07) << 18)...((lead & 0x07) << 18 | 0x3FFFF)
    default: continue
    }
    if scalars.contains(where: mayBeRightToLeft) { leadByteMask |= 1 << UInt64(lead - 0xC0) }
}

// MARK: - Output

func hex(_ value: Int) -> String { "0x" + String(value, radix: 16, uppercase: true) }

let blockMask = (1 << tables.shift) - 1
let formBases = forms.keys.sorted()
let formLow = formBases.first!, formHigh = formBases.last!
var formEntries: [Int] = []
for base in formLow...formHigh { formEntries += forms[base] ?? [0, 0, 0, 0] }

let controlTest = rightToLeftControls.map { "scalar == \(hex($0))" }.joined(separator: " || ")

let tableBytes = tables.size + distinctValues.count * valueBytes
let extraBytes = mirrors.count * 6 + brackets.count * 9 + formEntries.count * 3 + lamLigatures.count * 9

print("""
// GENERATED FILE: do not edit. Regenerate from the Unicode Character Database with
//
//     Tools/generate.sh generate-bidi-tables /usr/share/unicode > Sources/BubbleText/Bidi/BidiTables.swift
//
// Unicode \(unicodeVersion). Properties: \(distinctValues.count) distinct values; stage 1: \(tables.stage1.count) entries × \(tables.stage1Bytes) bytes, \
stage 2: \(tables.stage2.count / (blockMask + 1)) blocks of \(blockMask + 1) × \(tables.stage2Bytes) bytes, values: \(distinctValues.count) × \(valueBytes) bytes \
(\(tableBytes) bytes); Bidi_Class alone: \(classTables.stage1.count) + \(classStage2.count) bytes. Mirrors: \(mirrors.count); brackets: \(brackets.count); shaping forms for \
U+\(String(formLow, radix: 16, uppercase: true))–U+\(String(formHigh, radix: 16, uppercase: true)); \(lamLigatures.count) lam ligatures \
(\(extraBytes) bytes).
// Every table byte carries 7 bits, so the tables can live in string literals that compile fast.

/// The Unicode Character Database data of the Bidirectional Algorithm and of Arabic joining.
package enum BidiTables {
    /// The Unicode version the tables were generated from.
    package static let unicodeVersion: String = "\(unicodeVersion)"

    /// Bidi_Class, paired-bracket type, mirroring and Joining_Type of `scalar`. Values above
    /// U+10FFFF read as U+10FFFF.
    @inlinable @inline(__always)
    package static func properties(_ scalar: UInt32) -> BidiProperties {
\(lookupStatements(tables, valueBytes: valueBytes))
        return BidiProperties(raw: UInt16(truncatingIfNeeded: \(entryRead("values", "at3", width: valueBytes, as: "Int"))))
    }

    /// Bidi_Class raw value (`BidiClass`) of `scalar`. Values above U+10FFFF read as U+10FFFF.
    @inlinable @inline(__always)
    package static func classValue(_ scalar: UInt32) -> UInt8 {
        let codePoint = Int(scalar <= 0x10FFFF ? scalar : 0x10FFFF)
        let block = Int(classStage1Bytes.utf8Start[codePoint &>> \(classTables.shift)])
        return classStage2Bytes.utf8Start[block &<< \(classTables.shift) | codePoint & \(classBlockMask)]
    }

    /// True when `scalar` may be right-to-left: every scalar of class R, AL or AN is in these
    /// ranges (with a few others between them), and so are the controls that start
    /// right-to-left text. False means the scalar never makes a text need reordering.
    @inlinable @inline(__always)
    package static func mayBeRightToLeft(_ scalar: UInt32) -> Bool {
        (scalar &- \(hex(rightToLeftRanges[0].lowerBound))) <= \(hex(rightToLeftRanges[0].upperBound - rightToLeftRanges[0].lowerBound))
            || (scalar >= \(hex(rightToLeftRanges[1].lowerBound)) && mayBeRightToLeftBeyondFirstRange(scalar))
    }

    /// Bit `b - 0xC0` is set when a scalar `mayBeRightToLeft` accepts can start with UTF-8 lead
    /// byte `b`; other bytes never start one.
    package static let rightToLeftLeadBytes: UInt64 = 0x\(String(leadByteMask, radix: 16, uppercase: true))

    @usableFromInline
    static func mayBeRightToLeftBeyondFirstRange(_ scalar: UInt32) -> Bool {
        \(rightToLeftRanges.dropFirst().map { range in
            "(scalar &- \(hex(range.lowerBound))) <= \(hex(range.upperBound - range.lowerBound))"
        }.joined(separator: "\n            || "))
            || \(controlTest)
    }

    /// Sorted pairs (scalar, Bidi_Mirroring_Glyph), 3 bytes each.
    static let mirrorCount = \(mirrors.count)
    static var mirrorBytes: StaticString {
\(literal(mirrors.flatMap { [$0.scalar, $0.mirror] }, width: 3))
    }

    /// Sorted triples (scalar, Bidi_Paired_Bracket, the opening bracket of its pair after
    /// canonical singletons), 3 bytes each: two brackets pair when the last values are equal.
    static let bracketCount = \(brackets.count)
    static var bracketBytes: StaticString {
\(literal(brackets.flatMap { bracket -> [Int] in
    let opening = bracket.opening ? bracket.scalar : bracket.pair
    return [bracket.scalar, bracket.pair, canonicalSingleton[opening] ?? opening]
}, width: 3))
    }

    /// Presentation forms (isolated, final, initial, medial; 0 for none) of each letter from
    /// `formsLow` to `formsHigh`, 3 bytes each.
    static let formsLow: UInt32 = \(hex(formLow))
    static let formsHigh: UInt32 = \(hex(formHigh))
    static var formBytes: StaticString {
\(literal(formEntries, width: 3))
    }

    /// Lam ligatures: (second letter, isolated form, final form), 3 bytes each, by second letter.
    static let lamLigatureCount = \(lamLigatures.count)
    static var lamLigatureBytes: StaticString {
\(literal(lamLigatures.flatMap { [$0.second, $0.isolated, $0.final] }, width: 3))
    }

\(tableLiterals(tables, distinctValues: distinctValues, valueBytes: valueBytes))

    /// `classValue`'s tables: blocks of \(classBlockMask + 1) code points, each class one byte.
    @inlinable
    static var classStage1Bytes: StaticString {
\(literal(classTables.stage1, width: 1))
    }

    @inlinable
    static var classStage2Bytes: StaticString {
\(literal(classStage2, width: 1))
    }
}
""")

// MARK: - Bidi_Control

// Each Bidi_Control scalar with its role, which its Bidi_Class says: a mark (L, R, AL) or an
// opener or closer of an embedding, override or isolate.
let controlRoles = ["L": "mark", "R": "mark", "AL": "mark", "LRE": "embedding", "RLE": "embedding",
                    "LRO": "override", "RLO": "override", "PDF": "popFormatting",
                    "LRI": "isolate", "RLI": "isolate", "FSI": "isolate", "PDI": "popIsolate"]
var bidiControls: [(scalar: Int, role: String)] = []
for line in dataLines("PropList.txt") where line.fields[0] == "Bidi_Control" {
    for cp in line.range {
        guard let role = controlRoles[bidiClassNames[bidiClass[cp]]] else {
            fail("\(line.place): Bidi_Control U+\(String(cp, radix: 16, uppercase: true)) has Bidi_Class \(bidiClassNames[bidiClass[cp]])")
        }
        bidiControls.append((cp, role))
    }
}
// InvisibleFormatting skips UTF-8 eight bytes at a time looking for two lead bytes.
let controlLeadBytes = Set(bidiControls.map { String(UnicodeScalar($0.scalar)!).utf8.first! }).sorted()
guard controlLeadBytes.count == 2 else { fail("Bidi_Control scalars start with \(controlLeadBytes.count) UTF-8 lead bytes, not 2") }

print("""

/// The bidi formatting controls (Bidi_Control), by what each does to the text around it.
package enum BidiControl: UInt8, Sendable {
    /// LRM, RLM, ALM: a directional mark, which affects only the neutrals near it.
    case mark
    /// LRE, RLE: opens an embedding (closed by PDF).
    case embedding
    /// LRO, RLO: opens an override, which reorders what a reader sees (closed by PDF).
    case override
    /// PDF: closes an embedding or override.
    case popFormatting
    /// LRI, RLI, FSI: opens an isolate (closed by PDI).
    case isolate
    /// PDI: closes an isolate.
    case popIsolate

    /// The role of `scalar`, or nil when it is not a bidi control.
    @inlinable
    package init?(_ scalar: UInt32) {
        switch scalar {
\(bidiControls.map { "        case \(hex($0.scalar)): self = .\($0.role)" }.joined(separator: "\n"))
        default: return nil
        }
    }

    /// The two UTF-8 lead bytes every bidi control starts with.
    package static let utf8LeadBytes: (UInt8, UInt8) = (\(hex(Int(controlLeadBytes[0]))), \(hex(Int(controlLeadBytes[1]))))
}
""")
