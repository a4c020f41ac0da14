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
