import Testing
@testable import BubbleText

/// Web addresses are kept whole on a line when they fit (a terminal opens only what it sees on
/// one line), and broken between graphemes when they do not.
@Suite struct URLKeepingTests {
    func spans(_ text: String) -> [String] {
        let bytes = Array(text.utf8)
        return URLSpans.find(in: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    @Test func addressesAreFoundWithoutTheirTrailingPunctuation() {
        #expect(spans("see https://example.com/a/b?c=d.") == ["https://example.com/a/b?c=d"])
        #expect(spans("(see https://en.wikipedia.org/wiki/Swift_(programming_language))") == ["https://en.wikipedia.org/wiki/Swift_(programming_language)"])
        #expect(spans("HTTP://X.ORG, ftp://files.example.net/a.txt!") == ["HTTP://X.ORG", "ftp://files.example.net/a.txt"])
        #expect(spans("<https://a.b/c>") == ["https://a.b/c"])
        #expect(spans("x\"https://a.b/\"y") == ["https://a.b/"])
        // Not a scheme we know, a scheme glued to a word, nothing after the slashes.
        #expect(spans("javascript://x mailhttps://a.b https:// ://a").isEmpty)
        // Non-ASCII ends an address: what follows is text.
        #expect(spans("https://a.b/é") == ["https://a.b/"])
        #expect(spans("") == [] && spans("://") == [])
    }

    @Test func bytesAndScalarsGiveTheSameSpans() {
        let text = "日本 https://例え.jp https://a.b/c?d=é…, (https://x.y/(z))"
        let bytes = Array(text.utf8)
        let scalars = text.unicodeScalars.map(\.value)
        let byBytes = URLSpans.find(in: bytes).map { String(decoding: bytes[$0], as: UTF8.self) }
        let byScalars = URLSpans.find(in: scalars).map { String(String.UnicodeScalarView(scalars[$0].map { Unicode.Scalar($0)! })) }
        #expect(byBytes == byScalars)
        #expect(byBytes == ["https://a.b/c?d=", "https://x.y/(z)"])
    }

    @Test func anAddressThatFitsMovesWholeToTheNextLine() {
        let url = "https://example.com/some/path?query=1"
        #expect(wrappedLines("read this: \(url) now", width: 41) == ["read this:", url + " now"])
        // UAX #14 alone would break after "https://".
        let line = "see " + url
        for width in url.count...(line.count - 1) {
            #expect(wrappedLines(line, width: width) == ["see", url], "width \(width)")
        }
    }

    @Test func anAddressLongerThanALineStillWraps() {
        let url = "https://example.com/" + String(repeating: "abcdefghij/", count: 6)
        let lines = wrappedLines("x " + url, width: 30)
        #expect(lines.count > 2)
        #expect(lines.dropFirst().joined() == url)
        #expect(wrappedWidths("x " + url, width: 30).allSatisfy { $0 <= 30 })
    }

    @Test func theFastPathsAndTheScalarPathAgreeOnAddresses() {
        let texts = ["go https://a.example/x-y_z~1?q=2&r=3#frag now", "日本語 https://a.b/c 漢字", "é https://a.b/ç?x=1",
                     "a-b https://a.b/very-long-path-with-hyphens-that-would-break c"]
        for text in texts {
            for width in [4, 8, 12, 20, 30, 60] {
                let fast = PreparedText(text, options: TextOptions(), allowASCIIPath: true).layout(width: width)
                let slow = PreparedText(text, options: TextOptions(), allowASCIIPath: false, allowRuns: false).layout(width: width)
                #expect(fast == slow, "\(text) at \(width)")
            }
        }
    }
}
