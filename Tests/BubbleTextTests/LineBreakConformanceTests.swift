import Testing
@testable import BubbleText

/// UAX #14 against Unicode's own LineBreakTest.txt (15.0, numbers tailored as in example 7).
@Suite struct LineBreakConformanceTests {
    struct Case {
        let line: Int
        let scalars: [UInt32]
        /// Expected break after each scalar but the last (the end always breaks).
        let breaks: [Bool]
    }

    static func loadCases() throws -> [Case] {
        let text = try LineBreakCorpus.read("unicode/LineBreakTest.txt")
        var cases: [Case] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let tokens = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if tokens.isEmpty { continue }
            var scalars: [UInt32] = []
            var breaks: [Bool] = []
            for token in tokens {
                switch token {
                case "÷": if !scalars.isEmpty { breaks.append(true) }
                case "×": if !scalars.isEmpty { breaks.append(false) }
                default:
                    guard let value = UInt32(token, radix: 16) else {
                        throw LineBreakCorpus.Failure("LineBreakTest.txt:\(index + 1): bad token \(token)")
                    }
                    scalars.append(value)
                }
            }
            breaks.removeLast()  // the break at the end of the text (LB3)
            cases.append(Case(line: index + 1, scalars: scalars, breaks: breaks))
        }
        return cases
    }

    @Test func everyLineOfLineBreakTestPasses() throws {
        let cases = try Self.loadCases()
        #expect(cases.count == 7654)
        var passed = 0
        for testCase in cases {
            let got = LineBreaker.opportunities(in: testCase.scalars).dropFirst().map { $0 != .prohibited }
            if got == testCase.breaks {
                passed += 1
            } else {
                let hex = testCase.scalars.map { String($0, radix: 16, uppercase: true) }.joined(separator: " ")
                Issue.record("LineBreakTest.txt:\(testCase.line): \(hex): expected \(testCase.breaks), got \(Array(got))")
            }
        }
        #expect(passed == 7654)
    }
}
