import Testing
@testable import BubbleLogs

/// `--me` ignores invisible formatting and WhatsApp's `~` before names not in the contacts, and
/// nothing else (issue 10 §3).
@Suite struct SenderNameTests {
    @Test func invisibleFormattingAndTheTildeAreIgnored() {
        #expect(SenderName.comparable("~\u{202F}Ana") == "Ana")
        #expect(SenderName.comparable("~ Ana") == "Ana")
        #expect(SenderName.comparable("\u{202A}+44 7700 900123\u{202C}") == "+44 7700 900123")
        #expect(SenderName.comparable("\u{200F}علي\u{200F}") == "علي")
        #expect(SenderName.comparable("\u{2068}~\u{202F}Ana\u{2069}") == "Ana")
        #expect(SenderName.matches("Ana", "~\u{202F}Ana"))
        #expect(SenderName.matches("~ Ana", "~\u{202F}Ana"))
    }

    @Test func everythingElseStillCounts() {
        #expect(!SenderName.matches("ana", "~\u{202F}Ana"))
        #expect(!SenderName.matches("An a", "Ana"))
        #expect(!SenderName.matches("Ana~", "Ana"))
        #expect(!SenderName.matches(nil, "Ana"))
        #expect(!SenderName.matches("Ana", nil))
        #expect(SenderName.comparable("Tom ~ Baker") == "Tom ~ Baker")
        #expect(SenderName.comparable("~") == "")
    }
}

/// The byte test that lets most names skip the scalar path agrees with that path.
@Suite struct SenderNameFastPathTests {
    @Test func aNameKeptAsItIsIsExactlyOneTheScalarPathLeavesUnchanged() {
        let pieces = ["a", "Ana", " ", "\t", "~", "\u{A0}", "\u{202F}", "\u{2007}", "\u{2009}", "\u{200F}", "\u{202A}",
                      "\u{2069}", "علي", "é", "\u{00C2}", "\u{2028}", "€", "好", "😀", "+44", "\u{E2}", ""]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20_000 {
            var name = ""
            state = state &* 6364136223846793005 &+ 1442695040888963407
            for k in 0..<Int(state >> 61) {
                name += pieces[Int((state >> UInt64(5 * k + 3)) & 0x1F) % pieces.count]
            }
            let slow = SenderName.comparableByScalars(name)
            if SenderName.isOwnComparableForm(name) { #expect(slow == name, "\(name.unicodeScalars.map(\.value))") }
            #expect(SenderName.comparable(name) == slow)
        }
    }
}
