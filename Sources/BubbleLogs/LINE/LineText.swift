import BubbleLayout
import Foundation

/// LINE's "Export chat history" `.txt`: a heading (`[LINE] Chat history with NAME`, `Saved on:
/// …`), then for each day a date line (`2024/03/02(Sat)`, `Sat, 03/02/2024`, `2024.03.02
/// Saturday`, a Thai Buddhist-era `วันเสาร์, 02/03/2567`) and one line per message:
/// `TIME<TAB>SENDER<TAB>TEXT`, where TIME is `18:01`, `6:01 PM`, `午後6:01`, `下午6:01` or `오후
/// 6:01`. A text of several lines is written in double quotes (`""` for a quote mark inside). A
/// notice has no sender (`TIME<TAB><TAB>TEXT` or `TIME<TAB>TEXT`).
///
/// Times are the phone's local time, read in the options' zone. Photos, stickers, videos, files
/// and voice messages are written as markers (`[Photo]`, `[スタンプ]`) and read as labels
/// (`[photo]`, `[sticker]`); calls (`☎ …`) and notices are system rows. In a chat with one other
/// person, named in the heading, the other sender is "me" unless `--me` says otherwise. Messages
/// carry no id: each is named by its line (`L12`).
enum LineText {
    /// Whether `head` starts as a LINE export: its `[LINE]` heading, or a date line followed by
    /// a message line.
    static func looksLikeExport(_ head: ArraySlice<UInt8>) -> Bool {
        if head.starts(with: Array("[LINE]".utf8)) { return true }
        let lines = TextLines.split(Array(head.prefix(4096))).filter { !$0.isEmpty }.prefix(2)
        guard lines.count == 2, date(lines[lines.startIndex]) != nil else { return false }
        return message(lines[lines.startIndex + 1]) != nil
    }

    // MARK: Dates and times

    /// A date line's day: year, month, day (a Buddhist-era year made Gregorian).
    static func date(_ line: Substring) -> (year: Int, month: Int, day: Int)? {
        guard !line.contains("\t"), line.utf8.count <= 64 else { return nil }
        let numbers = line.split(whereSeparator: { !$0.isASCII || !$0.isNumber }).compactMap { Int($0) }
        let ascii = line.unicodeScalars.first.map { $0.isASCII } ?? false
        var ymd: (Int, Int, Int)
        if let first = line.unicodeScalars.first, ("0"..."9").contains(first) {
            // 2024/03/02(Sat), 2024.03.02 Saturday
            guard numbers.count >= 3, numbers[0] >= 1000 else { return nil }
            ymd = (numbers[0], numbers[1], numbers[2])
        } else {
            // A weekday first: English writes month/day/year; the other locales day/month/year.
            guard numbers.count == 3, numbers[2] >= 1000, line.contains("/") || line.contains(".") else { return nil }
            ymd = ascii ? (numbers[2], numbers[0], numbers[1]) : (numbers[2], numbers[1], numbers[0])
            if ymd.1 > 12, ymd.2 <= 12 { ymd = (ymd.0, ymd.2, ymd.1) }
        }
        if ymd.0 >= 2400 { ymd.0 -= 543 }  // the Thai solar calendar: Buddhist era
        guard (1...12).contains(ymd.1), ymd.2 >= 1, ymd.2 <= LogTimestamp.daysInMonth(year: ymd.0, month: ymd.1), ymd.0 < 10000 else { return nil }
        return ymd
    }

    /// Words for "before noon" and "after noon" before or after a time.
    private static let morning = ["AM", "am", "a.m.", "上午", "午前", "오전", "ก่อนเที่ยง"]
    private static let afternoon = ["PM", "pm", "p.m.", "下午", "午後", "오후", "หลังเที่ยง"]

