import BubbleLayout
import BubbleText
import BubbleTestSupport
import Foundation
import Testing
@testable import BubbleTerminal

/// Web addresses as OSC 8 hyperlinks: our own escape, built from a checked address, one id for
/// the pieces of an address wrapped over lines, and nothing at all when links are off.
@Suite struct HyperlinkTests {
    func draw(_ models: [any MessageModel], width: Int, hyperlinks: Bool, color: ColorDepth = .palette256,
              bidi: BidiMode = .visual) throws -> (lines: [[String]], layouts: [RowLayout]) {
        let engine = LayoutEngine()
        let rows = try engine.decorate(models, options: DecorationOptions(timeZone: utc))
        var options = RenderOptions(width: width, colorDepth: color, timeZone: utc)
        options.hyperlinks = hyperlinks
        options.bidi = bidi
        var renderer = TranscriptRenderer(engine: engine, options: options)
        let layouts = rows.map { engine.layout($0, in: models, width: width) }
        let lines = zip(rows, layouts).map { row, layout in
            renderer.lines(for: row, model: row.isDateSeparator ? nil : models[row.messageIndex], layout: layout)
        }
        return (lines, layouts)
    }

    /// The OSC 8 sequences in `text`: (params, URI), in order.
    func links(_ text: String) -> [(params: String, uri: String)] {
        var found: [(String, String)] = []
        var rest = Substring(text)
        while let open = rest.range(of: "\u{1B}]8;") {
            guard let end = rest[open.upperBound...].range(of: "\u{1B}\\") else { break }
            let body = rest[open.upperBound..<end.lowerBound]
            let parts = body.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
            found.append((String(parts[0]), parts.count > 1 ? String(parts[1]) : ""))
            rest = rest[end.upperBound...]
        }
        return found
    }

    /// `line` without OSC 8 sequences.
    func withoutLinks(_ line: String) -> String {
        var out = "", rest = Substring(line)
        while let open = rest.range(of: "\u{1B}]8;") {
            out += rest[..<open.lowerBound]
            guard let end = rest[open.upperBound...].range(of: "\u{1B}\\") else { return out }
            rest = rest[end.upperBound...]
        }
        return out + rest
    }

    @Test func anAddressBecomesALinkAndTheTextIsUnchanged() throws {
        let note = TextNote(id: "1", text: "see https://example.com/a?b=c for details")
        let on = try draw([note], width: 80, hyperlinks: true)
        let off = try draw([note], width: 80, hyperlinks: false)
        #expect(on.layouts == off.layouts)
        #expect(on.lines.flatMap { $0 }.map(withoutLinks) == off.lines.flatMap { $0 })
        let found = links(on.lines.flatMap { $0 }.joined(separator: "\n"))
        #expect(found.count == 2)
        #expect(found[0].params.hasPrefix("id=") && found[0].uri == "https://example.com/a?b=c")
        #expect(found[1].params == "" && found[1].uri == "")
        #expect(!off.lines.flatMap { $0 }.joined().contains("\u{1B}]"))
        // With colour off not a single escape is written, links included.
        let plain = try draw([note], width: 80, hyperlinks: true, color: .none)
        #expect(!plain.lines.flatMap { $0 }.joined().contains("\u{1B}"))
    }

    @Test func anAddressWrappedOverLinesKeepsOneIdAndEachLineClosesItsLink() throws {
        let url = "https://example.com/" + String(repeating: "segment/", count: 12)
        let note = TextNote(id: "7", text: url)
        let drawn = try draw([note], width: 40, hyperlinks: true)
        let lines = drawn.lines.flatMap { $0 }
        let linked = lines.filter { $0.contains("\u{1B}]8;id=") }
        #expect(linked.count >= 3)
        var ids = Set<String>()
        for line in linked {
            let found = links(line)
            #expect(found.count == 2 && found.last!.params == "" && found.last!.uri == "")
            #expect(found[0].uri == url)
            ids.insert(found[0].params)
        }
        #expect(ids.count == 1)
        // Drawn again (as the viewer does on every scroll), the id is the same.
        let again = try draw([note], width: 40, hyperlinks: true).lines.flatMap { $0 }
        #expect(again == lines)
    }

