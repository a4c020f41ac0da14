import BubbleLayout
import Foundation

/// Random multilingual chat timelines: several senders, me, images with and without size,
/// notices, replies (to known and unknown ids), edits, statuses and day changes. The one
/// generator the randomised layout, conversation and render tests share; any seeded
/// `RandomNumberGenerator` drives it.
public struct TimelineGenerator<Random: RandomNumberGenerator> {
    public var random: Random

    public init(random: Random) { self.random = random }

    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    public mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    /// One to six fragments: scripts, emoji sequences, controls, a long URL, empty and spaced text.
    public mutating func text() -> String {
        (0..<int(1...6)).map { _ in timelineFragments.randomElement(using: &random)! }.joined(separator: " ")
    }

    /// `count` messages in time order, from some time on 1 May 2024, across days.
    public mutating func timeline(count: Int) -> [any MessageModel] {
        var models: [any MessageModel] = []
        var time = may1.timeIntervalSince1970 + Double(int(0...86_000))
        for i in 0..<count {
            time += [5.0, 40, 200, 900, 20_000, 90_000][int(0...5)]
            models.append(message(i, date: Date(timeIntervalSince1970: time)))
        }
        return models
    }

    /// Message `i` of a timeline (id `m<i>`; a reply names an earlier `m` id or a missing one), at `date`.
    public mutating func message(_ i: Int, date: Date) -> any MessageModel {
        let outgoing = chance(35)
        let sender: String? = outgoing ? "Me" : (chance(3) ? nil : timelineSenders.randomElement(using: &random)!)
        let direction: MessageDirection = outgoing ? .outgoing : .incoming
        let status: DeliveryStatus? = outgoing ? DeliveryStatus.allCases.randomElement(using: &random)
            : (chance(10) ? .read : nil)
        let reply: String? = chance(20) ? (chance(80) && i > 0 ? "m\(int(0...i - 1))" : "missing\(i)") : nil
        let edited = chance(15)
        switch int(0...9) {
        case 0...5:
            return TextNote(id: "m\(i)", senderName: sender, direction: direction, date: date,
                            status: status, isEdited: edited, replyToID: reply, text: text())
        case 6...7:
            let sized = chance(70)
            return Picture(
                id: "m\(i)", senderName: sender, direction: direction, date: date, status: status,
                isEdited: edited, replyToID: reply,
                pixelWidth: sized ? [1280, 720, 4000, 1, 300][int(0...4)] : nil,
                pixelHeight: sized ? [720, 1280, 100, 3000, 300][int(0...4)] : nil,
                imageName: timelineImageNames.randomElement(using: &random)!, caption: chance(50) ? text() : nil)
        default:
            return Notice(id: "m\(i)", direction: direction, date: date, notice: (sender ?? "Someone") + " " + text())
        }
    }
}

private let timelineFragments = [
    "Hi!", "ok", "See you at 10", "Привет, как дела?", "こんにちは世界", "你好，我们明天见面吧。",
    "مرحبا بالعالم", "שלום עולם", "안녕하세요", "Ελληνικά κείμενα", "नमस्ते दुनिया", "ສະບາຍດີ",
    "👋", "👍🏽", "👩‍👩‍👧‍👦", "🏳️‍🌈", "❤️", "1️⃣", "🇯🇵🇫🇷", "e\u{301}t\u{E9}", "ｆｕｌｌｗｉｄｔｈ",
    "https://example.com/a/very/long/path/that/will/not/fit/on/one/line?query=string&and=more",
    "supercalifragilisticexpialidocious", "tab\there", "line one\nline two", "CR\r\nLF",
    "a\u{1B}[31mred", "bell\u{07}", "\u{202E}reversed", "ﷺ", "…", "×", "😀😀😀😀😀😀😀😀😀😀😀😀",
    "   spaced   out   ", "",
]
private let timelineSenders = ["Alice", "Bob", "陈伟", "José 👩🏽‍💻", "Zoë"]
private let timelineImageNames = ["IMG_0001.jpg", "a very long photo name from the holidays 2024.heic", "写真.png",
                                  "evil\u{1B}]0;pwned\u{07}.jpg"]