    /// Seconds since midnight of a time field.
    static func time(_ field: Substring) -> Int? {
        var text = field.trimmingCharacters(in: .whitespaces)[...]
        var half: Bool? = nil
        for (words, isPM) in [(morning, false), (afternoon, true)] {
            for word in words {
                if text.hasPrefix(word) { text = text.dropFirst(word.count); half = isPM }
                else if text.hasSuffix(word) { text = text.dropLast(word.count); half = isPM }
            }
        }
        text = text.trimmingCharacters(in: .whitespaces)[...]
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              let hour = Int(parts[0]), let minute = Int(parts[1]), minute < 60,
              parts[0].allSatisfy(\.isASCII), parts[1].allSatisfy(\.isASCII) else { return nil }
        if let isPM = half {
            guard (1...12).contains(hour) || hour == 0 else { return nil }
            return ((hour % 12) + (isPM ? 12 : 0)) * 3600 + minute * 60
        }
        guard hour < 24 else { return nil }
        return hour * 3600 + minute * 60
    }

    /// A message line's time, sender (nil for a notice) and text.
    static func message(_ line: Substring) -> (seconds: Int, sender: Substring?, text: Substring)? {
        let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count >= 2, let seconds = time(fields[0]) else { return nil }
        if fields.count == 2 { return (seconds, nil, fields[1]) }
        return (seconds, fields[1].isEmpty ? nil : fields[1], fields[2])
    }

    // MARK: Reading

    /// The heading's "with NAME" in a one-to-one chat, in the languages whose wording we know.
    static func partner(_ heading: Substring) -> String? {
        let rest = heading.dropFirst("[LINE]".count).trimmingCharacters(in: .whitespaces)
        for prefix in ["Chat history with ", "ประวัติการแชทกับ ", "ประวัติการสนทนากับ "] where rest.hasPrefix(prefix) {
            return String(rest.dropFirst(prefix.count))
        }
        for suffix in ["とのトーク履歴"] where rest.hasSuffix(suffix) { return String(rest.dropLast(suffix.count)) }
        return nil
    }

    struct Parsed {
        var line: Int
        var micros: Int64
        var sender: String?
        var text: String
    }

    static func producer(bytes: [UInt8], file: String, options: LogReadOptions) -> RecordProducer {
        let lines = TextLines.split(bytes)
        var rejections: [(line: Int, item: () -> ProducedRecord)] = []
        var parsed: [Parsed] = []
        var day: (year: Int, month: Int, day: Int)?
        var partnerName: String?
        var k = 0
        // The heading: "[LINE] …", "Saved on: …", a blank line.
        if let first = lines.first, first.hasPrefix("[LINE]") || first.hasPrefix("\u{FEFF}[LINE]") {
            partnerName = partner(first.hasPrefix("\u{FEFF}") ? first.dropFirst() : first)
            k = 1
            if k < lines.count, !lines[k].isEmpty, message(lines[k]) == nil, date(lines[k]) == nil { k += 1 }
        }
        while k < lines.count {
            let line = lines[k]
            let number = k + 1
            k += 1
            if line.isEmpty { continue }
            if let found = date(line) {
                day = found
                continue
            }
            guard let (seconds, sender, first) = message(line) else {
                if !parsed.isEmpty, !line.contains("\t") {
                    // A line of the message before it that was not quoted.
                    parsed[parsed.count - 1].text += "\n" + line
                } else {
                    rejections.append((number, { .rejected(LogDiagnostic(position: LogPosition(file: file, line: number),
                                                           reason: "not a LINE message: expected \"18:01<TAB>Name<TAB>text\" after a date line such as \"2024/03/02(Sat)\"")) }))
                }
                continue
            }
            guard let day else {
                rejections.append((number, { .rejected(LogDiagnostic(position: LogPosition(file: file, line: number),
                                                       reason: "a message before any date line: its day is unknown")) }))
                continue
            }
            var text = String(first)
            if text.hasPrefix("\"") {
                if let (quoted, next) = quotedText(text, lines: lines, from: k) {
                    text = quoted
                    k = next
                }
            }
            let days = LogTimestamp.daysFromCivil(year: day.year, month: day.month, day: day.day)
            parsed.append(Parsed(line: number, micros: Int64(days * 86_400 + seconds) * 1_000_000, sender: sender.map(String.init), text: text))
        }
        // In a one-to-one chat the sender who is not the partner is the exporter.
        var me = options.me
        if me == nil, let partnerName {
            let senders = Set(parsed.compactMap(\.sender))
            if senders.count == 2, senders.contains(partnerName) { me = senders.first { $0 != partnerName } }
        }
        let zoneless = ZonelessTimes()
        var items: [(line: Int, item: () -> ProducedRecord)] = rejections
        let timeZone = options.timeZone
        for (index, message) in parsed.enumerated() {
            items.append((message.line, { [me] in
                zoneless.seen = true
                let offset = timeZone.secondsFromGMT(for: LogTimestamp.date(microseconds: message.micros))
                let date = LogTimestamp.date(microseconds: message.micros - Int64(offset) * 1_000_000)
                let position = LogPosition(file: file, line: message.line, messageIndex: index + 1)
                return .record(record(message, date: date, me: me), position)
            }))
        }
        // Rejections and records in line order.
        return ListProducer(items.sorted { $0.line < $1.line }.map(\.item), zoneless: zoneless)
    }

