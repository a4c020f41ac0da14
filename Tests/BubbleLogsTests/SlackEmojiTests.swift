import BubbleLayout
import BubbleSamples
import BubbleTestSupport
@testable import BubbleLogs
import Foundation
import Testing

/// Slack's emoji shortcodes (`:+1::skin-tone-3:`) read as the emoji Slack draws.
@Suite struct SlackEmojiTests {
    /// The export's texts as Slack shows them: standard shortcodes as emoji, a tone after one
    /// that takes tones, custom emoji and shortcodes in code and links as written.
    @Test func shortcodesInAnExportAreReadAsTheEmojiSlackDraws() throws {
        let result = try readAll(corpus("exports/slack/emoji"))
        #expect(result.diagnostics.isEmpty)
        #expect(result.texts == [
            "Release is out 🎉 thanks all 👍🏼 ❤️",
            ":partyparrot: :partyparrot: (custom emoji stay as written) 👨‍👩‍👧‍👦 🇩🇪 🎉:skin-tone-2:",
            // (Code is drawn as code: its backticks are markup, its shortcodes text.)
            "Run grep -c :smile: log at 10:30:00, then see the :ok: page (https://example.com/a:ok:b)\nkey:ok:value\ndone ✅",
        ])
    }

    /// Every short name of the generated table (1,964 of them, aliases such as `thumbsup` for
    /// `+1` included) becomes one emoji, a single grapheme cluster by the standard library's
    /// own segmentation, and each of the five tones of one that takes them is another.
    @Test func everyShortNameIsOneEmojiAndEveryToneAnother() {
        let lines = SlackEmoji.table.split(separator: "\n")
        #expect(lines.count == 1_964)
        var toned = 0
        for line in lines {
            let fields = line.split(separator: "\t").map(String.init)
            let name = fields[0]
            // A tone alone stays as written (`whatIsNotAShortcodeIsLeftAsWritten`).
            guard !name.hasPrefix("skin-tone-") else { continue }
            #expect(SlackEmoji.replacingShortcodes(in: ":\(name):") == fields[1], "\(name)")
            #expect(fields[1].count == 1, "\(name): \(fields[1].unicodeScalars.map { String($0.value, radix: 16) })")
            guard fields.count == 7 else { continue }
            toned += 1
            for tone in 2...6 {
                let form = SlackEmoji.replacingShortcodes(in: ":\(name)::skin-tone-\(tone):")
                #expect(form == fields[tone] && form.count == 1 && form != fields[1], "\(name) tone \(tone)")
            }
        }
        #expect(toned > 300)
        #expect(SlackEmoji.emoji(named: "thumbsup") == "👍" && SlackEmoji.emoji(named: "+1") == "👍")
    }

    /// What is not a known shortcode is left exactly as it was: times, addresses and numbers
    /// (a shortcode's colon starts a word), custom names, uppercase, a lone tone, unclosed
    /// colons, and anything in code or in `<…>`. A backtick or `<` with no partner is plain text,
    /// and shortcodes after it still read. Replacing twice gives what replacing once gave.
    @Test func whatIsNotAShortcodeIsLeftAsWritten() {
        for text in ["10:30:00", "fe80::1:2", "fe80::a:b", "fe80::1:de:ad", "10:-1:1", "12:ok:30", "3:100:1", "a:smile:b",
                     "x:y:smile:", "a:b", ":", "::", ":::", ":Smile:", ":partyparrot:", ":skin-tone-2:",
                     ":smile", "smile:", "`:smile:`", "```\n:smile:\n```", "<https://x.example/:smile:|:smile:>",
                     ": smile :", ":smi le:", String(repeating: "a", count: 200) + ":"] {
            #expect(SlackEmoji.replacingShortcodes(in: text) == text, "\(text)")
        }
        #expect(SlackEmoji.replacingShortcodes(in: ":smile::heart:(:tada:)") == "😄❤️(🎉)", "a closing colon can open the next shortcode")
        #expect(SlackEmoji.replacingShortcodes(in: "`a` :smile: `b`") == "`a` 😄 `b`")
        #expect(SlackEmoji.replacingShortcodes(in: "don`t forget :tada:") == "don`t forget 🎉")
        #expect(SlackEmoji.replacingShortcodes(in: "one ` here\nnext :tada: `code :x:`") == "one ` here\nnext 🎉 `code :x:`")
        #expect(SlackEmoji.replacingShortcodes(in: "``` open :tada:") == "``` open 🎉")
        #expect(SlackEmoji.replacingShortcodes(in: "a < b :tada:\n<x :y:>") == "a < b 🎉\n<x :y:>")
        var random = SeededGenerator(seed: 0x5_1ACC)
        let pieces = [":", "smile", "+1", "::", "skin-tone-3", "`", "```", "<", ">", " ", "é", "🙂", "x", "\n", "heart"]
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...16, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            let once = SlackEmoji.replacingShortcodes(in: text)
            #expect(SlackEmoji.replacingShortcodes(in: once) == once, "\(text.debugDescription)")
            if !text.contains(":") { #expect(once == text) }
        }
    }
}
