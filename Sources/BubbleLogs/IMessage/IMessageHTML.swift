import BubbleLayout
import Foundation

/// The `.html` pages `imessage-exporter` (`-f html`) writes, one per conversation: a header (its
/// stylesheet inline), then one `<div class="message">` per message and one
/// `<div class="announcement">` per notice, in time order:
///
///     <div class="message">
///     <div class="received">
///     <p><span class="timestamp"><a href="sms://open?message-guid=GUID">May 17, 2022  5:29:42 PM</a> (Read by you after 1 minute)</span>
///     <span class="sender">Ana</span></p>
///     <hr><div class="message_part">
///     <span class="bubble">Hello &amp; welcome</span>
///     </div>
///     <div class="tapbacks"><hr><p>Tapbacks:</p>
///     <div class="tapback"><span class="tapback"><b>Loved</b> by Me</span></div>
///     </div>
///     <div class="replies"><div class="reply" id="GUID2"><div class="message">…</div></div></div>
///     </div>
///     </div>
///
/// `sent` is the exporter's own message, `received` another's. A part is a text bubble, an
/// attachment (`<img>`, `<video>`, `<audio>`, a download link), a sticker, an app balloon, an edit
/// history (a table whose last row is the message now) or an unsent part. Replies are written
/// twice: inside the thread of the message they answer (`<div class="reply" id="GUID">`) and again
/// at their own time, marked "This message responded to an earlier message." (`id="r-GUID"`); the
/// second is read, as a reply to the first's message, and the thread's copy only says which
/// message that is. A thread's copy without an id is read where it stands.
///
/// Read as a stream: memory holds one message (and the ids of the last replies seen in threads),
/// whatever the page's size.
enum IMessageHTML {
    /// Whether the first non-blank byte of `head` opens markup: an HTML page, not a `.txt` export.
    static func isHTML(_ head: ArraySlice<UInt8>) -> Bool {
        head.first { !HTMLTokenizer.isSpace($0) } == UInt8(ascii: "<")
    }

    /// Whether `head` is the start of an imessage-exporter page: HTML with the exporter's message
    /// markup (a timestamp inside a sent, received or announcement block), or its stylesheet's
    /// `.message .sent` and `.message .received` rules before any message.
    static func looksLikeExport(_ head: ArraySlice<UInt8>) -> Bool {
        guard isHTML(head) else { return false }
        let text = String(decoding: head.prefix(InputFile.detectionPrefix), as: UTF8.self)
        if text.contains(".message .sent"), text.contains(".message .received") { return true }
        guard text.contains("<span class=\"timestamp\">") else { return false }
        return text.contains("<div class=\"received\">") || text.contains("<div class=\"sent ")
            || text.contains("class =\"announcement\"") || text.contains("class=\"announcement\"")
    }

    /// Whether `head` is a page `bubbles render --format html` wrote.
    static func isOurTranscript(_ head: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: head.prefix(InputFile.detectionPrefix), as: UTF8.self)
        return text.contains("<title>Transcript</title>") && text.contains("<meta http-equiv=\"Content-Security-Policy\"")
    }

    /// The error for an HTML page that is not an export we read.
    static func notAnExport(_ head: ArraySlice<UInt8>, file: String) -> LogInputError {
        if isOurTranscript(head) {
            return LogInputError(file: file, message: "a transcript page written by `bubbles render --format html`, not a chat log: read the log it was made from")
        }
        return LogInputError(file: file, message: "an HTML page that is not an imessage-exporter export: expected its <div class=\"message\"> blocks with a <span class=\"timestamp\">")
    }

    static func producer(lines: LineReader, file: String, options: LogReadOptions) -> RecordProducer {
        IMessageHTMLProducer(lines: lines, file: file, options: options)
    }
}

/// An element of a message's markup, kept while its message is read.
final class HTMLNode {
    enum Child {
        case element(HTMLNode)
        case text(String)
    }

    let name: String
    let attributes: [(name: String, value: String)]
    /// The line the element starts on.
    let line: Int
    var children: [Child] = []

    init(_ tag: HTMLTokenizer.Tag, line: Int) {
        name = tag.name
        attributes = tag.attributes
        self.line = line
    }