    @Test func hostileAddressesAreEscapedOrRefused() {
        #expect(Hyperlink.target("https://a.b/c d") == "https://a.b/c%20d")
        #expect(Hyperlink.target("https://a.b/é") == "https://a.b/%C3%A9")
        #expect(Hyperlink.target("https://a.b/%zz%41") == "https://a.b/%25zz%41")
        #expect(Hyperlink.target("https://a.b/\u{1B}]8;;evil\u{1B}\\") == nil)
        #expect(Hyperlink.target("https://a.b/\u{07}") == nil)
        #expect(Hyperlink.target("https://a.b/\u{9C}") == nil)
        #expect(Hyperlink.target("https://a.b/\u{7F}") == nil)
        #expect(Hyperlink.target("") == nil)
        #expect(Hyperlink.target(Substring("https://a.b/" + String(repeating: "x", count: 3_000))) == nil)
        let id = Hyperlink.id(messageID: "a;b:c\u{1B}", revision: 3, index: 2)
        #expect(id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }

    @Test func controlsInAMessageNeverReachALinkOrTheTerminal() throws {
        let texts = ["https://a.b/\u{1B}]8;;https://evil.example\u{1B}\\x", "https://a.b/x\u{07}y https://c.d/\u{9B}31m",
                     "go https://a.b/\u{1B}[2J now", "https://a.b/\"onclick https://c.d/<script>"]
        for text in texts {
            let drawn = try draw([TextNote(id: "h", text: text)], width: 60, hyperlinks: true, color: .trueColor)
            let output = drawn.lines.flatMap { $0 }.joined(separator: "\n")
            for link in links(output) {
                #expect(link.uri.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }, "\(text): \(link.uri)")
                // Only an address the message shows, never bytes of an escape in it.
                #expect(link.uri.isEmpty || text.contains(link.uri), "\(text): \(link.uri)")
                #expect(!link.uri.contains("]8;"))
            }
            // With the links taken out, only SGR escapes are left.
            #expect(unsafeOutput(drawn.lines.flatMap { $0 }.map(withoutLinks).joined(separator: "\n"), colorOn: true).isEmpty, "\(text)")
        }
    }

    @Test func theHostileTimelineWithLinksOnWritesOnlyOurEscapes() throws {
        let models = HostileInputTests.hostileTimeline() + [TextNote(id: "u", text: "https://a.b/\u{1B}]8;;x\u{1B}\\ https://c.d/\u{07}")]
        for width in [20, 44, 80] {
            let drawn = try draw(models, width: width, hyperlinks: true, color: .palette256)
            let lines = drawn.lines.flatMap { $0 }
            for link in links(lines.joined(separator: "\n")) {
                #expect(link.uri.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F })
                #expect(link.params.isEmpty || link.params.dropFirst(3).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            }
            #expect(unsafeOutput(lines.map(withoutLinks).joined(separator: "\n"), colorOn: true).isEmpty)
            // Links change no line's place: the same rows as with links off.
            #expect(drawn.layouts == (try self.draw(models, width: width, hyperlinks: false, color: .palette256)).layouts)
        }
    }

    @Test func rightToLeftTextInVisualOrderIsDrawnWithoutLinks() throws {
        let note = TextNote(id: "1", text: "שלום https://example.com/a עולם")
        let visual = try draw([note], width: 80, hyperlinks: true, bidi: .visual)
        let logical = try draw([note], width: 80, hyperlinks: true, bidi: .logical)
        #expect(links(visual.lines.flatMap { $0 }.joined()).isEmpty)
        #expect(links(logical.lines.flatMap { $0 }.joined()).count == 2)
    }

    @Test func theViewersSearchStepsOverLinks() {
        let line = "x " + Hyperlink.open("https://example.com/moon", id: "a1") + "https://example.com/moon" + Hyperlink.close + " moon"
        let matcher = SearchMatcher("moon")
        let marked = matcher.highlight(line)
        // Both shown "moon"s are marked; the URI inside the escape is not.
        #expect(marked.components(separatedBy: SearchMatcher.on).count == 3)
        #expect(withoutLinks(marked).contains("com/\(SearchMatcher.on)moon"))
        #expect(links(marked).map(\.uri) == ["https://example.com/moon", ""])
    }
}
