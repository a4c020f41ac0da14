import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// `render --format html` keeps a web address whole by markup alone: the address is a
/// `white-space: nowrap` span, split only where our layout broke an address longer than a line,
/// with a `<wbr>` there. What a reader copies (the text content) is the text as written.
/// (Tools/pictures/browser-check.py checks the same in Chromium, with the heights.)
@Suite struct TranscriptHTMLAddressTests {
    /// The text content of an HTML fragment: tags dropped, our entities decoded.
    static func textContent(_ html: Substring) -> String {
        var out = ""
        var inTag = false
        for character in html {
            if character == "<" { inTag = true } else if character == ">" { inTag = false } else if !inTag { out.append(character) }
        }
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            out = out.replacingOccurrences(of: entity, with: character)
        }
        return out
    }

    static let log = corpus("logs/sample.jsonl")

    static func texts() throws -> [String: String] {
        var texts: [String: String] = [:]
        for line in try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n") {
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            if let text = record["text"] as? String { texts[record["id"] as! String] = text }
        }
        return texts
    }

    @Test(arguments: [240, 375, 600])
    func copyingATextGivesItsAddressesUnchanged(width: Int) throws {
        let texts = try Self.texts()
        let run = bubbles(["render", Self.log, "--format", "html", "--width", String(width), "--font", corpus("fonts/NotoSans-Subset.ttf")])
        #expect(run.code == 0)
        #expect(!run.output.unicodeScalars.contains("\u{2060}"))
        var checked = 0
        for row in run.output.components(separatedBy: "<div class=\"row ").dropFirst() {
            guard let id = PictureCommandTests.attribute("data-id", in: row[...]), let text = texts[id], text.contains("://"),
                  let open = row.range(of: "<div class=\"text\""), let start = row[open.upperBound...].firstIndex(of: ">"),
                  let end = row[start...].range(of: "</div>") else { continue }
            let inner = row[row.index(after: start)..<end.lowerBound]
            #expect(Self.textContent(inner) == text, "\(id)")
            // Each address is inside nowrap spans only; a <wbr> only between two of them.
            #expect(!inner.contains("<wbr>") || inner.contains("</span><wbr><span class=\"u\">"))
            #expect(inner.components(separatedBy: "<wbr>").count - 1 == inner.components(separatedBy: "</span><wbr><span class=\"u\">").count - 1)
            checked += 1
        }
        #expect(checked >= 5)
    }

    /// An address that fits on a line is one span, unbroken, whatever the width.
    @Test func anAddressThatFitsIsOneSpan() throws {
        let folder = NSTemporaryDirectory() + "bubbles-address-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/log.jsonl"
        try #"{"id":"1","type":"text","from":"Ana","date":"2024-05-01T09:00:00Z","text":"see https://example.org/a-b/c?d=e&f=g, then"}"#
            .write(toFile: path, atomically: false, encoding: .utf8)
        let run = bubbles(["render", path, "--format", "html", "--width", "600", "--font", corpus("fonts/NotoSans-Subset.ttf")])
        #expect(run.output.contains(">see <span class=\"u\">https://example.org/a-b/c?d=e&amp;f=g</span>, then</div>"))
        #expect(!run.output.contains("<wbr>"))
    }
}