    func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

    func hasClass(_ wanted: String) -> Bool {
        guard let classes = attribute("class") else { return false }
        return classes.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).contains { $0 == wanted }
    }

    func isElement(_ name: String, _ className: String) -> Bool { self.name == name && hasClass(className) }

    /// The first element below this one (depth first) that `matches`.
    func first(_ matches: (HTMLNode) -> Bool) -> HTMLNode? {
        for case .element(let child) in children {
            if matches(child) { return child }
            if let found = child.first(matches) { return found }
        }
        return nil
    }

    /// The elements below this one that `matches`, not looking inside those found.
    func all(_ matches: (HTMLNode) -> Bool) -> [HTMLNode] {
        var found: [HTMLNode] = []
        for case .element(let child) in children {
            if matches(child) { found.append(child) } else { found += child.all(matches) }
        }
        return found
    }

    /// The text as written (the exporter's bubbles keep their white space): markup left out,
    /// `<br>` a line break, pictures and drawings not text.
    var writtenText: String {
        var out = ""
        appendWritten(to: &out)
        return out
    }

    private func appendWritten(to out: inout String) {
        for child in children {
            switch child {
            case .text(let text): out += text
            case .element(let element):
                if element.name == "br" { out += "\n" } else if element.name != "svg" { element.appendWritten(to: &out) }
            }
        }
    }

    /// The text as a browser shows it outside a `pre-wrap` bubble: runs of white space (and
    /// no-break spaces) one space, trimmed.
    var plainText: String { Self.collapsed(writtenText) }

    static func collapsed(_ text: String) -> String {
        var out = ""
        var space = false
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r" || scalar == "\u{0C}" || scalar == "\u{A0}" {
                space = !out.isEmpty
            } else {
                if space { out += " " }
                space = false
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

/// Streams an imessage-exporter page into records, one message block at a time.
final class IMessageHTMLProducer: RecordProducer {
    private let lines: LineReader
    private let file: String
    private let reader: IMessageHTMLReader
    private var tokenizer = HTMLTokenizer()
    private var block: BlockBuilder?
    private var ready: [ProducedRecord] = []
    private var readyIndex = 0
    private var ended = false
    private var messageIndex = 0
    /// For replies read in a thread: the id of the message whose thread they are in, by their GUID.
    private var threadParents = RecentValues<String, String>(capacity: 1 << 16)

    /// The most bytes of markup a message may have; a longer one is rejected.
    static let maximumBlockBytes = 16 << 20
    /// Elements nested deeper than this inside a message are read as if they had no children.
    static let maximumDepth = 256
    private static let voidElements: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                                                    "meta", "param", "source", "track", "wbr"]

    /// A message block being collected.
    private struct BlockBuilder {
        var root: HTMLNode
        var stack: [HTMLNode]
        var bytes = 0
        var problem: String?
    }

    init(lines: LineReader, file: String, options: LogReadOptions) {
        self.lines = lines
        self.file = file
        reader = IMessageHTMLReader(me: options.me, timeZone: options.timeZone, zoneless: ZonelessTimes())
    }

    var readZonelessTimes: Bool { reader.zoneless.seen }
    var mayWaitForInput: Bool { readyIndex == ready.count && !ended && lines.mayWaitForInput }

    func next() -> ProducedRecord? {
        while readyIndex == ready.count {
            ready.removeAll(keepingCapacity: true)
            readyIndex = 0
            guard !ended else { return nil }
            guard let line = lines.next() else {
                ended = true
                tokenizer.finish { token, number in handle(token, line: number) }
                if let open = block {
                    block = nil
                    complete(open, cut: true)
                }
                continue
            }
            if line.isTooLong {
                ready.append(.rejected(LogDiagnostic(position: LogPosition(file: file, line: line.number), reason: LineLimit.reason)))
                continue
            }
            tokenizer.feed(line.bytes + [0x0A], line: line.number) { token, number in handle(token, line: number) }
        }
        defer { readyIndex += 1 }
        return ready[readyIndex]
    }

    private func handle(_ token: HTMLTokenizer.Token, line: Int) {
        guard var open = block else {
            // Outside any message only a block's start matters: the page's head, its body and
            // stray end tags are passed over.
            if case .start(let tag) = token, tag.name == "div", !tag.selfClosing {
                let root = HTMLNode(tag, line: line)
                block = BlockBuilder(root: root, stack: [root])
            }
            return
        }
        block = nil
        switch token {
        case .start(let tag):
            // An element costs more than its bytes: counted as at least 64, so a message of
            // many tiny tags is bounded as one of text is.
            open.bytes += 64 + tag.name.utf8.count + tag.attributes.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 }
            let node = HTMLNode(tag, line: line)
            if open.problem == nil, let parent = open.stack.last { parent.children.append(.element(node)) }
            if !tag.selfClosing, !Self.voidElements.contains(tag.name), open.stack.count < Self.maximumDepth {
                open.stack.append(node)
            }
        case .end(let name):
            if let k = open.stack.lastIndex(where: { $0.name == name }) {
                open.stack.removeSubrange(k...)
                if open.stack.isEmpty {
                    complete(open, cut: false)
                    return
                }
            }
        case .text(let text):
            open.bytes += 32 + text.utf8.count
            if open.problem == nil, let parent = open.stack.last { parent.children.append(.text(text)) }
        case .overlongTag:
            open.problem = open.problem ?? "a tag longer than \(HTMLTokenizer.maximumTagBytes >> 20) MiB"
        }
        if open.bytes > Self.maximumBlockBytes, open.problem == nil {
            open.problem = "a message of more than \(Self.maximumBlockBytes >> 20) MiB of markup"
        }
        if open.problem != nil { open.root.children.removeAll() }
        block = open
    }

    /// Reads a finished block into its records (several for a thread whose replies carry no id).
    private func complete(_ open: BlockBuilder, cut: Bool) {
        let root = open.root
        let position = LogPosition(file: file, line: root.line)
        let ending = cut ? " (the file ends inside it)" : ""
        if let problem = open.problem {
            ready.append(.rejected(LogDiagnostic(position: position, reason: problem + ending)))
            return
        }
        if root.hasClass("announcement") {
            messageIndex += 1
            let index = messageIndex
            ready.append(ProducedRecord.decoding(at: LogPosition(file: file, line: root.line, messageIndex: index)) { () throws(ExportProblem) in
                do throws(ExportProblem) { return try reader.announcement(root) } catch { throw ExportProblem(error.reason + ending) }
            })
            return
        }
        guard root.hasClass("message") else {
            // Markup outside any message: said when it holds something, so nothing is lost unseen.
            let text = root.plainText
            if !text.isEmpty || root.first({ $0.name == "img" }) != nil {
                ready.append(.rejected(LogDiagnostic(position: position, reason:
                    "markup outside any message (<div class=\"\(DiagnosticText.quoted(root.attribute("class") ?? "", limit: 40))\">): \"\(DiagnosticText.quoted(text, limit: 60))\"")))
            }
            return
        }
        read(message: root, replyTo: nil, ending: ending, depth: 0)
    }

    /// Adds `node`'s record, then those of the replies in its thread that are not written again
    /// at their own time.
    private func read(message node: HTMLNode, replyTo: String?, ending: String, depth: Int) {
        messageIndex += 1
        let index = messageIndex
        let position = LogPosition(file: file, line: node.line, messageIndex: index)
        let parts = reader.parts(of: node)
        let id = parts.guid ?? "L\(node.line)"
        let parent = replyTo ?? parts.guid.flatMap { threadParents[$0] }
        ready.append(ProducedRecord.decoding(at: position) { () throws(ExportProblem) in
            do throws(ExportProblem) { return try reader.record(parts, id: id, replyTo: parent) } catch { throw ExportProblem(error.reason + ending) }
        })
        for reply in parts.replies {
            if let guid = reply.guid, !guid.isEmpty {
                threadParents.store(id, for: guid)
            } else if depth < 4 {
                read(message: reply.message, replyTo: id, ending: ending, depth: depth + 1)
            }
        }
    }
}

