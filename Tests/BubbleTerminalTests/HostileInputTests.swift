import BubbleTestSupport
import BubbleLayout
import BubbleText
import Foundation
import Testing
@testable import BubbleTerminal

/// Terminal attacks in every untrusted field reach the output only as visible text.
@Suite struct HostileInputTests {
    static let attacks = [
        "clear\u{1B}[2J\u{1B}[Hhome",
        "up\u{1B}[10A\u{1B}[2K",
        "title\u{1B}]0;pwned\u{07}",
        "title2\u{1B}]2;owned\u{1B}\\",
        "clip\u{1B}]52;c;ZXZpbCBwYXlsb2Fk\u{07}",
        "link\u{1B}]8;;https://evil.example/\u{1B}\\click me\u{1B}]8;;\u{1B}\\",
        "dcs\u{1B}Pq#0;2;0;0;0\u{1B}\\apc\u{1B}_payload\u{1B}\\",
        "c1csi\u{9B}31mred c1osc\u{9D}0;x\u{9C}",
        "rlo\u{202E}gnp.exe rli\u{2067}x lri\u{2066}y pdi\u{2069} lrm\u{200E}rlm\u{200F}alm\u{061C}lre\u{202A}",
        "bel\u{07}bs\u{08}\u{08}cr\rdel\u{7F}nul\u{00}end",
        "vt\u{0B}ff\u{0C}nel\u{85}ls\u{2028}ps\u{2029}tab\tend",
        "unterminated\u{1B}]0;never ends",
    ]
    static var all: String { attacks.joined(separator: " ") }

    /// Every attack in bodies, names, captions, quotes, file names and notices.
    static func hostileTimeline() -> [any MessageModel] {
        var models: [any MessageModel] = []
        var minute = 0.0
        func next() -> Date { minute += 1; return may1.addingTimeInterval(minute * 60) }
        for (i, attack) in attacks.enumerated() {
            models.append(TextNote(id: "t\(i)", senderName: "Eve \(attack)", date: next(), text: "body " + attack))
            models.append(TextNote(id: "r\(i)", senderName: "Mallory", date: next(), replyToID: "t\(i)",
                                      text: "reply"))
            models.append(Picture(id: "i\(i)", senderName: "Trudy", direction: .outgoing, date: next(),
                                       status: .read, pixelWidth: 640, pixelHeight: 480,
                                       imageName: attack + ".png", caption: "caption " + attack))
            models.append(Notice(id: "n\(i)", date: next(), notice: "notice " + attack))
        }
        models.append(TextNote(id: "all", senderName: Self.all, date: next(), text: Self.all))
        return models
    }

    /// A sender's name that starts with a combining mark or a tag character joins the space
    /// after the quote's arrow into one grapheme: the quote still has one arrow, ours, and the
    /// ASCII one alone under `--ascii`.
    @Test func aQuotedNameStartingWithAnExtenderGetsOneArrow() throws {
        for name in ["\u{0301}Zed", "\u{E0041}Zed", "\u{200D}Zed"] {
            let models: [any MessageModel] = [
                TextNote(id: "1", senderName: name, date: may1, text: "first"),
                TextNote(id: "2", senderName: "Bob", direction: .outgoing, date: may1.addingTimeInterval(60), replyToID: "1", text: "ok"),
            ]
            for ascii in [false, true] {
                let lines = try render(models, width: 40, ascii: ascii, parties: 2).lines.flatMap { $0 }
                let quote = try #require(lines.first { $0.contains("Zed:") }, "\(lines)")
                #expect(quote.components(separatedBy: ascii ? ">" : "↩").count == 2, "\(quote)")
                #expect(!ascii || !quote.contains("↩"), "\(quote)")
            }
        }
    }

