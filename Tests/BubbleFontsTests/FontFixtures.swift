import Testing
import Foundation
@testable import BubbleFonts
import BubbleText

/// The committed test fonts (Corpora/fonts, made by Tools/fonts/make-test-fonts.py) and what
/// fontTools and HarfBuzz say of them (expected-metrics.json, made by Tools/fonts/expected-metrics.py).
enum FontFixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Corpora/fonts").standardizedFileURL

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func font(_ name: String, face: Int = 0) throws -> OpenTypeFont {
        try OpenTypeFont(bytes: bytes(name), faceIndex: face)
    }

    static let fontFiles = ["NotoSans-Subset.ttf", "NotoSans-KernTable.ttf", "DejaVuSans-Subset.ttf",
                            "NotoSansHebrew-Subset.ttf", "NotoColorEmoji-Subset.ttf", "NotoSansCJK-Subset.ttc"]

    struct Expected: Decodable {
        var fonts: [FontFacts]
    }

    struct FontFacts: Decodable, CustomTestStringConvertible {
        var file: String
        var face: Int
        var unitsPerEm: Int
        var glyphCount: Int
        var ascent: Int
        var descent: Int
        var lineGap: Int
        var cmap: [[Int]]
        var advances: [[Int]]
        var variationSequences: [[Int]]
        var kerning: Kerning?
        var bitmaps: Bitmaps?
        var shaped: [Shaped]

        struct Shaped: Decodable {
            var text: String
            var script: String
            var language: String?
            var glyphs: [Int]
            var clusters: [Int]
        }

        struct Kerning: Decodable {
            var script: String
            var pairs: [[Int]]
        }

        struct Bitmaps: Decodable {
            var ppem: Int
            var advances: [[Int]]
        }

        var testDescription: String { "\(file)#\(face)" }
    }

    static let expected: [FontFacts] = {
        let url = directory.appendingPathComponent("expected-metrics.json")
        guard let data = try? Data(contentsOf: url), let decoded = try? JSONDecoder().decode(Expected.self, from: data) else {
            return []
        }
        return decoded.fonts
    }()

    /// The letters whose pairs expected-metrics.json shaped (all pairs not listed adjust by 0).
    static let kerningLetters = Array("AVTWYLPFokeyvwar.,'\"-АВГДЕКУаеоуΑΒΓΔΤΥαβγοτ".unicodeScalars)
}

extension FontFixtures {
    /// The signature the Arabic, Khmer and Myanmar shapers share.
    typealias Shape = (ElementsView<UInt16>, ElementsView<Int32>, ElementsView<Int32>, Int, ElementsView<UInt32>, FontScale,
                       (UInt16) -> Int) -> [(glyph: UInt16, cluster: Int32, advance: Int)]

    /// Shapes `text` with `shape` as the preparer does (one glyph per scalar, joiners without a
    /// glyph), at a size of one px per font unit: each glyph and its advance in font units.
    static func shaped(_ text: String, font: OpenTypeFont, with shape: Shape) -> [[Int]] {
        let scalars = text.unicodeScalars.map(\.value)
        var glyphs: [UInt16] = [], clusters: [Int32] = [], sources: [Int32] = []
        for (i, scalar) in scalars.enumerated() where !PixelPreparedText.isJoiner(scalar) {
            glyphs.append(font.glyph(for: Unicode.Scalar(scalar)!) ?? 0)
            clusters.append(Int32(i))
            sources.append(Int32(i))
        }
        let scale = FontScale(size: Double(font.unitsPerEm), unitsPerEm: font.unitsPerEm)
        let out = glyphs.withElementsView { glyphs in
            clusters.withElementsView { clusters in
                sources.withElementsView { sources in
                    scalars.withElementsView { scalars in
                        shape(glyphs, clusters, sources, glyphs.count, scalars, scale) { scale.pixels1616(units: font.advance(of: $0)) }
                    }
                }
            }
        }
        return out.map { [Int($0.glyph), $0.advance >> 16] }
    }
}