/// Reads one message block (or announcement) of an imessage-exporter page.
struct IMessageHTMLReader {
    var me: String?
    var timeZone: TimeZone
    var zoneless: ZonelessTimes

    /// What a message block holds, gathered in order.
    struct Parts {
        var time: String?
        var guid: String?
        var sender: String?
        /// Nil until a `sent` or `received` block is met.
        var isSent: Bool?
        var lines: [String] = []
        var pictures: [String] = []
        var tapbacks: [String] = []
        var replies: [(message: HTMLNode, guid: String?)] = []
        var isEdited = false
        /// Lines that are the app's notes (unsent, deleted), not the sender's words.
        var notes = 0
        /// Text between parts (a subject's "Subject: "), put on a line of its own at the next part.
        var loose = ""
    }

    func parts(of message: HTMLNode) -> Parts {
        var parts = Parts()
        if let id = message.attribute("id"), id.hasPrefix("r-") { parts.guid = String(id.dropFirst(2)) }
        walk(message, into: &parts)
        flush(&parts)
        return parts
    }

    private static let blockElements: Set<String> = ["div", "p", "hr", "br", "table", "tr", "li", "ul", "ol"]

    private func walk(_ node: HTMLNode, into parts: inout Parts) {
        for child in node.children {
            switch child {
            case .text(let text): parts.loose += text
            case .element(let element): visit(element, into: &parts)
            }
        }
    }

