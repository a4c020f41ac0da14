import Testing
@testable import BubbleText

/// One line of GraphemeBreakTest.txt: scalars and whether a boundary falls before each (and at the end).
struct GraphemeBreakTestCase {
    var lineNumber: Int
    var scalars: [UInt32]
    /// `boundaries[i]`: a boundary falls before `scalars[i]`; the last entry is the end of text.
    var boundaries: [Bool]

    /// The string form, when every code point is a scalar (surrogates are not).
    var text: String? {
        var text = ""
        for value in scalars {
            guard let scalar = Unicode.Scalar(value) else { return nil }
            text.unicodeScalars.append(scalar)
        }
        return text
    }

    /// The UTF-8 offsets of the expected boundaries.
    var boundaryOffsets: [Int] {
        var offsets: [Int] = []
        var offset = 0
        for (index, value) in scalars.enumerated() {
            if boundaries[index] { offsets.append(offset) }
            offset += UTF8.width(Unicode.Scalar(value)!)
        }
        offsets.append(offset)
        return offsets
    }

    static func load() -> [GraphemeBreakTestCase]? {
        guard let lines = UnicodeTablesCorpus.lines("GraphemeBreakTest.txt",
                                                     systemPath: "auxiliary/GraphemeBreakTest.txt") else { return nil }
        var cases: [GraphemeBreakTestCase] = []
        for (index, line) in lines.enumerated() {
            let content = line.prefix { $0 != "#" }
            guard !content.allSatisfy({ $0 == " " || $0 == "\t" }) else { continue }
            var scalars: [UInt32] = []
            var boundaries: [Bool] = []
            for token in content.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                switch token {
                case "÷": boundaries.append(true)
                case "×": boundaries.append(false)
                default: scalars.append(UInt32(token, radix: 16)!)
                }
            }
            precondition(boundaries.count == scalars.count + 1, "GraphemeBreakTest.txt:\(index + 1): malformed line")
            cases.append(GraphemeBreakTestCase(lineNumber: index + 1, scalars: scalars, boundaries: boundaries))
        }
        return cases
    }
}

@Suite struct GraphemeBreakTests {
    @Test func passesEveryLineOfGraphemeBreakTest() throws {
        guard let cases = GraphemeBreakTestCase.load() else {
            Issue.record("GraphemeBreakTest.txt is in neither Corpora/unicode nor /usr/share/unicode/auxiliary")
            return
        }
        var passed = 0
        for testCase in cases {
            var breaker = GraphemeBreaker()
            var actual = testCase.scalars.map { breaker.breaksBefore(UnicodeTables.info($0)) }
            actual.append(true)  // GB2
            if actual == testCase.boundaries {
                passed += 1
            } else {
                Issue.record("GraphemeBreakTest.txt:\(testCase.lineNumber): expected \(testCase.boundaries), got \(actual)")
            }
            if let text = testCase.text {
                #expect(graphemeBoundaries(of: text) == testCase.boundaryOffsets,
                        "GraphemeBreakTest.txt:\(testCase.lineNumber) through graphemeBoundaries(of:)")
            }
        }
        #expect(cases.count == 602)  // every data line of the Unicode 15.0 file
        #expect(passed == 602)
    }

    @Test func crLfIsOneGraphemeButLoneBreaksAreNot() {
        #expect(graphemeBoundaries(of: "a\r\nb") == [0, 1, 3, 4])
        #expect(graphemeBoundaries(of: "\n\r") == [0, 1, 2])
    }

    @Test func combiningMarksStayWithTheirBase() {
        #expect(graphemeBoundaries(of: "e\u{301}\u{323}x") == [0, 5, 6])
    }

    @Test func hangulJamoFormSyllables() {
        // ᄀ ᅡ ᆨ (L V T) is one syllable; a following L starts the next.
        #expect(graphemeBoundaries(of: "\u{1100}\u{1161}\u{11A8}\u{1100}") == [0, 9, 12])
        #expect(graphemeBoundaries(of: "\u{AC00}\u{11A8}") == [0, 6])  // LV T
    }

    @Test func emojiZwjSequencesAreOneGrapheme() {
        let family = "👨\u{200D}👩\u{200D}👧"
        #expect(graphemeBoundaries(of: family) == [0, family.utf8.count])
        #expect(graphemeBoundaries(of: "a\u{200D}👩") == [0, 4, 8])  // ZWJ after a non-pictograph does not join
    }

    @Test func regionalIndicatorsPairFromTheStartOfTheRun() {
        let flags = "🇯🇵🇺🇸🇫"
        #expect(graphemeBoundaries(of: flags) == [0, 8, 16, 20])
        #expect(graphemeBoundaries(of: "a🇯🇵") == [0, 1, 9])
    }

    @Test func prependJoinsTheFollowingScalar() {
        #expect(graphemeBoundaries(of: "\u{0600}1") == [0, 3])
        #expect(graphemeBoundaries(of: "\u{0600}\n") == [0, 2, 3])  // but never a control
    }

    @Test func controlsAreGraphemesOfTheirOwn() {
        #expect(graphemeBoundaries(of: "a\u{1B}\u{301}") == [0, 1, 2, 4])
        #expect(graphemeBoundaries(of: "\u{202E}x") == [0, 3, 4])
    }

    @Test func viramaBeforeAConsonantIsABoundaryInUnicode15() {
        // क्ष: GB9c (Unicode 15.1) would join it; 15.0 breaks after the virama.
        #expect(graphemeBoundaries(of: "\u{0915}\u{094D}\u{0937}") == [0, 6, 9])
    }

    @Test func emptyTextHasOnlyItsStart() {
        #expect(graphemeBoundaries(of: "") == [0])
    }

    @Test func resetStartsAFreshGrapheme() {
        var breaker = GraphemeBreaker()
        let first = breaker.breaksBefore(UnicodeTables.info(0x1F1EF))
        breaker.reset()
        let afterReset = breaker.breaksBefore(UnicodeTables.info(0x1F1F5))
        #expect(first && afterReset)
    }
}

extension GraphemeBreakTests {
    @Test func prependJoinsARegionalIndicatorThatThenPairsWithTheNext() {
        // GB9b keeps the prepend on the first RI; GB12 still pairs the RIs from the run's start.
        #expect(graphemeBoundaries(of: "\u{0600}🇯🇵🇺") == [0, 10, 14])
    }
}