    @Test func colourOffOutputHasNoControlBytesAtAll() throws {
        for width in [1, 5, 20, 80, 200, 2000] {
            for ascii in [false, true] {
                let out = try render(Self.hostileTimeline(), width: width, ascii: ascii, parties: 3)
                let bytes = out.bytes
                #expect(!bytes.contains(0x1B), "ESC at width \(width)")
                #expect(!bytes.contains(0x7F), "DEL at width \(width)")
                #expect(!bytes.contains { $0 < 0x20 && $0 != 0x0A }, "C0 at width \(width)")
                // C1 scalars are C2 80 … C2 9F in UTF-8.
                #expect(!zip(bytes, bytes.dropFirst()).contains { $0 == 0xC2 && (0x80...0x9F).contains($1) },
                        "C1 at width \(width)")
                let problems = unsafeOutput(String(decoding: bytes, as: UTF8.self), colorOn: false)
                #expect(problems.isEmpty, "width \(width): \(problems.prefix(5))")
            }
        }
    }

    @Test func colourOnOutputHasOnlyOurSGRSequences() throws {
        for depth in [ColorDepth.palette256, .trueColor] {
            for width in [1, 5, 20, 80, 200] {
                let out = try render(Self.hostileTimeline(), width: width, color: depth, parties: 3)
                let problems = unsafeOutput(String(decoding: out.bytes, as: UTF8.self), colorOn: true)
                #expect(problems.isEmpty, "\(depth) width \(width): \(problems.prefix(5))")
                #expect(out.bytes.contains(0x1B))
                // Nothing but SGR is left once SGR is stripped.
                #expect(!out.lines.joined().map { stripSGR($0) }.joined().utf8.contains(0x1B))
            }
        }
    }

    @Test func attacksAreShownAsVisibleText() throws {
        let text = try render(Self.hostileTimeline(), width: 300, parties: 3).text
        for visible in ["^[[2J^[[H", "^[]0;pwned^G", "^[]52;c;ZXZpbCBwYXlsb2Fk^G", "^[]8;;https://evil.example/^[\\",
                        "<9B>31m", "<9D>0;x<9C>", "<RLO>gnp.exe", "<RLI>", "<LRE>", "bel^Gbs^H^Hcr",
                        "del^?nul^@end", "^[]0;never ends"] {
            #expect(text.contains(visible) as Bool, "missing \(visible)")
        }
        // The isolate closed inside the text and the marks are benign: left out, not labelled
        // (InvisibleFormatting); the override and what is left open keep their labels above.
        #expect(text.contains("rli<RLI>x lriy pdi lrmrlmalmlre<LRE>"))
        // In names and file names, line breaks are single-line fields' controls too.
        #expect(text.contains("Eve vt^Kff^Lnel<85>ls<LS>ps<PS>tab"))
        // The box's label keeps a cell of padding inside its frame on each side, so it is cut there.
        #expect(text.contains("📷 vt^Kff^Lnel<85>ls<LS>ps<… │"))
    }

    @Test func colourMarksVisibleFormsInReverseVideo() throws {
        let out = try render([TextNote(id: "1", text: "a\u{1B}[2Jb")], width: 40, color: .palette256)
        #expect(out.text.contains("a\u{1B}[7m^[\u{1B}[0m[2Jb"))
    }

    @Test func emojiSequencesPassThroughByteForByte() throws {
        let sequences = ["👩🏽‍💻", "❤️", "👍🏿", "🏳️‍🌈", "👨‍👩‍👧‍👦", "1️⃣", "🧑🏻‍🤝‍🧑🏾", "✌🏼", "🇺🇦"]
        let text = sequences.joined(separator: " ")
        let models: [any MessageModel] = [
            TextNote(id: "1", senderName: "Ana 👩🏽‍💻", text: text),
            TextNote(id: "2", senderName: "Bo ❤️", date: may1.addingTimeInterval(60), replyToID: "1", text: text),
            Picture(id: "3", senderName: "Cy", date: may1.addingTimeInterval(120), imageName: "🏳️‍🌈.png",
                         caption: text),
        ]
        for color in [ColorDepth.none, .palette256] {
            let out = try render(models, width: 200, color: color, parties: 3).text
            for sequence in sequences { #expect(out.contains(sequence), "\(sequence) lost") }
            #expect(out.contains("Ana 👩🏽‍💻") && out.contains("Bo ❤️") && out.contains("🏳️‍🌈.png"))
        }
    }
}