    private func flush(_ parts: inout Parts) {
        let text = HTMLNode.collapsed(parts.loose)
        parts.loose = ""
        if !text.isEmpty { parts.lines.append(text) }
    }

    private func visit(_ element: HTMLNode, into parts: inout Parts) {
        let isBlock = Self.blockElements.contains(element.name)
        if isBlock { flush(&parts) }
        defer { if isBlock { flush(&parts) } }
        let name = element.name
        if name == "div", parts.isSent == nil, element.hasClass("sent") || element.hasClass("received") {
            parts.isSent = element.hasClass("sent")
            walk(element, into: &parts)
            return
        }
        switch name {
        case "span":
            if element.hasClass("timestamp") {
                guard parts.time == nil else { return }
                parts.time = element.plainText
                if let link = element.first({ $0.name == "a" })?.attribute("href"), let range = link.range(of: "message-guid=") {
                    let guid = String(link[range.upperBound...])
                    if !guid.isEmpty { parts.guid = guid }
                }
            } else if element.hasClass("sender") {
                if parts.sender == nil { parts.sender = element.plainText }
            } else if element.hasClass("reply_anchor") || element.hasClass("reply_context") {
                return
            } else if element.hasClass("bubble") {
                flush(&parts)
                let text = element.writtenText
                if !text.isEmpty { parts.lines.append(text) }
            } else if element.hasClass("unsent") || element.hasClass("deleted") {
                flush(&parts)
                let text = element.plainText
                if !text.isEmpty {
                    parts.lines.append(text)
                    parts.notes += 1
                }
            } else if element.hasClass("attachment_error") {
                flush(&parts)
                let text = element.plainText
                let prefix = "Unable to locate attachment: "
                parts.lines.append(text.hasPrefix(prefix) ? "[attachment missing: \(ExpansionLimit.name(String(text.dropFirst(prefix.count))))]" : "[attachment missing]")
            } else {
                // subject, expressive, shareplay, shared_location, transcription, formatting
                walk(element, into: &parts)
            }
        case "div":
            if element.hasClass("attachment") {
                attachment(element, into: &parts)
            } else if element.hasClass("sticker") {
                parts.lines.append("[sticker]")
            } else if element.hasClass("app") {
                parts.lines.append(app(element))
            } else if element.hasClass("app_error") {
                parts.lines.append("[app message]")
            } else if element.hasClass("edited") {
                edited(element, into: &parts)
            } else if element.hasClass("tapbacks") || element.hasClass("reactions") {
                for tapback in element.all({ $0.name == "div" && ($0.hasClass("tapback") || $0.hasClass("reaction")) }) {
                    if let read = Self.tapback(tapback) { parts.tapbacks.append(read) }
                }
            } else if element.hasClass("replies") {
                for reply in element.all({ $0.isElement("div", "reply") }) {
                    if let message = reply.first({ $0.isElement("div", "message") }) {
                        parts.replies.append((message, reply.attribute("id")))
                    }
                }
            } else {
                walk(element, into: &parts)
            }
        case "img", "video", "audio":
            // An attachment written without its `attachment` block.
            attachment(element, into: &parts)
        case "svg":
            parts.lines.append("[handwriting]")
        case "a" where element.plainText.hasPrefix("Click to download "):
            attachment(element, into: &parts)
        case "style", "script", "template":
            return
        default:
            walk(element, into: &parts)
        }
    }

