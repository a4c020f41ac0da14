import BubbleLayout
import Foundation

/// The `.txt` files `imessage-exporter` (`-f txt`) writes, one per conversation: each message is a
/// block ending in a blank line,
///
///     May 17, 2022  5:29:42 PM (Read by you after 1 minute)
///     +15558675309
///     Hello world
///     Reactions:
///     Loved by Me
///
/// its time (the exporting Mac's local time, read in the options' zone), its sender ("Me" for the
/// exporter's own), then its parts: text, attachment paths, `Sticker from NAME: path`, a
/// "Reactions:" list (`Loved by NAME`), replies indented by four spaces (each a block of its own,
/// read as a reply to the message), an edit history (the original after its time, then `Edited 5
/// seconds later: text`), `You deleted a message.`. A renamed conversation is one line:
/// `<time> NAME renamed the conversation to X`.
///
/// Messages carry no id: each is named by the line its time is on (`L12`).
enum IMessageText {
    /// The month names `%b` writes.
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// A time line's parts: the local time as if in UTC, and what follows it on the line.
    struct TimeLine {
        var microsAsUTC: Int64
        var rest: Substring
    }

    /// Reads `May 17, 2022  5:29:42 PM…` (the hour padded with a space or not).
    static func timeLine(_ line: Substring) -> TimeLine? {
        let bytes = Array(line.utf8.prefix(40))
        guard bytes.count >= 22, let month = months.firstIndex(where: { bytes.starts(with: Array($0.utf8)) }) else { return nil }
        var i = 3
        func expect(_ byte: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }
        func number(_ minDigits: Int, _ maxDigits: Int) -> Int? {
            var value = 0, count = 0
            while i < bytes.count, count < maxDigits, (0x30...0x39).contains(bytes[i]) {
                value = value * 10 + Int(bytes[i] - 0x30)
                i += 1
                count += 1
            }
            return count >= minDigits ? value : nil
        }
        guard expect(0x20), let day = number(1, 2), expect(UInt8(ascii: ",")), expect(0x20), let year = number(4, 4), expect(0x20) else { return nil }
        _ = expect(0x20)  // `%l` pads a one-digit hour with a space
        guard let hour12 = number(1, 2), expect(UInt8(ascii: ":")), let minute = number(2, 2), expect(UInt8(ascii: ":")),
              let second = number(2, 2), expect(0x20), i + 1 < bytes.count,
              bytes[i + 1] == UInt8(ascii: "M"), bytes[i] == UInt8(ascii: "A") || bytes[i] == UInt8(ascii: "P") else { return nil }
        let pm = bytes[i] == UInt8(ascii: "P")
        i += 2
        guard (1...12).contains(hour12), (1...31).contains(day), minute < 60, second < 61 else { return nil }
        let hour = hour12 % 12 + (pm ? 12 : 0)
        guard year >= 1970, day <= LogTimestamp.daysInMonth(year: year, month: month + 1) else { return nil }
        let days = LogTimestamp.daysFromCivil(year: year, month: month + 1, day: day)
        let micros = Int64(days * 86_400 + hour * 3600 + minute * 60 + second) * 1_000_000
        let rest = line.utf8.dropFirst(i)
        guard rest.isEmpty || rest.first == 0x20 else { return nil }
        return TimeLine(microsAsUTC: micros, rest: Substring(rest))
    }

    /// Whether the first lines of `head` are an imessage-exporter message: a time line alone (or
    /// with its "(Read by …)") and a sender line after it.
    static func looksLikeExport(_ head: ArraySlice<UInt8>) -> Bool {
        let lines = head.split(separator: 0x0A, maxSplits: 3, omittingEmptySubsequences: false).prefix(3)
            .map { Substring(String(decoding: $0.last == 0x0D ? $0.dropLast() : $0, as: UTF8.self)) }
        guard lines.count >= 2, let time = timeLine(lines[0]) else { return false }
        let rest = time.rest.drop { $0 == " " }
        if rest.contains(" renamed the conversation to ") || rest.hasSuffix(" changed the group photo.") { return true }
        return (rest.isEmpty || rest.hasPrefix("(Read by ")) && !lines[1].isEmpty
    }

