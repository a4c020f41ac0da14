import Testing
@testable import BubbleText

@Suite struct UnicodeTablesTests {
    // MARK: Spot checks

    @Test func preparerTablesAgreeWithTheGeneratedTablesForEveryScalar() {
        // The preparer reads the generated tables unpacked into another shape; every scalar
        // must read the same from both.
        let tables = PreparerTables.current
        var mismatches = 0
        for codePoint in UInt32(0)...0x10FFFF where !(0xD800...0xDFFF).contains(codePoint) {
            if tables.info(codePoint).raw != UnicodeTables.info(codePoint).raw { mismatches += 1 }
        }
        #expect(mismatches == 0)
        #expect(PreparerTables.current.narrow == PreparerTables.shared.narrow)
    }

    @Test func asciiLetterIsANarrowAlphabetic() {
        let info = UnicodeTables.info(0x41)
        #expect(info.graphemeBreak == .other)
        #expect(info.lineBreak == .al)
        #expect(info.width == 1)
        #expect(!info.isAmbiguous && !info.isNeutralisedControl && !info.isExtendedPictographic)
    }

    @Test func cjkIdeographIsWideAndIdeographic() {
        let info = UnicodeTables.info(0x4E00)
        #expect(info.width == 2)
        #expect(info.lineBreak == .id)
        #expect(info.isEastAsianFullWideHalf)
    }

    @Test func unassignedCodePointsInCJKBlocksDefaultToWideIdeographic() {
        // U+9FFF and U+2FFFD are unassigned in 15.0; DerivedEastAsianWidth and DerivedLineBreak's
        // @missing lines make them W and ID.
        for scalar: UInt32 in [0x9FFF, 0x2A6E0, 0x2FFFD, 0x3FFFD] {
            let info = UnicodeTables.info(scalar)
            #expect(info.width == 2, "U+\(String(scalar, radix: 16))")
            #expect(info.lineBreak == .id, "U+\(String(scalar, radix: 16))")
        }
    }

    @Test func unassignedEmojiCodePointsAreWidePictographs() {
        // U+1FAF9 and U+1FBFF... are reserved Extended_Pictographic code points in 15.0.
        for scalar: UInt32 in [0x1FAF9, 0x1FAFF, 0x1FC00, 0x1FFFD] {
            let info = UnicodeTables.info(scalar)
            #expect(info.width == 2, "U+\(String(scalar, radix: 16))")
            #expect(info.isExtendedPictographic && info.isUnassignedPictographic)
            #expect(info.lineBreak == .id)
        }
    }

    @Test func emojiCarryTheirEmojiProperties() {
        let grinning = UnicodeTables.info(0x1F600)
        #expect(grinning.isExtendedPictographic && grinning.isEmojiPresentation && grinning.width == 2)
        #expect(!grinning.isUnassignedPictographic)
        let skinTone = UnicodeTables.info(0x1F3FB)
        #expect(skinTone.isEmojiModifier && skinTone.graphemeBreak == .extend && skinTone.lineBreak == .em)
        let heart = UnicodeTables.info(0x2764)  // text-presentation by default
        #expect(heart.isExtendedPictographic && !heart.isEmojiPresentation && heart.width == 1)
        #expect(UnicodeTables.info(0x1F1E6).graphemeBreak == .regionalIndicator)
        #expect(UnicodeTables.info(0x200D).graphemeBreak == .zwj)
        #expect(UnicodeTables.info(0x200D).width == 0)
    }

    @Test func combiningMarksAndHangulTrailingJamoHaveNoWidth() {
        #expect(UnicodeTables.info(0x0301).width == 0)
        #expect(UnicodeTables.info(0x0301).graphemeBreak == .extend)
        #expect(UnicodeTables.info(0x1100).graphemeBreak == .l)
        #expect(UnicodeTables.info(0x1100).width == 2)
        #expect(UnicodeTables.info(0x1161).graphemeBreak == .v)
        #expect(UnicodeTables.info(0x1161).width == 0)
        #expect(UnicodeTables.info(0x11A8).graphemeBreak == .t)
        #expect(UnicodeTables.info(0x11A8).width == 0)
        #expect(UnicodeTables.info(0xAC00).graphemeBreak == .lv)
        #expect(UnicodeTables.info(0xAC00).lineBreak == .h2)
        #expect(UnicodeTables.info(0xAC01).lineBreak == .h3)
    }