    /// An attachment: the first picture an image row, other files labelled lines.
    private func attachment(_ element: HTMLNode, into parts: inout Parts) {
        flush(&parts)
        func find(_ name: String) -> HTMLNode? { element.name == name ? element : element.first { $0.name == name } }
        if let source = find("img")?.attribute("src") {
            parts.pictures.append(Self.pictureName(source))
        } else if let video = find("video") {
            let source = video.attribute("src") ?? video.first { $0.name == "source" }?.attribute("src") ?? ""
            parts.lines.append("[video: \(Self.fileName(source))]")
        } else if let audio = find("audio") {
            parts.lines.append("[audio: \(Self.fileName(audio.attribute("src") ?? ""))]")
        } else if let link = find("a")?.attribute("href") {
            parts.lines.append("[file: \(Self.fileName(link))]")
        } else {
            let text = element.plainText
            // "Unable to embed TYPE attachments: PATH"
            if let colon = text.range(of: "attachments: ") {
                parts.lines.append("[file: \(Self.fileName(String(text[colon.upperBound...])))]")
            } else if !text.isEmpty {
                parts.lines.append(text)
            }
            return
        }
        if let transcription = element.first({ $0.isElement("span", "transcription") })?.plainText, !transcription.isEmpty {
            parts.lines.append(transcription)
        }
    }

    /// An app balloon (a link preview, Apple Pay, a game…): its link, name and captions, a line each.
    private func app(_ element: HTMLNode) -> String {
        var lines: [String] = []
        if let link = element.first({ $0.name == "a" })?.attribute("href"), link.hasPrefix("https://") || link.hasPrefix("http://") {
            lines.append(link)
        }
        if element.first({ $0.name == "svg" }) != nil { lines.append("[handwriting]") }
        for className in ["name", "image_title", "image_subtitle", "ldtext", "caption", "subcaption", "trailing_caption", "trailing_subcaption"] {
            for found in element.all({ $0.name == "div" && $0.hasClass(className) }) {
                let text = found.plainText
                if !text.isEmpty, lines.last != text { lines.append(text) }
            }
        }
        return lines.isEmpty ? "[app message]" : lines.joined(separator: "\n")
    }

    /// An edit history: a table of the versions, the last row the message as it is now.
    private func edited(_ element: HTMLNode, into parts: inout Parts) {
        let rows = element.all { $0.name == "tr" }
        guard let last = rows.last else {
            walk(element, into: &parts)
            return
        }
        parts.isEdited = true
        let cells = last.all { $0.name == "td" }
        let text = (cells.last ?? last).writtenText
        if !text.isEmpty { parts.lines.append(text) }
    }

    /// "Loved by Ana" → "❤️ Ana"; a custom emoji's "☕️ by Ana" → "☕️ Ana"; a sticker put on a
    /// message (a picture and "by Ana", or "from Ana") → "[sticker] Ana".
    static func tapback(_ element: HTMLNode) -> String? {
        let text = element.plainText
        let hasPicture = element.first { $0.name == "img" } != nil
        if text.hasPrefix("Sticker from "), text.hasSuffix(" not found!") {
            return "[sticker] " + ExpansionLimit.name(String(text.dropFirst(13).dropLast(11)))
        }
        if hasPicture {
            for prefix in ["by ", "from "] where text.hasPrefix(prefix) {
                return "[sticker] " + ExpansionLimit.name(String(text.dropFirst(prefix.count)))
            }
            if let by = text.range(of: " by ") { return "[sticker] " + ExpansionLimit.name(String(text[by.upperBound...])) }
            return "[sticker]"
        }
        guard let by = text.range(of: " by ") else { return text.isEmpty ? nil : text }
        let kind = String(text[..<by.lowerBound])
        let who = ExpansionLimit.name(String(text[by.upperBound...]))
        if let emoji = IMessageBlockReader.tapbacks[kind] { return "\(emoji) \(who)" }
        return "\(ExpansionLimit.name(kind)) \(who)"
    }

