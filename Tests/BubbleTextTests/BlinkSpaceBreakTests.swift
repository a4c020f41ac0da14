import Testing
@testable import BubbleText

/// `LineBreaker(breaksAfterSpaces: true)`: Blink's tailoring, a break after every run of spaces.
/// Plain UAX #14 (`LineBreaker()`) keeps LB13–LB17, as LineBreakConformanceTests checks.
@Suite struct BlinkSpaceBreakTests {
    static func opportunities(_ text: String, blink: Bool) -> [LineBreakOpportunity] {
        var breaker = blink ? LineBreaker(breaksAfterSpaces: true) : LineBreaker()
        return text.unicodeScalars.map { breaker.opportunity(before: UnicodeTables.info($0.value)) }
    }

    /// The opportunity before the scalar at `index` of `text`.
    static func before(_ index: Int, in text: String, blink: Bool) -> LineBreakOpportunity {
        opportunities(text, blink: blink)[index]
    }

    @Test func breaksAfterSpacesWhereUAX14Forbids() {
        // (text, index of the scalar after the spaces)
        let cases: [(String, Int)] = [
            ("下午 ！我", 3),   // LB13: × EX
            ("好的 ？你", 3),   // LB13 (？ is EX)
            ("はい 」と", 3),   // LB13: × CL
            ("今日 、明日", 3), // LB13: × CL
            ("「 こんにちは", 2), // LB14: OP SP* ×
            ("a  )b", 3),      // LB13: × CP, after two spaces
            ("— —", 2),        // LB17: B2 SP* × B2
        ]
        for (text, index) in cases {
            #expect(Self.before(index, in: text, blink: false) == .prohibited, "UAX #14: \(text)")
            #expect(Self.before(index, in: text, blink: true) == .allowed, "Blink: \(text)")
        }
    }

    @Test func everythingElseIsUAX14() {
        // Texts without a space before a forbidding class: both breakers agree scalar by scalar.
        for text in ["下午！我", "hello world", "「こんにちは」と", "a\u{0301} b", "1 000 000", "x \u{200B}y", "a\nb", "a \r\nb",
                     "👍🏽 ok", "שלום עולם", "word  word", " lead", "trail  "] {
            let plain = Self.opportunities(text, blink: false), blink = Self.opportunities(text, blink: true)
            for (i, (p, b)) in zip(plain, blink).enumerated() where p != b {
                // The only difference allowed is after spaces.
                let scalars = Array(text.unicodeScalars)
                #expect(i > 0 && scalars[i - 1] == " " && b == .allowed, "\(text) at \(i): \(p) vs \(b)")
            }
        }
        // No break before a space, a newline or a zero width space, even in Blink's mode.
        #expect(Self.before(2, in: "a  b", blink: true) == .prohibited)
        #expect(Self.before(2, in: "a \nb", blink: true) == .prohibited)
        #expect(Self.before(3, in: "a \nb", blink: true) == .mandatory)
    }
}
