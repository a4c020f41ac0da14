import Foundation
import Testing
import BubbleText
@testable import BubbleFonts

/// The pixel measurer keeps web addresses whole on a line when they fit, as the cell measurer
/// does (`URLSpans`), so both engines break a text with an address at the same places.
@Suite struct URLKeepingPixelTests {
    static func measurer() throws -> PixelMeasurer {
        PixelMeasurer(chain: try FontChain(fonts: [FontFixtures.font("NotoSans-Subset.ttf")], size: 16))
    }

    /// The text of each line of `text` laid out at `width` px.
    static func lines(_ text: String, width: Int, measurer: PixelMeasurer) -> [String] {
        let prepared = measurer.prepare(text)
        let bytes = Array(text.utf8)
        return measurer.layout(prepared, width: width * 64).lines.map {
            String(decoding: bytes[$0.utf8Range], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
    }

    @Test func anAddressThatFitsMovesWholeToTheNextLine() throws {
        let measurer = try Self.measurer()
        let url = "https://example.com/some/path?query=1&lang=en"
        let text = "read this " + url
        let urlWidth = measurer.width(of: url) / 64 + 1
        let whole = measurer.width(of: text) / 64 + 1
        for width in stride(from: urlWidth, to: whole - 1, by: 7) {
            #expect(Self.lines(text, width: width, measurer: measurer) == ["read this", url], "\(width) px")
        }
        // Longer than a line: still wrapped, every piece of it kept.
        let narrow = Self.lines(text, width: urlWidth / 3, measurer: measurer)
        #expect(narrow.count > 3 && narrow.joined().replacingOccurrences(of: " ", with: "") == "readthis" + url)
    }

    @Test func wordsAroundAnAddressBreakAsBefore() throws {
        let measurer = try Self.measurer()
        let plain = "one two three four five six seven eight nine ten"
        let withAddress = plain + " https://a.example/x"
        for width in [60, 90, 140, 200] {
            let a = Self.lines(plain, width: width, measurer: measurer)
            let b = Self.lines(withAddress, width: width, measurer: measurer)
            #expect(Array(b.prefix(a.count - 1)) == Array(a.dropLast()), "\(width) px")
        }
    }
}
