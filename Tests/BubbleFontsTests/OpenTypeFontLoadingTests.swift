import BubbleFonts
import BubbleText
import Foundation
import Testing

/// The ways an app hands over the fonts it bundles (a file URL, `Data`, bytes, a path) read the
/// same face of the same file, for `.ttf` files and for each member of a `.ttc`; what cannot be
/// read is a `FontError` naming the file.
@Suite struct OpenTypeFontLoadingTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Corpora/fonts").standardizedFileURL
    static let sample = "Morning! Did everyone see the flight prices? 東京 ☀️ שלום"

    /// The width of `sample` and its line count at 120 px, in LayoutUnits, set in `font` at 16 px.
    static func measure(_ font: OpenTypeFont) throws -> [Int] {
        let measurer = PixelMeasurer(chain: try FontChain(fonts: [font], size: 16))
        let prepared = measurer.prepare(sample)
        let metrics = measurer.measure(prepared, width: 120 * 64)
        return [prepared.naturalWidth, metrics.lineCount, metrics.widestLine, measurer.height(of: prepared, width: 120 * 64)]
    }

    @Test(arguments: [("NotoSans-Subset.ttf", 0), ("DejaVuSans-Subset.ttf", 0), ("NotoColorEmoji-Subset.ttf", 0),
                      ("NotoSansCJK-Subset.ttc", 0), ("NotoSansCJK-Subset.ttc", 1)])
    func aFileURLDataBytesAndAPathReadTheSameFace(_ name: String, _ face: Int) throws {
        let url = Self.directory.appendingPathComponent(name)
        let data = try Data(contentsOf: url)
        let fromURL = try OpenTypeFont(contentsOf: url, faceIndex: face)
        let fromData = try OpenTypeFont(data: data, faceIndex: face)
        let fromBytes = try OpenTypeFont(bytes: [UInt8](data), faceIndex: face)
        let fromPath = try OpenTypeFont(contentsOf: url.path, faceIndex: face)
        let widths = try Self.measure(fromBytes)
        #expect(widths[0] > 0)
        #expect(try Self.measure(fromURL) == widths)
        #expect(try Self.measure(fromData) == widths)
        #expect(try Self.measure(fromPath) == widths)
        #expect(fromURL.faceCount == (name.hasSuffix(".ttc") ? 2 : 1))
    }

    /// Each face of the collection loads by its index from one URL; an index outside the
    /// collection is refused.
    @Test func eachMemberOfACollectionLoadsByItsIndex() throws {
        let url = Self.directory.appendingPathComponent("NotoSansCJK-Subset.ttc")
        let faces = try (0..<2).map { try OpenTypeFont(contentsOf: url, faceIndex: $0) }
        #expect(faces.allSatisfy { $0.faceCount == 2 })
        #expect(throws: FontError.self) { try OpenTypeFont(contentsOf: url, faceIndex: 2) }
        #expect(throws: FontError.self) { try OpenTypeFont(data: Data(contentsOf: url), faceIndex: -1) }
    }

    @Test func aURLThatIsNoFileOrNoFontIsAFontError() throws {
        let web = try #require(URL(string: "https://example.com/NotoSans-Regular.ttf"))
        let notFile = #expect(throws: FontError.self) { try OpenTypeFont(contentsOf: web) }
        #expect(notFile?.table == "file")
        #expect(notFile?.reason == "not a file URL: https://example.com/NotoSans-Regular.ttf")

        let missing = Self.directory.appendingPathComponent("NoSuchFont.ttf")
        let unread = #expect(throws: FontError.self) { try OpenTypeFont(contentsOf: missing) }
        #expect(unread?.reason == "cannot read \(missing.path)")

        let text = Self.directory.appendingPathComponent("COPYRIGHT-fonts-noto-core.txt")
        let notFont = #expect(throws: FontError.self) { try OpenTypeFont(contentsOf: text) }
        #expect(notFont?.table == "file")
    }

    /// A font cut short anywhere, handed over as `Data`, is refused with a `FontError`, never a crash.
    @Test func aTruncatedFontInMemoryIsAFontError() throws {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent("NotoSans-Subset.ttf"))
        for length in stride(from: 0, to: data.count, by: max(1, data.count / 40)) {
            #expect(throws: FontError.self) { try OpenTypeFont(data: data.prefix(length)) }
        }
    }
}
