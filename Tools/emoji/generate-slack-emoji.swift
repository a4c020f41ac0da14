// Generates Sources/BubbleLogs/Slack/SlackEmojiTable.swift from emoji.json (iamcal/emoji-data,
// the data Slack's emoji shortcodes come from; Tools/emoji/fetch-emoji-data.sh fetches a pinned
// copy): every short name (`+1`, `thumbsup`, `man-heart-man`) with the emoji it stands for, and
// the five skin-tone forms of the emoji that have them (`:+1::skin-tone-3:`). Run from the
// package root:
//
//     json=$(Tools/emoji/fetch-emoji-data.sh)
//     swiftc -O Tools/emoji/generate-slack-emoji.swift -o /tmp/generate-slack-emoji
//     /tmp/generate-slack-emoji "$json" > Sources/BubbleLogs/Slack/SlackEmojiTable.swift

import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(("generate-slack-emoji: " + message + "\n").data(using: .utf8)!)
    exit(1)
}

guard CommandLine.arguments.count == 2 else { fail("usage: generate-slack-emoji EMOJI.JSON > OUTPUT_FILE") }
let path = CommandLine.arguments[1]
guard let data = FileManager.default.contents(atPath: path),
      let entries = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else {
    fail("cannot read \(path) as an array of emoji")
}

/// "1F44D-1F3FB" → the scalars, written as Swift escapes.
func escaped(_ unified: String) -> String {
    unified.split(separator: "-").map { hex -> String in
        guard let value = UInt32(hex, radix: 16), Unicode.Scalar(value) != nil else { fail("bad code point \(hex) in \(unified)") }
        return "\\u{\(hex)}"
    }.joined()
}

/// The five single-tone modifiers, as emoji.json keys them (and twice over for the emoji of two
/// people, which Slack writes with one tone for both).
let tones = ["1F3FB", "1F3FC", "1F3FD", "1F3FE", "1F3FF"]
var lines: [String] = []
var names = Set<String>()
var newest = (0, 0)
for entry in entries {
    guard let unified = entry["unified"] as? String, let shortNames = entry["short_names"] as? [String] else {
        fail("an entry without unified or short_names: \(entry["name"] ?? "?")")
    }
    if let added = entry["added_in"] as? String {
        let parts = added.split(separator: ".").compactMap { Int($0) }
        if parts.count == 2, (parts[0], parts[1]) > newest { newest = (parts[0], parts[1]) }
    }
    var forms = [escaped(unified)]
    if let variations = entry["skin_variations"] as? [String: [String: Any]] {
        for tone in tones {
            guard let variation = variations[tone] ?? variations["\(tone)-\(tone)"], let form = variation["unified"] as? String else {
                fail("\(shortNames.first ?? unified): no \(tone) variation")
            }
            forms.append(escaped(form))
        }
    }
    for name in shortNames {
        guard names.insert(name).inserted else { fail("the short name \(name) twice") }
        guard name.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F || $0 == 0x2B || $0 == 0x2D }) else {
            fail("the short name \(name) has a character shortcodes cannot hold")
        }
        lines.append(([name] + forms).joined(separator: "\\t"))
    }
}
lines.sort()

print("""
// GENERATED FILE: do not edit. Regenerate from emoji.json (iamcal/emoji-data, MIT licence) with
//
//     json=$(Tools/emoji/fetch-emoji-data.sh)
//     swiftc -O Tools/emoji/generate-slack-emoji.swift -o /tmp/generate-slack-emoji
//     /tmp/generate-slack-emoji "$json" > Sources/BubbleLogs/Slack/SlackEmojiTable.swift
//
// \(names.count) short names of \(entries.count) emoji, up to Emoji \(newest.0).\(newest.1).

extension SlackEmoji {
    /// One line per short name, sorted: the name, a tab, the emoji, and for an emoji with skin
    /// tones a tab and each of its five toned forms (`skin-tone-2` … `skin-tone-6`).
    static let table = \"\"\"
""")
for line in lines { print(line) }
print("""
\"\"\"
}
""")
