import BubbleLogs
import BubbleTestSupport
import Foundation
import Testing
@testable import BubblesCLI

/// WhatsApp's invisible formatting neither clutters the drawing nor hides who `--me` is
/// (issue 10 §3).
@Suite struct InvisibleFormattingCLITests {
    func isBidiControl(_ v: UInt32) -> Bool {
        v == 0x061C || v == 0x200E || v == 0x200F || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    let unsaved = corpus("exports/whatsapp/ios-en_GB-unsaved-contacts.txt")

    /// Senders of the records `convert` wrote as outgoing.
    func outgoingSenders(_ run: CommandRun) throws -> Set<String> {
        Set(try run.outputLines.compactMap { line -> String? in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return object["outgoing"] as? Bool == true ? object["from"] as? String : nil
        })
    }

    @Test func meMatchesANameDespiteTheTildeAndTheMarksAroundIt() throws {
        let ana = bubbles("convert", unsaved, "--me", "Ana")
        #expect(try outgoingSenders(ana) == ["~\u{202F}Ana"])
        #expect(!ana.errors.contains("matched no sender"))
        let phone = bubbles("convert", unsaved, "--me", "+44 7700 900123")
        #expect(try outgoingSenders(phone) == ["\u{202A}+44 7700 900123\u{202C}"])
        // Typed as WhatsApp writes it, it matches too; case still counts.
        #expect(try outgoingSenders(bubbles("convert", unsaved, "--me", "~ Ana")) == ["~\u{202F}Ana"])
        #expect(try outgoingSenders(bubbles("convert", unsaved, "--me", "ana")).isEmpty)
    }

    @Test func aMeThatMatchesNoOneListsTheSendersSeenNeutralised() {
        let run = bubbles("render", unsaved, "--me", "Anna", "--width", "60")
        #expect(run.code == 0)
        let line = run.errors.split(separator: "\n").first { $0.contains("matched no sender") }.map(String.init) ?? ""
        #expect(line.contains("senders seen: "))
        // The kind of each space is shown: U+202F as \u{202F}, U+0020 as itself.
        #expect(line.contains("'~\\u{202F}Ana'") && line.contains("'\\u202A+44 7700 900123\\u202C'") && line.contains("'Tom Baker'"), "\(line)")
        #expect(!line.unicodeScalars.contains { isBidiControl($0.value) })
    }

    @Test func whatsAppsOwnFormattingIsDrawnWithoutLabelsAndNothingRawGetsOut() {
        for width in [20, 44, 80] {
            let run = bubbles("render", unsaved, "--width", "\(width)", "--me", "Ana")
            #expect(run.code == 0)
            for label in ["<LRM>", "<LRE>", "<PDF>", "<FSI>", "<RLI>", "<PDI>"] {
                #expect(!run.output.contains(label), "\(label) at width \(width)")
            }
            #expect(!run.output.unicodeScalars.contains { isBidiControl($0.value) })
            #expect(run.output.contains("+51") && run.output.contains("@~\u{202F}Ana"))
        }
        // What is measured is what is drawn: the rows `heights` gives are the rows drawn.
        let heights = bubbles("heights", unsaved, "--width", "44", "--me", "Ana")
        let total = heights.outputLines.reduce(0) { sum, line in
            let object = try! JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return sum + (object["height"] as! Int)
        }
        #expect(total == bubbles("render", unsaved, "--width", "44", "--me", "Ana").outputLines.count)
    }
}
