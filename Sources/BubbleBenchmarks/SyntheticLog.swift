import BubbleLogs
import BubbleSamples
import BubbleText
import Foundation

/// A reproducible chat log in the native JSON Lines format, for benchmarks: a realistic mix of
/// message lengths, scripts, emoji, images and system notices over several days.
public struct SyntheticLog {
    public var messageCount: Int
    public var seed: UInt64

    public init(messageCount: Int, seed: UInt64 = SyntheticLog.defaultSeed) {
        self.messageCount = messageCount
        self.seed = seed
    }

    /// The log's lines, oldest first. The same count and seed always give the same lines.
    public func lines() -> [String] {
        var random = SeededGenerator(seed: seed)
        var lines: [String] = []
        lines.reserveCapacity(messageCount)
        var time: Int64 = 1_714_550_400  // 2024-05-01T08:00:00Z
        var previousSender = Self.people[0]
        for index in 0..<messageCount {
            // Bursts of replies a few seconds apart, pauses of minutes, and now and then a night.
            let gapRoll = Int.random(in: 0..<100, using: &random)
            time += gapRoll < 60 ? Int64.random(in: 5...90, using: &random)
                : gapRoll < 97 ? Int64.random(in: 120...3_600, using: &random)
                : Int64.random(in: 28_800...86_400, using: &random)
            let sender = Int.random(in: 0..<100, using: &random) < 55 ? previousSender : Self.people.randomElement(using: &random)!
            previousSender = sender
            let id = "\(index + 1)"
            let kindRoll = Int.random(in: 0..<100, using: &random)
            var fields: [(String, String)] = [("id", JSONString.quoted(id))]
            if kindRoll < 3 {
                let notice = Self.notices.randomElement(using: &random)!.replacingPlaceholder(with: sender)
                fields += [("type", JSONString.quoted("system")), ("date", "\(time)"), ("text", JSONString.quoted(notice))]
            } else if kindRoll < 11 {
                fields += [("type", JSONString.quoted("image")), ("from", JSONString.quoted(sender)), ("date", "\(time)")]
                let name = "IMG_\(String(1000 + index % 9000)).jpg"
                if Int.random(in: 0..<4, using: &random) == 0 {
                    fields.append(("image", "{\"name\":\(JSONString.quoted(name))}"))
                } else {
                    let (w, h) = Self.imageSizes.randomElement(using: &random)!
                    fields.append(("image", "{\"width\":\(w),\"height\":\(h),\"name\":\(JSONString.quoted(name))}"))
                }
                if Bool.random(using: &random) {
                    fields.append(("text", JSONString.quoted(Self.phrases.randomElement(using: &random)!)))
                }
            } else {
                fields += [("type", JSONString.quoted("text")), ("from", JSONString.quoted(sender)), ("date", "\(time)"),
                           ("text", JSONString.quoted(text(&random)))]
                if sender == Self.people[0] {
                    fields.append(("status", JSONString.quoted(["sent", "delivered", "read", "read", "read"].randomElement(using: &random)!)))
                }
                if index > 0, Int.random(in: 0..<20, using: &random) == 0 {
                    fields.append(("replyTo", JSONString.quoted("\(Int.random(in: max(1, index - 30)...index, using: &random))")))
                }
                if Int.random(in: 0..<40, using: &random) == 0 { fields.append(("edited", "true")) }
            }
            lines.append("{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
        }
        return lines
    }

    /// The seed `bubbles bench` uses unless told otherwise.
    public static let defaultSeed: UInt64 = 0x42_75_62_62_6C_65

    /// The user's own name in the log: pass it as `--me`.
    public static let me = "Me"

    private func text(_ random: inout SeededGenerator) -> String {
        // Mostly short chat, some sentences, a few long paragraphs.
        let roll = Int.random(in: 0..<100, using: &random)
        let count = roll < 45 ? 1 : roll < 85 ? Int.random(in: 2...4, using: &random) : Int.random(in: 5...14, using: &random)
        var parts: [String] = []
        for _ in 0..<count {
            let pick = Int.random(in: 0..<100, using: &random)
            if pick < 8 {
                parts.append(Self.emoji.randomElement(using: &random)!)
            } else if pick < 11 {
                parts.append(Self.urls.randomElement(using: &random)!)
            } else {
                parts.append(Self.phrases.randomElement(using: &random)!)
            }
        }
        return parts.joined(separator: Int.random(in: 0..<10, using: &random) == 0 ? "\n" : " ")
    }

    static let people = [me, "Alice", "Bob", "Chen Wei", "Yael", "Omar"]

    static let phrases = [
        "ok", "lol", "sounds good!", "On my way, 10 minutes.", "Did you see the game last night?",
        "Can you send me the slides before the meeting tomorrow? I want to go through them once.",
        "I think we should move the release to Thursday, QA found two more crashes in the uploader.",
        "好的，明天见！", "我们周末去爬山吧，天气预报说是晴天。", "これはテストです。よろしくお願いします。",
        "今日はとても暑いですね、冷たいものでも飲みに行きませんか？", "오늘 회의는 3시에 시작합니다.",
        "مرحبا، كيف حالك اليوم؟", "سأرسل لك الملف بعد قليل إن شاء الله.", "שלום! מה שלומך?",
        "נפגש מחר בבוקר ליד התחנה.", "Привет! Как дела?", "Встречаемся у метро в семь.",
        "สวัสดีครับ วันนี้อากาศดีมาก", "नमस्ते, आप कैसे हैं?", "Ça marche, à tout à l’heure !",
        "¿Dónde está la estación de tren?", "Grüße aus München – das Wetter ist großartig.",
        "Ἐν ἀρχῇ ἦν ὁ λόγος", "naïve café résumé coöperate", "Tab\tseparated\tvalues",
    ]

    static let emoji = [
        "👋", "😂😂😂", "👍🏽", "❤️", "🎉🎉", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🇯🇵🇫🇷", "1️⃣2️⃣3️⃣", "🧑🏿‍💻", "🙈🙉🙊", "☕️", "✌🏻",
    ]

    static let urls = [
        "https://example.com/articles/2024/05/01/a-very-long-article-title-that-goes-on-and-on?utm_source=chat&utm_medium=share",
        "https://github.com/example/project/pull/12345/files#diff-0123456789abcdef0123456789abcdef",
        "http://localhost:8080/api/v1/users?id=42&expand=true",
    ]

    static let notices = [
        "{} joined the group", "{} left the group", "{} pinned a message", "{} changed the group name to “Weekend 🏔️”",
        "Missed voice call from {}", "{} started a video call (12 min)",
    ]

    static let imageSizes = [(1280, 720), (720, 1280), (1024, 1024), (4032, 3024), (640, 480), (1080, 1920), (3000, 1000)]
}

extension String {
    fileprivate func replacingPlaceholder(with name: String) -> String {
        guard let range = range(of: "{}") else { return self }
        return replacingCharacters(in: range, with: name)
    }
}
