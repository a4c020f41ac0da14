import BubbleLayout
@testable import BubbleLogs
import BubbleSamples
import Testing

/// Discord's and Slack's markup: markers out of the text, styles kept as spans, code literal,
/// unmatched markers left as text, escapes honoured, addresses never split.
@Suite struct ChatMarkupTests {
    /// `text` read, as (plain text, [(styled text, style)]).
    func read(_ text: String, _ dialect: ChatMarkup.Dialect = .discord, reveal: Bool = false) -> (String, [String]) {
        let styled = ChatMarkup(dialect: dialect, revealsSpoilers: reveal).parse(text)
        let bytes = Array(styled.text.utf8)
        let spans = styled.spans.map { "\($0.style.rawValue):" + String(decoding: bytes[$0.start..<$0.end], as: UTF8.self) }
        return (styled.text, spans)
    }

    @Test func discordsMarkersBecomeStyles() {
        #expect(read("a **bold** b") == ("a bold b", ["bold:bold"]))
        #expect(read("*it* and _it_") == ("it and it", ["italic:it", "italic:it"]))
        #expect(read("__under__ ~~gone~~") == ("under gone", ["underline:under", "strikethrough:gone"]))
        #expect(read("***both***") == ("both", ["bold:both", "italic:both"]))
        #expect(read("**bold *and italic***").0 == "bold and italic")
        #expect(read("**a __b__ c**") == ("a b c", ["underline:b", "bold:a b c"]))
        #expect(read("run `x **not bold**` now") == ("run x **not bold** now", ["code:x **not bold**"]))
        #expect(read("``a `tick` b``") == ("a `tick` b", ["code:a `tick` b"]))
        #expect(read("```swift\nlet x = **1**\n```") == ("let x = **1**", ["code:let x = **1**"]))
        #expect(read("```\nplain\n```") == ("plain", ["code:plain"]))
    }

    @Test func unmatchedMarkersAndEscapesStayText() {
        #expect(read("2 * 3 * 4").0 == "2 * 3 * 4")
        #expect(read("**open").0 == "**open")
        #expect(read("snake_case_name") == ("snake_case_name", []))
        #expect(read("\\*not italic\\*") == ("*not italic*", []))
        #expect(read("\\_\\_x\\_\\_ and \\`y\\`") == ("__x__ and `y`", []))
        #expect(read("a \\b c").0 == "a \\b c")  // a letter after a backslash is no escape
        #expect(read("¯\\_(ツ)_/¯") == ("¯\\_(ツ)_/¯", []))
        #expect(read("` `x").0 == " x" || read("` `x").0 == "` `x")
        #expect(read("~~").0 == "~~" && read("||").0 == "||" && read("****").0 == "****")
    }

    @Test func addressesAreNotSplitByMarkup() {
        #expect(read("see https://example.com/a_b_c and _this_") == ("see https://example.com/a_b_c and this", ["italic:this"]))
        #expect(read("**https://x.org/**a**") .0 == "https://x.org/**a")
        #expect(read("[the docs](https://example.com/a_b)") == ("the docs (https://example.com/a_b)", []))
        #expect(read("<https://example.com/x>") == ("https://example.com/x", []))
    }

    @Test func spoilersAreHiddenUnlessRevealed() {
        #expect(read("the end: ||he wins||") == ("the end: [spoiler]", []))
        #expect(read("the end: ||he **wins**||", reveal: true) == ("the end: he wins", ["bold:wins"]))
    }

    @Test func slacksMarkersBecomeStyles() {
        #expect(read("*bold* _it_ ~gone~", .slack) == ("bold it gone", ["bold:bold", "italic:it", "strikethrough:gone"]))
        #expect(read("use `a*b*c` here", .slack) == ("use a*b*c here", ["code:a*b*c"]))
        #expect(read("```\n*x*\n```", .slack) == ("*x*", ["code:*x*"]))
        // Inside a word, with a space inside the marker, or over a line: text.
        #expect(read("2*3*4 snake_case_x", .slack).1.isEmpty)
        #expect(read("* not bold*", .slack).1.isEmpty && read("*not bold *", .slack).1.isEmpty)
        #expect(read("*one\ntwo*", .slack).1.isEmpty)
        #expect(read("*bold _both_*", .slack) == ("bold both", ["italic:both", "bold:bold both"]))
        #expect(read("\\*x*", .slack).0 == "\\x")  // Slack has no escapes
    }

    @Test func hostileMarkupCostsLinearTime() {
        // Thousands of openers with no closer: each kind's closer is searched for about once.
        for piece in ["**a", "*a ", "__a", "_a ", "~~a", "||a", "`a", "[a", "<a", "```a"] {
            let text = String(repeating: piece, count: 20_000)
            let styled = ChatMarkup(dialect: .discord, revealsSpoilers: false).parse(text)
            // (A hidden spoiler's marker may be longer than what it hides.)
            #expect(styled.text.utf8.count <= 2 * text.utf8.count)
            let slack = ChatMarkup(dialect: .slack, revealsSpoilers: false).parse(text)
            #expect(slack.text.utf8.count <= text.utf8.count)
        }
        // Nesting deeper than 32 is text, not a deep recursion.
        let deep = String(repeating: "**a ", count: 5_000) + String(repeating: " b**", count: 5_000)
        _ = ChatMarkup(dialect: .discord, revealsSpoilers: false).parse(deep)
    }

    @Test func spansAlwaysLieOnScalarBoundariesInsideTheText() {
        var generator = SeededGenerator(seed: 30)
        let pieces = ["*", "**", "_", "__", "~~", "||", "`", "```", "\\", "é", "日本", "👍🏽", " ", "\n", "a", "https://x.y/_z_", "[", "](", ")"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 1...30, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            for dialect in [ChatMarkup.Dialect.discord, .slack] {
                let styled = ChatMarkup(dialect: dialect, revealsSpoilers: true).parse(text)
                let count = styled.text.utf8.count
                let bytes = Array(styled.text.utf8)
                for span in styled.spans {
                    #expect(0 <= span.start && span.start < span.end && span.end <= count, "\(text)")
                    for edge in [span.start, span.end] where edge < count {
                        #expect(bytes[edge] & 0xC0 != 0x80, "\(text)")
                    }
                }
            }
        }
    }
}