    /// A text in double quotes that starts on a message line (`first`, its opening quote
    /// included) and may go on over the lines from `from`: the text without its quotes (`""`
    /// read as `"`), and the line after it. Nil when it is not closed before the next message or
    /// date line (then the quote mark is the text's own).
    static func quotedText(_ first: String, lines: [Substring], from: Int) -> (String, Int)? {
        func closes(_ line: Substring) -> Bool {
            // An odd run of quote marks at the end: the last one closes.
            let run = line.reversed().prefix { $0 == "\"" }.count
            return run % 2 == 1
        }
        let opening = first.dropFirst()
        if !opening.isEmpty, closes(opening) {
            return (String(opening.dropLast()).replacingOccurrences(of: "\"\"", with: "\""), from)
        }
        var collected = [String(opening)]
        var k = from
        while k < lines.count, k - from < 10_000 {
            let line = lines[k]
            if message(line) != nil || date(line) != nil { return nil }
            k += 1
            if closes(line) {
                collected.append(String(line.dropLast()))
                return (collected.joined(separator: "\n").replacingOccurrences(of: "\"\"", with: "\""), k)
            }
            collected.append(String(line))
        }
        return nil
    }

    /// Markers LINE writes for what it does not export, by locale, and their labels.
    private static let markers: [String: String] = [
        "[Photo]": "[photo]", "[写真]": "[photo]", "[照片]": "[photo]", "[รูป]": "[photo]", "[사진]": "[photo]", "[Foto]": "[photo]",
        "[Sticker]": "[sticker]", "[スタンプ]": "[sticker]", "[貼圖]": "[sticker]", "[贴图]": "[sticker]", "[สติกเกอร์]": "[sticker]", "[스티커]": "[sticker]",
        "[Video]": "[video]", "[動画]": "[video]", "[影片]": "[video]", "[视频]": "[video]", "[วิดีโอ]": "[video]", "[동영상]": "[video]",
        "[File]": "[file]", "[ファイル]": "[file]", "[檔案]": "[file]", "[文件]": "[file]", "[ไฟล์]": "[file]", "[파일]": "[file]",
        "[Voice message]": "[voice message]", "[Audio]": "[voice message]", "[ボイスメッセージ]": "[voice message]", "[語音訊息]": "[voice message]",
        "[Location]": "[location]", "[位置情報]": "[location]", "[Contact]": "[contact]", "[連絡先]": "[contact]", "[Album]": "[album]", "[アルバム]": "[album]",
    ]

    private static func record(_ message: Parsed, date: Date, me: String?) -> any LogRecord {
        let id = "L\(message.line)"
        guard let sender = message.sender else {
            return LogSystemMessage(header: LogMessageHeader(id: id, senderName: nil, date: date), notice: message.text)
        }
        let name = ExpansionLimit.name(sender)
        if message.text.hasPrefix("☎") {
            return LogSystemMessage(header: LogMessageHeader(id: id, senderName: nil, date: date), notice: "\(name): \(message.text)")
        }
        let header = LogMessageHeader(id: id, senderName: name, direction: SenderName.matches(me, name) ? .outgoing : .incoming, date: date)
        return LogTextMessage(header: header, text: markers[message.text] ?? message.text)
    }
}