    @Test func lineBreakRuleOneIsResolvedByTheTables() {
        #expect(UnicodeTables.info(0x00A7).lineBreak == .al)  // AI
        #expect(UnicodeTables.info(0x00A7).isAmbiguous)
        #expect(UnicodeTables.info(0x3041).lineBreak == .ns)  // CJ
        #expect(UnicodeTables.info(0x0E01).lineBreak == .al)  // SA, Lo
        #expect(UnicodeTables.info(0x0E31).lineBreak == .cm)  // SA, Mn
        #expect(UnicodeTables.info(0x0378).lineBreak == .al)  // XX (unassigned)
    }

    @Test func controlsAreFlaggedAndLayoutControlsAreNot() {
        #expect(UnicodeTables.info(0x1B).isNeutralisedControl)
        #expect(UnicodeTables.info(0x1B).width == 1)
        #expect(UnicodeTables.info(0x9B).isNeutralisedControl)
        #expect(UnicodeTables.info(0x202E).isNeutralisedControl)
        #expect(UnicodeTables.info(0x202E).graphemeBreak == .control)
        for layout: UInt32 in [0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029] {
            #expect(!UnicodeTables.info(layout).isNeutralisedControl)
            #expect(UnicodeTables.info(layout).width == 0)
        }
        #expect(UnicodeTables.info(0x0A).lineBreak == .lf)
        #expect(UnicodeTables.info(0x85).lineBreak == .nl)
        #expect(UnicodeTables.info(0x2028).lineBreak == .bk)
    }

    @Test func valuesBeyondTheCodeSpaceReadAsUnassigned() {
        let last = UnicodeTables.info(0x10FFFF)
        for scalar: UInt32 in [0x110000, 0x7FFF_FFFF, .max] {
            #expect(UnicodeTables.info(scalar) == last)
        }
        #expect(last.lineBreak == .al && last.graphemeBreak == .other && last.width == 1)
    }

    @Test func versionIsTheOneTheTablesWereBuiltFrom() {
        #expect(UnicodeTables.unicodeVersion == "15.0.0")
    }

    // MARK: Conformance with the UCD files, every code point

    @Test func graphemeBreakPropertyMatchesTheUCDForEveryCodePoint() throws {
        guard let file = UCDPropertyValues("ucd/GraphemeBreakProperty.txt",
                                         systemPath: "auxiliary/GraphemeBreakProperty.txt") else {
            Issue.record("GraphemeBreakProperty.txt is in neither Corpora/unicode/ucd nor /usr/share/unicode")
            return
        }
        let names: [GraphemeBreakProperty: String] = [
            .other: "Other", .cr: "CR", .lf: "LF", .control: "Control", .extend: "Extend", .zwj: "ZWJ",
            .regionalIndicator: "Regional_Indicator", .prepend: "Prepend", .spacingMark: "SpacingMark",
            .l: "L", .v: "V", .t: "T", .lv: "LV", .lvt: "LVT",
        ]
        var mismatches = 0
        for cp in 0..<0x110000 {
            let expected = file.values[cp].map(String.init) ?? "Other"
            if names[UnicodeTables.info(UInt32(cp)).graphemeBreak] != expected {
                mismatches += 1
                if mismatches <= 10 { Issue.record("U+\(String(cp, radix: 16)): expected \(expected)") }
            }
        }
        #expect(mismatches == 0)
        #expect(file.listed.filter { $0 }.count > 10_000)  // the file really was read
    }

