import BubbleFonts
import BubbleTestSupport
import Foundation
import Testing
@testable import BubblePictures

/// `PictureFonts`: the code points a document draws are read from its text (not its markup), and
/// `--embed-fonts` embeds each font cut down to them.
@Suite struct PictureFontsTests {
    @Test func drawnScalarsAreTheTextsNotTheMarkup() {
        let markup = ##"<g data-id="zzz"><text class="t" x="1">a&amp;b &lt;é&gt; &quot;&#39;</text><tspan fill="#123">日本 😀</tspan></g>"##
        let scalars = PictureFonts.drawnScalars(Array(markup.utf8))
        let expected = Set("a&b <é> \"'日本 😀".unicodeScalars.map(\.value))
        #expect(Set(scalars) == expected)
        #expect(scalars == scalars.sorted())
        #expect(!scalars.contains(UInt32(UInt8(ascii: "z"))), "attribute values are not drawn")
    }

    static func embeddedFonts(_ document: String) -> [[UInt8]] {
        document.components(separatedBy: "src:url(\"data:font/").dropFirst().compactMap { rest in
            guard let comma = rest.firstIndex(of: ","), let end = rest.range(of: "\")") else { return nil }
            return Data(base64Encoded: String(rest[rest.index(after: comma)..<end.lowerBound])).map { [UInt8]($0) }
        }
    }

    @Test(arguments: ["svg", "html"])
    func embeddedFontsHoldOnlyTheDrawnCodePoints(format: String) throws {
        let path = corpus("fonts/NotoSans-Subset.ttf")
        let run = bubbles("render", corpus("logs/conversations.jsonl"), "--format", format, "--embed-fonts", "--font", path)
        #expect(run.code == 0, "\(run.errors)")
        let fonts = Self.embeddedFonts(run.output)
        let embedded = try #require(fonts.first)
        #expect(fonts.count == 1)
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(embedded.count < whole.count * 2 / 3)
        let subset = try OpenTypeFont(bytes: embedded), original = try OpenTypeFont(bytes: whole)
        // The rows' text: what follows the style sheet (whose rules are text too, not drawn).
        let rows = try #require(run.output.range(of: "</style>")).upperBound
        var drawn = Set(PictureFonts.drawnScalars(Array(run.output[rows...].utf8)))
        if format == "html" { drawn.insert(0x2026) }
        var covered = 0
        for value in 0x20...0xFFFF {
            guard let scalar = Unicode.Scalar(value), let glyph = original.glyph(for: scalar) else { continue }
            if drawn.contains(UInt32(value)) {
                covered += 1
                #expect(subset.glyph(for: scalar) == glyph)
                #expect(subset.advance(of: glyph) == original.advance(of: glyph))
            } else {
                #expect(subset.glyph(for: scalar) == nil, "U+\(String(value, radix: 16)) is not drawn")
            }
        }
        #expect(covered > 20)
    }

    /// Each page of `--page-height` carries the fonts for its own rows.
    @Test func eachPageCarriesItsOwnSubset() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("picture-fonts-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--format", "svg", "--embed-fonts", "--page-height", "400",
                          "--output", directory.path, "--font", corpus("fonts/NotoSans-Subset.ttf"))
        #expect(run.code == 0, "\(run.errors)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(pages.count > 2)
        var sizes: Set<Int> = []
        for page in pages {
            let text = try String(contentsOf: directory.appendingPathComponent(page), encoding: .utf8)
            let font = try #require(Self.embeddedFonts(text).first)
            let subset = try OpenTypeFont(bytes: font)
            let rows = try #require(text.range(of: "</style>")).upperBound
            for scalar in PictureFonts.drawnScalars(Array(text[rows...].utf8)) {
                guard let s = Unicode.Scalar(scalar), s.isASCII, s.properties.isAlphabetic else { continue }
                #expect(subset.glyph(for: s) != nil, "\(page): \(s)")
            }
            sizes.insert(font.count)
        }
        #expect(sizes.count > 1, "pages draw different text")
    }

    /// A font the subsetter cannot read is embedded whole, with one line on standard error.
    @Test func aFontThatCannotBeCutDownIsEmbeddedWhole() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: corpus("fonts/NotoSans-Subset.ttf"))))
        // Damage `loca` (not read by the measurer): its first glyph's end before its start.
        let count = Int(bytes[4]) << 8 | Int(bytes[5])
        var loca = -1
        for i in 0..<count where String(decoding: bytes[(12 + 16 * i)..<(16 + 16 * i)], as: UTF8.self) == "loca" {
            loca = Int(bytes[20 + 16 * i]) << 24 | Int(bytes[21 + 16 * i]) << 16 | Int(bytes[22 + 16 * i]) << 8 | Int(bytes[23 + 16 * i])
        }
        #expect(loca > 0)
        bytes[loca] = 0xFF
        bytes[loca + 1] = 0xFF
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("damaged-loca-\(UUID().uuidString).ttf").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let run = bubbles("render", corpus("logs/conversations.jsonl"), "--format", "svg", "--embed-fonts", "--font", path)
        #expect(run.code == 0)
        #expect(run.errors.contains("cannot cut the font down to the glyphs used (loca at byte"))
        #expect(run.errors.contains("it is embedded whole"))
        #expect(Self.embeddedFonts(run.output).first == bytes)
    }
}
