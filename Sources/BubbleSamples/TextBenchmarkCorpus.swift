/// Chat-like texts in many scripts, the same on every run: the text tests and
/// `Tools/prepare-instructions.sh` draw from them.
public enum TextBenchmarkCorpus {
    /// Phrases in many scripts, as people type them in chats.
    public static let phrases: [String] = [
        "hey, are you coming tonight?", "yes! see you at 8 :)", "ok", "lol", "can you send me the link?",
        "https://example.com/articles/2024/05/unicode-line-breaking?ref=chat&utm_source=bubbles",
        "Meeting moved to 3:30pm (room 4B). Bring the Q3 numbers — $12,500.00 budget, 15% over.",
        "I think the problem is in the parser; it doesn't handle CRLF line endings properly.",
        "今日は本当にありがとうございました。また来週お会いしましょう！", "我们明天下午三点在咖啡馆见面，好吗？",
        "안녕하세요, 오늘 회의는 몇 시에 시작하나요?", "مرحبا، كيف حالك اليوم؟ أتمنى أن تكون بخير.",
        "שלום, מה שלומך? נתראה מחר בבוקר.", "สวัสดีครับ วันนี้อากาศดีมาก ไปเที่ยวกันไหม",
        "Привет! Как дела? Давно не виделись.", "Γεια σου, τι κάνεις σήμερα;",
        "नमस्ते, आप कैसे हैं? कल मिलते हैं।", "Ça va ? On se voit à la brasserie près de l’église.",
        "Größe: 42 — naïve café résumé", "😀😂🤣 that's hilarious", "👍🏽", "🇫🇷🇩🇪🇯🇵 trip photos!",
        "👨‍👩‍👧‍👦 family dinner at 7", "❤️❤️❤️", "#️⃣ keycap test 1️⃣2️⃣3️⃣",
        "see /usr/local/bin/swift --version and ~/.config/bubbles/settings.json",
        "tabs\there\tand\tthere", "line one\nline two\nline three",
    ]

    /// `count` deterministic messages of one to a dozen phrases each (a fixed-seed generator).
    public static func messages(count: Int, seed: UInt64 = 0x5EED) -> [String] {
        var state = seed
        func next() -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
        }
        var messages: [String] = []
        messages.reserveCapacity(count)
        for _ in 0..<count {
            var message = ""
            let pieces = 1 + next() % 12
            for piece in 0..<pieces {
                if piece > 0 { message += next() % 8 == 0 ? "\n" : " " }
                message += phrases[next() % phrases.count]
            }
            messages.append(message)
        }
        return messages
    }
}