    static func producer(bytes: [UInt8], file: String, options: LogReadOptions) -> RecordProducer {
        let zoneless = ZonelessTimes()
        let lines = TextLines.split(bytes)
        var items: [() -> ProducedRecord] = []
        var index = 0
        // Blocks start at a time line at the file's start or after a blank line.
        var starts: [Int] = []
        for (number, line) in lines.enumerated() where (number == 0 || lines[number - 1].isEmpty) && !line.isEmpty {
            if timeLine(line) != nil { starts.append(number) }
        }
        // Lines before the first block (a damaged or cut file) are one rejected record.
        if let first = lines.firstIndex(where: { !$0.isEmpty }), first < (starts.first ?? lines.count) {
            items.append { .rejected(LogDiagnostic(position: LogPosition(file: file, line: first + 1),
                                                   reason: "not an imessage-exporter message: expected a line like \"May 17, 2022  5:29:42 PM\" before the sender")) }
        }
        let reader = IMessageBlockReader(me: options.me, timeZone: options.timeZone, zoneless: zoneless)
        for (k, start) in starts.enumerated() {
            var end = k + 1 < starts.count ? starts[k + 1] : lines.count
            while end > start, lines[end - 1].isEmpty { end -= 1 }
            let block = Array(lines[start..<end])
            index += 1
            let messageIndex = index
            let records = reader.records(block: block, firstLine: start + 1)
            for (offset, produced) in records.enumerated() {
                items.append {
                    switch produced {
                    case .success(let (record, line)):
                        return .record(record, LogPosition(file: file, line: line, messageIndex: offset == 0 ? messageIndex : nil))
                    case .failure(let problem):
                        return .rejected(LogDiagnostic(position: LogPosition(file: file, line: start + 1), reason: problem.reason))
                    }
                }
            }
        }
        return ListProducer(items, zoneless: zoneless)
    }
}

/// Reads one block of an imessage-exporter `.txt` into its message and the replies in it.
struct IMessageBlockReader {
    var me: String?
    var timeZone: TimeZone
    var zoneless: ZonelessTimes

