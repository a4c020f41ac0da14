import BubbleLayout
import Foundation

/// What `signal-export` (`sigexport`) writes for each chat: `chat.md`, and with `--json`
/// `data.json`, which is JSON Lines, one message a line:
///
///     [2024-03-02 18:01:10] Ana: Hello
///
///     {"date": "2024-03-02T18:01:10.250000", "sender": "Ana", "body": "Hello", "quote": "",
///      "sticker": null, "reactions": [["Me", "👍"]], "attachments": [{"name": "a.jpg",
///      "path": "media/a.jpg"}], "deleted": false, "call": false, "missed": false}
///
/// Times are the exporting computer's local time without a zone, read in the options' zone.
/// "Me" is the exporter; `--me` names another sender as outgoing too. A quoted message (a reply)
/// leads the text as `> quoted` lines, as the app shows it above the reply; reactions end it
/// (`[reactions: 👍 Me]`); the first picture is an image row; calls are system rows; a deleted
/// message is the app's note in the sender's place. Messages carry no id: each is named by its
/// line (`L12`).
enum SignalExport {
    // MARK: Detection

    /// A Markdown message line: `[2024-03-02 18:01:10] NAME: …`.
    static func markdownHeader(_ line: Substring) -> (microsAsUTC: Int64, sender: Substring, rest: Substring)? {
        let bytes = Array(line.utf8.prefix(22))
        guard bytes.count == 22, bytes[0] == UInt8(ascii: "["), bytes[5] == UInt8(ascii: "-"), bytes[8] == UInt8(ascii: "-"),
              bytes[11] == 0x20, bytes[14] == UInt8(ascii: ":"), bytes[17] == UInt8(ascii: ":"),
              bytes[20] == UInt8(ascii: "]"), bytes[21] == 0x20 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for k in range {
                guard (0x30...0x39).contains(bytes[k]) else { return nil }
                value = value * 10 + Int(bytes[k] - 0x30)
            }
            return value
        }
        guard let year = number(1..<5), let month = number(6..<8), let day = number(9..<11), let hour = number(12..<14),
              let minute = number(15..<17), let second = number(18..<20), (1...12).contains(month),
              day >= 1, day <= LogTimestamp.daysInMonth(year: year, month: month), hour < 24, minute < 60, second < 61 else { return nil }
        let after = line.utf8.dropFirst(22)
        let text = Substring(after)
        guard let colon = text.range(of: ": ") ?? (text.hasSuffix(":") ? text.index(before: text.endIndex)..<text.endIndex : nil) else { return nil }
        let days = LogTimestamp.daysFromCivil(year: year, month: month, day: day)
        let micros = Int64(days * 86_400 + hour * 3600 + minute * 60 + second) * 1_000_000
        return (micros, text[..<colon.lowerBound], text[colon.upperBound...])
    }

    /// Whether `head` is signal-export's Markdown: it starts with a message line and, as
    /// signal-export writes a blank line after every message (a WhatsApp file never does), every
    /// later message line among the first few comes after a blank line, and a blank line follows
    /// the first message.
    static func looksLikeMarkdown(_ head: ArraySlice<UInt8>, isWhole: Bool) -> Bool {
        let lines = head.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(200)
            .map { Substring(String(decoding: $0.last == 0x0D ? $0.dropLast() : $0, as: UTF8.self)) }
        guard let first = lines.first, markdownHeader(first) != nil else { return false }
        var headers = 0
        var sawBlank = false
        for (k, line) in lines.enumerated().dropFirst() {
            if line.isEmpty { sawBlank = true; continue }
            guard markdownHeader(line) != nil else { continue }
            if !lines[k - 1].isEmpty { return false }
            headers += 1
        }
        return sawBlank && (headers > 0 || isWhole)
    }

    /// Whether a JSON Lines first record is signal-export's (`date`, `sender`, `body`; our own
    /// records have `text`).
    static func isJSONRecord(keys: Set<String>) -> Bool {
        keys.contains("body") && keys.contains("sender") && keys.contains("date") && !keys.contains("text")
    }

    // MARK: Reading

    static func producer(bytes: [UInt8], file: String, options: LogReadOptions) -> RecordProducer {
        let zoneless = ZonelessTimes()
        let decoder = SignalMessageDecoder(me: options.me, timeZone: options.timeZone, zoneless: zoneless)
        var items: [() -> ProducedRecord] = []
        let lines = TextLines.split(bytes)
        let firstNonBlank = lines.firstIndex { !$0.allSatisfy(\.isWhitespace) }
        if let k = firstNonBlank, lines[k].hasPrefix("{") {
            for (number, line) in lines.enumerated() {
                let position = LogPosition(file: file, line: number + 1)
                if line.allSatisfy(\.isWhitespace) {
                    items.append { .blank }
                    continue
                }
                items.append { () -> ProducedRecord in Self.jsonLine(line, number: number + 1, position: position, decoder: decoder) }
            }
            // The line after the last newline is empty: not a blank line of the file.
            if lines.last?.isEmpty == true { items.removeLast() }
            return ListProducer(items, zoneless: zoneless)
        }
        // Markdown: a message starts at a message line at the start or after a blank line.
        var starts: [Int] = []
        for (number, line) in lines.enumerated() where (number == 0 || lines[number - 1].isEmpty) && markdownHeader(line) != nil {
            starts.append(number)
        }
        if let k = firstNonBlank, k < (starts.first ?? lines.count) {
            items.append { .rejected(LogDiagnostic(position: LogPosition(file: file, line: k + 1),
                                                   reason: "not a signal-export message: expected a line like \"[2024-03-02 18:01:10] Name: text\"")) }
        }
        for (n, start) in starts.enumerated() {
            var end = n + 1 < starts.count ? starts[n + 1] : lines.count
            while end > start + 1, lines[end - 1].isEmpty { end -= 1 }
            let block = Array(lines[start..<end])
            let position = LogPosition(file: file, line: start + 1, messageIndex: n + 1)
            items.append {
                .decoding(at: position) { () throws(ExportProblem) in
                    try decoder.decode(markdown: block, id: "L\(start + 1)")
                }
            }
        }
        return ListProducer(items, zoneless: zoneless)
    }

    /// One line of `data.json`.
    private static func jsonLine(_ line: Substring, number: Int, position: LogPosition, decoder: SignalMessageDecoder) -> ProducedRecord {
        let value: JSONValue
        do {
            value = try JSONParser().parse(Array(line.utf8))
        } catch {
            return .rejected(LogDiagnostic(position: position, reason: "\(error.isTruncation ? "truncated" : "invalid") JSON at column \(error.column): \(error.message)"))
        }
        guard let object = value.objectValue else {
            return .rejected(LogDiagnostic(position: position, reason: "wrong type: a signal-export record must be an object, found \(value.described)"))
        }
        return .decoding(at: position) { () throws(ExportProblem) in
            try decoder.decode(json: ExportFields(object: object), id: "L\(number)")
        }
    }

}

