import BubbleTestSupport
import Foundation
import Testing
@testable import BubbleFonts
@testable import BubbleLayout
@testable import BubbleLogs

/// A JSON Lines record's `lang` carried to the pixel measurer: its text is prepared with the
/// command's fonts shaped for that language (`PixelLayoutMeasurer.prepare(_:inLanguage:)`),
/// as Chromium shapes a text under HTML `lang`.
@Suite struct RecordLanguageTests {
    /// Noto Sans CJK's face `face` (0 Japanese, 1 Korean) and the emoji font.
    static func fonts(face: Int) throws -> [OpenTypeFont] {
        [try FontFixtures.font("NotoSansCJK-Subset.ttc", face: face), try FontFixtures.font("NotoColorEmoji-Subset.ttf")]
    }

    static func measurer(size: Double, face: Int = 0, language: TextLanguage = .none) throws -> PixelLayoutMeasurer {
        PixelLayoutMeasurer(PixelMeasurer(chain: try FontChain(fonts: fonts(face: face), size: size, language: language)))
    }

    static func records() throws -> (records: [LogTextMessage], diagnostics: [LogDiagnostic]) {
        let reader = try LogSource.open(path: corpus("logs/languages.jsonl"), format: .auto, options: LogReadOptions())
        var records: [LogTextMessage] = [], diagnostics: [LogDiagnostic] = []
        for entry in reader {
            switch entry {
            case .message(let record, _): records.append(try #require(record as? LogTextMessage))
            case .diagnostic(let diagnostic): diagnostics.append(diagnostic)
            }
        }
        return (records, diagnostics)
    }

    /// A tagged record lays out as its text untagged under a chain built for its language, at
    /// every width; with a malformed tag, as untagged under the command's chain. The Japanese
    /// text with `…` (Japanese-first chain) and the Korean one (Korean-first chain), whose `locl`
    /// space makes it measure differently from the command's default.
    @Test(arguments: [(0, 0, "ja"), (1, 1, "ko")])
    func aTaggedRecordLaysOutWithItsLanguagesChain(record: Int, face: Int, tag: String) throws {
        let (records, _) = try Self.records()
        #expect(records.map(\.textLanguage) == ["ja", "ko", "zh-Hans", "zh-Hant", nil, nil])
        let tagged = records[record]
        #expect(tagged.textLanguage == tag)
        var untagged = tagged
        untagged.textLanguage = nil
        let language = try #require(TextLanguage(bcp47: tag))
        let size = 40.0
        let plain = LayoutEngine(measurer: try Self.measurer(size: size, face: face))
        let inLanguage = LayoutEngine(measurer: try Self.measurer(size: size, face: face, language: language))
        let decoration = RowDecoration(rawValue: 0)
        for width in [120, 200, 300, 420, 2000] {
            #expect(try plain.layout(tagged, decoration: decoration, width: width)
                    == inLanguage.layout(untagged, decoration: decoration, width: width))
        }
        // Measured directly: the language's chain, not the command's.
        let direct = try Self.measurer(size: size, face: face, language: language)
        let viaTag = try Self.measurer(size: size, face: face).pixels(inLanguage: tag)
        #expect(viaTag.width(of: tagged.text) == direct.pixels.width(of: tagged.text))
        if tag == "ko" {
            #expect(viaTag.width(of: tagged.text) != (try Self.measurer(size: size, face: face)).pixels.width(of: tagged.text))
            #expect(try plain.layout(tagged, decoration: decoration, width: 2000).bubbleWidth
                    != plain.layout(untagged, decoration: decoration, width: 2000).bubbleWidth)
        }
    }

    /// A malformed tag leaves the text in the command's language.
    @Test func aMalformedTagLaysOutAsUntagged() throws {
        let (records, _) = try Self.records()
        let malformed = records[5]
        var untagged = malformed
        untagged.header.id = "other"
        #expect(malformed.textLanguage == nil && malformed.text == records[0].text)
        let plain = LayoutEngine(measurer: try Self.measurer(size: 40))
        let decoration = RowDecoration(rawValue: 0)
        for width in [120, 300, 2000] {
            #expect(try plain.layout(malformed, decoration: decoration, width: width)
                    == plain.layout(untagged, decoration: decoration, width: width))
        }
    }

    /// Every CJK and Korean text of the Chromium sweep, measured by a measurer built without a
    /// language and asked for the text's `lang`, has Chromium's natural width.
    @Test func theSweepsCJKTextsMeasureAsChromiumThroughTheirTag() throws {
        let sweep = try #require(ChromiumSweepTests.sweep)
        var checked = 0, differing = 0
        var measurers: [String: PixelLayoutMeasurer] = [:]
        for row in sweep.natural {
            let text = sweep.texts[row[0].int], chainName = row[1].string, size = row[2].double
            let group = text.group + "/" + chainName
            guard ["cjk/cjk-jp", "cjk-trim/cjk-jp", "cjk-space/cjk-jp", "korean/cjk-kr"].contains(group),
                  ChromiumSweepTests.exactNaturalWidths.contains(group) else { continue }
            let key = "\(chainName)@\(size)"
            let measurer: PixelLayoutMeasurer
            if let known = measurers[key] { measurer = known } else {
                let chain = try ChromiumSweepTests.chain(chainName, size: size, sweep: sweep,
                                                         text: .init(group: "latin", lang: "", text: ""))
                measurer = PixelLayoutMeasurer(PixelMeasurer(chain: chain))
                measurers[key] = measurer
            }
            let tag = text.lang
            let measured = measurer.pixels(inLanguage: tag).width(of: text.text)
            #expect(measured == row[3].int, "\(group) \(tag) \(size)px \(text.text.prefix(20))")
            if measurer.pixels.width(of: text.text) != row[3].int { differing += 1 }
            checked += 1
        }
        #expect(checked > 50)
        #expect(differing > 0, "no sweep text depends on its language: the check would prove nothing")
    }

    /// A malformed `lang` is a warning naming the line; the record is read without it.
    @Test func aMalformedTagIsAWarningAndTheRecordIsKept() throws {
        let (records, diagnostics) = try Self.records()
        #expect(records.count == 6)
        #expect(diagnostics.count == 1)
        let warning = try #require(diagnostics.first)
        #expect(warning.isWarning)
        #expect(warning.position.line == 6)
        #expect(warning.reason.contains("field \"lang\" must be a BCP 47 language tag"))
        #expect(warning.reason.contains("\"japanese!\""))
    }
}