    /// A picture's name as the record keeps it: a path inside the export as written (looked up
    /// there for its size and bytes), else the file's name alone (a path on the exporting Mac).
    static func pictureName(_ source: String) -> String {
        if source.hasPrefix("data:") { return "image" }
        if source.hasPrefix("/") || source.hasPrefix("~") || source.contains("://") || source.contains("\\") {
            return fileName(source)
        }
        return source.unicodeScalars.count <= 1024 ? source : fileName(source)
    }

    static func fileName(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        return name.isEmpty ? "attachment" : ExpansionLimit.name(name)
    }

    /// The message's record from its parts.
    func record(_ parts: Parts, id: String, replyTo: String?) throws(ExportProblem) -> any LogRecord {
        guard let timeText = parts.time else { throw ExportProblem("a message with no <span class=\"timestamp\">") }
        guard let time = IMessageText.timeLine(Substring(timeText)) else {
            throw ExportProblem("unreadable time \"\(DiagnosticText.quoted(timeText, limit: 40))\": expected one like \"May 17, 2022  5:29:42 PM\"")
        }
        guard let isSent = parts.isSent else { throw ExportProblem("a message with neither a sent nor a received part") }
        let name = ExpansionLimit.name(parts.sender ?? (isSent ? "Me" : ""))
        let isMine = isSent || SenderName.matches(me, name)
        var header = LogMessageHeader(id: id, senderName: name.isEmpty ? nil : name, direction: isMine ? .outgoing : .incoming,
                                      date: date(time), isEdited: parts.isEdited, replyToID: replyTo)
        if isSent, time.rest.contains("(Read by ") { header.status = .read }
        var text = parts.lines
        for picture in parts.pictures.dropFirst() { text.append("[photo: \(Self.fileName(picture))]") }
        if !parts.tapbacks.isEmpty { text.append("[reactions: \(parts.tapbacks.joined(separator: ", "))]") }
        if let picture = parts.pictures.first {
            return LogImageMessage(header: header, pixelWidth: nil, pixelHeight: nil, imageName: picture,
                                   caption: text.isEmpty ? nil : text.joined(separator: "\n"))
        }
        if parts.notes > 0, parts.notes == parts.lines.count, parts.tapbacks.isEmpty {
            return LogTextMessage(header: header, text: text.joined(separator: "\n"), textStyle: .notice)
        }
        return LogTextMessage(header: header, text: text.isEmpty ? "[message with no text]" : text.joined(separator: "\n"))
    }

    /// A notice: "<time> Ana named the conversation <b>X</b>", "… left the conversation." …
    func announcement(_ root: HTMLNode) throws(ExportProblem) -> any LogRecord {
        guard let stamp = root.first({ $0.isElement("span", "timestamp") }) else {
            throw ExportProblem("an announcement with no time: \"\(DiagnosticText.quoted(root.plainText, limit: 60))\"")
        }
        let timeText = stamp.plainText
        guard let time = IMessageText.timeLine(Substring(timeText)) else {
            throw ExportProblem("unreadable time \"\(DiagnosticText.quoted(timeText, limit: 40))\": expected one like \"May 17, 2022  5:29:42 PM\"")
        }
        var text = ""
        func gather(_ node: HTMLNode) {
            for child in node.children {
                switch child {
                case .text(let piece): text += piece
                case .element(let element) where element !== stamp: gather(element)
                case .element: text += " "
                }
            }
        }
        gather(root)
        let notice = HTMLNode.collapsed(text)
        guard !notice.isEmpty else { throw ExportProblem("an announcement with no text") }
        return LogSystemMessage(header: LogMessageHeader(id: "L\(root.line)", senderName: nil, date: date(time)), notice: notice)
    }

    private func date(_ time: IMessageText.TimeLine) -> Date {
        zoneless.seen = true
        let offset = timeZone.secondsFromGMT(for: LogTimestamp.date(microseconds: time.microsAsUTC))
        return LogTimestamp.date(microseconds: time.microsAsUTC - Int64(offset) * 1_000_000)
    }
}