/// One signal-export message (a Markdown block or a JSON record) → a record.
struct SignalMessageDecoder {
    var me: String?
    var timeZone: TimeZone
    var zoneless: ZonelessTimes

    private static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "tif", "tiff", "webp", "apng", "svg", "heic"]

    struct Attachment {
        var name: String
        var path: String
        var missing: String?
    }

    func decode(json message: ExportFields, id: String) throws(ExportProblem) -> any LogRecord {
        let written = try message.requiredString("date")
        guard let asUTC = LogTimestamp.microseconds(iso8601: written + "Z") else {
            throw ExportProblem("unreadable date \"\(DiagnosticText.quoted(written))\" (expected 2024-03-02T18:01:10, with or without fractional seconds)")
        }
        let sender = try message.requiredString("sender")
        let body = try message.string("body") ?? ""
        let quote = try message.string("quote") ?? ""
        var reactions: [String] = []
        for value in try message.array("reactions").prefix(64) {
            // A (name, emoji) pair, written as a two-element array.
            guard let pair = value.arrayValue, pair.count == 2, let name = pair[0].stringValue, let emoji = pair[1].stringValue else {
                throw ExportProblem("wrong type: a reaction must be [name, emoji], found \(value.described)")
            }
            reactions.append("\(ExpansionLimit.name(emoji)) \(ExpansionLimit.name(name))")
        }
        var attachments: [Attachment] = []
        for value in try message.array("attachments") {
            guard let object = value.objectValue else { throw ExportProblem("wrong type: an attachment must be an object, found \(value.described)") }
            let path = object["path"]?.stringValue ?? ""
            attachments.append(Attachment(name: object["name"]?.stringValue ?? ExportItems.fileName(path), path: path,
                                          missing: object["missing_kind"]?.stringValue))
        }
        var sticker: String?
        if let object = try message.object("sticker") {
            sticker = try object.string("emoji") ?? ""
        }
        let deleted = message.object["deleted"]?.boolValue == true
        let call = message.object["call"]?.boolValue == true
        return record(id: id, asUTC: asUTC, sender: sender, body: body, quote: Self.quoteLines(quote), reactions: reactions,
                      attachments: attachments, sticker: sticker, deleted: deleted, call: call)
    }

    func decode(markdown block: [Substring], id: String) throws(ExportProblem) -> any LogRecord {
        guard let header = SignalExport.markdownHeader(block[0]) else { throw ExportProblem("unreadable message line") }
        var text = ([header.rest] + block.dropFirst()).joined(separator: "\n")
        if text == "(This message was deleted)" {
            return record(id: id, asUTC: header.microsAsUTC, sender: String(header.sender), body: "", quote: [], reactions: [],
                          attachments: [], sticker: nil, deleted: true, call: false)
        }
        // A quote: "\n\n> quoted\n\n" right after the sender.
        var quote: [String] = []
        if text.hasPrefix("\n\n> ") {
            var lines = text.dropFirst(2).split(separator: "\n", omittingEmptySubsequences: false)
            while let line = lines.first, line.hasPrefix("> ") || line == ">" {
                quote.append(String(line.dropFirst(2)))
                lines.removeFirst()
            }
            while lines.first?.isEmpty == true { lines.removeFirst() }
            text = lines.joined(separator: "\n")
        }
        // Attachments and a sticker file are appended as Markdown links, each followed by two spaces.
        var attachments: [Attachment] = []
        var sticker: String?
        while let link = Self.lastLink(in: text) {
            let attachment = Attachment(name: link.name, path: link.path, missing: nil)
            text = String(text[..<link.range.lowerBound])
            if link.path.hasPrefix("../exported_stickers/") { sticker = link.name } else { attachments.insert(attachment, at: 0) }
        }
        while text.hasSuffix(" not exported)  "), let open = text.range(of: "(", options: .backwards) {
            let kind = text[text.index(after: open.lowerBound)...].dropLast(" not exported)  ".count)
            attachments.insert(Attachment(name: String(kind), path: "", missing: String(kind)), at: 0)
            text = String(text[..<open.lowerBound])
        }
        if let open = text.range(of: "\n(( ", options: .backwards), text.hasSuffix(" ))") {
            sticker = String(text[open.upperBound..<text.index(text.endIndex, offsetBy: -3)])
            text = String(text[..<open.lowerBound])
        }
        var reactions: [String] = []
        if let open = text.range(of: "\n(- ", options: .backwards), text.hasSuffix(" -)") {
            for part in text[open.upperBound..<text.index(text.endIndex, offsetBy: -3)].components(separatedBy: ", ").prefix(64) {
                guard let colon = part.range(of: ": ", options: .backwards) else { continue }
                reactions.append("\(ExpansionLimit.name(String(part[colon.upperBound...]))) \(ExpansionLimit.name(String(part[..<colon.lowerBound])))")
            }
            text = String(text[..<open.lowerBound])
        }
        return record(id: id, asUTC: header.microsAsUTC, sender: String(header.sender), body: text, quote: quote,
                      reactions: reactions, attachments: attachments, sticker: sticker, deleted: false, call: false)
    }

    /// The last `[name](./path)  ` or `![name](./path)  ` link ending `text`.
    private static func lastLink(in text: String) -> (name: String, path: String, range: Range<String.Index>)? {
        guard text.hasSuffix(")  ") || text.hasSuffix(")") else { return nil }
        let close = text.hasSuffix(")  ") ? text.index(text.endIndex, offsetBy: -3) : text.index(before: text.endIndex)
        guard let middle = text[..<close].range(of: "](", options: .backwards) else { return nil }
        let path = String(text[middle.upperBound..<close])
        guard path.hasPrefix("./") || path.hasPrefix("../"), !path.contains(")") else { return nil }
        guard let open = text[..<middle.lowerBound].range(of: "[", options: .backwards) else { return nil }
        var start = open.lowerBound
        if start > text.startIndex, text[text.index(before: start)] == "!" { start = text.index(before: start) }
        let name = String(text[open.upperBound..<middle.lowerBound])
        return (name, path, start..<text.endIndex)
    }

    /// "\n\n> a\n> b\n\n" → ["a", "b"].
    private static func quoteLines(_ quote: String) -> [String] {
        quote.split(separator: "\n").filter { $0.hasPrefix(">") }.map { String($0.dropFirst($0.hasPrefix("> ") ? 2 : 1)) }
    }

    private func record(id: String, asUTC: Int64, sender: String, body: String, quote: [String], reactions: [String],
                        attachments: [Attachment], sticker: String?, deleted: Bool, call: Bool) -> any LogRecord {
        zoneless.seen = true
        let offset = timeZone.secondsFromGMT(for: LogTimestamp.date(microseconds: asUTC))
        let date = LogTimestamp.date(microseconds: asUTC - Int64(offset) * 1_000_000)
        let name = ExpansionLimit.name(sender)
        if call {
            return LogSystemMessage(header: LogMessageHeader(id: id, senderName: nil, date: date), notice: body.isEmpty ? "Call" : body)
        }
        let isMine = name == "Me" || SenderName.matches(me, name)
        let header = LogMessageHeader(id: id, senderName: name, direction: isMine ? .outgoing : .incoming, date: date)
        if deleted {
            return LogTextMessage(header: header, text: "This message was deleted", textStyle: .notice)
        }
        var lines = quote.map { "> " + $0 }
        var pictures: [String] = []
        if !body.isEmpty { lines.append(body) }
        for attachment in attachments {
            let name = ExpansionLimit.name(attachment.name.isEmpty ? ExportItems.fileName(attachment.path) : attachment.name)
            if let missing = attachment.missing {
                lines.append("[\(missing) not exported]")
            } else if Self.isPicture(attachment.path) || Self.isPicture(name) {
                pictures.append(name)
            } else {
                lines.append(Self.label(name))
            }
        }
        if let sticker { lines.append(sticker.isEmpty || sticker == "sticker" ? "[sticker]" : "[sticker \(sticker)]") }
        for picture in pictures.dropFirst() { lines.append("[photo: \(picture)]") }
        if !reactions.isEmpty { lines.append("[reactions: \(reactions.joined(separator: ", "))]") }
        if let picture = pictures.first {
            return LogImageMessage(header: header, pixelWidth: nil, pixelHeight: nil, imageName: picture,
                                   caption: lines.isEmpty ? nil : lines.joined(separator: "\n"))
        }
        return LogTextMessage(header: header, text: lines.isEmpty ? "[message with no text]" : lines.joined(separator: "\n"))
    }

    private static func isPicture(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    private static func label(_ name: String) -> String {
        let ext = name.lastIndex(of: ".").map { name[name.index(after: $0)...].lowercased() } ?? ""
        if ["mp4", "mov", "mkv", "mpeg", "webm", "qt"].contains(ext) { return "[video: \(name)]" }
        if ["m4a", "aac", "mp3", "ogg", "opus", "wav", "flac"].contains(ext) { return "[audio: \(name)]" }
        return "[file: \(name)]"
    }
}
