import BubbleTestSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import BubblesCLI

/// A record's `lang` in `render --format svg|html`: the text is laid out in its language, as
/// `heights --font` lays it out, and the picture marks it (`lang` on the HTML text block,
/// `xml:lang` on each SVG text line) so a browser shapes it the same way. Image captions and
/// notices carry `lang` as text records do.
@Suite struct PictureLanguageTests {
    /// Noto Sans CJK KR first: its Korean `locl` forms (the space among them) make a Korean text
    /// measure differently in Korean than without a language.
    static let fonts = ["--font", corpus("fonts/NotoSansCJK-Subset.ttc") + "#1", "--font", corpus("fonts/NotoColorEmoji-Subset.ttf"),
                        "--size", "40"]
    static let text = "안녕하세요! 오늘 날씨가 정말 좋네요… 내일 봐요"

    /// A log of the same text tagged `ko` (id 1) and untagged (id 2), an image whose caption is
    /// tagged (id 3) and one whose is not (id 4), and a tagged notice (id 5) and an untagged one (id 6).
    static func log() throws -> String {
        let lines = [
            #"{"id":"1","type":"text","from":"Yuki","date":"2024-05-01T10:00:00Z","text":"\#(text)","lang":"ko"}"#,
            #"{"id":"2","type":"text","from":"Yuki","date":"2024-05-01T10:01:00Z","text":"\#(text)"}"#,
            #"{"id":"3","type":"image","from":"Yuki","date":"2024-05-01T10:02:00Z","image":{"width":400,"height":300,"name":"a.jpg"},"text":"\#(text)","lang":"ko"}"#,
            #"{"id":"4","type":"image","from":"Yuki","date":"2024-05-01T10:03:00Z","image":{"width":400,"height":300,"name":"a.jpg"},"text":"\#(text)"}"#,
            #"{"id":"5","type":"system","date":"2024-05-01T10:04:00Z","text":"\#(text)","lang":"ko"}"#,
            #"{"id":"6","type":"system","date":"2024-05-01T10:05:00Z","text":"\#(text)"}"#,
        ]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("picture-language-\(getpid()).jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: url)
        return url.path
    }

    /// `heights` rows by id.
    static func heights(_ log: String, width: Int) throws -> [String: [String: Any]] {
        let run = bubbles(["heights", log, "--width", String(width)] + fonts)
        #expect(run.code == 0, "\(run.errors)")
        var byID: [String: [String: Any]] = [:]
        for line in run.output.split(separator: "\n") {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let id = record["id"] as? String { byID[id] = record }
        }
        return byID
    }

    /// The tagged rows lay out as `heights` lays them out, differently from the untagged ones
    /// (the language changes the text's width), and carry `lang`.
    @Test(arguments: [240, 330, 2000])
    func htmlRowsCarryTheLanguageTheyAreLaidOutIn(width: Int) throws {
        let log = try Self.log()
        let expected = try Self.heights(log, width: width)
        let run = bubbles(["render", log, "--format", "html", "--width", String(width)] + Self.fonts)
        #expect(run.code == 0, "\(run.errors)")
        let page = try PictureCommandTests.Elements.parse(run.output)
        var rows: [String: [String: String]] = [:], textLanguages: [String: String?] = [:]
        var current: String?
        for element in page.elements {
            if element.name == "div", element.attributes["class"]?.hasPrefix("row") == true {
                current = element.attributes["data-id"]
                rows[current!] = element.attributes
            }
            if element.name == "div", element.attributes["class"] == "text", let current {
                textLanguages[current] = element.attributes["lang"]
            }
        }
        for id in ["1", "2", "3", "4", "5", "6"] {
            let row = try #require(rows[id], "row \(id)")
            let record = try #require(expected[id])
            #expect(row["data-height"] == "\((record["height"] as! NSNumber).intValue)", "row \(id) height")
            let language = try #require(textLanguages[id], "row \(id) has no text block")
            #expect(language == (Int(id)! % 2 == 1 ? "ko" : nil), "row \(id) lang")
        }
        // The language matters here: unwrapped, the tagged text is not as wide as the same text untagged.
        guard width == 2000 else { return }
        for (tagged, untagged) in [("1", "2"), ("3", "4"), ("5", "6")] {
            #expect(rows[tagged]!["data-text-width"]! != rows[untagged]!["data-text-width"]!, "rows \(tagged) and \(untagged)")
        }
    }

    /// Each SVG text line of a tagged row says `xml:lang`, and its measured width is the width
    /// the tagged text has; the untagged row's lines say none.
    @Test func svgLinesCarryTheLanguage() throws {
        let log = try Self.log()
        let run = bubbles(["render", log, "--format", "svg", "--width", "2000"] + Self.fonts)
        #expect(run.code == 0, "\(run.errors)")
        let svg = try PictureCommandTests.Elements.parse(run.output)
        var current = "", widths: [String: [Int]] = [:], languages: [String: Set<String>] = [:]
        for element in svg.elements {
            if element.name == "g", element.attributes["class"] == "row" { current = element.attributes["data-id"] ?? "" }
            if element.name == "text", element.attributes["class"] == "t", let width = element.attributes["data-width"] {
                widths[current, default: []].append(Int(width)!)
                languages[current, default: []].insert(element.attributes["xml:lang"] ?? "none")
            }
        }
        for id in ["1", "3", "5"] { #expect(languages[id] == ["ko"], "row \(id)") }
        for id in ["2", "4", "6"] { #expect(languages[id] == ["none"], "row \(id)") }
        for (tagged, untagged) in [("1", "2"), ("3", "4"), ("5", "6")] {
            #expect(widths[tagged]?.count == 1 && widths[untagged]?.count == 1)
            #expect(try #require(widths[tagged]?.first) != #require(widths[untagged]?.first), "rows \(tagged) and \(untagged)")
        }
    }

    /// A caption's and a notice's `lang` come back from `convert`; a picture without a caption
    /// has no text for it and drops it.
    @Test func convertWritesCaptionAndNoticeLanguagesBack() throws {
        let log = try Self.log()
        let run = bubbles("convert", log)
        #expect(run.code == 0, "\(run.errors)")
        let input = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        let output = run.output.split(separator: "\n").map(String.init)
        for (written, read) in zip(output, input) {
            #expect(written.contains(#""lang":"ko""#) == read.contains(#""lang":"ko""#), "\(written)")
        }
        let bare = try Self.temporaryFile(
            #"{"id":"7","type":"image","date":"2024-05-01T10:06:00Z","image":{"name":"b.jpg"},"lang":"ko"}"#)
        let converted = bubbles("convert", bare)
        #expect(converted.code == 0)
        #expect(!converted.output.contains("lang"))
    }

    static func temporaryFile(_ line: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("picture-language-bare-\(getpid()).jsonl")
        try Data((line + "\n").utf8).write(to: url)
        return url.path
    }
}