    /// The classic tapbacks' names as the exporter writes them, and their emoji.
    static let tapbacks: [String: String] = [
        "Loved": "❤️", "Liked": "👍", "Disliked": "👎", "Laughed": "😂", "Emphasized": "‼️", "Questioned": "❓",
    ]
    private static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "heic", "heif", "webp", "bmp", "tiff"]

    func records(block: [Substring], firstLine: Int) -> [Result<(any LogRecord, Int), ExportProblem>] {
        guard let time = IMessageText.timeLine(block[0]) else { return [.failure(ExportProblem("unreadable time"))] }
        let date = self.date(time)
        let id = "L\(firstLine)"
        let rest = time.rest.drop { $0 == " " }
        if !rest.isEmpty && !rest.hasPrefix("(Read by ") {
            // An announcement: "NAME renamed the conversation to X", "NAME changed the group photo."
            return [.success((LogSystemMessage(header: LogMessageHeader(id: id, senderName: nil, date: date), notice: String(rest)), firstLine))]
        }
        guard block.count >= 2 else { return [.failure(ExportProblem("a message with no sender line after its time"))] }
        // The message's own lines, and the replies (indented blocks) after it.
        var own: [Substring] = []
        var replies: [(lines: [Substring], line: Int)] = []
        var k = 2
        while k < block.count {
            let line = block[k]
            if line.hasPrefix("    "), IMessageText.timeLine(line.dropFirst(4)) != nil {
                var reply: [Substring] = [line.dropFirst(4)]
                let start = k
                k += 1
                while k < block.count, block[k].hasPrefix("    "), IMessageText.timeLine(block[k].dropFirst(4)) == nil {
                    reply.append(block[k].dropFirst(4))
                    k += 1
                }
                replies.append((reply, firstLine + start))
                continue
            }
            own.append(line)
            k += 1
        }
        var results: [Result<(any LogRecord, Int), ExportProblem>] = [.success((message(sender: block[1], lines: own, id: id, date: date, replyTo: nil), firstLine))]
        for reply in replies {
            guard reply.lines.count >= 2, let replyTime = IMessageText.timeLine(reply.lines[0]) else {
                results.append(.failure(ExportProblem("a reply with no sender line after its time")))
                continue
            }
            results.append(.success((message(sender: reply.lines[1], lines: Array(reply.lines.dropFirst(2)), id: "L\(reply.line)",
                                              date: self.date(replyTime), replyTo: id), reply.line)))
        }
        return results
    }

    private func date(_ time: IMessageText.TimeLine) -> Date {
        zoneless.seen = true
        let offset = timeZone.secondsFromGMT(for: LogTimestamp.date(microseconds: time.microsAsUTC))
        return LogTimestamp.date(microseconds: time.microsAsUTC - Int64(offset) * 1_000_000)
    }

    private func message(sender: Substring, lines: [Substring], id: String, date: Date, replyTo: String?) -> any LogRecord {
        let name = ExpansionLimit.name(String(sender))
        let isMine = name == "Me" || SenderName.matches(me, name)
        var header = LogMessageHeader(id: id, senderName: name, direction: isMine ? .outgoing : .incoming, date: date, replyToID: replyTo)
        var text: [String] = []
        var pictures: [String] = []
        var reactions: [String] = []
        var inReactions = false
        for line in lines {
            if inReactions, let reaction = Self.reaction(line) {
                reactions.append(reaction)
                continue
            }
            inReactions = false
            switch line {
            case "Reactions:":
                inReactions = true
            case "This message responded to an earlier message.":
                break
            case "You deleted a message.", "They deleted a message.", "You unsent a message.", "They unsent a message.":
                if lines.count == 1 { return LogTextMessage(header: header, text: String(line), textStyle: .notice) }
                text.append(String(line))
            case "Attachment missing!":
                text.append("[attachment missing]")
            default:
                if line.hasPrefix("Edited "), let colon = line.range(of: " later: ") {
                    // The edit history: the last version is the message.
                    header.isEdited = true
                    if !text.isEmpty { text.removeLast() }
                    text.append(String(line[colon.upperBound...]))
                } else if let original = IMessageText.timeLine(line), original.rest.hasPrefix(" ") {
                    // The first version of an edited message, after the time it was sent.
                    text.append(String(original.rest.dropFirst()))
                } else if line.hasPrefix("Sticker from ") {
                    text.append("[sticker]")
                } else if let file = Self.attachment(line) {
                    if Self.isPicture(file) { pictures.append(file) } else { text.append(Self.label(file)) }
                } else {
                    text.append(String(line))
                }
            }
        }
        for picture in pictures.dropFirst() { text.append("[photo: \(picture)]") }
        if !reactions.isEmpty { text.append("[reactions: \(reactions.joined(separator: ", "))]") }
        if let picture = pictures.first {
            return LogImageMessage(header: header, pixelWidth: nil, pixelHeight: nil, imageName: picture,
                                   caption: text.isEmpty ? nil : text.joined(separator: "\n"))
        }
        return LogTextMessage(header: header, text: text.isEmpty ? "[message with no text]" : text.joined(separator: "\n"))
    }

    /// "Loved by Ana" → "❤️ Ana"; a sticker put on a message → "[sticker] Ana".
    private static func reaction(_ line: Substring) -> String? {
        if line.hasPrefix("Sticker from "), let colon = line.range(of: ": ") {
            return "[sticker] " + ExpansionLimit.name(String(line[line.index(line.startIndex, offsetBy: 13)..<colon.lowerBound]))
        }
        guard let by = line.range(of: " by ") else { return nil }
        let kind = String(line[..<by.lowerBound])
        let who = ExpansionLimit.name(String(line[by.upperBound...]))
        if let emoji = tapbacks[kind] { return "\(emoji) \(who)" }
        // Newer tapbacks name their emoji: `Emoji("🔥")`, or the emoji itself.
        if kind.unicodeScalars.count <= 24, !kind.contains(" ") { return "\(kind) \(who)" }
        return nil
    }

    /// The file name of an attachment line: a path (absolute, `~/…` or relative to the export)
    /// whose last part has an extension.
    private static func attachment(_ line: Substring) -> String? {
        guard line.hasPrefix("/") || line.hasPrefix("~/") || line.hasPrefix("attachments/") || line.hasPrefix("./attachments/") else { return nil }
        let name = line.split(separator: "/").last.map(String.init) ?? ""
        guard let dot = name.lastIndex(of: "."), name.index(after: dot) < name.endIndex,
              name[name.index(after: dot)...].count <= 5 else { return nil }
        return ExpansionLimit.name(name)
    }

    private static func isPicture(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    private static func label(_ name: String) -> String {
        let ext = name.lastIndex(of: ".").map { name[name.index(after: $0)...].lowercased() } ?? ""
        if ["mov", "mp4", "m4v"].contains(ext) { return "[video: \(name)]" }
        if ["caf", "m4a", "amr", "mp3", "aac"].contains(ext) { return "[audio: \(name)]" }
        return "[file: \(name)]"
    }
}