    @Test func lineBreakClassMatchesTheUCDAfterRuleOneForEveryCodePoint() throws {
        guard let file = UCDPropertyValues("ucd/DerivedLineBreak.txt", systemPath: "extracted/DerivedLineBreak.txt"),
              let categories = UCDPropertyValues("ucd/DerivedGeneralCategory.txt",
                                               systemPath: "extracted/DerivedGeneralCategory.txt") else {
            Issue.record("DerivedLineBreak.txt or DerivedGeneralCategory.txt is missing")
            return
        }
        // The long names the @missing lines use.
        let longNames = ["Unknown": "XX", "Prefix_Numeric": "PR", "Ideographic": "ID"]
        var mismatches = 0
        for cp in 0..<0x110000 {
            let raw = file.values[cp].map(String.init) ?? "XX"
            var expected = longNames[raw] ?? raw
            switch expected {
            case "AI", "SG", "XX": expected = "AL"
            case "CJ": expected = "NS"
            case "SA": expected = ["Mn", "Mc"].contains(categories.values[cp] ?? "") ? "CM" : "AL"
            default: break
            }
            let actual = String(describing: UnicodeTables.info(UInt32(cp)).lineBreak).uppercased()
            if actual != expected {
                mismatches += 1
                if mismatches <= 10 { Issue.record("U+\(String(cp, radix: 16)): expected \(expected), got \(actual)") }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func eastAsianWidthFlagsMatchTheUCDForEveryCodePoint() throws {
        guard let file = UCDPropertyValues("ucd/DerivedEastAsianWidth.txt",
                                         systemPath: "extracted/DerivedEastAsianWidth.txt") else {
            Issue.record("DerivedEastAsianWidth.txt is missing")
            return
        }
        let longNames = ["Neutral": "N", "Wide": "W", "Ambiguous": "A", "Fullwidth": "F",
                         "Halfwidth": "H", "Narrow": "Na"]
        var mismatches = 0
        for cp in 0..<0x110000 {
            let raw = file.values[cp].map(String.init) ?? "N"
            let value = longNames[raw] ?? raw
            let info = UnicodeTables.info(UInt32(cp))
            if info.isAmbiguous != (value == "A") || info.isEastAsianFullWideHalf != ["F", "W", "H"].contains(value) {
                mismatches += 1
                if mismatches <= 10 { Issue.record("U+\(String(cp, radix: 16)): East_Asian_Width \(value)") }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func emojiPropertiesMatchEmojiDataForEveryCodePoint() throws {
        let path = "emoji/emoji-data.txt"
        guard let pictographic = UCDPropertyValues.binary("ucd/emoji-data.txt", systemPath: path, property: "Extended_Pictographic"),
              let presentation = UCDPropertyValues.binary("ucd/emoji-data.txt", systemPath: path, property: "Emoji_Presentation"),
              let modifier = UCDPropertyValues.binary("ucd/emoji-data.txt", systemPath: path, property: "Emoji_Modifier"),
              let categories = UCDPropertyValues("ucd/DerivedGeneralCategory.txt",
                                               systemPath: "extracted/DerivedGeneralCategory.txt") else {
            Issue.record("emoji-data.txt or DerivedGeneralCategory.txt is missing")
            return
        }
        var mismatches = 0
        for cp in 0..<0x110000 {
            let info = UnicodeTables.info(UInt32(cp))
            let unassigned = (categories.values[cp] ?? "Cn") == "Cn"
            if info.isExtendedPictographic != pictographic[cp] || info.isEmojiPresentation != presentation[cp]
                || info.isEmojiModifier != modifier[cp] || info.isUnassignedPictographic != (pictographic[cp] && unassigned) {
                mismatches += 1
                if mismatches <= 10 { Issue.record("U+\(String(cp, radix: 16)): emoji properties differ") }
            }
        }
        #expect(mismatches == 0)
        #expect(pictographic.filter { $0 }.count == 3537)  // emoji-data.txt 15.0: Extended_Pictographic total
    }

    @Test func controlFlagIsExactlyWhatControlNotationNeutralises() throws {
        guard let bidi = UCDPropertyValues.binary("ucd/PropList.txt", systemPath: "PropList.txt", property: "Bidi_Control") else {
            Issue.record("PropList.txt is missing")
            return
        }
        for cp in UInt32(0)..<0x110000 {
            let flagged = UnicodeTables.info(cp).isNeutralisedControl
            if flagged != ControlNotation.isNeutralised(cp) {
                Issue.record("U+\(String(cp, radix: 16)): table says \(flagged), ControlNotation disagrees")
            }
            if bidi[Int(cp)] && !flagged { Issue.record("Bidi_Control U+\(String(cp, radix: 16)) is not flagged") }
        }
    }
}
