import BubbleTestSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import BubblesCLI

/// `bubbles render --format svg|html`: the pictures are laid out by the pixel layout `heights
/// --font` prints (the same rows, the same heights), parse as XML, and carry no input as markup.
@Suite struct PictureCommandTests {
    static let fonts = ["NotoSans-Subset.ttf", "NotoSansCJK-Subset.ttc", "NotoSansArabic-Subset.ttf",
                        "NotoSansHebrew-Subset.ttf", "NotoColorEmoji-Subset.ttf"].flatMap { ["--font", corpus("fonts/" + $0)] }

    /// Every element of an XML document: its name and attributes, in document order. Fails the
    /// test when the document is not well-formed.
    final class Elements: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        var text = ""
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            elements.append((name, attributes))
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        static func parse(_ document: String) throws -> Elements {
            let parser = XMLParser(data: Data(document.utf8))
            let delegate = Elements()
            parser.delegate = delegate
            let parsed = parser.parse()
            #expect(parsed, "not well-formed: \(String(describing: parser.parserError)) at line \(parser.lineNumber)")
            return delegate
        }
    }

    static func heights(_ log: String, width: Int, fonts: [String] = fonts) throws -> [String: [String: Any]] {
        let run = bubbles(["heights", log, "--width", String(width)] + fonts)
        #expect(run.code == 0 || log.hasSuffix("hostile.jsonl"), "\(run.errors)")
        var byID: [String: [String: Any]] = [:]
        for line in run.output.split(separator: "\n") {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if record["kind"] as? String != "date" { byID[record["id"] as! String] = record }
        }
        return byID
    }

    @Test(arguments: ["logs/sample.jsonl", "logs/conversations.jsonl", "logs/hostile.jsonl"], [200, 375, 720])
    func svgRowsAreTheRowsHeightsPrints(log: String, width: Int) throws {
        let path = corpus(log)
        let expected = try Self.heights(path, width: width)
        let run = bubbles(["render", path, "--format", "svg", "--width", String(width)] + Self.fonts)
        #expect(run.code == 0 || log.hasSuffix("hostile.jsonl"), "\(run.errors)")
        let svg = try Elements.parse(run.output)
        var rows = 0, y = 0.0, lines = 0
        var current: [String: Any]?
        func finishRow() {
            if let record = current, record["kind"] as? String != "system" || lines > 0 {
                #expect(lines == (record["textLines"] as! NSNumber).intValue, "row \(record["id"]!): \(lines) lines drawn")
            }
            lines = 0
        }
        for element in svg.elements {
            let a = element.attributes
            if element.name == "g", a["class"] == "row" {
                finishRow()
                rows += 1
                let height = try #require(Double(a["data-height"] ?? ""))
                #expect(Double(a["data-y"] ?? "") == y, "rows stack without gaps")
                y += height
                current = nil
                if a["data-kind"] != "date" {
                    let record = try #require(expected[a["data-id"] ?? ""], "row \(a["data-id"] ?? "") is one heights prints")
                    #expect(height == (record["height"] as! NSNumber).doubleValue, "row \(a["data-id"]!): height")
                    current = record
                }
            } else if element.name == "path", a["class"] == "bubble", let record = current {
                // The bubble's outline spans its drawn height, and is as wide as heights says.
                let numbers = (a["d"] ?? "").split(whereSeparator: { !"0123456789.-".contains($0) }).compactMap { Double($0) }
                #expect(Int(a["data-width"] ?? "") == (record["bubbleWidth"] as! NSNumber).intValue)
                let bubbleHeight = try #require(Double(a["data-height"] ?? ""))
                #expect(bubbleHeight <= (record["height"] as! NSNumber).doubleValue)
                let top = numbers[1]
                #expect(abs(numbers.max()! - top - bubbleHeight) < 1e-6 || numbers.max()! > top + bubbleHeight - 1e-6)
            } else if element.name == "text", a["class"] == "t", let record = current, let drawn = a["data-width"] {
                lines += 1
                #expect(Int(drawn)! <= (record["wrapWidth"] as! NSNumber).intValue, "a line no wider than the wrap width")
            }
        }
        finishRow()
        #expect(rows >= expected.count)
        let total = try #require(svg.elements.first?.attributes["height"].flatMap(Double.init))
        #expect(total == y + 16, "the picture is the rows and its margins")
    }

    @Test func htmlRowsCarryTheHeightsAndWidthsHeightsPrints() throws {
        let path = corpus("logs/sample.jsonl")
        let expected = try Self.heights(path, width: 375)
        let run = bubbles(["render", path, "--format", "html", "--theme", "dark"] + Self.fonts)
        #expect(run.code == 0, "\(run.errors)")
        #expect(!run.output.contains("<script"))
        var checked = 0
        for match in run.output.split(separator: "<div class=\"row ").dropFirst() {
            guard let id = Self.attribute("data-id", in: match), let record = expected[id] else { continue }
            #expect(Double(Self.attribute("data-height", in: match)!) == (record["height"] as! NSNumber).doubleValue)
            #expect(Int(Self.attribute("data-width", in: match)!) == (record["bubbleWidth"] as! NSNumber).intValue)
            checked += 1
        }
        #expect(checked == expected.count)
    }

    static func attribute(_ name: String, in text: Substring) -> String? {
        guard let start = text.range(of: name + "=\"") else { return nil }
        return String(text[start.upperBound...].prefix { $0 != "\"" })
    }

    /// Right-to-left text is drawn in visual order: a Hebrew run is an override run holding its
    /// letters in logical order, after the mark that makes the line start left to right.
    @Test func rightToLeftLinesAreInVisualOrder() throws {
        let records = [#"{"id":"a","type":"text","from":"Dana","date":"2024-05-01T09:00:00Z","text":"שלום world"}"#,
                       #"{"id":"b","type":"text","from":"Dana","date":"2024-05-01T09:01:00Z","text":"שלום!"}"#]
        let log = try PixelHeightsCommandTests.temporaryFile("rtl.jsonl", Array(records.joined(separator: "\n").utf8 + [10]))
        let run = bubbles(["render", log, "--format", "svg"] + Self.fonts)
        #expect(run.code == 0, "\(run.errors)")
        // A right-to-left paragraph: the Latin word on the left, the space between them (the
        // Hebrew run's, its leftmost) outside the override, where it is seen.
        #expect(run.output.contains(">world <tspan class=\"r\">שלום</tspan></text>"), "\(run.output)")
        // A line that starts with a right-to-left run starts with our left-to-right mark.
        #expect(run.output.contains(">\u{200E}<tspan class=\"r\">שלום!</tspan></text>"), "\(run.output)")
    }

    @Test func untrustedTextIsEscapedAndControlsDropped() throws {
        let hostile = #"{"id":"x\"><script>alert(1)</script>","type":"text","from":"<img src=x onerror=alert(1)>\u202e","date":"2024-05-01T09:00:00Z","text":"a & b <svg onload=alert(1)> ' \" \u202egnirts\u0007\u009b end"}"#
        let log = try PixelHeightsCommandTests.temporaryFile("hostile-picture.jsonl", Array(hostile.utf8 + [10]))
        for format in ["svg", "html"] {
            let run = bubbles(["render", log, "--format", format] + Self.fonts)
            #expect(run.code == 0, "\(run.errors)")
            for forbidden in ["<script", "<img", "<svg onload", "\u{202E}", "\u{07}", "\u{9B}", "javascript:"] {
                #expect(!run.output.contains(forbidden), "\(format) holds \(forbidden.debugDescription)")
            }
            #expect(run.output.contains("a &amp; b &lt;svg onload=alert(1)&gt; &#39; &quot;"))
            if format == "svg" { _ = try Elements.parse(run.output) }
        }
    }

    @Test func pagesSplitTheTranscriptAndFromToSelectRows() throws {
        let path = corpus("logs/sample.jsonl")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pictures-\(getpid())-pages").path
        try? FileManager.default.removeItem(atPath: directory)
        let run = bubbles(["render", path, "--format", "svg", "--page-height", "600", "--output", directory] + Self.fonts)
        #expect(run.code == 0, "\(run.errors)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(pages.count > 3 && pages.first == "page-0001.svg")
        let whole = bubbles(["render", path, "--format", "svg"] + Self.fonts)
        let wholeIDs = try Elements.parse(whole.output).elements.compactMap { $0.name == "g" ? $0.attributes["data-id"] : nil }
        var pagedIDs: [String] = []
        for page in pages {
            let text = try String(contentsOfFile: directory + "/" + page, encoding: .utf8)
            let svg = try Elements.parse(text)
            let height = try #require(svg.elements.first?.attributes["height"].flatMap(Double.init))
            let rows = svg.elements.filter { $0.name == "g" && $0.attributes["class"] == "row" }
            #expect(height - 16 <= 600 || rows.count == 1, "\(page) is \(height) px")
            pagedIDs += rows.compactMap { $0.attributes["data-id"] }
        }
        #expect(pagedIDs == wholeIDs, "the pages hold every row once, in order")

        let part = bubbles(["render", path, "--format", "svg", "--from", "m003", "--to", "m006"] + Self.fonts)
        let ids = try Elements.parse(part.output).elements.compactMap { $0.name == "g" && $0.attributes["data-kind"] != "date" ? $0.attributes["data-id"] : nil }
        #expect(ids == ["m003", "m004", "m005", "m006"])
        #expect(bubbles("render", path, "--page-height", "100", "--format", "svg", "--font", corpus("fonts/NotoSans-Subset.ttf")).code == 2)
        #expect(bubbles("render", path, "--format", "svg").code == 2, "svg needs --font")
        #expect(bubbles("render", path, "--theme", "dark").code == 2, "--theme needs a picture format")
    }

    @Test func embeddedFontsAreDataURLs() throws {
        let run = bubbles("render", corpus("logs/sample.jsonl"), "--format", "svg", "--embed-fonts", "--font", corpus("fonts/NotoSans-Subset.ttf"))
        #expect(run.code == 0)
        #expect(run.output.contains("src:url(\"data:font/ttf;base64,"))
        #expect(!run.output.contains("file:"))
        let linked = bubbles("render", corpus("logs/sample.jsonl"), "--format", "svg", "--font", corpus("fonts/NotoSans-Subset.ttf"))
        #expect(linked.output.contains("src:url(\"file:///"))
    }
}
