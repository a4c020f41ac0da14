import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The entry point: opens a log or a chat export and returns a reader over its messages.
public enum LogSource {
    /// Opens `path` ("-" for standard input) as `format` (`.auto` detects it).
    ///
    /// Throws `LogInputError` when the input cannot be read as that format at all: a missing file,
    /// truncated or invalid JSON in an export, an unknown export schema, a WhatsApp file whose
    /// date format is not one we know. Problems with single records come later, from the reader,
    /// as `.diagnostic` entries.
    public static func open(path: String, format: LogFormat = .auto, options: LogReadOptions = LogReadOptions()) throws(LogInputError) -> LogReader {
        let display = path == "-" ? "<stdin>" : path
        if path != "-" {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw LogInputError(file: display, message: "no such file or folder")
            }
            if isDirectory.boolValue {
                guard format == .auto || format == .slack || format == .messenger || format == .googlechat else {
                    throw LogInputError(file: display, message: "is a folder; a \(format) input is a single file (only a Slack, Messenger or Google Chat export is a folder)")
                }
                let folder = DirectoryExportFolder(path: path)
                if format == .googlechat || (format == .auto && !GoogleChatExport.groupFolders(in: folder).isEmpty) {
                    let export = try GoogleChatExport.producer(export: folder, options: options)
                    let reader = LogReader(file: display, format: .googlechat, strict: options.strict, producer: export.producer)
                    reader.warnings = export.warnings
                    return reader
                }
                if format == .messenger || (format == .auto && !MessengerExport.threadFolders(in: folder).isEmpty) {
                    let export = try MessengerExport.producer(export: folder, options: options)
                    let reader = LogReader(file: display, format: .messenger, strict: options.strict, producer: export.producer)
                    reader.warnings = export.warnings
                    return reader
                }
                let export = try SlackExport.producer(export: folder, options: options)
                let reader = LogReader(file: display, format: .slack, strict: options.strict, producer: export.producer)
                reader.warnings = export.warnings
                return reader
            }
        }
        return try open(try InputFile(path: path, display: display), format: format, options: options)
    }

    /// Reads a log or a chat export already in memory (a network buffer, an upload, a database
    /// blob) exactly as `open(path:)` reads a file holding the same bytes: the same detection,
    /// records, positions, diagnostics, counts and errors, with `name` where the file's path
    /// would be (`name:12: reason`). As with a path, a `name` ending in `.zip` is read as a zip
    /// archive whatever its first bytes. A Slack export folder cannot come this way; a zip of one can.
    public static func open(bytes: [UInt8], name: String, format: LogFormat = .auto, options: LogReadOptions = LogReadOptions()) throws(LogInputError) -> LogReader {
        try open(try InputFile(bytes: bytes, name: name), format: format, options: options)
    }

    /// Reads an opened single-file input (not a folder) as `format`, with the notes about its
    /// encoding; an input that cannot be read at all and looks like a legacy encoding says so in
    /// its error, as the notes of a reader that never opens are not said.
    private static func open(_ input: InputFile, format: LogFormat, options: LogReadOptions) throws(LogInputError) -> LogReader {
        do {
            let reader = try readerFor(input, format: format, options: options)
            reader.inputNotes = input.notes + reader.inputNotes
            reader.decodedFromUTF16 = input.magic.isUTF16
            return reader
        } catch {
            guard let note = input.notes.first, !error.message.contains(note) else { throw error }
            var explained = error
            explained.message += " (\(note))"
            throw explained
        }
    }

    private static func readerFor(_ input: InputFile, format: LogFormat, options: LogReadOptions) throws(LogInputError) -> LogReader {
        let display = input.display
        if ZipInput.isZip(path: input.path, head: input.prefix) {
            return try ZipInput.open(input, format: format, options: options)
        }
        if SkypeTar.isTar(path: input.path, head: input.prefix) {
            return try SkypeTar.open(input, format: format, options: options)
        }
        if format == .slack {
            throw LogInputError(file: display, message: "a Slack export is a folder holding users.json, channels.json and one folder per channel (or a zip of one)")
        }
        var resolved = format
        if format == .auto {
            resolved = try detect(input, budget: options.memoryBudget)
        }
        if let wanted = options.conversation, !resolved.mayHoldSeveralConversations, resolved != .jsonl {
            throw LogInputError(file: display, message: "read as \(resolved), which holds one conversation: \"\(DiagnosticText.quoted(wanted))\" cannot be chosen", kind: .conversationNotApplicable)
        }
        let producer: RecordProducer
        var warnings: [LogDiagnostic] = []
        switch resolved {
        case .jsonl:
            // Lines end at LF (a CR before it dropped); a file with CRs and no LF at all in its
            // first 64 KiB has old Mac line ends, each CR a break (a CR is never inside a JSON
            // string, only whitespace between tokens).
            let crOnly = !input.prefix.contains(0x0A) && input.prefix.contains(0x0D)
            let native = NativeLogProducer(lines: input.streamingLines(crIsLineBreak: crOnly), file: display, options: options)
            // Its records may carry `conversation`: one is chosen as an export's is.
            producer = options.conversation.map { ConversationFilter(native, wanted: $0, file: display) } ?? native
        case .whatsapp:
            // Old Mac-style files end lines with a bare CR; WhatsApp text has no other use for one.
            producer = try WhatsAppProducer(passes: input.twoPassLines(crIsLineBreak: true), file: display, options: options)
        case .line:
            producer = LineText.producer(bytes: try input.wholeInput(budget: options.memoryBudget), file: display, options: options)
        case .signal:
            producer = SignalExport.producer(bytes: try input.wholeInput(budget: options.memoryBudget), file: display, options: options)
        case .imessage where IMessageHTML.isHTML(input.prefix[...]):
            // imessage-exporter's HTML, streamed; a page of anything else is refused whole.
            guard IMessageHTML.looksLikeExport(input.prefix[...]) else { throw IMessageHTML.notAnExport(input.prefix[...], file: display) }
            producer = IMessageHTML.producer(lines: input.streamingLines(), file: display, options: options)
        case .imessage:
            producer = IMessageText.producer(bytes: try input.wholeInput(budget: options.memoryBudget), file: display, options: options)
        case .hangouts:
            (producer, warnings) = try HangoutsExport.producer(document: try input.parseDocument(allowingHexEscapes: false, budget: options.memoryBudget), file: display, options: options)
        case .googlechat:
            (producer, warnings) = try GoogleChatExport.producer(document: try input.parseDocument(allowingHexEscapes: false, budget: options.memoryBudget), file: display, options: options)
        case .skype:
            (producer, warnings) = try SkypeExport.producer(document: try input.parseDocument(allowingHexEscapes: false, budget: options.memoryBudget), file: display, options: options)
        case .matrix:
            producer = try MatrixExport.producer(document: try input.parseDocument(allowingHexEscapes: false, budget: options.memoryBudget), file: display, options: options)
        case .messenger:
            (producer, warnings) = try MessengerExport.producer(document: try input.parseDocument(allowingHexEscapes: false, budget: options.memoryBudget), file: display, options: options)
        case .telegram, .discord:
            let document = try input.parseDocument(allowingHexEscapes: resolved == .telegram, budget: options.memoryBudget)
            if resolved == .telegram {
                (producer, warnings) = try TelegramExport.producer(document: document, file: display, options: options)
            } else {
                producer = try DiscordExport.producer(document: document, file: display, options: options)
            }
        case .auto, .slack:
            preconditionFailure("resolved above")
        }
        let reader = LogReader(file: display, format: resolved, strict: options.strict, producer: producer)
        reader.warnings = warnings
        let isIMessageHTML = resolved == .imessage && producer is IMessageHTMLProducer
        if resolved == .whatsapp || isIMessageHTML, input.memoryBytes == nil, input.path != "-" {
            // An unzipped export: the media beside the chat's text file (imessage-exporter's
            // HTML names them by their paths in the export's folder).
            let slash = input.path.lastIndex(of: "/")
            reader.media = ExportMedia(folder: DirectoryExportFolder(path: slash.map { String(input.path[...$0]) } ?? "."),
                                       namesArePaths: isIMessageHTML)
        }
        return reader
    }

    /// Keys that only a chat export's top level has (Telegram's and DiscordChatExporter's), seen
    /// early in a document even when it is minified onto one line.
    private static let exportKeys: Set<String> = ["messages", "chats", "personal_information", "guild",
                                                  "participants", "thread_path", "threadName", "room_name", "exported_by",
                                                  "conversations"]

    /// Decides the format from the decoded first 64 KiB: the structure of a leading JSON value
    /// (then, for a document, its keys), else WhatsApp's dated lines.
    private static func detect(_ input: InputFile, budget: Int) throws(LogInputError) -> LogFormat {
        let head = input.prefix
        var i = 0
        while i < head.count, [0x20, 0x09, 0x0A, 0x0D].contains(head[i]) { i += 1 }
        guard i < head.count else {
            // An empty input is an empty log, whatever the format.
            return .jsonl
        }
        switch head[i] {
        case UInt8(ascii: "{"):
            // JSON Lines is a run of one-line objects; an export is one object, pretty-printed with
            // "{" alone on its first line, or minified onto one line (then often far longer than
            // the prefix). The keys of the first line's object are read by structure, so a line
            // cut off by the prefix still shows them; a damaged first record, with no export key,
            // is left to the line reader to report.
            let lineEnd = head[i...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? head.count
            let firstLine = head[i..<lineEnd]
            let isLoneBrace = firstLine.allSatisfy { $0 == UInt8(ascii: "{") || $0 == 0x20 || $0 == 0x09 }
            let keys = JSONShape(firstLine).topLevelKeys
            let isExport = !keys.isDisjoint(with: exportKeys)
            // signal-export's data.json is JSON Lines of its own.
            if !isExport, SignalExport.isJSONRecord(keys: keys) { return .signal }
            // Rows of the Messages database (chat.db's `message` table) dumped as JSON: no names,
            // times in Apple's epoch. Not ours and no exporter's: say what reads that chat.
            if !isExport, keys.contains("is_from_me"), keys.contains("guid") || keys.contains("handle_id") {
                throw LogInputError(file: input.display, line: 1, message: "rows of the Messages database (\"guid\", \"is_from_me\"), not JSON Lines of ours: they name no senders; export the chat with imessage-exporter -f txt or -f html and read that")
            }
            guard isLoneBrace || isExport else { return .jsonl }
            let document = try input.parseDocument(allowingHexEscapes: true, budget: budget)
            guard let root = document.objectValue else { preconditionFailure("starts with {") }
            if root["guild"] != nil || root["channel"] != nil { return .discord }
            // Before Telegram's: a Messenger thread has "messages" too.
            if MessengerExport.isThread(root) { return .messenger }
            if MatrixExport.isExport(root) { return .matrix }
            if SkypeExport.isExport(root) { return .skype }
            if HangoutsExport.isExport(root) { return .hangouts }
            // Before Telegram's: a Google Chat messages.json has only "messages".
            if GoogleChatExport.isMessages(root) { return .googlechat }
            if root["chats"] != nil || root["personal_information"] != nil || root["messages"] != nil { return .telegram }
            throw LogInputError(file: input.display, message: "unknown JSON schema: expected a Telegram Desktop result.json (\"messages\" or \"chats\"), a DiscordChatExporter file (\"guild\", \"channel\", \"messages\"), a Messenger or Instagram message_1.json (\"participants\", \"messages\"), an Element export (\"room_name\", \"messages\"), a Skype messages.json (\"userId\", \"conversations\"), a Google Chat messages.json (\"messages\" with \"creator\" and \"created_date\"), a Hangouts.json (\"conversations\" with \"events\") or JSON Lines (one object per line)")
        default:
            // signal-export's Markdown lines look like a WhatsApp iOS line with an ISO date: told
            // apart by the blank line signal-export writes after every message.
            if SignalExport.looksLikeMarkdown(head[i...], isWhole: input.prefixIsWhole) { return .signal }
            if LineText.looksLikeExport(head[i...]) { return .line }
            for line in head[i...].split(omittingEmptySubsequences: true, whereSeparator: { $0 == 0x0A || $0 == 0x0D }).prefix(20) {
                if WhatsAppLine.parseHeader(String(decoding: line, as: UTF8.self)) != nil { return .whatsapp }
            }
            if IMessageText.looksLikeExport(head[i...]) || IMessageHTML.looksLikeExport(head[i...]) { return .imessage }
            // Lines shaped like WhatsApp's with a date we cannot read: say so, quoting the first.
            var number = 0
            for line in head.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(20) {
                number += 1
                let text = String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
                if WhatsAppLine.looksLikeHeader(text) {
                    throw LogInputError(file: input.display, line: number, message: "a WhatsApp date format we don't know: \"\(DiagnosticText.quoted(text, limit: 40))\"; expected lines like \"31/12/23, 21:05 - Name: text\" or \"[31/12/23, 21:05:09] Name: text\"")
                }
            }
            if head[i] == UInt8(ascii: "<") { throw IMessageHTML.notAnExport(head[i...], file: input.display) }
            if head[i] == UInt8(ascii: "[") {
                throw LogInputError(file: input.display, message: "a JSON array is not a chat log we know: expected JSON Lines, a Telegram or Discord export, or a Slack export folder (not one of its day files)")
            }
            throw LogInputError(file: input.display, message: "unrecognised format: expected JSON Lines, a Telegram result.json, a DiscordChatExporter JSON, a Slack or Messenger export folder, a WhatsApp .txt whose lines start like \"31/12/23, 21:05 - Name: text\" or \"[31/12/23, 21:05:09] Name: text\", an imessage-exporter .txt or .html, a signal-export chat.md, or a LINE .txt (UTF-8 or UTF-16)")
        }
    }
}
